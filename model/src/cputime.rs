//! CPU time of the calling thread, so throughput figures can be read
//! independently of how busy the machine is.

/// Nanoseconds this thread has run on a CPU (`CLOCK_THREAD_CPUTIME_ID`,
/// exact to the call; `/proc/thread-self/schedstat` lags by up to a
/// scheduler tick), `None` where the OS gives no per-thread CPU time.
pub fn thread_cpu_ns() -> Option<u64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec for the duration of the call.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return None;
    }
    Some(ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64)
}

/// Seconds this thread has run on a CPU (a [`thread_cpu_ns`] reading); 0
/// where the OS gives no per-thread CPU time. For the timing examples, which
/// subtract two readings (the machine is shared: wall time measures the
/// scheduler).
pub fn thread_cpu_s() -> f64 {
    thread_cpu_ns().map_or(0.0, |ns| ns as f64 * 1e-9)
}

/// Seconds of this thread's CPU time since `start` (a [`thread_cpu_ns`] reading).
pub fn thread_cpu_s_since(start: Option<u64>) -> Option<f64> {
    match (start, thread_cpu_ns()) {
        (Some(a), Some(b)) if b >= a => Some((b - a) as f64 * 1e-9),
        _ => None,
    }
}
