//! Whether a vector env's outputs and opponents fit in memory, checked
//! before anything is allocated (a failed Rust allocation aborts the process).

use super::opponent::{Member, Pool};
use super::Slot;
use crate::variants::{api, AnyGame, Game, GameError};
use crate::with_game;

/// The bytes this process may use: the least of the physical memory, what
/// the address-space limit (`ulimit -v`) leaves of it, and the cgroup's
/// `memory.max`; None where none is known.
pub fn memory_limit() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        let mut limit: Option<u64> = None;
        let mut least = |v: u64| limit = Some(limit.map_or(v, |l| l.min(v)));
        // SAFETY: sysconf and getrlimit only read process settings.
        unsafe {
            let (pages, page) = (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
            );
            if pages > 0 && page > 0 {
                least(pages as u64 * page as u64);
            }
            let mut r = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            if libc::getrlimit(libc::RLIMIT_AS, &mut r) == 0 && r.rlim_cur != libc::RLIM_INFINITY {
                // The address space already taken (`/proc/self/statm`'s first field).
                let used = std::fs::read_to_string("/proc/self/statm")
                    .ok()
                    .and_then(|t| t.split_whitespace().next()?.parse::<u64>().ok())
                    .map_or(0, |p| p * page.max(0) as u64);
                #[allow(clippy::unnecessary_cast)] // rlim_t is not u64 on every target
                let cur = r.rlim_cur as u64;
                least(cur.saturating_sub(used));
            }
        }
        if let Ok(text) = std::fs::read_to_string("/sys/fs/cgroup/memory.max") {
            if let Ok(v) = text.trim().parse::<u64>() {
                least(v);
            }
        }
        limit
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// Refuses, before anything is allocated, `num_envs` envs whose outputs
/// and opponents could never fit in [`memory_limit`], with the memory they
/// would need in the message. A pool's built-in members are built in an env
/// when first drawn there and then kept, so over a long run every env holds
/// one agent (a `search` agent's table each) per member it can draw.
pub(super) fn check_memory(
    proto: &AnyGame,
    num_envs: usize,
    pool: Option<&Pool>,
) -> Result<(), GameError> {
    let (obs_len, num_actions) = with_game!(proto, g => (
        api::observation_shape(g).iter().product::<usize>() as u64,
        g.layout().num_actions() as u64,
    ));
    // Observations (and same-step final observations), masks, the rest.
    let outputs = 2 * 4 * obs_len + num_actions + 64;
    let per_opponent: u64 = pool.map_or(0, |p| {
        p.drawable()
            .map(|m| match m {
                Member::Agent(s) => super::super::episode::opponent_bytes(s),
                Member::External => 0,
            })
            .sum()
    });
    let each = outputs + per_opponent + std::mem::size_of::<Slot>() as u64;
    let need = each.saturating_mul(num_envs as u64);
    let table = if pool.is_some_and(|p| p.len() > 1) {
        ", most of it the opponents' search tables (one per pool member an env can draw)"
    } else {
        ", most of it the opponent's search table"
    };
    match memory_limit() {
        Some(have) if need > have => Err(GameError::new(format!(
            "{num_envs} envs{} need about {} MB ({:.2} MB each{}), more than the {} MB this \
             process may use (physical memory, ulimit -v, cgroup); use fewer envs{}",
            pool.map_or(String::new(), |p| format!(" with opponent {p}")),
            need >> 20,
            each as f64 / (1 << 20) as f64,
            if per_opponent > 1 << 20 { table } else { "" },
            have >> 20,
            if per_opponent > 1 << 20 {
                ", a smaller tt_mb, or a node budget (search:nodes=N sizes the table to fit)"
            } else {
                ""
            },
        ))),
        _ => Ok(()),
    }
}
