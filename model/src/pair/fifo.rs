//! Golden model of `rtl/axis_loop_fifo.sv`: the two-entry CME-COPY stream
//! loop between an engine's M2S output and its own S2M input.

use crate::udma::beat::Beat;

/// One stream beat.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AxisBeat {
    pub data: Beat,
    pub keep: u64,
    pub last: bool,
    pub id: u64,
    pub user: bool,
}

/// The FIFO registers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LoopFifo {
    pub buf: [AxisBeat; 2],
    pub cnt: u8,
    /// Read slot (0 or 1; indexing takes bit 0).
    pub rd: u8,
}

impl LoopFifo {
    /// `s_axis_tready` (registered state only).
    #[inline(always)]
    pub fn tready(&self, rst: bool) -> bool {
        rst || self.cnt != 2
    }
    /// `m_axis_tvalid` and the head beat.
    #[inline(always)]
    pub fn head(&self, rst: bool) -> (bool, AxisBeat) {
        if rst {
            (false, AxisBeat::default())
        } else {
            (self.cnt != 0, self.buf[self.rd as usize])
        }
    }
    /// [`Self::head`] without copying the beat (the glue reads its fields
    /// straight into the engine's inputs).
    #[inline(always)]
    pub fn head_ref(&self, rst: bool) -> (bool, &AxisBeat) {
        const IDLE: AxisBeat = AxisBeat {
            data: [0; crate::udma::beat::WORDS],
            keep: 0,
            last: false,
            id: 0,
            user: false,
        };
        if rst {
            (false, &IDLE)
        } else {
            (self.cnt != 0, &self.buf[usize::from(self.rd & 1)])
        }
    }
    /// [`Self::update`] with the pushed beat built by `beat` (only when a
    /// push happens: the beat is not read otherwise).
    #[inline(always)]
    pub fn update_with(
        &mut self,
        rst: bool,
        tvalid: bool,
        tready: bool,
        beat: impl FnOnce() -> AxisBeat,
    ) {
        if rst {
            *self = Self::default();
            return;
        }
        let push = tvalid && self.cnt != 2;
        let pop = self.cnt != 0 && tready;
        if push {
            self.buf[usize::from((self.rd ^ self.cnt) & 1)] = beat();
        }
        if pop {
            self.rd ^= 1;
        }
        self.cnt = self.cnt + push as u8 - pop as u8;
    }

    /// Clock edge: `push` = s_axis_tvalid (a push happens when there is room),
    /// `pop` = m_axis_tready.
    #[inline(always)]
    pub fn update(&mut self, rst: bool, tvalid: bool, beat: &AxisBeat, tready: bool) {
        self.update_with(rst, tvalid, tready, || *beat);
    }
}
