//! The transposition table: one entry per slot, two-slot buckets (a
//! depth-preferred slot and an always-replace slot), keyed by
//! [`crate::variants::Game::search_key`]. Entries carry the search
//! generation: an entry of an earlier search is not returned, so a search
//! does not depend on the searches before it (node-budget determinism),
//! unless the table is told to keep them (`search:keep=1`, for the moves of
//! one game); either way old entries are the first replaced.

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
    /// The node's static value for its mover (NaN: not known), so that a
    /// later visit need not evaluate the board again.
    eval: f64,
    generation: u16,
    /// The best move, or [`NO_MOVE`] for none.
    mv: Move,
    depth: i16,
    bound: Bound,
}

const _: () = assert!(std::mem::size_of::<Entry>() == 32);

/// An entry's move when it has none. Not [`Move::NULL`]: that is a
/// Vegas pass, which can be a node's best move. No move encodes to it
/// (kind 15 is unused).
const NO_MOVE: Move = Move(u16::MAX);

const EMPTY: Entry = Entry {
    key: 0,
    value: 0.0,
    eval: f64::NAN,
    generation: 0,
    mv: NO_MOVE,
    depth: 0,
    bound: Bound::Exact,
};

/// A probe hit.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    pub value: f64,
    /// The static value stored with it (NaN: none).
    pub eval: f64,
    /// The best move stored (none for a fail-low).
    pub mv: Option<Move>,
    pub depth: i32,
    pub bound: Bound,
}

/// Two entries on one cache line: a probe reads one line, not two (a
/// `Vec<Entry>` starts wherever the allocator puts it, 16 bytes into a page
/// for a large one, so its buckets straddled lines).
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Bucket([Entry; 2]);

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

/// A fixed-size table (a power of two of buckets).
pub struct Table {
    /// The buckets are `storage[start..start + mask + 1]`: on Linux a table
    /// of 2 MiB or more starts on a 2 MiB boundary and asks for huge pages
    /// (a probe at a random bucket then rarely misses the TLB).
    storage: Vec<Bucket>,
    start: usize,
    mask: usize,
    generation: u16,
    /// Whether entries of earlier searches are returned too.
    keep: bool,
    /// The first generation of the game being played: entries of earlier
    /// games are never returned, even with `keep` ([`Table::forget`]).
    floor: u16,
}

/// A huge page (Linux on x86-64, and on aarch64 with 4 KiB base pages).
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

/// `n` empty buckets in a vector, and where the table starts in it.
fn allocate(n: usize) -> (Vec<Bucket>, usize) {
    #[cfg(target_os = "linux")]
    if n * std::mem::size_of::<Bucket>() >= HUGE_PAGE {
        return allocate_huge(n);
    }
    (vec![Bucket([EMPTY; 2]); n], 0)
}

/// [`allocate`] on a huge-page boundary, with huge pages asked for.
#[cfg(target_os = "linux")]
fn allocate_huge(n: usize) -> (Vec<Bucket>, usize) {
    let size = std::mem::size_of::<Bucket>();
    // Room to start on a boundary: the slack before the start is written
    // (ordinary pages), the slack after it never touched.
    let mut v: Vec<Bucket> = Vec::with_capacity(n + HUGE_PAGE / size);
    let addr = v.as_ptr() as usize;
    let start = (addr.next_multiple_of(HUGE_PAGE) - addr) / size;
    // SAFETY: the range lies inside `v`'s allocation (capacity n + slack
    // buckets, start < slack); madvise only advises how to back it, before
    // any of it is written, and a failure leaves ordinary pages.
    unsafe {
        libc::madvise(
            v.as_mut_ptr().add(start).cast(),
            n * size,
            libc::MADV_HUGEPAGE,
        );
    }
    v.resize(start + n, Bucket([EMPTY; 2]));
    (v, start)
}

