//! Fast executor: Q7 programs and whole descriptor pairs, bytes moved with the
//! SIMD datapath; modeled time from the data-path rows of `system::timing`.
//! Its state and code are [`FastExec`] (each method takes the shared
//! [`SystemState`]); the descriptor-pair operations it builds on —
//! descriptor fetch with the ring-id check, address resolution, the byte
//! mover, a pair's completion — need no executor state and are
//! `impl SystemState` here.
//!
//! Byte moves on every core: an SBUF→SBUF move of a pass is not copied at
//! once but deferred into a batch ([`Movers`]) as long as it shares no byte
//! with the batch (its destination overlaps no batched source or
//! destination, its source no batched destination); anything else that
//! touches SBUF — a conflicting move, a move inside one partition, a move
//! between SBUF and descriptor RAM or a semaphore — first flushes the batch,
//! so every SBUF byte is read and written in an order equivalent to the
//! serial one. (Semaphore and descriptor writes from descriptor RAM touch no
//! SBUF byte and let the batch stand; Q7 programs touch none either.) A flush runs the batch on
//! [`super::System::threads`] threads (the calling thread and `threads − 1` helpers
//! claim runs of consecutive moves from a shared counter until none is left;
//! one store fence per thread after its streamed copies); the moves commute, so the bytes are
//! those of the serial run (test: `fast_mode_threads_are_bit_identical_to_serial`).
//! Modeled time never depends on the bytes, so it is unchanged. A run
//! flushes before it returns unless the moves are held across several runs
//! (the lowering's batch of legs, `lower::system_target`).
//!
//! In flight: in a held sequence on several threads, a run that leaves at
//! least [`PARALLEL_MIN_BYTES`] deferred launches them as the batch in
//! flight — handed to `threads − 1` persistent helper threads that claim
//! runs of moves from a shared counter — and returns, so the next legs'
//! control (descriptor generation, Q7 programs, timing) overlaps the bytes.
//! The next launch, [`super::System::flush_moves`] (a conflict, a move touching
//! SBUF outside the batch, the sequence's end), `hold_moves(false)`,
//! `write_sbuf`, a cycle-mode run and dropping the system first join it:
//! the joining thread claims what the helpers have not started and waits
//! until every move is done. Batches therefore run whole and in issue order,
//! each one hazard-free, so the bytes are the serial run's; the control
//! between launch and join touches no SBUF byte (descriptor RAM,
//! semaphores and queue registers only). A move's error is kept and
//! reported by the next flush, the first in issue order, as serially.

use rustc_hash::FxHashMap as HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};

use crate::datapath;
use crate::evt_sem::regs::{EVT_SEM_SEM_DECR_BASE, EVT_SEM_SEM_INCR_BASE};
use crate::udma::desc::{M2sDesc, S2mDesc};

use super::firmware::Q7Step;
use super::link::{self, Ps};
use super::map::{self, Target};
use super::mem::Sbuf;
use super::timing;
use super::topology::DMA_ENGINES;
use super::{CoreId, LegOp, Q7Op, SystemError, SystemState, TraceEvent};
use crate::trace::{Q7Role, Recorder, Track};
use serde_json::json;

/// The fast executor: its own state (its timing and its deferred byte
/// moves) and its code, `impl FastExec` taking the system's shared state
/// ([`SystemState`]: topology, cores, queued programs, the modeled clock).
#[derive(Default)]
pub struct FastExec {
    /// Timing state of the current and past runs.
    pub timing: Timing,
    /// Deferred byte moves and their thread count.
    pub movers: Movers,
}

/// Fast-mode timing state.
#[derive(Debug, Clone, Default)]
pub struct Timing {
    /// When each semaphore last received an increment: (core, sem).
    pub sem_ready: HashMap<(u16, u8), Ps>,
    /// When each queue's doorbell landed: (core, engine, queue, side).
    pub queue_ready: HashMap<(u16, u8, u8, u8), Ps>,
    /// When each engine is free: (core, engine).
    pub engine_free: HashMap<(u16, u8), Ps>,
    /// Engines sharing a link in the current leg of (core, queue).
    pub share: HashMap<(u16, u8), u32>,
    /// Latest write landing time seen in this run.
    pub horizon: Ps,
    /// Q7 clock of each core in the current run (starts at `now`).
    pub q7: HashMap<u16, Ps>,
}

impl Timing {
    /// The Q7 clock of `core` in the current run (`now` when it has not
    /// run yet: the system's modeled time at the start of the run).
    pub fn q7(&mut self, now: Ps, core: CoreId) -> &mut Ps {
        self.q7.entry(core.0).or_insert(now)
    }
}

/// A batch smaller than this runs on the calling thread (waking the helper
/// threads costs more than the copy); in a held sequence it stays deferred
/// instead of being launched.
pub const PARALLEL_MIN_BYTES: u64 = 2 << 20;

/// One deferred SBUF→SBUF move: (core, partition, offset) of each side.
#[derive(Clone)]
struct Move {
    src: (u16, u8, usize),
    dst: (u16, u8, usize),
    len: usize,
    op: LegOp,
    stream: bool,
}

/// A batched byte range of one partition: (start, end, is a destination).
type Span = (usize, usize, bool);

/// The deferred byte moves of the fast executor (module docs).
#[derive(Default)]
pub struct Movers {
    /// Host threads for a flush (0 = `collective::parallel::threads()`).
    pub threads: usize,
    /// Smallest batch run on several threads (`None` = [`PARALLEL_MIN_BYTES`];
    /// tests lower it to exercise the threads on small batches).
    pub(crate) min_parallel: Option<u64>,
    /// Keep the batch across runs until [`super::System::flush_moves`].
    pub(crate) hold: bool,
    batch: Vec<Move>,
    /// Byte ranges of the batch per (core, partition).
    ranges: HashMap<(u16, u8), Vec<Span>>,
    /// An earlier batch of a held sequence, running on a helper thread while
    /// the executor goes on with the control of the next moves (module docs).
    inflight: Option<Inflight>,
    /// The first error of a joined in-flight batch, reported by the next
    /// [`super::System::flush_moves`].
    failed: Option<SystemError>,
    /// The helper threads (started on the first batch on several threads).
    helpers: Option<Helpers>,
}

/// A launched batch: its moves, their partition addresses, the claim
/// counter, the count of moves finished and the first error, shared by the
/// helper threads and the thread that joins it.
struct Shared {
    batch: Vec<Move>,
    addr: HashMap<(u16, u8), Addr>,
    next: AtomicUsize,
    done: AtomicUsize,
    err: Mutex<Option<(usize, SystemError)>>,
}

impl Shared {
    /// Claim runs of [`CLAIM`] moves until none is left, run them, then one
    /// store fence; count the finished moves (after the fence, so a joiner
    /// that sees them all done sees their bytes).
    /// Safety: as [`exec`], for every move of the batch.
    unsafe fn work(&self) {
        let n = self.batch.len();
        loop {
            let i = self.next.fetch_add(CLAIM, Ordering::Relaxed);
            if i >= n {
                break;
            }
            let end = (i + CLAIM).min(n);
            // A panicking move (a reduce hook) is that move's error: the
            // claim still counts as done, so no joiner waits for it.
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                exec_bin(&self.batch, i..end, &self.addr)
            }))
            .unwrap_or_else(|_| Err((i, SystemError::Reduce("a move panicked".into()))));
            if let Err((k, e)) = r {
                let mut g = self.err.lock().unwrap_or_else(|p| p.into_inner());
                if g.as_ref().is_none_or(|(j, _)| k < *j) {
                    *g = Some((k, e));
                }
            }
            datapath::store_fence();
            self.done.fetch_add(end - i, Ordering::Release);
        }
    }
}

/// The helper threads of the in-flight batches: parked on a channel, each
/// works on every batch it is sent; they end when the `Helpers` is dropped.
struct Helpers {
    tx: Vec<mpsc::Sender<Arc<Shared>>>,
}

impl Helpers {
    fn new(n: usize) -> Self {
        let tx = (0..n)
            .map(|_| {
                let (tx, rx) = mpsc::channel::<Arc<Shared>>();
                std::thread::spawn(move || {
                    for job in rx {
                        // SAFETY: the launcher keeps the batch's partitions in
                        // place and untouched until every move is done
                        // (`Inflight::join`), whoever ran it.
                        unsafe { job.work() }
                    }
                });
                tx
            })
            .collect();
        Self { tx }
    }
}

