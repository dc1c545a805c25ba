//! One core's memories through the testbench backdoor
//! ([`RtlDut::backdoor_read`] / [`RtlDut::backdoor_write`] on the public
//! SRAM arrays of `cosim/cpp/backdoor.vlt`), as the one SBUF array per core
//! the debug memory port addresses: used by every top made of cores (the
//! pair, `cli::leg`; the system, [`crate::sys_target`]).
//!
//! `rtl/sb2sb_core.sv` instantiates its memories as `gen_mem[k].u_mem`:
//! the SBUF banks `0..NumBanks`, each holding consecutive partitions (SBUF
//! word `w` is word `w % BankWords` of bank `w / BankWords`, the debug
//! port's map), then the descriptor RAM at `k = NumBanks`. Words here are
//! 64-bit lanes: the backdoor shows a memory of `DataBits`-wide words as its
//! lanes, as the debug port addresses it. The map is checked against the
//! core's parameters (bank sizes, SBUF and descriptor RAM words); a mismatch
//! is a [`BackdoorError::Layout`], never a silent misplacement.

use sb2sb_model::pair::CoreParams;
use sb2sb_model::ports::PortBundle;

use crate::rtl::{BackdoorError, BackdoorMem, RtlDut};

/// The SRAM array inside each `gen_mem[k]` block.
const ARRAY: &str = "].u_mem.mem_q";

/// One core's memories: backdoor indices of the SBUF banks in bank order,
/// words per bank, and the descriptor RAM.
#[derive(Debug, Clone)]
pub struct CoreMems {
    block: String,
    name: String,
    banks: Vec<usize>,
    bank_words: u32,
    desc: usize,
    sbuf_words: usize,
}

impl CoreMems {
    /// The memories of the core whose instance path is `prefix`
    /// (`TOP.<path>.gen_mem[`) among `mems` (block `block`, core parameters `p`).
    pub fn find(
        mems: &[BackdoorMem],
        block: &str,
        prefix: &str,
        p: &CoreParams,
    ) -> Result<Self, BackdoorError> {
        let what = format!("{prefix}*{ARRAY}");
        let layout = |rule: String| BackdoorError::Layout {
            block: block.to_string(),
            name: what.clone(),
            rule,
        };
        // (k, backdoor index, words) of every gen_mem[k] of this core
        let mut found: Vec<(u32, usize, u32)> = mems
            .iter()
            .enumerate()
            .filter_map(|(i, m)| {
                let k = m.name.strip_prefix(prefix)?.strip_suffix(ARRAY)?;
                Some((k.parse().ok()?, i, m.words))
            })
            .collect();
        found.sort_unstable();
        if found.len() < 2 || found.iter().enumerate().any(|(j, f)| f.0 != j as u32) {
            return Err(layout(format!(
                "expected SBUF banks and a descriptor RAM at gen_mem[0..], found indices {:?}",
                found.iter().map(|f| f.0).collect::<Vec<_>>()
            )));
        }
        let (_, desc, desc_words) = found.pop().unwrap_or_default();
        let bank_words = found[0].2;
        if found.iter().any(|f| f.2 != bank_words)
            || bank_words as usize * found.len() != p.sbuf_words()
        {
            return Err(layout(format!(
                "{} banks of {:?} words do not make the core's {} SBUF words",
                found.len(),
                found.iter().map(|f| f.2).collect::<Vec<_>>(),
                p.sbuf_words()
            )));
        }
        if desc_words != p.desc_bytes / 8 {
            return Err(layout(format!(
                "descriptor RAM of {desc_words} words, the core's parameters say {}",
                p.desc_bytes / 8
            )));
        }
        Ok(Self {
            block: block.to_string(),
            name: prefix.to_string(),
            banks: found.iter().map(|f| f.1).collect(),
            bank_words,
            desc,
            sbuf_words: p.sbuf_words(),
        })
    }

    fn range(&self, first: usize, n: usize) -> Result<(), BackdoorError> {
        if first + n > self.sbuf_words {
            return Err(BackdoorError::Range {
                block: self.block.clone(),
                name: format!("{} SBUF", self.name),
                first: first as u64,
                end: (first + n) as u64,
                words: self.sbuf_words as u32,
            });
        }
        Ok(())
    }

    /// SBUF words `first..first + out.len()` (partition-major, the debug
    /// port's addresses), across banks.
    pub fn read_words<I: PortBundle, O: PortBundle>(
        &self,
        dut: &RtlDut<I, O>,
        first: usize,
        out: &mut [u64],
    ) -> Result<(), BackdoorError> {
        self.range(first, out.len())?;
        let bw = self.bank_words as usize;
        let mut w = first;
        let mut rest = out;
        while !rest.is_empty() {
            let n = rest.len().min(bw - w % bw);
            let (now, later) = rest.split_at_mut(n);
            dut.backdoor_read(self.banks[w / bw], (w % bw) as u32, now)?;
            rest = later;
            w += n;
        }
        Ok(())
    }

    /// Stores `data` at SBUF words `first..`, across banks.
    pub fn write_words<I: PortBundle, O: PortBundle>(
        &self,
        dut: &mut RtlDut<I, O>,
        first: usize,
        data: &[u64],
    ) -> Result<(), BackdoorError> {
        self.range(first, data.len())?;
        let bw = self.bank_words as usize;
        let mut w = first;
        let mut rest = data;
        while !rest.is_empty() {
            let n = rest.len().min(bw - w % bw);
            dut.backdoor_write(self.banks[w / bw], (w % bw) as u32, &rest[..n])?;
            rest = &rest[n..];
            w += n;
        }
        Ok(())
    }

    /// Clears the first `words` words of the descriptor RAM.
    pub fn clear_desc<I: PortBundle, O: PortBundle>(
        &self,
        dut: &mut RtlDut<I, O>,
        words: usize,
    ) -> Result<(), BackdoorError> {
        dut.backdoor_write(self.desc, 0, &vec![0u64; words])
    }

    /// SBUF words of the core.
    pub fn sbuf_words(&self) -> usize {
        self.sbuf_words
    }
}
