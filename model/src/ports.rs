//! The lockstep contract shared by every golden block and its RTL.
//!
//! A block is a Mealy machine clocked once per [`CycleModel::step`]: the
//! harness drives the inputs, lets combinational logic settle, samples the
//! outputs, then applies one rising clock edge. Golden model and RTL wrapper
//! both implement [`CycleModel`] over the *same* input/output bundle types, so
//! the lockstep runner can compare them signal by signal.
//!
//! Port bundles are declared with [`port_bundle!`](crate::port_bundle!); the
//! macro records the signal names and widths (which must equal the
//! SystemVerilog port names and widths — `build.rs` generates the C++ shim from
//! this very list) and packs a bundle into 64-bit words (a signal wider than 64
//! bits takes several words, least-significant word first).

use core::fmt::Debug;

/// One port of a block: its SystemVerilog name and width in bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Signal {
    pub name: &'static str,
    pub width: u32,
}

impl Signal {
    /// Number of 64-bit words the signal occupies when packed.
    pub const fn words(&self) -> usize {
        self.width.div_ceil(64) as usize
    }

    /// Mask of the valid bits of word `k` of this signal.
    pub const fn word_mask(&self, k: usize) -> u64 {
        let lo = k as u32 * 64;
        let rem = self.width - lo;
        if rem >= 64 {
            u64::MAX
        } else {
            (1u64 << rem) - 1
        }
    }
}

/// Total packed words of a signal list.
pub const fn total_words(signals: &[Signal]) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < signals.len() {
        n += signals[i].words();
        i += 1;
    }
    n
}

/// A value that can sit in a port field: `u64` (≤ 64 bits) or `[u64; N]`.
pub trait PortValue: Copy + Default + Debug + PartialEq {
    const WORDS: usize;
    fn put(&self, sig: &Signal, w: &mut [u64]);
    fn get(w: &[u64]) -> Self;
}

impl PortValue for u64 {
    const WORDS: usize = 1;
    #[inline(always)]
    fn put(&self, sig: &Signal, w: &mut [u64]) {
        w[0] = *self & sig.word_mask(0);
    }
    #[inline(always)]
    fn get(w: &[u64]) -> Self {
        w[0]
    }
}

impl<const N: usize> PortValue for [u64; N]
where
    [u64; N]: Default,
{
    const WORDS: usize = N;
    #[inline(always)]
    fn put(&self, sig: &Signal, w: &mut [u64]) {
        for k in 0..N {
            w[k] = self[k] & sig.word_mask(k);
        }
    }
    #[inline(always)]
    fn get(w: &[u64]) -> Self {
        let mut a = [0u64; N];
        a.copy_from_slice(&w[..N]);
        a
    }
}

/// A bundle of ports (all inputs or all outputs of a block).
pub trait PortBundle: Clone + Default + Debug + PartialEq + Send {
    /// Signals in declaration order (equal to the SV port names/widths).
    const SIGNALS: &'static [Signal];
    /// Total packed 64-bit words.
    const WORDS: usize;
    /// Pack into `w` (length ≥ `WORDS`), masking each signal to its width.
    fn pack(&self, w: &mut [u64]);
    /// Unpack from `w`.
    fn unpack(w: &[u64]) -> Self;
}

/// A clocked block: golden model or RTL wrapper.
pub trait CycleModel {
    type In: PortBundle;
    type Out: PortBundle;
    /// Drive `i`, settle, sample the outputs, then apply one rising clock edge.
    fn step(&mut self, i: &Self::In) -> Self::Out;
    /// [`Self::step`] with the outputs written to `o`, a slot the caller
    /// keeps from cycle to cycle: a model that forms its outputs before the
    /// edge writes them there at once instead of holding them across the
    /// edge and copying them out (the golden UDMA does; the others use this
    /// default).
    #[inline(always)]
    fn step_to(&mut self, i: &Self::In, o: &mut Self::Out) {
        *o = self.step(i);
    }
}

