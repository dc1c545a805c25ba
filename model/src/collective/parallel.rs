//! Running the independent legs of one ring step on every hardware thread.
//!
//! A batch of legs passed [`crate::lower::target::check_batch`]: no leg's
//! destination shares a byte with another leg's source or destination. The
//! legs therefore commute — each destination byte is written by exactly one
//! leg, from sources no other leg writes — so running them on several
//! threads gives the bytes of the serial run, whatever the interleaving
//! (test: `parallel_collectives_are_bit_identical_to_serial` in
//! `collective/tests.rs`, every op on 1, 2 and 3 threads). Inside one leg the
//! rows still run in order on one thread, as the serial executor does (a
//! leg's own source and destination may overlap on one core). This covers
//! the independent ranks' reductions of a reducing step too: each is one leg.
//!
//! Legs are dealt to threads by a fixed rule (largest first onto the thread
//! with the fewest bytes, ties to the lower thread), so the split is
//! deterministic; an error is reported for the lowest-numbered failing leg.

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::datapath::reduce::{recv_reduce, Dtype, ReduceOp};
use crate::lower::target::{Leg, Region, TargetError};

static THREADS: AtomicUsize = AtomicUsize::new(0);

/// Threads the collective executors use: [`set_threads`] if called, else
/// the `SB2SB_THREADS` environment variable, else the machine's hardware
/// threads (`std::thread::available_parallelism`).
pub fn threads() -> usize {
    match THREADS.load(Ordering::Relaxed) {
        0 => {
            let n = std::env::var("SB2SB_THREADS")
                .ok()
                .and_then(|s| s.parse::<usize>().ok())
                .filter(|&n| n > 0)
                .unwrap_or_else(|| {
                    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
                });
            THREADS.store(n, Ordering::Relaxed);
            n
        }
        n => n,
    }
}

/// Set the thread count for the rest of the process (0 = back to the default).
pub fn set_threads(n: usize) {
    THREADS.store(n, Ordering::Relaxed);
}

/// A core image shared between the batch's threads by address.
#[derive(Clone, Copy)]
struct Image {
    ptr: *mut u8,
    len: usize,
}

// SAFETY: the threads only touch disjoint byte ranges of an image (module
// docs: a checked batch has no destination overlapping another leg's bytes).
unsafe impl Send for Image {}
// SAFETY: as above.
unsafe impl Sync for Image {}

/// Deal legs to `threads` bins, largest first onto the lightest bin.
fn deal(legs: &[Leg], threads: usize) -> Vec<Vec<usize>> {
    let sizes: Vec<u64> = legs.iter().map(|l| l.src.total()).collect();
    deal_sizes(&sizes, threads)
}

/// Deal items of the given sizes to `threads` bins: largest first onto the
/// bin with the fewest bytes (ties to the lower bin), each bin in item
/// order, empty bins dropped. Deterministic; also used by the system
/// model's fast mode for the byte moves of a pass (`system::fast`).
pub(crate) fn deal_sizes(sizes: &[u64], threads: usize) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(sizes[i]), i));
    let mut bins = vec![Vec::new(); threads.max(1)];
    let mut load = vec![0u64; threads.max(1)];
    for i in order {
        let b = (0..load.len()).min_by_key(|&b| (load[b], b)).unwrap_or(0);
        load[b] += sizes[i].max(1);
        bins[b].push(i);
    }
    for b in &mut bins {
        b.sort_unstable();
    }
    bins.retain(|b| !b.is_empty());
    bins
}

fn row(pb: u64, r: &Region, i: u32) -> (usize, usize) {
    let start = (r.partition + i) as u64 * pb + r.offset;
    (start as usize, r.bytes as usize)
}

fn apply(
    dst: &mut [u8],
    src: &[u8],
    reduce: Option<(Dtype, ReduceOp)>,
    stream: bool,
) -> Result<(), TargetError> {
    match reduce {
        None => {
            let r = if stream {
                crate::datapath::copy_streamed(dst, src)
            } else {
                crate::datapath::copy(dst, src)
            };
            // Equal lengths by construction (shape checked); cannot fail.
            if r.is_err() {
                dst.copy_from_slice(src);
            }
            Ok(())
        }
        Some((dtype, op)) => Ok(recv_reduce(dst, src, dtype, op)?),
    }
}

