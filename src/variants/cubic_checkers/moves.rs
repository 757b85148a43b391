//! Cubic Checkers move generation (docs/rules.md §7): flying diagonal moves and
//! flying jumps with the maximum-capture rule, one landing at a time.

use crate::board::attacks::{between, bishop_attacks, line};
use crate::board::{Bitboard, Move, MoveKind, MoveList, Square};

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
        // The first cube on each diagonal (flying over empty squares).
        let firsts = bishop_attacks(from, self.occ) & self.theirs & !self.jumped;
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
    pub fn add_longest(&self, from: Square, best: &mut u32, out: &mut MoveList) {
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

    /// Whether the cube on `from` has any jump.
    pub fn can_jump(&self, from: Square) -> bool {
        let mut any = false;
        self.for_each_jump(from, |_, _| any = true);
        any
    }
}

/// Plain moves of the cubes on `movers`: any number of empty squares along a
/// diagonal.
pub fn add_plain(movers: Bitboard, occ: Bitboard, out: &mut MoveList) {
    for from in movers {
        for to in bishop_attacks(from, occ) & !occ {
            out.push(Move::new(from, to, MoveKind::Normal));
        }
    }
}

/// Whether any cube on `movers` has a plain move (an empty diagonal neighbour).
pub fn any_plain(movers: Bitboard, occ: Bitboard) -> bool {
    let mut movers = movers;
    Iterator::any(&mut movers, |from| (bishop_attacks(from, occ) & !occ).any())
}
