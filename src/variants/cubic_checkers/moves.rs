//! Cubic Checkers move generation (docs/rules.md §7): flying diagonal moves and
//! flying jumps with the maximum-capture rule, one landing at a time.

use crate::board::attacks::{between, bishop_attacks, line};
use crate::board::{Bitboard, Move, MoveKind, MoveList, MoveSink, Square};
use crate::variants::legal_cache::LegalCache;

/// Where decisions are written: a caller's list, or the game's cache of the
/// next decision's moves (filled by `play`).
pub trait Decisions: MoveSink {
    fn clear(&mut self);
    fn push(&mut self, m: Move);
}

impl Decisions for MoveList {
    #[inline(always)]
    fn clear(&mut self) {
        MoveList::clear(self)
    }
    #[inline(always)]
    fn push(&mut self, m: Move) {
        MoveList::push(self, m)
    }
}

impl Decisions for LegalCache {
    #[inline(always)]
    fn clear(&mut self) {
        self.start()
    }
    #[inline(always)]
    fn push(&mut self, m: Move) {
        LegalCache::push(self, m)
    }
}

/// The board as the jump generator sees it: every cube (jumped ones stay as
/// obstacles), the enemy cubes, and those already jumped in this move.
#[derive(Clone, Copy)]
pub struct JumpBoard {
    pub occ: Bitboard,
    pub theirs: Bitboard,
    pub jumped: Bitboard,
}

impl JumpBoard {
    /// Calls `f(landing, jumped_square)` for every single jump of the cube on
    /// `from`: along a diagonal over empty squares, across one enemy cube not
    /// jumped yet, onto any empty square behind it.
    #[inline]
    pub fn for_each_jump(&self, from: Square, mut f: impl FnMut(Square, Square)) {
        // The first cube on each diagonal (flying over empty squares), kept
        // only when the square right behind it is empty (the others have
        // no landing: skipping them spares the loop its mispredicted turns).
        let empty = !self.occ.0;
        let ray = &RAYS[from as usize];
        let open = ray[0] & step(empty, 3)
            | ray[1] & step(empty, 2)
            | ray[2] & step(empty, 1)
            | ray[3] & step(empty, 0);
        let firsts = bishop_attacks(from, self.occ) & self.theirs & !self.jumped & Bitboard(open);
        for x in firsts {
            // Empty squares behind `x`, away from `from`, up to the next cube.
            let behind = bishop_attacks(x, self.occ) & line(from, x) & !between(from, x);
            for land in behind & !self.occ {
                f(land, x);
            }
        }
    }

    /// The board after the cube on `from` jumped `x` landing on `to`.
    #[inline(always)]
    pub fn after(&self, from: Square, to: Square, x: Square) -> JumpBoard {
        JumpBoard {
            occ: self.occ.without(from).with(to),
            theirs: self.theirs,
            jumped: self.jumped.with(x),
        }
    }

    /// The most cubes the cube on `from` can still jump in this move.
    pub fn longest(&self, from: Square) -> u32 {
        // No path can jump more than the enemy cubes not jumped yet.
        let cap = (self.theirs & !self.jumped).count();
        let mut best = 0;
        self.for_each_jump(from, |to, x| {
            if best < cap {
                best = best.max(1 + self.after(from, to, x).longest(to));
            }
        });
        best
    }

    /// Adds the first landings of the longest jumps of the cube on `from`
    /// when they jump at least `*best` cubes (clearing `out` when a longer
    /// one raises `*best`).
    pub fn add_longest(&self, from: Square, best: &mut u32, out: &mut impl Decisions) {
        self.for_each_jump(from, |to, x| {
            let n = 1 + self.after(from, to, x).longest(to);
            if n > *best {
                *best = n;
                out.clear();
            }
            if n == *best {
                out.push(Move::new(from, to, MoveKind::Normal));
            }
        });
    }

    /// Whether the cube on `from` can still jump `n` cubes or more.
    pub fn reaches(&self, from: Square, n: u32) -> bool {
        let mut found = n == 0;
        self.for_each_jump(from, |to, x| {
            found = found || self.after(from, to, x).reaches(to, n - 1);
        });
        found
    }