/// A batch handed to the helpers ([`FastExec::launch_moves`]).
struct Inflight {
    shared: Arc<Shared>,
}

impl Inflight {
    /// Claim what the helpers have not started, then wait until every move
    /// is done; the first failing move's error.
    fn join(self) -> Result<(), SystemError> {
        let sh = &*self.shared;
        // SAFETY: as when launched: the batch is hazard-free and its
        // partitions stay in place (nothing touches SBUF bytes while a
        // batch is in flight, `System::sync_moves`).
        unsafe { sh.work() };
        while sh.done.load(Ordering::Acquire) < sh.batch.len() {
            std::thread::yield_now();
        }
        let e = sh.err.lock().unwrap_or_else(|p| p.into_inner()).take();
        e.map_or(Ok(()), |(_, e)| Err(e))
    }
}

impl Movers {
    /// Whether `m` shares a byte with the batch (its destination with any
    /// batched range, its source with a batched destination).
    fn conflicts(&self, m: &Move) -> bool {
        let hit = |(c, p, o): (u16, u8, usize), with_src: bool| {
            self.ranges.get(&(c, p)).is_some_and(|v| {
                v.iter()
                    .any(|&(a, b, d)| (d || with_src) && a < o + m.len && o < b)
            })
        };
        hit(m.dst, true) || hit(m.src, false)
    }

    fn push(&mut self, m: Move) {
        for ((c, p, o), d) in [(m.src, false), (m.dst, true)] {
            self.ranges
                .entry((c, p))
                .or_default()
                .push((o, o + m.len, d));
        }
        self.batch.push(m);
    }

    fn take(&mut self) -> Vec<Move> {
        self.ranges.clear();
        std::mem::take(&mut self.batch)
    }
}

/// The partition addresses of a batch, by (core, partition).
type AddrMap = HashMap<(u16, u8), Addr>;

/// A partition's address, shared by the threads of one flush.
#[derive(Clone, Copy)]
struct Addr(*mut u8);
// SAFETY: the threads of a flush touch disjoint byte ranges (module docs).
unsafe impl Send for Addr {}
// SAFETY: as above.
unsafe impl Sync for Addr {}

/// Run one deferred move. Safety: `addr` holds live partitions covering the
/// move's ranges (checked when it was deferred; a move joined by
/// [`coalesce_copies`] runs on from its first partition into the next ones
/// of the same core's SBUF mapping), and no other thread touches its
/// destination bytes or writes its source bytes.
unsafe fn exec(m: &Move, addr: &HashMap<(u16, u8), Addr>) -> Result<(), SystemError> {
    let d = addr
        .get(&(m.dst.0, m.dst.1))
        .ok_or(SystemError::Unmapped { offset: 0 })?;
    let dst = std::slice::from_raw_parts_mut(d.0.add(m.dst.2), m.len);
    let zeros;
    let (src, stream): (&[u8], bool) = match addr.get(&(m.src.0, m.src.1)) {
        Some(a) => (
            std::slice::from_raw_parts(a.0.add(m.src.2), m.len),
            m.stream,
        ),
        None => {
            // An untouched source partition reads as zeros.
            zeros = vec![0u8; m.len];
            (&zeros, false)
        }
    };
    let err = |e: datapath::DatapathError| SystemError::Reduce(e.to_string());
    match &m.op {
        LegOp::Copy if stream => datapath::copy_streamed_unfenced(dst, src).map_err(err),
        LegOp::Copy => datapath::copy(dst, src).map_err(err),
        LegOp::Reduce(f) => f(dst, src).map_err(SystemError::Reduce),
    }
}

/// The moves of `bin`, in order (no store fence: the caller fences), up to
/// the first failing one.
/// Safety: as [`exec`], for every move of the bin.
unsafe fn exec_bin(
    batch: &[Move],
    bin: std::ops::Range<usize>,
    addr: &HashMap<(u16, u8), Addr>,
) -> Result<(), (usize, SystemError)> {
    bin.into_iter()
        .try_for_each(|i| exec(&batch[i], addr).map_err(|e| (i, e)))
}

/// Largest copy [`coalesce_copies`] makes of adjacent moves: small enough
/// that a 28 MiB leg still gives the threads ≥ 100 moves to share
/// ([`CLAIM`] at a time), large enough that the per-move work (two address
/// lookups, a kernel call) is negligible against its bytes.
const COALESCE_MAX: usize = 256 << 10;

/// Put a batch of plain copies in destination order and join the ones that
/// continue each other (source and destination both adjacent in memory, the
/// same cores and the same store kind) into copies of up to
/// [`COALESCE_MAX`] bytes.
///
/// A pass defers one descriptor of each engine in turn, so a 16-engine leg's
/// batch writes 16 interleaved streams; in destination order it is one
/// sequential stream per thread, as a flat copy is (issue 15 item 2:
/// docs/performance.md § 2). The moves of a batch share no byte with each
/// other's destinations, so any order moves the same bytes. The batch is
/// left as issued unless every move is a copy from a present source into a
/// present destination: those cannot fail, so no error's issue order is at
/// stake (a reduce hook can fail, and the first failing move in issue order
/// is the one reported).
fn coalesce_copies(batch: &mut Vec<Move>, addr: &AddrMap) {
    if batch.len() < 2 {
        return;
    }
    let ptr = |(c, p, o): (u16, u8, usize)| addr.get(&(c, p)).map(|a| a.0 as usize + o);
    let mut keyed = Vec::with_capacity(batch.len());
    for m in batch.iter() {
        let (LegOp::Copy, Some(d), Some(s)) = (&m.op, ptr(m.dst), ptr(m.src)) else {
            return;
        };
        keyed.push((m.dst.0, d, s));
    }
    let mut order: Vec<usize> = (0..batch.len()).collect();
    order.sort_unstable_by_key(|&i| (keyed[i].0, keyed[i].1));
    // Each joined copy with the addresses just past its destination and
    // source bytes.
    let mut out: Vec<(Move, usize, usize)> = Vec::with_capacity(batch.len());
    for &i in &order {
        let m = &batch[i];
        let (_, d, s) = keyed[i];
        if let Some((last, de, se)) = out.last_mut() {
            // Within one core's SBUF on each side: a core's partitions are
            // one mapping (`Sbuf::part_ptr`), so the joined copy stays
            // inside one allocation.
            if last.dst.0 == m.dst.0
                && last.src.0 == m.src.0
                && last.stream == m.stream
                && *de == d
                && *se == s
                && last.len + m.len <= COALESCE_MAX
            {
                last.len += m.len;
                (*de, *se) = (d + m.len, s + m.len);
                continue;
            }
        }
        out.push((m.clone(), d + m.len, s + m.len));
    }
    *batch = out.into_iter().map(|(m, _, _)| m).collect();
}

/// Moves a thread claims at a time: consecutive moves of a pass are the
/// rows of one engine and leg, so a claim streams a run of one source and
/// one destination image.
const CLAIM: usize = 4;

/// A descriptor pair ready to move: resolved source and destination.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Pair {
    pub m2s: M2sDesc,
    pub src: (CoreId, Target),
    pub dst: (CoreId, Target),
}

/// `target` advanced by `n` bytes (SBUF offset or descriptor RAM offset).
fn advance(t: Target, n: u32) -> Target {
    match t {
        Target::Sbuf { partition, offset } => Target::Sbuf {
            partition,
            offset: offset + n,
        },
        Target::Desc { offset } => Target::Desc { offset: offset + n },
        other => other,
    }
}

/// Apply a leg's operation; `stream`: the copy is one piece of a transfer
/// larger than the cache (non-temporal stores, `datapath::copy_streamed`).
fn apply(op: &LegOp, dst: &mut [u8], src: &[u8], stream: bool) -> Result<(), SystemError> {
    match op {
        LegOp::Copy if stream => {
            datapath::copy_streamed(dst, src).map_err(|e| SystemError::Reduce(e.to_string()))
        }
        LegOp::Copy => datapath::copy(dst, src).map_err(|e| SystemError::Reduce(e.to_string())),
        LegOp::Reduce(f) => f(dst, src).map_err(SystemError::Reduce),
    }
}

