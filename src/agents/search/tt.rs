//! The transposition table: one entry per slot, two-slot buckets (a
//! depth-preferred slot and an always-replace slot), keyed by
//! [`crate::variants::Game::search_key`]. Entries carry the search
//! generation: an entry of an earlier search is never returned, so a search
//! does not depend on the searches before it (node-budget determinism)
//! and old entries are the first replaced.

use crate::board::Move;

/// What a stored value says about the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    Exact,
    /// The true value is at least the stored one (a fail high).
    Lower,
    /// The true value is at most the stored one (a fail low).
    Upper,
}

impl Bound {
    /// What fail-soft value `v` of a search in `(alpha, beta)` says.
    pub fn of(v: f64, alpha: f64, beta: f64) -> Bound {
        if v <= alpha {
            Bound::Upper
        } else if v >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        }
    }

    /// Whether a stored `v` with this bound settles a search in
    /// `(alpha, beta)`.
    pub fn cuts(self, v: f64, alpha: f64, beta: f64) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => v >= beta,
            Bound::Upper => v <= alpha,
        }
    }

    /// The bound of the negated value.
    pub fn flipped(self) -> Bound {
        match self {
            Bound::Exact => Bound::Exact,
            Bound::Lower => Bound::Upper,
            Bound::Upper => Bound::Lower,
        }
    }
}

#[derive(Clone, Copy)]
struct Entry {
    key: u64,
    value: f64,
    generation: u32,
    mv: Move,
    depth: i16,
    bound: Bound,
}

const EMPTY: Entry = Entry {
    key: 0,
    value: 0.0,
    generation: 0,
    mv: Move::NULL,
    depth: 0,
    bound: Bound::Exact,
};

/// A probe hit.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    pub value: f64,
    pub mv: Move,
    pub depth: i32,
    pub bound: Bound,
}

/// A fixed-size table (a power of two of buckets).
pub struct Table {
    slots: Vec<Entry>,
    mask: usize,
    generation: u32,
}

impl Table {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: u32) -> Table {
        let bytes = (mb as usize).max(1) << 20;
        let buckets = (bytes / (2 * std::mem::size_of::<Entry>()))
            .next_power_of_two()
            .max(2)
            / 2;
        Table {
            slots: vec![EMPTY; buckets * 2],
            mask: buckets - 1,
            generation: 1,
        }
    }

    /// Starts a new search: every entry stored so far is forgotten.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1).max(1);
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        ((key >> 32) as usize & self.mask) * 2
    }

    /// The entry of `key` stored in this search, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let b = self.bucket(key);
        for e in &self.slots[b..b + 2] {
            if e.key == key && e.generation == self.generation {
                return Some(Hit {
                    value: e.value,
                    mv: e.mv,
                    depth: e.depth as i32,
                    bound: e.bound,
                });
            }
        }
        None
    }

    /// Stores a result: the depth-preferred slot takes it when it is stale,
    /// the same key, or not deeper; otherwise the always-replace slot.
    pub fn store(&mut self, key: u64, depth: i32, value: f64, bound: Bound, mv: Move) {
        let b = self.bucket(key);
        let gen = self.generation;
        let first = self.slots[b];
        let slot = if first.generation != gen || first.key == key || first.depth as i32 <= depth {
            b
        } else {
            b + 1
        };
        let old = self.slots[slot];
        // Keep a known best move when the new result has none.
        let mv = if mv.is_null() && old.key == key && old.generation == gen {
            old.mv
        } else {
            mv
        };
        self.slots[slot] = Entry {
            key,
            value,
            generation: gen,
            mv,
            depth: depth.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            bound,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_of_an_earlier_search_are_not_returned() {
        let mut t = Table::new(1);
        t.store(42, 3, 1.5, Bound::Exact, Move::NULL);
        assert_eq!(t.probe(42).unwrap().value, 1.5);
        assert!(t.probe(43).is_none());
        t.new_search();
        assert!(t.probe(42).is_none());
    }

    #[test]
    fn a_deeper_entry_survives_a_shallower_one_of_another_key() {
        let mut t = Table::new(1);
        let a = 7u64 << 32;
        let b = a | 1; // same bucket, other key
        t.store(a, 8, 1.0, Bound::Exact, Move::NULL);
        t.store(b, 2, 2.0, Bound::Lower, Move::NULL);
        assert_eq!(t.probe(a).unwrap().depth, 8);
        assert_eq!(t.probe(b).unwrap().bound, Bound::Lower);
    }
}
