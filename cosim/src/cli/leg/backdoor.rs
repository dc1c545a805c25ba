//! The Verilated pair's SBUFs and descriptor RAMs through the testbench
//! backdoor ([`RtlDut::backdoor_read`] / [`RtlDut::backdoor_write`] on the
//! public SRAM arrays of `cosim/cpp/backdoor.vlt`), as the one SBUF array
//! per core the debug memory port addresses.
//!
//! `rtl/sb2sb_core.sv` instantiates its memories as `gen_mem[k].u_mem`:
//! the SBUF banks `0..NumBanks`, each holding consecutive partitions (SBUF
//! word `w` is word `w % BankWords` of bank `w / BankWords`, the debug
//! port's map), then the descriptor RAM at `k = NumBanks`. Words here are
//! 64-bit lanes: the backdoor shows a memory of `DataBits`-wide words as its
//! lanes, as the debug port addresses it. The map below is
//! checked against the pair's parameters (bank sizes, SBUF and descriptor
//! RAM words); a mismatch is a [`BackdoorError::Layout`], never a silent
//! misplacement, and `tb/cli_leg.rs` checks the whole path against the
//! debug port's preload and scan.

use sb2sb_model::pair::{CoreParams, PairIn, PairOut};

use crate::rtl::{BackdoorError, RtlDut};

/// Instance path of the pair's core `c` (0 = A, 1 = B) in the backdoor's names.
const CORES: [&str; 2] = [
    "TOP.sb2sb_pair.u_core_a.gen_mem[",
    "TOP.sb2sb_pair.u_core_b.gen_mem[",
];
/// The SRAM array inside each `gen_mem[k]` block.
const ARRAY: &str = "].u_mem.mem_q";

/// One core's memories: backdoor indices of the SBUF banks in bank order,
/// words per bank, and the descriptor RAM.
#[derive(Debug, Clone)]
struct CoreMems {
    banks: Vec<usize>,
    bank_words: u32,
    desc: usize,
}

/// The pair's memories through the backdoor.
#[derive(Debug, Clone)]
pub struct PairBackdoor {
    block: String,
    cores: [CoreMems; 2],
    sbuf_words: usize,
}

type Dut = RtlDut<PairIn, PairOut>;

impl PairBackdoor {
    /// Finds both cores' memories in `dut` (a pair of parameters `p`).
    pub fn new(dut: &Dut, block: &str, p: &CoreParams) -> Result<Self, BackdoorError> {
        let mems = dut.backdoor_mems()?;
        let layout = |name: &str, rule: String| BackdoorError::Layout {
            block: block.to_string(),
            name: name.to_string(),
            rule,
        };
        let mut cores = Vec::with_capacity(2);
        for prefix in CORES {
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
            let what = format!("{prefix}*{ARRAY}");
            if found.len() < 2 || found.iter().enumerate().any(|(j, f)| f.0 != j as u32) {
                return Err(layout(
                    &what,
                    format!(
                        "expected SBUF banks and a descriptor RAM at gen_mem[0..], found indices {:?}",
                        found.iter().map(|f| f.0).collect::<Vec<_>>()
                    ),
                ));
            }
            let (_, desc, desc_words) = found.pop().unwrap_or_default();
            let bank_words = found[0].2;
            if found.iter().any(|f| f.2 != bank_words)
                || bank_words as usize * found.len() != p.sbuf_words()
            {
                return Err(layout(
                    &what,
                    format!(
                        "{} banks of {:?} words do not make the pair's {} SBUF words",
                        found.len(),
                        found.iter().map(|f| f.2).collect::<Vec<_>>(),
                        p.sbuf_words()
                    ),
                ));
            }
            if desc_words != p.desc_bytes / 8 {
                return Err(layout(
                    &what,
                    format!(
                        "descriptor RAM of {desc_words} words, the pair's parameters say {}",
                        p.desc_bytes / 8
                    ),
                ));
            }
            cores.push(CoreMems {
                banks: found.iter().map(|f| f.1).collect(),
                bank_words,
                desc,
            });
        }
        let [a, b]: [CoreMems; 2] = cores
            .try_into()
            .map_err(|_| layout("TOP.sb2sb_pair", "two cores".into()))?;
        Ok(Self {
            block: block.to_string(),
            cores: [a, b],
            sbuf_words: p.sbuf_words(),
        })
    }

    /// Core `c`'s whole SBUF as words (partition-major, the debug port's addresses).
    pub fn read_sbuf(&self, dut: &Dut, c: usize) -> Result<Vec<u64>, BackdoorError> {
        let m = &self.cores[c];
        let mut img = vec![0u64; self.sbuf_words];
        for (chunk, &k) in img.chunks_mut(m.bank_words as usize).zip(&m.banks) {
            dut.backdoor_read(k, 0, chunk)?;
        }
        Ok(img)
    }

    /// Stores `img` (core `c`'s whole SBUF as words) into its banks.
    pub fn write_sbuf(&self, dut: &mut Dut, c: usize, img: &[u64]) -> Result<(), BackdoorError> {
        let m = &self.cores[c];
        if img.len() != self.sbuf_words {
            return Err(BackdoorError::Range {
                block: self.block.clone(),
                name: format!("core {c} SBUF"),
                first: 0,
                end: img.len() as u64,
                words: self.sbuf_words as u32,
            });
        }
        for (chunk, &k) in img.chunks(m.bank_words as usize).zip(&m.banks) {
            dut.backdoor_write(k, 0, chunk)?;
        }
        Ok(())
    }

    /// Clears the first `words` words of core `c`'s descriptor RAM.
    pub fn clear_desc(&self, dut: &mut Dut, c: usize, words: usize) -> Result<(), BackdoorError> {
        dut.backdoor_write(self.cores[c].desc, 0, &vec![0u64; words])
    }
}