    /// Adds the landings of the cube on `from` that lie on a jump of `left`
    /// cubes, `left` being the most it can jump (known from the decision
    /// before: the first landing of a longest jump leaves one fewer). The
    /// same moves, in the same order, as `add_longest`, without working out
    /// each landing's longest jump: with one cube left every landing ends the
    /// move, else a landing qualifies as soon as one path is long enough.
    pub fn add_continuations(&self, from: Square, left: u32, out: &mut impl Decisions) {
        self.for_each_jump(from, |to, x| {
            if left == 1 || self.after(from, to, x).reaches(to, left - 1) {
                out.push(Move::new(from, to, MoveKind::Normal));
            }
        });
    }

    /// Writes the first decisions of a move into `out`: the first landings
    /// of the longest jumps of the cubes on `active` when jumping is allowed
    /// (`jumps`) and any cube can jump, else their plain moves. Returns the
    /// most cubes the move must jump (0 for a plain move).
    pub fn add_first(&self, active: Bitboard, jumps: bool, out: &mut impl Decisions) -> u32 {
        out.clear();
        let mut best = 0;
        if jumps {
            let jumpers = self.jumpers(active);
            debug_assert_eq!(
                jumpers,
                Bitboard(
                    active
                        .filter(|&sq| self.can_jump(sq))
                        .fold(0, |m, sq| m | 1 << sq)
                )
            );
            // Cubes without a jump add nothing: skip their search.
            for from in jumpers {
                self.add_longest(from, &mut best, out);
            }
        }
        if best == 0 {
            add_plain(active, self.occ, out);
        }
        best
    }

    /// Whether the cube on `from` has any jump.
    pub fn can_jump(&self, from: Square) -> bool {
        let mut any = false;
        self.for_each_jump(from, |_, _| any = true);
        any
    }

    /// The cubes on `movers` that have a jump, found for all of them at once
    /// with shifts (the same set as `can_jump` one by one): a cube can jump
    /// along a direction when empty squares lead it to an enemy cube not
    /// jumped yet with an empty square right behind it.
    pub fn jumpers(&self, movers: Bitboard) -> Bitboard {
        let empty = !self.occ.0;
        let targets = (self.theirs & !self.jumped).0;
        let mut out = 0;
        for d in 0..4 {
            let back = 3 - d;
            let jumpable = targets & step(empty, back);
            // Empty squares from which `d` runs over empty squares into a
            // jumpable cube: an occluded fill (Kogge-Stone: runs of 1, 2, 4
            // squares), branch-free where a loop until nothing changes
            // mispredicts its varying exit.
            let mut run = step(jumpable, back) & empty;
            let mut pass = empty & step(empty, back);
            run |= step(run, back) & empty;
            run |= step(step(run, back), back) & pass;
            pass &= step(step(pass, back), back);
            run |= step(step(step(step(run, back), back), back), back) & pass;
            out |= step(jumpable | run, back);
        }
        movers & Bitboard(out)
    }
}

/// Each square's four diagonal rays (the square itself excluded), in
/// `step`'s order of directions.
static RAYS: [[u64; 4]; 64] = rays();

const fn rays() -> [[u64; 4]; 64] {
    let mut t = [[0; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 4 {
            let mut b = step(1 << sq, d);
            while b != 0 {
                t[sq][d] |= b;
                b = step(b, d);
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

/// Shifts every square one step along diagonal direction `d` (NE, NW, SE,
/// SW; `3 - d` is the opposite one), dropping those that leave the board.
#[inline(always)]
const fn step(b: u64, d: usize) -> u64 {
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    match d {
        0 => (b & NOT_H) << 9,
        1 => (b & NOT_A) << 7,
        2 => (b & NOT_H) >> 7,
        _ => (b & NOT_A) >> 9,
    }
}

/// Plain moves of the cubes on `movers`: any number of empty squares along a
/// diagonal.
pub fn add_plain(movers: Bitboard, occ: Bitboard, out: &mut impl MoveSink) {
    for from in movers {
        // Branch-free writes (a loop over the targets mispredicts its exit).
        out.add(from, bishop_attacks(from, occ) & !occ, MoveKind::Normal);
    }
}