impl FastExec {
    /// Host threads the fast executor moves bytes on ([`super::System::set_threads`],
    /// else `collective::parallel::threads()`: `SB2SB_THREADS` or the
    /// machine's hardware threads).
    pub fn threads(&self) -> usize {
        match self.movers.threads {
            0 => crate::collective::parallel::threads(),
            n => n,
        }
    }

    /// Set the fast executor's thread count (0 = the default; 1 = serial).
    pub fn set_threads(&mut self, n: usize) {
        self.movers.threads = n;
    }

    /// Keep deferred byte moves across runs (`true`) until
    /// [`super::System::flush_moves`]; for a batch of legs that share no bytes
    /// (the lowering's ring step). Turning it off does not flush.
    pub(crate) fn hold_moves(&mut self, hold: bool) {
        if !hold {
            self.sync_moves();
        }
        self.movers.hold = hold;
    }

    /// Wait for the batch in flight, if any (its helper and this thread
    /// finish it); its error is kept for the next [`super::System::flush_moves`].
    /// Anything that touches SBUF bytes while a held sequence may have a
    /// batch in flight calls this first.
    pub(crate) fn sync_moves(&mut self) {
        if let Some(f) = self.movers.inflight.take() {
            if let Err(e) = f.join() {
                self.movers.failed.get_or_insert(e);
            }
        }
    }

    /// The deferred batch with its copies' store kind set and the address of
    /// every partition it names (destinations allocated, untouched sources
    /// absent: they read as zeros). Call with no batch in flight.
    fn prepare_batch(
        &mut self,
        st: &mut SystemState,
        stream: bool,
    ) -> Result<(Vec<Move>, AddrMap, u64), SystemError> {
        let mut batch = self.movers.take();
        let ncores = st.cores.len();
        let mut addr: HashMap<(u16, u8), Addr> = HashMap::default();
        // Destinations first (allocated), then sources (untouched = zeros).
        for (alloc, side) in [(true, 1usize), (false, 0)] {
            for m in &batch {
                let (c, p, _) = if side == 1 { m.dst } else { m.src };
                if addr.contains_key(&(c, p)) {
                    continue;
                }
                let core = st
                    .cores
                    .get_mut(usize::from(c))
                    .ok_or(SystemError::NoSuchCore {
                        core: c,
                        cores: ncores,
                    })?;
                if let Some(a) = core.sbuf.part_ptr(p, alloc) {
                    addr.insert((c, p), Addr(a));
                }
            }
        }
        // A batch larger than the streaming threshold streams all its copies
        // (the destinations would otherwise evict the sources still to be
        // read), as the flat machine does for a step; so does a batch
        // launched from a held sequence (`stream`): the sequence's bytes
        // together exceed the cache.
        let total: u64 = batch.iter().map(|m| m.len as u64).sum();
        let stream_all = stream || total >= datapath::copy::STREAM_THRESHOLD as u64;
        for m in &mut batch {
            m.stream |= stream_all;
        }
        coalesce_copies(&mut batch, &addr);
        Ok((batch, addr, total))
    }

    /// In a held sequence on several threads: start the deferred batch on a
    /// helper thread (after the batch in flight, which is joined first, so
    /// batches run in issue order) and return, so the control of the next
    /// legs overlaps the bytes. The next launch, [`FastExec::sync_moves`] or
    /// [`super::System::flush_moves`] joins it, claiming what the helper has not
    /// started. Small batches stay deferred.
    fn launch_moves(&mut self, st: &mut SystemState) -> Result<(), SystemError> {
        let bytes: usize = self.movers.batch.iter().map(|m| m.len).sum();
        if !self.movers.hold
            || self.threads() < 2
            || (bytes as u64) < self.movers.min_parallel.unwrap_or(PARALLEL_MIN_BYTES)
            || self.movers.batch.is_empty()
        {
            return Ok(());
        }
        self.sync_moves();
        let (batch, addr, _) = self.prepare_batch(st, true)?;
        self.launch(batch, addr, self.threads());
        Ok(())
    }

    /// Hand a prepared batch to the `threads − 1` helpers (started on first
    /// use) as the batch in flight. Call with no batch in flight.
    fn launch(&mut self, batch: Vec<Move>, addr: HashMap<(u16, u8), Addr>, threads: usize) {
        let want = threads.saturating_sub(1);
        if self
            .movers
            .helpers
            .as_ref()
            .is_none_or(|h| h.tx.len() != want)
        {
            self.movers.helpers = Some(Helpers::new(want));
        }
        let shared = Arc::new(Shared {
            batch,
            addr,
            next: AtomicUsize::new(0),
            done: AtomicUsize::new(0),
            err: Mutex::new(None),
        });
        if let Some(h) = &self.movers.helpers {
            for tx in &h.tx {
                // SAFETY (of the helper's work): the batch is hazard-free
                // (module docs) and every range was checked when deferred;
                // its partitions are not moved or freed, and no other thread
                // touches their bytes, until it is joined: every SBUF access
                // of a held sequence goes through `sync_moves` or
                // `flush_moves` first, and `System` joins it when dropped.
                // A helper that is gone leaves its share to the joiner.
                let _ = tx.send(shared.clone());
            }
        }
        self.movers.inflight = Some(Inflight { shared });
    }

    /// Run every deferred byte move (module docs), after the batch in flight
    /// if any; the error, if any, of the first failing move in issue order.
    pub fn flush_moves(&mut self, st: &mut SystemState) -> Result<(), SystemError> {
        self.sync_moves();
        let earlier = self.movers.failed.take();
        let r = self.flush_batch(st);
        match earlier {
            Some(e) => Err(e),
            None => r,
        }
    }

    fn flush_batch(&mut self, st: &mut SystemState) -> Result<(), SystemError> {
        if self.movers.batch.is_empty() {
            self.movers.ranges.clear();
            return Ok(());
        }
        let (batch, addr, total) = self.prepare_batch(st, false)?;
        let threads = self.threads();
        if threads > 1
            && batch.len() > CLAIM
            && total >= self.movers.min_parallel.unwrap_or(PARALLEL_MIN_BYTES)
        {
            // The helpers and the calling thread claim moves until none is
            // left.
            self.launch(batch, addr, threads);
            return self.movers.inflight.take().map_or(Ok(()), Inflight::join);
        }
        // SAFETY: one thread; every range was checked when deferred and
        // the partitions stay in place until this returns.
        let result = unsafe { exec_bin(&batch, 0..batch.len(), &addr) };
        datapath::store_fence();
        result.map_err(|(_, e)| e)
    }

    /// Move a whole pair: defer an SBUF→SBUF move between two partitions
    /// (flushing first if it conflicts with the batch), else move now,
    /// flushing first if the move touches SBUF (module docs). The range checks run here, in issue order.
    fn move_or_defer(
        &mut self,
        st: &mut SystemState,
        core: CoreId,
        e: u8,
        q: u8,
        p: &Pair,
        stream: bool,
    ) -> Result<(), SystemError> {
        if let (
            (
                sc,
                Target::Sbuf {
                    partition: sp,
                    offset: so,
                },
            ),
            (
                dc,
                Target::Sbuf {
                    partition: dp,
                    offset: doff,
                },
            ),
        ) = (p.src, p.dst)
        {
            if sc != dc || sp != dp {
                let n = u64::from(p.m2s.len);
                st.core(sc)?.sbuf.check(sp, so.into(), n)?;
                st.core(dc)?.sbuf.check(dp, doff.into(), n)?;
                let m = Move {
                    src: (sc.0, sp, so as usize),
                    dst: (dc.0, dp, doff as usize),
                    len: p.m2s.len as usize,
                    op: st.leg_op(core, e, q),
                    stream,
                };
                if self.movers.conflicts(&m) {
                    self.flush_moves(st)?;
                }
                self.movers.push(m);
                return Ok(());
            }
        }
        // A move that touches no SBUF byte (a semaphore or descriptor write
        // from descriptor RAM) commutes with the batch; any other flushes it.
        if matches!(p.src.1, Target::Sbuf { .. }) || matches!(p.dst.1, Target::Sbuf { .. }) {
            self.flush_moves(st)?;
        }
        st.move_bytes(core, e, q, p, 0, p.m2s.len, stream)
    }