/// A seeded, reactive testbench environment for one block: it produces each
/// cycle's inputs from the outputs sampled in the previous cycle (so it can
/// follow AXI handshakes and serve memory), counts coverage, and can compare
/// its end state with a twin.
///
/// The lockstep runner clones the environment after construction and drives
/// one copy from the golden outputs and the other from the RTL outputs. While
/// outputs agree the two copies produce identical inputs (the runner checks);
/// at the end [`Stimulus::compare_final`] compares what the copies accumulated
/// (for example memory images written through AXI).
pub trait Stimulus: Clone + Send {
    type In: PortBundle;
    type Out: PortBundle;
    /// Drive the RTL from its own environment twin and compare the twins at
    /// the end ([`Stimulus::compare_final`]). Needed when the environment
    /// accumulates state from outputs (memory written through AXI). When
    /// `false`, one environment is driven from the golden outputs (which the
    /// runner has just checked equal to the RTL outputs), halving stimulus cost.
    const TWIN: bool = true;
    /// Environment for `seed`; `cycles` is the planned run length (directed
    /// sequences first, then constrained-random traffic).
    fn new(seed: u64, cycles: u64) -> Self;
    /// Inputs for cycle `cycle`; `prev_out` are the outputs sampled in cycle
    /// `cycle - 1` (`None` at cycle 0).
    fn next(&mut self, cycle: u64, prev_out: Option<&Self::Out>) -> Self::In;
    /// Coverage counters gathered so far: (name, count). Names are stable
    /// (they appear in `--json` output and in tests).
    fn coverage(&self) -> Vec<(String, u64)>;
    /// Compare end state with the twin driven by the other side.
    fn compare_final(&self, _other: &Self) -> Result<(), String> {
        Ok(())
    }
}

/// Declare a port bundle.
///
/// ```
/// sb2sb_model::port_bundle! {
///     /// Inputs of a toy block.
///     pub struct ToyIn {
///         rst_ni: u64 = 1,
///         addr_i: u64 = 64,
///         wide_i: [u64; 2] = 100,
///     }
/// }
/// use sb2sb_model::ports::PortBundle;
/// assert_eq!(ToyIn::WORDS, 4);
/// assert_eq!(ToyIn::SIGNALS[2].width, 100);
/// ```
#[macro_export]
macro_rules! port_bundle {
    (
        $(#[$m:meta])*
        pub struct $name:ident {
            $( $(#[$fm:meta])* $field:ident : $ty:ty = $w:expr ),* $(,)?
        }
    ) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
        pub struct $name {
            $( $(#[$fm])* pub $field: $ty, )*
        }

        impl $crate::ports::PortBundle for $name {
            const SIGNALS: &'static [$crate::ports::Signal] = &[
                $( $crate::ports::Signal { name: stringify!($field), width: $w }, )*
            ];
            const WORDS: usize = $crate::ports::total_words(Self::SIGNALS);

            #[inline]
            #[allow(unused_assignments)]
            fn pack(&self, w: &mut [u64]) {
                // One length check up front: the per-field slices below then
                // need no bounds checks of their own (offsets are constants).
                let w = &mut w[..Self::WORDS];
                let mut off = 0usize;
                let mut k = 0usize;
                $(
                    let sig = &Self::SIGNALS[k];
                    debug_assert_eq!(<$ty as $crate::ports::PortValue>::WORDS, sig.words(),
                        "port {} width {} does not fit its field type", sig.name, sig.width);
                    $crate::ports::PortValue::put(&self.$field, sig, &mut w[off..]);
                    off += sig.words();
                    k += 1;
                )*
            }

            #[inline]
            #[allow(unused_assignments)]
            fn unpack(w: &[u64]) -> Self {
                let w = &w[..Self::WORDS];
                let mut off = 0usize;
                let mut k = 0usize;
                $(
                    let $field = <$ty as $crate::ports::PortValue>::get(&w[off..]);
                    off += Self::SIGNALS[k].words();
                    k += 1;
                )*
                Self { $( $field, )* }
            }
        }
    };
}

/// Description of one lockstep block, used by `build.rs` (to verilate the RTL
/// and generate the C++ shim) and by the cosim harness.
#[derive(Debug, Clone, Copy)]
pub struct BlockDesc {
    /// CLI name (`sb2sb cosim --block NAME`).
    pub name: &'static str,
    /// SystemVerilog top module.
    pub top: &'static str,
    /// RTL files under `rtl/`, in compile order (packages first).
    pub rtl_files: &'static [&'static str],
    /// Verilator parameter overrides (`-G<name>=<value>`) of the top module, so
    /// one RTL top can be registered as several blocks (e.g. data widths).
    pub params: &'static [(&'static str, i64)],
    pub inputs: &'static [Signal],
    pub outputs: &'static [Signal],
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::port_bundle! {
        pub struct T {
            a: u64 = 1,
            b: u64 = 64,
            c: [u64; 2] = 70,
            d: u64 = 12,
        }
    }

    #[test]
    fn pack_masks_each_signal_to_its_width_and_round_trips() {
        let t = T {
            a: 3,
            b: u64::MAX,
            c: [u64::MAX, u64::MAX],
            d: 0xFFFF,
        };
        let mut w = [0u64; 5];
        t.pack(&mut w);
        assert_eq!(w, [1, u64::MAX, u64::MAX, 0x3F, 0xFFF]);
        let u = T::unpack(&w);
        assert_eq!(
            u,
            T {
                a: 1,
                b: u64::MAX,
                c: [u64::MAX, 0x3F],
                d: 0xFFF
            }
        );
        assert_eq!(T::WORDS, 5);
    }
}
