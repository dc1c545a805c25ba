//! [`SystemTarget`] with a system top clocked beside its cycle mode
//! ([`crate::system::mirror`]): what `sb2sb nccom --mode rtl` and `run
//! program --mode rtl` run on.
//!
//! The target is the fixed system top's cycle mode ([`SystemTarget::with_params`]):
//! the same rounds, the same firmware programs on the same Q7 executor, the
//! same modeled time. The mirror's Q7 ports are driven by that executor and
//! checked every cycle; between runs:
//!
//! - a host write of SBUF bytes goes to both, a host read returns the
//!   mirror's bytes after checking they equal the golden cores';
//! - a reducing piece's receive slot is compared on both before the host
//!   folds it into its destination and writes the result to both;
//! - after every batch all 256 semaphores of every core are compared;
//! - a host semaphore update is a SEM_INCR / SEM_DECR write by the core's
//!   Q7 on the mirror's port.

use super::system_target::{Piece, SystemTarget};
use super::target::TargetError;
use crate::datapath::reduce::recv_reduce;
use crate::isa::Arch;
use crate::pair::system::SysParams;
use crate::system::firmware::Q7Step;
use crate::system::mirror::Mirror;
use crate::system::{map, CoreId, Mode, SystemError};

fn sys_err(e: SystemError) -> TargetError {
    TargetError::System(e.to_string())
}

/// An error of the mirrored machine or a difference from the golden cores.
pub(super) fn mirror_err(e: String) -> TargetError {
    TargetError::System(format!("mirrored system top: {e}"))
}

impl SystemTarget {
    /// The fixed system top of parameters `p` in cycle mode with machine
    /// `m` (reset, idle, SBUFs cleared) clocked beside it from its boot on.
    pub fn mirrored(arch: Arch, p: SysParams, m: Box<dyn Mirror>) -> Result<Self, TargetError> {
        Self::fixed_on(arch, p, Mode::Cycle, Some(m))
    }

    /// Add `delta` to semaphore `idx` of core `c`: a SEM_INCR or SEM_DECR
    /// write by the core's Q7 on its port, run at once (beside the mirror).
    pub(super) fn host_sem_add(
        &mut self,
        c: usize,
        idx: u8,
        delta: i32,
    ) -> Result<(), TargetError> {
        if delta == 0 {
            return Ok(());
        }
        let k = CoreId(c as u16);
        let off = if delta > 0 {
            map::sem_incr_offset(idx)
        } else {
            map::sem_decr_offset(idx)
        };
        let topo = self.sys.st.topology();
        let loc = topo.loc(k).map_err(sys_err)?;
        let soc = topo
            .fold(k, k, map::core_local(loc.core, off))
            .map_err(sys_err)?;
        let step = Q7Step::Csr {
            soc,
            data: delta.unsigned_abs(),
        };
        self.sys
            .queue_host(k, vec![step], "sem_update")
            .map_err(sys_err)?;
        self.run_programs()?;
        self.check_mirror_sems()
    }

    /// Whether a machine is clocked beside cycle mode.
    pub fn is_mirrored(&self) -> bool {
        self.mirror.is_some()
    }

    /// Store `data` at `off` of partition `part` of core `c`, on the
    /// golden cores and the mirror.
    pub(super) fn write_row(
        &mut self,
        c: usize,
        part: u32,
        off: u64,
        data: &[u8],
    ) -> Result<(), TargetError> {
        self.sys
            .write_sbuf(CoreId(c as u16), part as u8, off, data)
            .map_err(|e| TargetError::System(e.to_string()))?;
        if let Some(m) = self.mirror.as_mut() {
            m.write_sbuf(c, part, off, data).map_err(mirror_err)?;
        }
        Ok(())
    }

    /// Bytes `off..off + len` of partition `part` of core `c`: the golden
    /// cores', or the mirror's after checking they are equal.
    pub(super) fn read_row(
        &self,
        c: usize,
        part: u32,
        off: u64,
        len: u64,
    ) -> Result<Vec<u8>, TargetError> {
        let g = self
            .sys
            .st
            .read_sbuf(CoreId(c as u16), part as u8, off, len as usize)
            .map_err(|e| TargetError::System(e.to_string()))?;
        let Some(m) = self.mirror.as_ref() else {
            return Ok(g);
        };
        let r = m.read_sbuf(c, part, off, len).map_err(mirror_err)?;
        match g.iter().zip(&r).position(|(a, b)| a != b) {
            None if g.len() == r.len() => Ok(r),
            k => {
                let k = k.unwrap_or(g.len().min(r.len()));
                Err(mirror_err(format!(
                    "core {c} partition {part} byte {}: mirror {:#04x?}, golden cores {:#04x?}",
                    off + k as u64,
                    r.get(k),
                    g.get(k)
                )))
            }
        }
    }

    /// Fold a reducing piece's receive slot at `land` into its destination
    /// (the host's receive-reduce, as the Verilated top has no reduce engine).
    pub(super) fn fold_slot(&mut self, pc: &Piece, land: u64) -> Result<(), TargetError> {
        let Some((dtype, op)) = pc.reduce else {
            return Ok(());
        };
        for p in pc.part..pc.part + pc.parts {
            let src = self.read_row(pc.rx, p, land, pc.bytes)?;
            let mut dst = self.read_row(pc.rx, p, pc.dst_off, pc.bytes)?;
            recv_reduce(&mut dst, &src, dtype, op)?;
            self.write_row(pc.rx, p, pc.dst_off, &dst)?;
        }
        Ok(())
    }

    /// Every semaphore of every core on the mirror equals the golden cores'.
    pub(super) fn check_mirror_sems(&mut self) -> Result<(), TargetError> {
        let Some(m) = self.mirror.as_mut() else {
            return Ok(());
        };
        let sems = m.sems().map_err(mirror_err)?;
        for (c, ms) in sems.iter().enumerate() {
            for (s, &v) in ms.iter().enumerate() {
                let g = self
                    .sys
                    .st
                    .sem(CoreId(c as u16), s as u8)
                    .map_err(|e| TargetError::System(e.to_string()))?;
                if g != v {
                    return Err(mirror_err(format!(
                        "core {c} semaphore {s}: mirror {v}, golden cores {g}"
                    )));
                }
            }
        }
        Ok(())
    }
}