    /// After a wait on `sem` of `core` passed: trace its read, and the Q7's
    /// clock waits for the increment that satisfied it to land.
    fn sem_waited(&mut self, st: &mut SystemState, core: CoreId, sem: u8) {
        st.trace_sem(
            core,
            crate::evt_sem::regs::EVT_SEM_SEM_READ_BASE + u32::from(sem) * 4,
        );
        let r = self
            .timing
            .sem_ready
            .get(&(core.0, sem))
            .copied()
            .unwrap_or(0);
        let c = self.timing.q7(st.now, core);
        *c = (*c).max(r);
    }

    /// Try one Q7 program of fast mode (cycle mode runs the same program on
    /// the Q7 ports: `system::q7_exec`); `Ok(true)` when it ran (it is then
    /// removed). The program comes from the one generator
    /// ([`super::SystemState::q7_program`]); only its first step may wait.
    pub(crate) fn try_q7(&mut self, st: &mut SystemState, op: &Q7Op) -> Result<bool, SystemError> {
        let (by, prog) = st.q7_program(op)?;
        let pre = match st.rec {
            Some(_) => Some(self.q7_trace_pre(st, op)?),
            None => None,
        };
        let mut first_done = 0;
        for (i, step) in prog.iter().enumerate() {
            if !self.apply_q7_step(st, by, step)? {
                debug_assert_eq!(i, 0, "only the first step of a Q7 program waits");
                return Ok(false);
            }
            if i == 0 {
                first_done = *self.timing.q7(st.now, by);
                self.note_launch_share(op);
            }
        }
        if let Some(pre) = pre {
            self.q7_trace_post(st, op, pre, first_done)?;
        }
        Ok(true)
    }

    /// A TX launch shares its queue's data time among its engines: record
    /// how many for the fast executor's data timing, when the launch's first step is
    /// taken (cycle mode times the data itself).
    fn note_launch_share(&mut self, op: &Q7Op) {
        if let Q7Op::TxLaunch {
            core,
            queue,
            engines,
            ..
        } = op
        {
            self.timing
                .share
                .insert((core.0, *queue), engines.len() as u32);
        }
    }

    /// Fast mode's executor of one Q7 step by the Q7 of `by`: register
    /// writes, stores, doorbells and pushes land at once (the Q7's clock does
    /// not move: the leg's fixed cost counts its transactions,
    /// `system::timing`); a doorbell records when its queues are ready, a
    /// push when its semaphore is. `Ok(false)` when a wait or poll is not
    /// yet satisfied (nothing changed).
    pub(crate) fn apply_q7_step(
        &mut self,
        st: &mut SystemState,
        by: CoreId,
        step: &Q7Step,
    ) -> Result<bool, SystemError> {
        match step {
            Q7Step::Csr { soc, data } => st.mmio_write(by, *soc, *data)?,
            Q7Step::Store { soc, bytes } => {
                let (to, off) = map::route_address(&st.topo, by, *soc)?;
                match map::decode_core_offset(off, st.topo.sbuf_bytes_per_partition)? {
                    Target::Desc { offset } => st.core_mut(to)?.desc.write(offset, bytes),
                    _ => {
                        for (a, d) in step.words() {
                            st.mmio_write(by, a, d)?;
                        }
                    }
                }
            }
            Q7Step::Doorbell {
                soc,
                data,
                queue,
                side,
                lands,
            } => {
                st.mmio_write(by, *soc, *data)?;
                let t = *self.timing.q7(st.now, by);
                let (to, _) = map::route_address(&st.topo, by, *soc)?;
                for e in (0..DMA_ENGINES).filter(|e| lands >> e & 1 == 1) {
                    self.timing.queue_ready.insert((to.0, e, *queue, *side), t);
                }
            }
            Q7Step::Push { soc } => {
                st.mmio_write(by, *soc, 1)?;
                let t = *self.timing.q7(st.now, by);
                let (to, off) = map::route_address(&st.topo, by, *soc)?;
                let sem = ((off - map::CORE_EVT_INCR_BASE) / 4) as u8;
                self.timing.sem_ready.insert((to.0, sem), t);
            }
            Q7Step::WaitDec { sem, target } => {
                if !st.core_mut(by)?.sem_wait_ge_dec(*sem, *target) {
                    return Ok(false);
                }
                self.sem_waited(st, by, *sem);
            }
            Q7Step::PollComp { queue, engines } => {
                return st.poll_completions(by, *queue, engines);
            }
            Q7Step::ReadyFlag { .. } => {
                st.core_mut(by)?.q7_local(step);
            }
        }
        Ok(true)
    }

    /// Before a traced Q7 program: the Q7's clock and the value of the
    /// semaphore its op signals or waits on.
    fn q7_trace_pre(&mut self, st: &mut SystemState, op: &Q7Op) -> Result<(Ps, i32), SystemError> {
        Ok(match op {
            Q7Op::RxArm {
                core, tx, go_sem, ..
            } => (*self.timing.q7(st.now, *core), st.sem(*tx, *go_sem)?),
            Q7Op::TxLaunch { core, go_sem, .. } => {
                (*self.timing.q7(st.now, *core), st.sem(*core, *go_sem)?)
            }
            Q7Op::Wait { core, sem, .. } => (*self.timing.q7(st.now, *core), st.sem(*core, *sem)?),
            Q7Op::PollComp { core, .. } | Q7Op::Host { core, .. } => {
                (*self.timing.q7(st.now, *core), 0)
            }
        })
    }

    /// After a traced Q7 program ran: its slice on the Q7's track and the
    /// semaphore change; `(t0, v0)` from [`Self::q7_trace_pre`], `popped` the
    /// Q7's clock after the first step (the end of a left_pop).
    fn q7_trace_post(
        &mut self,
        st: &mut SystemState,
        op: &Q7Op,
        (t0, v0): (Ps, i32),
        popped: Ps,
    ) -> Result<(), SystemError> {
        match op {
            Q7Op::RxArm {
                core,
                tx,
                queue,
                engines,
                go_sem,
            } => {
                let (t1, go1) = (*self.timing.q7(st.now, *core), st.sem(*tx, *go_sem)?);
                if let Some(r) = st.rec() {
                    let track = Track::Q7 {
                        core: core.0,
                        role: Q7Role::Rx,
                    };
                    r.slice(
                        track,
                        "rx_arm",
                        t0,
                        t1,
                        json!({"tx_core": tx.0, "queue": queue, "engines": engines.len(), "go_sem": go_sem}),
                    );
                    r.sem(tx.0, *go_sem, v0, go1, t1);
                }
            }
            Q7Op::TxLaunch {
                core,
                queue,
                engines,
                go_sem,
            } => {
                let (t1, go1) = (*self.timing.q7(st.now, *core), st.sem(*core, *go_sem)?);
                if let Some(r) = st.rec() {
                    r.sem(core.0, *go_sem, v0, go1, popped);
                    trace_tx_launch(r, core.0, (t0, popped, t1), *queue, engines.len(), *go_sem);
                }
            }
            Q7Op::PollComp {
                core,
                queue,
                engines,
            } => {
                if let Some(r) = st.rec() {
                    // The poll spins until the last completion lands.
                    let t1 = r.comp_land.get(&(core.0, *queue)).copied().unwrap_or(t0);
                    r.slice(
                        Track::Q7 {
                            core: core.0,
                            role: Q7Role::Tx,
                        },
                        "poll_comp",
                        t0,
                        t1.max(t0),
                        json!({"queue": queue, "completions": engines.iter().map(|e| e.1).sum::<u64>()}),
                    );
                }
            }
            Q7Op::Wait { core, sem, target } => {
                let (t1, v1) = (*self.timing.q7(st.now, *core), st.sem(*core, *sem)?);
                if let Some(r) = st.rec() {
                    trace_wait(r, core.0, *sem, *target, (t0, t1));
                    r.sem(core.0, *sem, v0, v1, t1);
                }
            }
            Q7Op::Host { core, steps, what } => {
                let t1 = *self.timing.q7(st.now, *core);
                if let Some(r) = st.rec() {
                    let track = Track::Q7 {
                        core: core.0,
                        role: Q7Role::Tx,
                    };
                    r.slice(track, *what, t0, t1, json!({"steps": steps.len()}));
                }
            }
        }
        Ok(())
    }

