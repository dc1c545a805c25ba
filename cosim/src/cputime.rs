//! CPU time of the calling thread, so throughput figures can be read
//! independently of how busy the machine is.

/// Nanoseconds this thread has run on a CPU (Linux `/proc/thread-self/schedstat`),
/// `None` where that file does not exist.
pub fn thread_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// Seconds of this thread's CPU time since `start` (a [`thread_cpu_ns`] reading).
pub fn thread_cpu_s_since(start: Option<u64>) -> Option<f64> {
    match (start, thread_cpu_ns()) {
        (Some(a), Some(b)) if b >= a => Some((b - a) as f64 * 1e-9),
        _ => None,
    }
}