/// Storage of dropped tables, for the next tables of the same size.
///
/// A new table's pages cost the kernel a fault and a zeroing each, and
/// this costs more than emptying a used table in place: 8% of a Dice
/// Chess match at 10,000 nodes a move (two new engines a game) went to
/// the kernel's page zeroing (`perf`, 2026-12-04). A reused table is
/// emptied entry by entry, so it holds what a new one does and searches
/// see the same trees. At most [`spare::MAX`] bytes are kept, process-wide.
mod spare {
    use super::{Bucket, EMPTY};
    use std::sync::Mutex;

    /// Bytes kept at most: four tables of the default 16 MiB, each with
    /// its 2 MiB of alignment slack; a table that would not fit (a large
    /// `tt_mb`) goes back to the allocator when it is dropped.
    pub const MAX: usize = 4 * (18 << 20);

    static SPARE: Mutex<Vec<(Vec<Bucket>, usize)>> = Mutex::new(Vec::new());

    /// A kept table of `buckets` buckets, emptied.
    pub fn take(buckets: usize) -> Option<(Vec<Bucket>, usize)> {
        let mut spare = SPARE.lock().ok()?;
        let i = spare
            .iter()
            .position(|(v, start)| v.len() - start == buckets)?;
        let (mut v, start) = spare.swap_remove(i);
        drop(spare);
        v[start..].fill(Bucket([EMPTY; 2]));
        Some((v, start))
    }

    /// Keeps a dropped table's storage, if the kept ones stay within
    /// [`MAX`] bytes.
    pub fn give(storage: Vec<Bucket>, start: usize) {
        let bytes = |v: &Vec<Bucket>| v.capacity() * std::mem::size_of::<Bucket>();
        if let Ok(mut spare) = SPARE.lock() {
            let kept: usize = spare.iter().map(|(v, _)| bytes(v)).sum();
            if kept + bytes(&storage) <= MAX {
                spare.push((storage, start));
            }
        }
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        spare::give(std::mem::take(&mut self.storage), self.start);
    }
}

impl Table {
    /// A table of `mb` MiB, rounded down to a power of two (at least one
    /// bucket). (Until 2026-12-02 a power of two was halved: `tt_mb=16`
    /// gave 8 MiB.)
    pub fn new(mb: u32) -> Table {
        let bytes = (mb as usize).max(1) << 20;
        let fit = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let buckets = 1usize << (usize::BITS - 1 - fit.leading_zeros());
        let (storage, start) = spare::take(buckets).unwrap_or_else(|| allocate(buckets));
        Table {
            storage,
            start,
            mask: buckets - 1,
            generation: 1,
            keep: false,
            floor: 1,
        }
    }