    /// Run every ready Q7 program once; `Ok(true)` if any ran.
    pub(crate) fn q7_pass(&mut self, st: &mut SystemState) -> Result<bool, SystemError> {
        let mut progressed = false;
        let mut i = 0;
        while i < st.pending.len() {
            let op = st.pending[i].clone();
            if self.try_q7(st, &op)? {
                st.pending.remove(i);
                progressed = true;
            } else {
                i += 1;
            }
        }
        Ok(progressed)
    }

    /// Execute every ready descriptor pair in full; `Ok(true)` if any moved.
    fn pump(&mut self, st: &mut SystemState) -> Result<bool, SystemError> {
        let mut progressed = false;
        let keys: Vec<_> = st.active.iter().copied().collect();
        // Pairs ready in this pass: with the length of the pair at hand, an
        // estimate of the bytes about to move. When it exceeds the streaming
        // threshold the copies stream (non-temporal stores): the
        // destinations of a 28 MiB leg would otherwise evict the sources
        // still to be read (docs/performance.md).
        let ready: u64 = keys
            .iter()
            .map(|&(c, e, q)| {
                let k = &st.cores[usize::from(c)];
                u64::from(k.queue(e, q, 0).pending().min(k.queue(e, q, 1).pending()))
            })
            .sum();
        // The data-path row of (link class, engines of the leg): looked up
        // once per distinct pair of this pass.
        let mut row_memo: Option<((link::LinkClass, u32), timing::DataRow)> = None;
        for (core, e, q) in keys {
            let cid = CoreId(core);
            while st.pair_ready(core, e, q) {
                let pair = st.fetch_pair(cid, e, q)?;
                let stream =
                    ready * u64::from(pair.m2s.len) >= datapath::copy::STREAM_THRESHOLD as u64;
                let sems_before = match (&st.rec, pair.dst.1) {
                    (Some(_), Target::EvtSem { offset }) => {
                        Some(st.sems_written(pair.dst.0, offset, pair.m2s.len))
                    }
                    _ => None,
                };
                self.move_or_defer(st, cid, e, q, &pair, stream)?;
                let (start, end) = self.pair_timing(st, cid, e, q, &pair, &mut row_memo)?;
                let land = end;
                st.complete_pair(cid, e, q, pair.m2s.len, land)?;
                if st.rec.is_some() {
                    let xfer_start = start;
                    st.trace_pair(
                        cid,
                        e,
                        q,
                        &pair,
                        (start, end, land, xfer_start),
                        sems_before,
                    );
                }
                progressed = true;
            }
        }
        let cores = &st.cores;
        st.active.retain(|&(c, e, q)| {
            let k = &cores[usize::from(c)];
            k.queue(e, q, 0).pending() > 0 && k.queue(e, q, 1).pending() > 0
        });
        Ok(progressed)
    }

    /// Timing of one descriptor pair (system::timing): the engine's first
    /// descriptor of a leg starts the row's fixed cost after the doorbells
    /// landed; each descriptor costs the row's per-descriptor and per-byte
    /// time. Advances the engine's clock, the horizon and (for a semaphore
    /// write) when the semaphore is ready; returns (start, end). `row_memo`
    /// holds the data-path row of the last (link class, engines of the leg).
    fn pair_timing(
        &mut self,
        st: &mut SystemState,
        cid: CoreId,
        e: u8,
        q: u8,
        pair: &Pair,
        row_memo: &mut Option<((link::LinkClass, u32), timing::DataRow)>,
    ) -> Result<(Ps, Ps), SystemError> {
        let core = cid.0;
        let class = st.topo.link_class(cid, pair.dst.0)?;
        let share = self
            .timing
            .share
            .get(&(core, q))
            .copied()
            .unwrap_or(1)
            .max(1);
        let row = match *row_memo {
            Some((k, r)) if k == (class, share) => r,
            _ => {
                let r = timing::coeffs(class, share);
                *row_memo = Some(((class, share), r));
                r
            }
        };
        let ready = [0u8, 1]
            .iter()
            .map(|s| {
                self.timing
                    .queue_ready
                    .get(&(core, e, q, *s))
                    .copied()
                    .unwrap_or(0)
            })
            .max()
            .unwrap_or(0);
        let free = self
            .timing
            .engine_free
            .get(&(core, e))
            .copied()
            .unwrap_or(0);
        let start = free.max(ready + row.fixed_ps());
        let end = start + row.desc_ps(pair.m2s.len.into());
        self.timing.engine_free.insert((core, e), end);
        self.timing.horizon = self.timing.horizon.max(end);
        if let Some(map::SemReg::Read(sem) | map::SemReg::Incr(sem) | map::SemReg::Decr(sem)) =
            match pair.dst.1 {
                Target::EvtSem { offset } => map::sem_reg(offset),
                _ => None,
            }
        {
            let r = self
                .timing
                .sem_ready
                .entry((pair.dst.0 .0, sem))
                .or_insert(0);
            *r = (*r).max(end);
        }
        Ok((start, end))
    }

    /// Fast mode: alternate Q7 programs and descriptor execution until idle.
    pub(crate) fn run(&mut self, st: &mut SystemState) -> Result<(), SystemError> {
        let r = self.run_inner(st);
        if self.movers.hold {
            return r.and_then(|()| self.launch_moves(st));
        }
        let f = self.flush_moves(st);
        r.and(f)
    }

    fn run_inner(&mut self, st: &mut SystemState) -> Result<(), SystemError> {
        self.timing.horizon = st.now;
        self.timing.q7.clear();
        loop {
            let a = self.q7_pass(st)?;
            let b = self.pump(st)?;
            if st.pending.is_empty() {
                let q7 = self.timing.q7.values().copied().max().unwrap_or(0);
                st.now = st.now.max(self.timing.horizon).max(q7);
                return st.check_idle();
            }
            if !a && !b {
                // Fast mode runs no cycles: a timeout report names 0.
                return Err(st.diagnose(0));
            }
        }
    }

    /// Fast mode: apply every queued set-up program at once, in order (the
    /// same register writes and bytes cycle mode plays on the Q7 ports;
    /// no modeled time, as before set-up went through the ports).
    pub(crate) fn apply_setups(&mut self, st: &mut SystemState) -> Result<(), SystemError> {
        while let Some(s) = st.setups.front() {
            let (by, acc) = (s.core, std::mem::take(&mut st.setups[0].accesses));
            let r = self.apply_setup(st, by, &acc);
            if r.is_err() {
                st.setups[0].accesses = acc;
                return r;
            }
            st.setups.pop_front();
        }
        Ok(())
    }

    /// Apply the steps of one set-up program by the Q7 of `by` (fast mode's
    /// step executor, [`Self::apply_q7_step`]).
    fn apply_setup(
        &mut self,
        st: &mut SystemState,
        by: CoreId,
        acc: &[Q7Step],
    ) -> Result<(), SystemError> {
        for a in acc {
            self.apply_q7_step(st, by, a)?;
        }
        Ok(())
    }
}

impl SystemState {
    /// The SBUFs of two different cores, the first shared, the second mutable.
    fn two_sbufs(&mut self, src: CoreId, dst: CoreId) -> Result<(&Sbuf, &mut Sbuf), SystemError> {
        self.core(src)?;
        self.core(dst)?;
        let (s, d) = (usize::from(src.0), usize::from(dst.0));
        if s < d {
            let (lo, hi) = self.cores.split_at_mut(d);
            Ok((&lo[s].sbuf, &mut hi[0].sbuf))
        } else {
            let (lo, hi) = self.cores.split_at_mut(s);
            Ok((&hi[0].sbuf, &mut lo[d].sbuf))
        }
    }

    /// The receive op of the pairs of TX (core, engine, queue).
    fn leg_op(&self, core: CoreId, e: u8, q: u8) -> LegOp {
        if self.rx_ops.is_empty() {
            LegOp::Copy
        } else {
            self.rx_ops
                .get(&(core.0, e, q))
                .cloned()
                .unwrap_or_default()
        }
    }

    /// Resolve a descriptor address issued by an engine of `from`.
    pub(crate) fn resolve(&self, from: CoreId, soc: u64) -> Result<(CoreId, Target), SystemError> {
        let (c, off) = map::route_address(&self.topo, from, soc)?;
        Ok((
            c,
            map::decode_core_offset(off, self.topo.sbuf_bytes_per_partition)?,
        ))
    }