/// One leg on raw images. Safety: `imgs` point at live images of the sizes
/// given, the leg's rows lie inside them (checked by the caller), and no
/// other thread touches this leg's destination bytes or writes its sources.
unsafe fn leg(imgs: &[Image], pb: u64, l: &Leg, stream: bool) -> Result<(), TargetError> {
    let (s, d) = (imgs[l.src.core], imgs[l.dst.core]);
    for i in 0..l.src.partitions {
        let (so, n) = row(pb, &l.src, i);
        let (doff, _) = row(pb, &l.dst, i);
        debug_assert!(so + n <= s.len && doff + n <= d.len);
        if l.src.core == l.dst.core {
            // The leg's own rows may overlap on one core: stage the source
            // first, as the serial executor does.
            let tmp = std::slice::from_raw_parts(s.ptr.add(so), n).to_vec();
            let dst = std::slice::from_raw_parts_mut(d.ptr.add(doff), n);
            apply(dst, &tmp, l.reduce, false)?;
        } else {
            let src = std::slice::from_raw_parts(s.ptr.add(so), n);
            let dst = std::slice::from_raw_parts_mut(d.ptr.add(doff), n);
            apply(dst, src, l.reduce, stream)?;
        }
    }
    Ok(())
}

/// Run a checked batch over core images (`images[c]` allocated for every
/// core a leg names, `partition_bytes` per partition) on up to `threads`
/// threads. Copies stream (non-temporal stores) when the batch moves at
/// least [`crate::datapath::copy::STREAM_THRESHOLD`] bytes.
pub(crate) fn run_batch<B: std::ops::DerefMut<Target = [u8]>>(
    images: &mut [B],
    partition_bytes: u64,
    legs: &[Leg],
    threads: usize,
) -> Result<(), TargetError> {
    let total: u64 = legs.iter().map(|l| l.src.total()).sum();
    let stream = total >= crate::datapath::copy::STREAM_THRESHOLD as u64;
    let imgs: Vec<Image> = images
        .iter_mut()
        .map(|v| Image {
            ptr: v.as_mut_ptr(),
            len: v.len(),
        })
        .collect();
    for l in legs {
        for (r, img) in [(&l.src, &imgs[l.src.core]), (&l.dst, &imgs[l.dst.core])] {
            if r.partitions > 0 && r.bytes > 0 {
                let (o, n) = row(partition_bytes, r, r.partitions - 1);
                if o + n > img.len {
                    return Err(TargetError::System(format!(
                        "leg region on core {} ends at byte {} of a {}-byte image",
                        r.core,
                        o + n,
                        img.len
                    )));
                }
            }
        }
    }
    let bins = deal(legs, threads);
    if bins.len() <= 1 {
        for l in legs {
            // SAFETY: one thread; rows checked inside the images above.
            unsafe { leg(&imgs, partition_bytes, l, stream)? };
        }
        return Ok(());
    }
    let imgs = &imgs;
    let results: Vec<Result<(), (usize, TargetError)>> = std::thread::scope(|sc| {
        let handles: Vec<_> = bins
            .iter()
            .map(|bin| {
                sc.spawn(move || {
                    for &i in bin {
                        // SAFETY: rows checked inside the images above; the
                        // batch is hazard-free (module docs), so no other
                        // thread touches this leg's destination or writes
                        // its sources.
                        unsafe { leg(imgs, partition_bytes, &legs[i], stream) }
                            .map_err(|e| (i, e))?;
                    }
                    Ok(())
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| {
                    Err((
                        usize::MAX,
                        TargetError::System("a leg thread panicked".into()),
                    ))
                })
            })
            .collect()
    });
    match results
        .into_iter()
        .filter_map(Result::err)
        .min_by_key(|(i, _)| *i)
    {
        Some((_, e)) => Err(e),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leg_of(bytes: u64, core: usize) -> Leg {
        let r = Region {
            core,
            partition: 0,
            partitions: 1,
            offset: 0,
            bytes,
        };
        Leg {
            src: r,
            dst: Region {
                core: core + 1,
                ..r
            },
            reduce: None,
        }
    }

    #[test]
    fn deal_balances_bytes_deterministically_and_keeps_every_leg_once() {
        let legs: Vec<Leg> = [8u64, 1, 1, 1, 1, 4, 4]
            .iter()
            .enumerate()
            .map(|(i, &b)| leg_of(b, i))
            .collect();
        let bins = deal(&legs, 2);
        assert_eq!(bins, vec![vec![0, 1, 3], vec![2, 4, 5, 6]]);
        let bins = deal(&legs, 3);
        let mut all: Vec<usize> = bins.concat();
        all.sort_unstable();
        assert_eq!(all, (0..7).collect::<Vec<_>>());
        let loads: Vec<u64> = bins
            .iter()
            .map(|b| b.iter().map(|&i| legs[i].src.total()).sum())
            .collect();
        assert_eq!(loads, vec![8, 6, 6]);
        assert_eq!(deal(&legs, 1).len(), 1);
        assert!(deal(&[], 4).is_empty());
    }

    /// The worker count the collectives use is at least one on any host.
    #[test]
    fn threads_default_is_positive() {
        assert!(threads() >= 1);
    }
}
