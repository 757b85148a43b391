//! CPU time of the calling thread, shared by the benches (`#[path]`
//! module): unlike wall time it does not count the time other processes
//! had the core, so it is the measure to compare on a shared machine.

/// CPU seconds of this thread.
#[cfg(unix)]
pub fn thread_cpu_seconds() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec for the call's duration.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// No thread CPU clock in `libc` off Unix (Windows): wall time since the
/// first call stands in, so the benches still build and run there.
#[cfg(not(unix))]
pub fn thread_cpu_seconds() -> f64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_secs_f64()
}