    /// The core and descriptor-RAM offset of ring address `a` of engine `e`,
    /// queue `q` of `core` (`what` names the ring in the error).
    pub(crate) fn desc_ram_at(
        &self,
        core: CoreId,
        e: u8,
        q: u8,
        a: u64,
        what: &str,
    ) -> Result<(CoreId, u32), SystemError> {
        match self.resolve(core, a)? {
            (c, Target::Desc { offset }) => Ok((c, offset)),
            _ => Err(SystemError::Dma {
                core: core.0,
                engine: e,
                queue: q,
                rule: format!("{what} {a:#x} is not descriptor RAM"),
            }),
        }
    }

    fn fetch(&self, core: CoreId, e: u8, q: u8, side: u8) -> Result<[u8; 16], SystemError> {
        let qs = self.core(core)?.queue(e, q, side);
        let a = qs.rbp + u64::from(qs.head.offset) * 16;
        let (c, offset) = self.desc_ram_at(core, e, q, a, "ring base")?;
        let mut b = [0u8; 16];
        self.core(c)?.desc.read(offset, &mut b);
        Ok(b)
    }

    /// Fetch the next M2S/S2M pair of (core, engine, queue), checking ring ids
    /// (PREF_RING_ID, PUBLIC-FACTS §1) and the 1:1 pairing rule.
    pub(crate) fn fetch_pair(&self, core: CoreId, e: u8, q: u8) -> Result<Pair, SystemError> {
        let c = self.core(core)?;
        let (hm, hs) = (c.queue(e, q, 0).head, c.queue(e, q, 1).head);
        let m2s = M2sDesc::decode(&self.fetch(core, e, q, 0)?).map_err(SystemError::Desc)?;
        let s2m = S2mDesc::decode(&self.fetch(core, e, q, 1)?).map_err(SystemError::Desc)?;
        for (side, want, got, slot) in [
            (0u8, hm.ring_id, m2s.ring_id, hm.offset),
            (1, hs.ring_id, s2m.ring_id, hs.offset),
        ] {
            if want != got {
                return Err(SystemError::RingId {
                    core: core.0,
                    engine: e,
                    queue: q,
                    side,
                    slot,
                    expected: want,
                    found: got,
                });
            }
        }
        if m2s.len != s2m.len {
            return Err(SystemError::Dma {
                core: core.0,
                engine: e,
                queue: q,
                rule: format!(
                    "M2S length {} differs from S2M length {} (one packet per descriptor pair)",
                    m2s.len, s2m.len
                ),
            });
        }
        Ok(Pair {
            m2s,
            src: self.resolve(core, m2s.buf_ptr)?,
            dst: self.resolve(core, s2m.buf1_ptr)?,
        })
    }

    /// Move `n` bytes of a pair starting `skip` bytes into it, as engine `e`
    /// of `core`; `stream`: part of a transfer larger than the cache.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn move_bytes(
        &mut self,
        core: CoreId,
        e: u8,
        q: u8,
        p: &Pair,
        skip: u32,
        n: u32,
        stream: bool,
    ) -> Result<(), SystemError> {
        let (sc, st) = (p.src.0, advance(p.src.1, skip));
        let (dc, dt) = (p.dst.0, advance(p.dst.1, skip));
        let op = self.leg_op(core, e, q);
        let dma_err = |rule: &str| SystemError::Dma {
            core: core.0,
            engine: e,
            queue: q,
            rule: rule.to_string(),
        };
        let len = n as usize;
        match (st, dt) {
            (
                Target::Sbuf {
                    partition: sp,
                    offset: so,
                },
                Target::Sbuf {
                    partition: dp,
                    offset: doff,
                },
            ) => self.move_sbuf(&op, (sc, sp, so), (dc, dp, doff), n, stream, dma_err),
            (_, Target::EvtSem { offset }) => {
                if !n.is_multiple_of(4) || !offset.is_multiple_of(4) {
                    return Err(dma_err(
                        "a write into the EVT_SEM window must cover whole 4-byte registers",
                    ));
                }
                let mut b = vec![0u8; len];
                self.read_target(sc, st, &mut b)
                    .map_err(|_| dma_err("semaphore source not readable"))?;
                self.evt_sem_write(dc, e, offset, &b)
            }
            (_, dt) => {
                let mut tmp = vec![0u8; len];
                self.read_target(sc, st, &mut tmp)?;
                match dt {
                    Target::Sbuf { partition, offset } => {
                        let s = self.core_mut(dc)?.sbuf.slice_mut(
                            partition,
                            offset.into(),
                            n.into(),
                        )?;
                        apply(&op, s, &tmp, false)
                    }
                    Target::Desc { offset } => {
                        self.core_mut(dc)?.desc.write(offset, &tmp);
                        Ok(())
                    }
                    _ => Err(dma_err(
                        "DMA writes into CSR or register space are not modeled",
                    )),
                }
            }
        }
    }

    /// [`Self::move_bytes`] from SBUF to SBUF: `n` bytes from (core,
    /// partition, offset) `src` to `dst`, copied or reduced per `op` (an
    /// unallocated source partition reads as zeros).
    fn move_sbuf(
        &mut self,
        op: &LegOp,
        (sc, sp, so): (CoreId, u8, u32),
        (dc, dp, doff): (CoreId, u8, u32),
        n: u32,
        stream: bool,
        dma_err: impl Fn(&str) -> SystemError,
    ) -> Result<(), SystemError> {
        let len = n as usize;
        let (so, doff) = (so as usize, doff as usize);
        self.core(sc)?.sbuf.check(sp, so as u64, n.into())?;
        self.core(dc)?.sbuf.check(dp, doff as u64, n.into())?;
        let zeros;
        if sc == dc {
            let sbuf = &mut self.core_mut(dc)?.sbuf;
            if sp == dp {
                let part = sbuf
                    .partition_mut(dp)
                    .ok_or_else(|| dma_err("no such SBUF partition"))?;
                return match op {
                    LegOp::Copy => {
                        part.copy_within(so..so + len, doff);
                        Ok(())
                    }
                    LegOp::Reduce(_) => {
                        let tmp = part[so..so + len].to_vec();
                        apply(op, &mut part[doff..doff + len], &tmp, false)
                    }
                };
            }
            let (s, d) = sbuf.two_parts(sp, dp);
            let d = d.ok_or_else(|| dma_err("no such SBUF partition"))?;
            let (s, stream) = match s {
                Some(s) => (&s[so..so + len], stream),
                None => {
                    zeros = vec![0u8; len];
                    (&zeros[..], false)
                }
            };
            apply(op, &mut d[doff..doff + len], s, stream)
        } else {
            let (src, dst) = self.two_sbufs(sc, dc)?;
            let d = dst.slice_mut(dp, doff as u64, n.into())?;
            match src.slice(sp, so as u64, n.into())? {
                Some(s) => apply(op, d, s, stream),
                None => apply(op, d, &vec![0u8; len], false),
            }
        }
    }

    /// A DMA write of whole 4-byte registers into the EVT_SEM window of `c`:
    /// SEM_INCR through the hardware increment port of engine `e` (one port
    /// per DMA engine), anything else through the AXI4-Lite slave.
    pub(crate) fn evt_sem_write(
        &mut self,
        c: CoreId,
        e: u8,
        offset: u32,
        bytes: &[u8],
    ) -> Result<(), SystemError> {
        for (k, w) in bytes.chunks_exact(4).enumerate() {
            let off = offset + 4 * k as u32;
            let v = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
            let core = self.core_mut(c)?;
            if (EVT_SEM_SEM_INCR_BASE..EVT_SEM_SEM_DECR_BASE).contains(&off) {
                core.sem_inc(&[(
                    usize::from(e),
                    ((off - EVT_SEM_SEM_INCR_BASE) / 4) as u8,
                    v as i32,
                )]);
            } else {
                core.evt_write(off, v)?;
            }
            self.trace_sem(c, off);
        }
        Ok(())
    }

    fn read_target(&self, c: CoreId, t: Target, out: &mut [u8]) -> Result<(), SystemError> {
        match t {
            Target::Sbuf { partition, offset } => {
                self.core(c)?.sbuf.read(partition, offset.into(), out)
            }
            Target::Desc { offset } => {
                self.core(c)?.desc.read(offset, out);
                Ok(())
            }
            _ => Err(SystemError::Unmapped { offset: 0 }),
        }
    }

    /// Complete a pair: advance both heads, count, trace.
    pub(crate) fn complete_pair(
        &mut self,
        core: CoreId,
        e: u8,
        q: u8,
        bytes: u32,
        t: Ps,
    ) -> Result<(), SystemError> {
        let c = self.core_mut(core)?;
        let s2m_offset = c.queue(e, q, 1).head.offset;
        for side in [0u8, 1] {
            let mut qs = c.queue_mut(e, q, side);
            qs.head = qs.head.advance(1, qs.rl);
            qs.desc_done = qs.desc_done.wrapping_add(1);
            qs.bytes += u64::from(bytes);
        }
        self.write_completion(core, e, q, bytes, s2m_offset)?;
        if self.trace_on {
            let c = self.core(core)?;
            let (m, s) = (
                super::core::pack_pos(c.queue(e, q, 0).head),
                super::core::pack_pos(c.queue(e, q, 1).head),
            );
            self.trace.push(TraceEvent::Desc {
                t,
                core: core.0,
                engine: e,
                queue: q,
                m2s_head: m,
                s2m_head: s,
                bytes,
            });
        }
        Ok(())
    }

    /// Whether (core, engine, queue) has a pair ready.
    pub(crate) fn pair_ready(&self, core: u16, e: u8, q: u8) -> bool {
        let c = &self.cores[usize::from(core)];
        c.queue(e, q, 0).pending() > 0 && c.queue(e, q, 1).pending() > 0
    }
}

