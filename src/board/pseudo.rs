//! Pseudo-legal move generation: the pieces' moves without regard to the
//! mover's own king (variants without check, e.g. three-dice DiceChess,
//! where a king may stand on an attacked square and is captured instead).
//! Castling keeps its orthodox conditions: the king is not attacked and does
//! not pass through or land on an attacked square.

use super::attacks::*;
use super::movegen::{AnyMove, MoveSink};
use super::moves::{MoveKind, MoveList, KING_DELTAS, KNIGHT_DELTAS};
use super::position::*;
use super::types::*;

impl Position {
    /// Pseudo-legal moves of pieces whose role is in `roles` (castling is a
    /// king move, a promotion a pawn move; en passant whenever the position
    /// has an en-passant square).
    pub fn pseudo_moves_of(&self, roles: RoleSet, out: &mut MoveList) {
        out.clear();
        self.generate_pseudo(roles, out);
    }

    /// Whether a pseudo-legal move of the given roles exists.
    pub fn has_pseudo_move_of(&self, roles: RoleSet) -> bool {
        let mut a = AnyMove(false);
        self.generate_pseudo(roles, &mut a);
        a.0
    }

    /// The pseudo-legal generator (see the module doc).
    pub fn generate_pseudo<S: MoveSink>(&self, roles: RoleSet, sink: &mut S) {
        let us = self.turn;
        let ours = self.by_color(us);
        let occ = self.occupied();
        let target = self.mask & !ours;
        sink.begin_role(Role::Pawn);
        if roles.contains(Role::Pawn) {
            self.pseudo_pawns(sink);
        }
        sink.begin_role(Role::Knight);
        if roles.contains(Role::Knight) {
            for from in self.pieces(us, Role::Knight) {
                sink.add_leaper(from, knight_attacks(from) & target, &KNIGHT_DELTAS);
            }
        }
        if sink.done() {
            return;
        }
        sink.begin_role(Role::Bishop);
        if roles.contains(Role::Bishop) {
            for from in self.pieces(us, Role::Bishop) {
                sink.add(from, bishop_attacks(from, occ) & target, MoveKind::Normal);
            }
        }
        sink.begin_role(Role::Rook);
        if roles.contains(Role::Rook) {
            for from in self.pieces(us, Role::Rook) {
                sink.add(from, rook_attacks(from, occ) & target, MoveKind::Normal);
            }
        }
        sink.begin_role(Role::Queen);
        if roles.contains(Role::Queen) {
            for from in self.pieces(us, Role::Queen) {
                sink.add(from, queen_attacks(from, occ) & target, MoveKind::Normal);
            }
        }
        sink.begin_role(Role::King);
        if roles.contains(Role::King) && !sink.done() {
            if let Some(king) = self.king(us) {
                sink.add_leaper(king, king_attacks(king) & target, &KING_DELTAS);
                if self.castling != 0 && !self.is_attacked(king, us.other()) {
                    self.gen_castling(king, sink);
                }
            }
        }
    }

    fn pseudo_pawns<S: MoveSink>(&self, sink: &mut S) {
        let us = self.turn;
        let pawns = self.pieces(us, Role::Pawn);
        if pawns.is_empty() {
            return;
        }
        let theirs = self.by_color(us.other());
        // As the legal generator's pawns: pushes of all pawns at once, each
        // pawn's picked out by rotating its square forward, no branch on
        // the colour (it alternates), and the moves written branch-free
        // (`add_pawn`) unless the pawn promotes.
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
        for from in pawns {
            let b = Bitboard::from_square(from).0;
            let one = Bitboard(b.rotate_left(rot)) & singles;
            let two = Bitboard(b.rotate_left(2 * rot % 64)) & doubles;
            let to = one | (pawn_attacks(us, from) & theirs);
            if (to & last).any() {
                self.add_pawn_targets(from, to, sink);
                sink.add(from, two, MoveKind::DoublePush);
            } else {
                sink.add_pawn(from, rot, to, two);
            }
        }
        if let Some(ep) = self.ep_square() {
            for from in pawn_attacks(us.other(), ep) & pawns {
                sink.add(from, Bitboard::from_square(ep), MoveKind::EnPassant);
            }
        }
    }
}
