//! Pawn moves, in the three styles of [`PawnStyle`]: orthodox (every
//! pawn's pushes at once, en passant), Fluky's (one step forward, no double
//! step) and Cubic's (a double step from any rank, and two squares
//! diagonally forward over an empty square); and the split of targets into
//! promotions and ordinary moves.

use super::MoveSink;
use crate::board::attacks::*;
use crate::board::moves::MoveKind;
use crate::board::position::*;
use crate::board::types::*;

impl Position {
    /// Splits pawn targets into promotions (last rank) and ordinary moves.
    #[inline(always)]
    pub(crate) fn add_pawn_targets<S: MoveSink>(&self, from: Square, to: Bitboard, sink: &mut S) {
        let last = Bitboard::rank(self.geometry.last_rank(self.turn));
        let promo = to & last;
        if promo.any() {
            for &r in self.pawns.promotion_roles() {
                sink.add(from, promo, MoveKind::Promotion(r));
            }
        }
        sink.add(from, to & !last, MoveKind::Normal);
    }

    #[inline(always)]
    fn single_step(&self, from: Square) -> Bitboard {
        let b = Bitboard::from_square(from);
        let s = match self.turn {
            Color::White => b.up(),
            Color::Black => b.down(),
        };
        s & self.mask & !self.occupied()
    }

    /// Our pawns' moves (`ep`: the en-passant square, if one may be landed on).
    pub(super) fn gen_pawns_orthodox<S: MoveSink>(
        &self,
        king: Square,
        target: Bitboard,
        checkers: Bitboard,
        ep: Option<Square>,
        allowed: &impl Fn(Square) -> Bitboard,
        sink: &mut S,
    ) {
        let us = self.turn;
        let pawns = self.pieces(us, Role::Pawn);
        let theirs = self.by_color(us.other());
        // Pushes of all pawns at once; per pawn only its own bits are picked
        // out by rotating its square forward. No branch on the colour: the
        // side to move alternates every ply, which predicts badly. A
        // rotation that wraps past the board edge lands on a rank that
        // `singles`/`doubles` never contain.
        let white = (us as u64).wrapping_sub(1); // all ones for White, else 0
        let forward = |x: Bitboard| Bitboard(((x.0 << 8) & white) | ((x.0 >> 8) & !white));
        let double_rank = Bitboard::rank(
            3u32.wrapping_add((self.geometry.ranks as u32).wrapping_sub(7) & !(white as u32)) as u8,
        );
        let rot = 8 + (48 & !white) as u32;
        let empty = self.mask & !self.occupied();
        let last = Bitboard::rank(self.geometry.last_rank(us));
        let singles = forward(pawns) & empty;
        let doubles = forward(singles) & empty & double_rank;
        // Only the pawns with a move landing on `target` (quiescence asks
        // for captures and promotions: most pawns have none).
        let movers = if target == self.mask & !self.by_color(us) {
            pawns
        } else {
            let back = |x: Bitboard| Bitboard(((x.0 >> 8) & white) | ((x.0 << 8) & !white));
            pawns
                & (back(singles & target)
                    | back(back(doubles & target))
                    | pawn_attack_sources(us, theirs & target))
        };
        for from in movers {
            let pin = allowed(from);
            let b = Bitboard::from_square(from).0;
            let one = Bitboard(b.rotate_left(rot)) & singles;
            let two = Bitboard(b.rotate_left(2 * rot % 64)) & doubles;
            let caps = pawn_attacks(us, from) & theirs;
            let to = (one | caps) & target & pin;
            let two = two & target & pin;
            if (to & last).any() {
                self.add_pawn_targets(from, to, sink);
                sink.add(from, two, MoveKind::DoublePush);
            } else {
                sink.add_pawn(from, rot, to, two);
            }
        }
        if let Some(ep) = ep {
            // The captured pawn may be the checker even if `ep` is not in `target`.
            let cap_sq = match us {
                Color::White => ep - 8,
                Color::Black => ep + 8,
            };
            if checkers.any() && !target.contains(ep) && !checkers.contains(cap_sq) {
                return;
            }
            for from in pawn_attacks(us.other(), ep) & pawns {
                if self.ep_is_legal(from, ep, king) {
                    sink.add(from, Bitboard::from_square(ep), MoveKind::EnPassant);
                }
            }
        }
    }

    pub(super) fn gen_pawns_fluky<S: MoveSink>(
        &self,
        pawns: Bitboard,
        target: Bitboard,
        allowed: &impl Fn(Square) -> Bitboard,
        sink: &mut S,
    ) {
        let us = self.turn;
        let theirs = self.by_color(us.other());
        for from in pawns {
            let to = (self.single_step(from) | (pawn_attacks(us, from) & theirs))
                & target
                & allowed(from);
            self.add_pawn_targets(from, to, sink);
        }
    }

    pub(super) fn gen_pawns_cubic<S: MoveSink>(
        &self,
        pawns: Bitboard,
        target: Bitboard,
        allowed: &impl Fn(Square) -> Bitboard,
        sink: &mut S,
    ) {
        let us = self.turn;
        let theirs = self.by_color(us.other());
        let empty = self.mask & !self.occupied();
        let dr: i8 = if us == Color::White { 1 } else { -1 };
        for from in pawns {
            let one = self.single_step(from);
            let mut to = one | (pawn_attacks(us, from) & theirs);
            if one.any() {
                let two = match us {
                    Color::White => one.up(),
                    Color::Black => one.down(),
                };
                to |= two & empty;
            }
            let (f, r) = (file_of(from) as i8, rank_of(from) as i8);
            for df in [-1i8, 1] {
                let (f1, r1, f2, r2) = (f + df, r + dr, f + 2 * df, r + 2 * dr);
                let on = |ff: i8, rr: i8| {
                    ff >= 0
                        && rr >= 0
                        && (ff as u8) < self.geometry.files
                        && (rr as u8) < self.geometry.ranks
                };
                if on(f2, r2) && on(f1, r1) {
                    let s1 = square(f1 as u8, r1 as u8);
                    let s2 = square(f2 as u8, r2 as u8);
                    if empty.contains(s1) && empty.contains(s2) {
                        to = to.with(s2);
                    }
                }
            }
            sink.add(from, to & target & allowed(from), MoveKind::Normal);
        }
    }
}