/// A TX launch on the timeline: `tx_launch` over `left_pop` (wait for the
/// go-semaphore and take it) and the M2S doorbells; times (start, popped, end).
pub(crate) fn trace_tx_launch(
    r: &mut Recorder,
    core: u16,
    (t0, popped, t1): (Ps, Ps, Ps),
    queue: u8,
    engines: usize,
    go_sem: u8,
) {
    let track = Track::Q7 {
        core,
        role: Q7Role::Tx,
    };
    let args = json!({"queue": queue, "engines": engines, "go_sem": go_sem});
    r.slice(track, "tx_launch", t0, t1, args);
    r.slice(track, "left_pop", t0, popped, json!({"go_sem": go_sem}));
    r.slice(
        track,
        "m2s doorbells",
        popped,
        t1,
        json!({"engines": engines}),
    );
}

/// A semaphore wait of the lowering on the timeline.
pub(crate) fn trace_wait(r: &mut Recorder, core: u16, sem: u8, target: i32, (t0, t1): (Ps, Ps)) {
    r.slice(
        Track::Q7 {
            core,
            role: Q7Role::Wait,
        },
        format!("wait sem {sem} >= {target}"),
        t0,
        t1,
        json!({"sem": sem, "target": target}),
    );
}

impl SystemState {
    /// One fast-mode descriptor pair on the timeline: the engine queue busy
    /// from `start` to `end`, the link from `xfer` to `land`, the semaphores
    /// it raised at `land`.
    fn trace_pair(
        &mut self,
        core: CoreId,
        e: u8,
        q: u8,
        pair: &Pair,
        (start, end, land, xfer): (Ps, Ps, Ps, Ps),
        sems_before: Option<Vec<(u8, i32)>>,
    ) {
        let to = pair.dst.0;
        let (name, args) = match pair.dst.1 {
            Target::Sbuf { partition, .. } => (
                format!("{} B", pair.m2s.len),
                json!({"bytes": pair.m2s.len, "descriptors": 1, "to_core": to.0, "partition": partition, "lands_us": land as f64 / 1e6}),
            ),
            Target::EvtSem { offset } => (
                format!("semaphore write core {}", to.0),
                json!({"bytes": pair.m2s.len, "descriptors": 1, "to_core": to.0, "evt_sem_offset": format!("{offset:#x}")}),
            ),
            _ => (
                format!("{} B", pair.m2s.len),
                json!({"bytes": pair.m2s.len, "descriptors": 1, "to_core": to.0}),
            ),
        };
        let after: Vec<(u8, i32)> = sems_before
            .as_ref()
            .map(|b| {
                b.iter()
                    .map(|&(s, _)| (s, self.sem(to, s).unwrap_or(0)))
                    .collect()
            })
            .unwrap_or_default();
        let Some(r) = self.rec() else { return };
        r.slice(
            Track::Queue {
                core: core.0,
                engine: e,
                queue: q,
            },
            name,
            start,
            end,
            args,
        );
        if to != core {
            r.slice(
                Track::Link {
                    from: core.0,
                    to: to.0,
                },
                "busy",
                xfer.min(land),
                land,
                json!({}),
            );
        }
        let c = r.comp_land.entry((core.0, q)).or_insert(0);
        *c = (*c).max(land);
        if let Some(b) = sems_before {
            for (&(s, v0), &(_, v1)) in b.iter().zip(&after) {
                r.sem(to.0, s, v0, v1, land);
            }
        }
    }
}

