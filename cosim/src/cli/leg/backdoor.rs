//! The Verilated pair's SBUFs and descriptor RAMs through the testbench
//! backdoor, one [`CoreMems`] per core (`crate::core_mems`: the memory map
//! of a core and its checks); `tb/cli_leg.rs` checks the whole path against
//! the debug port's preload and scan.

use sb2sb_model::pair::{CoreParams, PairIn, PairOut};

use crate::core_mems::CoreMems;
use crate::rtl::{BackdoorError, RtlDut};

/// Instance path of the pair's core `c` (0 = A, 1 = B) in the backdoor's names.
const CORES: [&str; 2] = [
    "TOP.sb2sb_pair.u_core_a.gen_mem[",
    "TOP.sb2sb_pair.u_core_b.gen_mem[",
];

/// The pair's memories through the backdoor.
#[derive(Debug, Clone)]
pub struct PairBackdoor {
    cores: [CoreMems; 2],
}

type Dut = RtlDut<PairIn, PairOut>;

impl PairBackdoor {
    /// Finds both cores' memories in `dut` (a pair of parameters `p`).
    pub fn new(dut: &Dut, block: &str, p: &CoreParams) -> Result<Self, BackdoorError> {
        let mems = dut.backdoor_mems()?;
        Ok(Self {
            cores: [
                CoreMems::find(&mems, block, CORES[0], p)?,
                CoreMems::find(&mems, block, CORES[1], p)?,
            ],
        })
    }

    /// Core `c`'s whole SBUF as words (partition-major, the debug port's addresses).
    pub fn read_sbuf(&self, dut: &Dut, c: usize) -> Result<Vec<u64>, BackdoorError> {
        let m = &self.cores[c];
        let mut img = vec![0u64; m.sbuf_words()];
        m.read_words(dut, 0, &mut img)?;
        Ok(img)
    }

    /// Stores `img` (core `c`'s whole SBUF as words) into its banks.
    pub fn write_sbuf(&self, dut: &mut Dut, c: usize, img: &[u64]) -> Result<(), BackdoorError> {
        self.cores[c].write_words(dut, 0, img)
    }

    /// Clears the first `words` words of core `c`'s descriptor RAM.
    pub fn clear_desc(&self, dut: &mut Dut, c: usize, words: usize) -> Result<(), BackdoorError> {
        self.cores[c].clear_desc(dut, words)
    }
}
