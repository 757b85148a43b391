//! Dice whose pieces are shut in (no move) and the squares that could
//! free them: the maximum-dice rule (the turn module) settles many moves
//! with them, without an exact search, where a later die cannot be used.

use super::faces::DiceLeft;
use crate::board::{Bitboard, Color, Move, Position, Role};

/// The faces of a set of dice that have no move (their pieces are shut in)
/// and, for each, the own squares whose leaving could give one a move.
pub(super) struct ShutIn {
    dead: [bool; 6],
    frees: [Bitboard; 6],
}

impl ShutIn {
    pub(super) fn new(pos: &Position, left: &DiceLeft) -> ShutIn {
        let mut s = ShutIn {
            dead: [false; 6],
            frees: [Bitboard::EMPTY; 6],
        };
        for f in 0..6 {
            // Castling has conditions beyond the squares a move vacates.
            let castles = f == 5 && pos.castling_rights() != 0;
            if left.get(f) > 0 && !castles && !pos.has_pseudo_move_of(Role::from_index(f).bit()) {
                s.dead[f] = true;
                s.frees[f] = frees(pos, f, 1);
            }
        }
        s
    }

    /// Whether no die of `rest` can be used after `m`, a move in `pos` of a
    /// face not in `rest` or not shut in: every face of `rest` is shut in
    /// and `m` is a plain move or double push (the square it crosses stays
    /// empty; en passant lapses within the turn) that leaves none of the
    /// squares freeing one (its landing only blocks more; a piece it takes
    /// was no target of a shut-in piece, else that piece had a capture).
    pub(super) fn stays_shut(&self, rest: &DiceLeft, m: Move) -> bool {
        let from = Bitboard::from_square(m.from());
        m.is_plain()
            && (0..6).all(|g| rest.get(g) == 0 || self.dead[g] && (self.frees[g] & from).is_empty())
    }

    /// Whether the two dice `rest`, of two faces, cannot both be used
    /// after `m`, a plain move in `pos` of a third die: one face `g` is
    /// shut in and stays so after `m` (`m` leaves no square freeing it, as
    /// in [`ShutIn::stays_shut`]; nor can a die of `g` be `m`'s, its pieces
    /// had no move), so `g` can only come second, after a move of the
    /// other face that frees it; and no piece of that face stands on a
    /// square freeing `g` (castling: no rook either), nor can promote to
    /// `g` (a pawn on the seventh rank). The exact search would fail.
    pub(super) fn pair_stays_shut(&self, pos: &Position, rest: &DiceLeft, m: Move) -> bool {
        let faces = rest.faces();
        if !m.is_plain() || faces.count_ones() != 2 || rest.total() != 2 {
            return false;
        }
        let us = pos.turn();
        let (from, to) = (m.from(), m.to());
        let (a, b) = (
            faces.trailing_zeros() as usize,
            (faces & (faces - 1)).trailing_zeros() as usize,
        );
        [(a, b), (b, a)].into_iter().any(|(g, f)| {
            let role = Role::from_index(f);
            let mut movers = pos.pieces(us, role);
            if pos.role_at(from) == Some(role) {
                movers = movers.without(from).with(to);
            }
            if role == Role::King && pos.castling_rights() != 0 {
                movers |= pos.pieces(us, Role::Rook);
            }
            let seventh = match us {
                Color::White => Bitboard::rank(6),
                Color::Black => Bitboard::rank(1),
            };
            let promotes = role == Role::Pawn && g != 5 && (movers & seventh).any();
            // A pawn blocked by an enemy piece is freed by taking it and
            // moving on: `m` may take it.
            let frees = match g {
                0 => self.frees[g].with(to),
                _ => self.frees[g],
            };
            self.dead[g] && !frees.contains(from) && !promotes && (movers & frees).is_empty()
        })
    }
}

/// The own pieces whose leaving could free the pieces of face `f` of the
/// side to move when they are shut in (no move), within `moves` more moves
/// (1 or 2) before that face's die.
pub(super) fn frees(pos: &Position, f: usize, moves: u8) -> Bitboard {
    let us = pos.turn();
    let ours = pos.by_color(us);
    let occ = pos.occupied();
    let role = Role::from_index(f);
    let mut b = Bitboard::EMPTY;
    for sq in pos.pieces(us, role) {
        b |= match role {
            Role::Pawn => {
                let push = match us {
                    Color::White => Bitboard::from_square(sq).up(),
                    Color::Black => Bitboard::from_square(sq).down(),
                };
                // A push square held by an enemy piece is freed by
                // capturing it and moving the capturer on (two moves: any
                // mover; one move leaves it blocked).
                if (push & pos.by_color(us.other())).any() {
                    if moves > 1 {
                        Bitboard::FULL
                    } else {
                        Bitboard::EMPTY
                    }
                } else {
                    push & ours
                }
            }
            _ => pos.role_attacks(us, role, sq, occ) & ours,
        };
    }
    b
}