impl SystemState {
    /// The semaphores a DMA write of `len` bytes at EVT_SEM `offset` of
    /// `core` touches, with their values now.
    fn sems_written(&self, core: CoreId, offset: u32, len: u32) -> Vec<(u8, i32)> {
        (0..len / 4)
            .map(|k| offset + 4 * k)
            .filter(|o| (EVT_SEM_SEM_INCR_BASE..EVT_SEM_SEM_DECR_BASE).contains(o))
            .map(|o| {
                let s = ((o - EVT_SEM_SEM_INCR_BASE) / 4) as u8;
                (s, self.sem(core, s).unwrap_or(0))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::system::{Mode, System, SystemLeg, Topology};

    fn pattern(core: u16, p: u8, n: usize) -> Vec<u8> {
        (0..n)
            .map(|i| (i as u8).wrapping_mul(13) ^ p ^ (core as u8).wrapping_mul(71))
            .collect()
    }

    /// Held legs where each reads what the one before writes (core 0 → 1,
    /// 1 → 2, 2 → 3, same rows): on several threads each leg's batch is
    /// launched while the next leg's control runs, and the next batch runs
    /// only after it; serially the second's source conflicts with the batch,
    /// which is flushed first. Either way core 3 ends with core 0's bytes, on
    /// 1, 2 and 3 threads, as the serial executor gives.
    #[test]
    fn a_move_reading_a_batched_destination_flushes_the_batch_first() {
        for threads in [1usize, 2, 3] {
            let mut sys = System::new(Topology::trn2(1)).unwrap();
            sys.set_threads(threads);
            sys.fast.movers.min_parallel = Some(0);
            let rows = 4u8;
            for p in 0..rows {
                sys.write_sbuf(CoreId(0), p, 0, &pattern(0, p, 4096))
                    .unwrap();
            }
            sys.hold_moves(true);
            let a = SystemLeg::new(CoreId(0), 0, CoreId(1), 0, 4096, rows);
            let b = SystemLeg::new(CoreId(1), 0, CoreId(2), 0, 4096, rows);
            let c = SystemLeg::new(CoreId(2), 0, CoreId(3), 0, 4096, rows);
            sys.send_recv(&a, Mode::Fast).unwrap();
            assert!(
                !sys.fast.movers.batch.is_empty() || sys.fast.movers.inflight.is_some(),
                "held moves wait for the flush or are in flight"
            );
            assert_eq!(sys.fast.movers.inflight.is_some(), threads > 1);
            sys.send_recv(&b, Mode::Fast).unwrap();
            sys.send_recv(&c, Mode::Fast).unwrap();
            sys.hold_moves(false);
            assert!(sys.fast.movers.inflight.is_none(), "hold off joins");
            sys.flush_moves().unwrap();
            for p in 0..rows {
                let want = pattern(0, p, 4096);
                for k in 1..4 {
                    assert_eq!(
                        sys.st.read_sbuf(CoreId(k), p, 0, 4096).unwrap(),
                        want,
                        "core {k} p {p} on {threads} threads"
                    );
                }
            }
        }
    }

    /// An in-flight batch whose move fails (a reduce hook that errors):
    /// the error comes from the next flush, as the serial flush reports it.
    #[test]
    fn an_in_flight_batch_error_is_reported_by_the_flush() {
        for threads in [1usize, 2] {
            let mut sys = System::new(Topology::trn2(1)).unwrap();
            sys.set_threads(threads);
            sys.fast.movers.min_parallel = Some(0);
            sys.write_sbuf(CoreId(0), 0, 0, &pattern(0, 0, 4096))
                .unwrap();
            sys.hold_moves(true);
            let leg = SystemLeg {
                op: LegOp::Reduce(std::sync::Arc::new(|_: &mut [u8], _: &[u8]| {
                    Err("refused".to_string())
                })),
                ..SystemLeg::new(CoreId(0), 0, CoreId(1), 0, 4096, 8)
            };
            sys.send_recv(&leg, Mode::Fast).unwrap();
            sys.hold_moves(false);
            let e = sys.flush_moves().unwrap_err();
            assert!(e.to_string().contains("refused"), "{threads}: {e}");
            sys.flush_moves().unwrap();
        }
    }

    /// A 16-engine leg of 128 rows (above the streaming threshold): the
    /// bytes, the modeled time and the queue state on 1, 2 and 3 threads.
    #[test]
    fn a_streamed_leg_on_threads_equals_the_serial_leg() {
        let run = |threads: usize| {
            let mut sys = System::new(Topology::trn2(1)).unwrap();
            sys.set_threads(threads);
            for p in 0..128u8 {
                sys.write_sbuf(CoreId(0), p, 0, &pattern(0, p, 48 << 10))
                    .unwrap();
            }
            let leg = SystemLeg {
                engine_mask: 0xFFFF,
                ..SystemLeg::new(CoreId(0), 0, CoreId(4), 0, 48 << 10, 128)
            };
            let r = sys.send_recv(&leg, Mode::Fast).unwrap();
            let q = sys.st.queue(CoreId(0), 3, 0, 0).unwrap();
            (sys.st.sbuf(CoreId(4)).unwrap().image(), r.modeled_ps, q)
        };
        let serial = run(1);
        // Every row moved whole, to its own partition, nothing past it (the
        // batch is joined into destination-ordered copies:
        // `coalesce_copies`).
        let bpp = Topology::trn2(1).sbuf_bytes_per_partition as usize;
        for p in 0..128u8 {
            let row = &serial.0[usize::from(p) * bpp..(usize::from(p) + 1) * bpp];
            assert_eq!(
                &row[..48 << 10],
                &pattern(0, p, 48 << 10)[..],
                "partition {p}"
            );
            assert!(
                row[48 << 10..].iter().all(|&b| b == 0),
                "partition {p} past the row"
            );
        }
        for t in [2, 3] {
            assert!(run(t) == serial, "{t} threads differ from serial");
        }
    }

    /// Two cores' SBUF stand-ins (one buffer each, partitions of `BPP`
    /// bytes) and the address map of their partitions.
    const BPP: usize = 4 << 10;
    fn images() -> (Vec<u8>, Vec<u8>) {
        let src = (0..8 * BPP).map(|i| (i * 7 + 3) as u8).collect();
        (src, vec![0u8; 8 * BPP])
    }
    fn addr_of(src: &mut [u8], dst: &mut [u8]) -> AddrMap {
        let mut a = AddrMap::default();
        for p in 0..8u8 {
            let o = usize::from(p) * BPP;
            a.insert((0, p), Addr(src[o..].as_mut_ptr()));
            a.insert((1, p), Addr(dst[o..].as_mut_ptr()));
        }
        a
    }
    /// 8 partitions × 4 pieces of 1 KiB, issued piece-major (one piece of
    /// each "engine" in turn, as a pass defers them), except `skip`.
    fn interleaved(skip: Option<(u8, usize)>) -> Vec<Move> {
        let mut v = Vec::new();
        for k in 0..4usize {
            for p in 0..8u8 {
                if skip == Some((p, k)) {
                    continue;
                }
                v.push(Move {
                    src: (0, p, k << 10),
                    dst: (1, p, k << 10),
                    len: 1 << 10,
                    op: LegOp::Copy,
                    stream: false,
                });
            }
        }
        v
    }
    /// The destination image after running `batch` (one thread).
    fn run_batch(batch: &[Move]) -> Vec<u8> {
        let (mut s, mut d) = images();
        let a = addr_of(&mut s, &mut d);
        // SAFETY: every move lies inside the two buffers, which outlive the
        // call, and no destination range overlaps another move's range.
        unsafe { exec_bin(batch, 0..batch.len(), &a) }.unwrap();
        d
    }

    #[test]
    fn adjacent_copies_are_joined_in_destination_order() {
        let (mut s, mut d) = images();
        let a = addr_of(&mut s, &mut d);
        let issued = interleaved(None);
        let mut b = issued.clone();
        coalesce_copies(&mut b, &a);
        // 32 KiB of adjacent rows on both sides: one copy from the start.
        assert_eq!(b.len(), 1);
        assert_eq!(
            (b[0].src, b[0].dst, b[0].len),
            ((0, 0, 0), (1, 0, 0), 32 << 10)
        );
        // The same bytes as the issued batch, and the source's bytes.
        let want = run_batch(&issued);
        assert_eq!(run_batch(&b), want);
        assert_eq!(want, images().0);
    }

    #[test]
    fn a_gap_splits_the_joined_copy_and_the_bytes_stay_the_issued_ones() {
        let (mut s, mut d) = images();
        let a = addr_of(&mut s, &mut d);
        // Piece 2 of partition 3 is not moved.
        let issued = interleaved(Some((3, 2)));
        let mut b = issued.clone();
        coalesce_copies(&mut b, &a);
        let spans: Vec<_> = b.iter().map(|m| (m.dst, m.len)).collect();
        assert_eq!(
            spans,
            [
                ((1, 0, 0), (3 * 4 + 2) << 10),
                ((1, 3, 3 << 10), (4 * 4 + 1) << 10)
            ]
        );
        let got = run_batch(&b);
        assert_eq!(got, run_batch(&issued));
        let hole = 3 * BPP + (2 << 10)..3 * BPP + (3 << 10);
        assert!(got[hole].iter().all(|&x| x == 0));
    }

    #[test]
    fn joined_copies_stop_at_the_size_limit() {
        // 2 × 1 MiB images: 1024 adjacent 2 KiB moves issued in reverse.
        let mut s: Vec<u8> = (0..2 << 20).map(|i: usize| (i % 253) as u8).collect();
        let mut d = vec![0u8; 2 << 20];
        let mut a = AddrMap::default();
        a.insert((0, 0), Addr(s.as_mut_ptr()));
        a.insert((1, 0), Addr(d.as_mut_ptr()));
        let mut b: Vec<Move> = (0..1024usize)
            .rev()
            .map(|k| Move {
                src: (0, 0, k << 11),
                dst: (1, 0, k << 11),
                len: 1 << 11,
                op: LegOp::Copy,
                stream: true,
            })
            .collect();
        coalesce_copies(&mut b, &a);
        assert_eq!(b.len(), (2 << 20) / COALESCE_MAX);
        for (k, m) in b.iter().enumerate() {
            assert_eq!(
                (m.dst.2, m.len, m.stream),
                (k * COALESCE_MAX, COALESCE_MAX, true)
            );
        }
    }

    #[test]
    fn a_batch_with_a_reduce_or_an_untouched_source_is_left_as_issued() {
        let (mut s, mut d) = images();
        let mut a = addr_of(&mut s, &mut d);
        let mut with_reduce = interleaved(None);
        let f: crate::system::ReduceFn = std::sync::Arc::new(|_: &mut [u8], _: &[u8]| Ok(()));
        with_reduce[5].op = LegOp::Reduce(f);
        let before: Vec<_> = with_reduce.iter().map(|m| (m.src, m.dst, m.len)).collect();
        coalesce_copies(&mut with_reduce, &a);
        let after: Vec<_> = with_reduce.iter().map(|m| (m.src, m.dst, m.len)).collect();
        assert_eq!(after, before);
        // Source partition 6 untouched (reads as zeros): no address.
        a.remove(&(0, 6));
        let mut b = interleaved(None);
        coalesce_copies(&mut b, &a);
        assert_eq!(b.len(), 32);
    }
}
