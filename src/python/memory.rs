//! Memory an agent would need, checked before it allocates: a Rust
//! allocation that fails aborts the whole process (no Python exception).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::agents::AgentSpec;

/// Bytes this process can still allocate, when known: the smaller of the
/// system's available memory (`MemAvailable`) and what the address-space
/// limit (`ulimit -v`) leaves.
pub(crate) fn available() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok();
    let kib = |text: &str, key: &str| -> Option<u64> {
        let line = text.lines().find(|l| l.starts_with(key))?;
        line.split_whitespace()
            .nth(1)?
            .parse::<u64>()
            .ok()
            .map(|k| k << 10)
    };
    let system = meminfo.as_deref().and_then(|m| kib(m, "MemAvailable:"));
    let mut limit = None;
    #[cfg(target_os = "linux")]
    {
        let mut r = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes the one struct it is given.
        if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut r) } == 0
            && r.rlim_cur != libc::RLIM_INFINITY
        {
            let status = std::fs::read_to_string("/proc/self/status").ok();
            let used = status.as_deref().and_then(|s| kib(s, "VmSize:"));
            limit = used.map(|u| r.rlim_cur.saturating_sub(u));
        }
    }
    match (system, limit) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// ValueError if `spec`'s transposition table could not be allocated now
/// (`copies` tables at once), naming the memory it needs.
pub(crate) fn check_agent(spec: &AgentSpec, copies: u64) -> PyResult<()> {
    let AgentSpec::Search(p) = spec else {
        return Ok(());
    };
    let need = (u64::from(p.tt_mb) * copies) << 20;
    match available() {
        Some(have) if need > have => Err(PyValueError::new_err(format!(
            "{spec} needs {} MB for {} transposition table{}, more than the {} MB this \
             process can still allocate; give a smaller tt_mb",
            need >> 20,
            if copies == 1 { "its" } else { "their" },
            if copies == 1 { "" } else { "s" },
            have >> 20
        ))),
        _ => Ok(()),
    }
}

/// ValueError if the transposition tables a batch holds at once could not
/// be allocated now: every worker thread (`threads`, None: one per core, at
/// most one per game of `games`) plays one game at a time, with a table for
/// each of its `search` agents. Names the memory needed and what to lower.
pub(crate) fn check_batch_agents(
    specs: &[AgentSpec],
    threads: Option<usize>,
    games: u64,
) -> PyResult<()> {
    let per_game: u64 = specs
        .iter()
        .map(|s| match s {
            AgentSpec::Search(p) if p.tt => u64::from(p.tt_mb) << 20,
            _ => 0,
        })
        .sum();
    if per_game == 0 {
        return Ok(());
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let copies = (threads.unwrap_or(cores) as u64).min(games.max(1));
    let need = per_game.saturating_mul(copies);
    match available() {
        Some(have) if need > have => Err(PyValueError::new_err(format!(
            "{} need {} MB for their transposition tables ({} MB a game, {copies} game{} at \
             once on {copies} thread{}), more than the {} MB this process can still allocate; \
             give a smaller tt_mb or fewer threads",
            specs
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" and "),
            need >> 20,
            per_game >> 20,
            if copies == 1 { "" } else { "s" },
            if copies == 1 { "" } else { "s" },
            have >> 20
        ))),
        _ => Ok(()),
    }
}
