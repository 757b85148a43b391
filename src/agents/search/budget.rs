//! When a search stops: an exact node count (deterministic), a deadline
//! (for play), the shared interrupt token ([`crate::interrupt`]: Ctrl-C
//! from Python) or a poll callback.

use std::time::{Duration, Instant};

/// Nodes between deadline and poll checks.
const CHECK_EVERY: u64 = 1024;

/// A callback asked every few thousand nodes; `true` stops the search.
pub type Poll = Box<dyn FnMut() -> bool + Send + Sync>;

pub struct Budget {
    node_limit: Option<u64>,
    deadline: Option<Instant>,
    poll: Option<Poll>,
}

impl Budget {
    pub fn new(node_limit: Option<u64>, ms: Option<u64>, poll: Option<Poll>) -> Budget {
        Budget {
            node_limit,
            deadline: ms.map(|ms| Instant::now() + Duration::from_millis(ms)),
            poll,
        }
    }

    /// Whether the search must stop after `nodes` nodes. The node limit
    /// is checked at every node, so a node-limited search is exact.
    #[inline]
    pub fn exhausted(&mut self, nodes: u64) -> bool {
        if self.node_limit.is_some_and(|l| nodes >= l) {
            return true;
        }
        if nodes % CHECK_EVERY != 0 {
            return false;
        }
        if crate::interrupt::requested() {
            return true;
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return true;
        }
        if nodes % (16 * CHECK_EVERY) == 0 {
            if let Some(p) = self.poll.as_mut() {
                return p();
            }
        }
        false
    }
}