    /// Starts a new search: every entry stored so far is forgotten, or,
    /// with `keep`, still returned but replaced before this search's.
    pub fn new_search(&mut self, keep: bool) {
        self.keep = keep;
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // The generations wrapped (every 65,535 searches): empty the
            // table, so that no entry of an earlier search can match.
            self.storage.fill(Bucket([EMPTY; 2]));
            self.generation = 1;
            self.floor = 1;
        }
    }

    /// A new game starts: what the searches so far stored is not returned
    /// again, even with `keep` (the next search's entries are).
    pub fn forget(&mut self) {
        // After generation 65,535 the next search empties the table.
        self.floor = self.generation.wrapping_add(1).max(1);
    }

    /// Whether an entry stored in `generation` may be returned (0, never
    /// written, is below every floor).
    #[inline]
    fn live(&self, generation: u16) -> bool {
        generation == self.generation || (self.keep && generation >= self.floor)
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        self.start + ((key >> 32) as usize & self.mask)
    }

    /// Starts loading the bucket of `key` into the cache, for a probe a
    /// little later (a hint: no effect on what the table holds).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = &self.storage[self.bucket(key)] as *const Bucket as *const i8;
            // SAFETY: SSE is part of every x86-64 CPU, and a prefetch of
            // any address (here one inside the table) never faults.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry of `key` stored in this search, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let b = self.bucket(key);
        for e in &self.storage[b].0 {
            if e.key == key && self.live(e.generation) {
                return Some(Hit {
                    value: e.value,
                    eval: e.eval,
                    mv: (e.mv != NO_MOVE).then_some(e.mv),
                    depth: e.depth as i32,
                    bound: e.bound,
                });
            }
        }
        None
    }

    /// Stores a result (with the node's static value `eval`, NaN when not
    /// known): the depth-preferred slot takes it when it is stale, the same
    /// key, or not deeper; otherwise the always-replace slot.
    pub fn store(
        &mut self,
        key: u64,
        depth: i32,
        value: f64,
        bound: Bound,
        mv: Option<Move>,
        eval: f64,
    ) {
        let b = self.bucket(key);
        let gen = self.generation;
        let first = self.storage[b].0[0];
        let slot = if first.generation != gen || first.key == key || first.depth as i32 <= depth {
            0
        } else {
            1
        };
        let old = self.storage[b].0[slot];
        let same = old.key == key && self.live(old.generation);
        // Keep a known best move and static value when the new result has
        // none.
        let mv = match mv {
            Some(m) => m,
            None if same => old.mv,
            None => NO_MOVE,
        };
        let eval = if eval.is_nan() && same {
            old.eval
        } else {
            eval
        };
        self.storage[b].0[slot] = Entry {
            key,
            value,
            eval,
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
        t.store(42, 3, 1.5, Bound::Exact, None, f64::NAN);
        assert_eq!(t.probe(42).unwrap().value, 1.5);
        assert!(t.probe(43).is_none());
        t.new_search(false);
        assert!(t.probe(42).is_none());
    }

    #[test]
    fn a_pass_is_a_best_move_and_none_keeps_the_known_one() {
        let mut t = Table::new(1);
        t.store(42, 1, 0.5, Bound::Upper, None, f64::NAN);
        assert_eq!(t.probe(42).unwrap().mv, None);
        // A Vegas pass (Move::NULL) found best is stored as that move.
        t.store(42, 2, 1.0, Bound::Exact, Some(Move::NULL), f64::NAN);
        assert_eq!(t.probe(42).unwrap().mv, Some(Move::NULL));
        // A later fail-low of the same state keeps it.
        t.store(42, 3, 0.0, Bound::Upper, None, f64::NAN);
        assert_eq!(t.probe(42).unwrap().mv, Some(Move::NULL));
        let m = Move::new(12, 28, crate::board::MoveKind::DoublePush);
        t.store(42, 4, 2.0, Bound::Lower, Some(m), f64::NAN);
        assert_eq!(t.probe(42).unwrap().mv, Some(m));
    }

    #[test]
    fn kept_entries_are_returned_until_a_new_game() {
        let mut t = Table::new(1);
        t.new_search(true);
        t.store(42, 3, 1.5, Bound::Exact, None, 7.0);
        t.new_search(true);
        let h = t.probe(42).unwrap();
        assert_eq!((h.value, h.eval, h.depth), (1.5, 7.0, 3));
        // A result without a static value keeps the kept one's.
        t.store(42, 5, -1.0, Bound::Lower, None, f64::NAN);
        assert_eq!(t.probe(42).unwrap().eval, 7.0);
        // An older entry is the first replaced: in the next search a
        // shallower result of another key in its bucket takes its slot.
        t.new_search(true);
        t.store(42 ^ 1, 1, 2.5, Bound::Exact, None, f64::NAN);
        assert!(t.probe(42).is_none());
        assert_eq!(t.probe(42 ^ 1).unwrap().value, 2.5);
        t.forget();
        t.new_search(true);
        assert!(t.probe(42).is_none());
        t.store(43, 1, 0.5, Bound::Upper, None, f64::NAN);
        t.new_search(true);
        assert_eq!(t.probe(43).unwrap().value, 0.5);
        assert!(t.probe(42).is_none());
    }

    #[test]
    fn a_forgotten_game_stays_forgotten_when_the_generations_wrap() {
        let mut t = Table::new(1);
        for _ in 0..u16::MAX - 1 {
            t.new_search(true);
        }
        assert_eq!(t.generation, u16::MAX);
        t.store(42, 3, 1.5, Bound::Exact, None, f64::NAN);
        t.forget();
        t.new_search(true);
        assert_eq!((t.generation, t.floor), (1, 1));
        assert!(t.probe(42).is_none());
    }

    /// A dropped table's storage serves the next table of its size, which
    /// starts as empty as a new one (no test here but this uses 2 MiB).
    #[test]
    fn a_reused_table_starts_empty() {
        let mut t = Table::new(2);
        for k in 0..5000u64 {
            let key = k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            t.store(key, 3, k as f64, Bound::Lower, None, 1.0);
        }
        t.new_search(false);
        t.store(7, 3, 1.5, Bound::Exact, None, 2.0);
        let storage = t.storage[t.start..].as_ptr();
        drop(t);
        let u = Table::new(2);
        assert_eq!(u.storage[u.start..].as_ptr(), storage, "not reused");
        assert_eq!(u.generation, 1);
        assert!(u.probe(7).is_none());
        for b in &u.storage[u.start..] {
            for e in &b.0 {
                assert_eq!(
                    (e.key, e.generation, e.depth, e.eval.is_nan()),
                    (0, 0, 0, true)
                );
            }
        }
    }

    #[test]
    fn a_large_table_starts_on_a_huge_page_and_keeps_every_bucket() {
        let mut t = Table::new(8);
        let n = t.mask + 1;
        assert_eq!(n * std::mem::size_of::<Bucket>(), 8 << 20);
        // Sizes that are no power of two are rounded down.
        assert_eq!(Table::new(12).mask + 1, n);
        assert_eq!(t.storage.len(), t.start + n);
        let first = t.storage[t.start..].as_ptr() as usize;
        assert_eq!(first % 64, 0);
        #[cfg(target_os = "linux")]
        assert_eq!(first % HUGE_PAGE, 0);
        // The first and the last bucket hold their own keys.
        let (lo, hi) = (5u64, ((n as u64 - 1) << 32) | 9);
        t.store(lo, 1, 1.0, Bound::Exact, None, f64::NAN);
        t.store(hi, 2, 2.0, Bound::Lower, None, f64::NAN);
        assert_eq!(t.probe(lo).unwrap().value, 1.0);
        assert_eq!(t.probe(hi).unwrap().value, 2.0);
        assert!(t.probe(hi ^ 1).is_none());
    }

    #[test]
    fn the_static_value_is_kept_until_a_result_brings_its_own() {
        let mut t = Table::new(1);
        t.store(42, 3, 1.5, Bound::Exact, None, 25.25);
        assert_eq!(t.probe(42).unwrap().eval, 25.25);
        // A later result without a static value keeps the stored one.
        t.store(42, 4, 2.5, Bound::Lower, None, f64::NAN);
        let h = t.probe(42).unwrap();
        assert_eq!((h.value, h.eval, h.depth), (2.5, 25.25, 4));
        t.store(42, 5, 3.5, Bound::Exact, None, -7.0);
        assert_eq!(t.probe(42).unwrap().eval, -7.0);
        // Another key's entry has none.
        t.store(43, 1, 0.0, Bound::Upper, None, f64::NAN);
        assert!(t.probe(43).unwrap().eval.is_nan());
    }

    #[test]
    fn entries_are_forgotten_when_the_generations_wrap() {
        let mut t = Table::new(1);
        t.store(42, 3, 1.5, Bound::Exact, None, 1.0);
        let first = t.generation;
        // 65,535 searches later the generation counter (1 to 65,535) is
        // back where it was: the entry must not come back with it.
        for _ in 0..u16::MAX {
            t.new_search(false);
        }
        assert_eq!(t.generation, first);
        assert!(t.probe(42).is_none());
        t.store(42, 3, 1.5, Bound::Exact, None, 1.0);
        assert_eq!(t.probe(42).unwrap().value, 1.5);
    }

    #[test]
    fn a_deeper_entry_survives_a_shallower_one_of_another_key() {
        let mut t = Table::new(1);
        let a = 7u64 << 32;
        let b = a | 1; // same bucket, other key
        t.store(a, 8, 1.0, Bound::Exact, None, f64::NAN);
        t.store(b, 2, 2.0, Bound::Lower, None, f64::NAN);
        assert_eq!(t.probe(a).unwrap().depth, 8);
        assert_eq!(t.probe(b).unwrap().bound, Bound::Lower);
    }
}
