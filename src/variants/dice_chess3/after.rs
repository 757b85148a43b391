//! The last die's test of the maximum-dice rule (docs/rules.md §10):
//! whether a face can still move after one move of the turn, read off the
//! bitboards the move changes instead of a copy of the position played on.

use crate::board::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks,
};
use crate::board::{Color, Move, Position, Role, RoleSet};

/// Whether, after `mv` (a move of the side to move, not taking the king),
/// the same side has a pseudo-legal move of `roles` in the same turn:
/// [`play_within_turn`] then [`Position::has_pseudo_move_of`], mostly on
/// the changed bitboards alone (no copy, hash or mailbox update). Castling
/// (a king die with rights left and no plain king move) is played out.
pub(super) fn has_move_after(pos: &Position, mv: Move, roles: RoleSet) -> bool {
    if mv.is_rotation() {
        return played_has_move(pos, mv, roles); // not a move of this variant
    }
    plain_move_after(pos, mv, roles)
        || roles.contains(Role::King)
            && pos.castling_rights() != 0
            && played_has_move(pos, mv, Role::King.bit())
}

fn played_has_move(pos: &Position, mv: Move, roles: RoleSet) -> bool {
    let mut p = pos.clone();
    play_within_turn(&mut p, mv);
    p.has_pseudo_move_of(roles)
}

/// [`has_move_after`] without castling, on bitboards (en passant has
/// lapsed after a move of the turn).
fn plain_move_after(pos: &Position, mv: Move, roles: RoleSet) -> bool {
    let us = pos.turn();
    let (from, to) = (mv.from(), mv.to());
    let Some(role) = pos.role_at(from) else {
        return false;
    };
    let mut ours = pos.by_color(us).without(from).with(to);
    let mut theirs = pos.by_color(us.other()).without(to);
    let new_role = match mv.is_promotion() {
        true => mv.promotion().unwrap_or(role),
        false => role,
    };
    let mine = |r: Role| {
        let b = pos.pieces(us, r);
        let b = if r == role { b.without(from) } else { b };
        if r == new_role {
            b.with(to)
        } else {
            b
        }
    };
    let mut rooks = mine(Role::Rook);
    // Castling and en passant change more squares (the usual case needs
    // no match on the kind).
    if mv.is_castle() {
        let rank = from & !7;
        let (rf, rt) = if to > from {
            (rank + 7, rank + 5)
        } else {
            (rank, rank + 3)
        };
        ours = ours.without(rf).with(rt);
        rooks = rooks.without(rf).with(rt);
    } else if mv.is_castle_or_en_passant() {
        theirs = theirs.without(match us {
            Color::White => to - 8,
            Color::Black => to + 8,
        })
    }
    let occ = ours | theirs;
    let target = !ours;
    // Whether a piece of `$pieces` attacks a square not ours.
    macro_rules! reaches {
        ($pieces:expr, $attacks:expr) => {{
            let mut hit = false;
            for sq in $pieces {
                if ($attacks(sq) & target).any() {
                    hit = true;
                    break;
                }
            }
            hit
        }};
    }
    let has = |r: Role| roles.contains(r);
    (has(Role::Pawn) && {
        let pawns = mine(Role::Pawn);
        let push = match us {
            Color::White => pawns.up(),
            Color::Black => pawns.down(),
        };
        (push & !occ).any() || {
            let mut hit = false;
            for sq in pawns {
                if (pawn_attacks(us, sq) & theirs).any() {
                    hit = true;
                    break;
                }
            }
            hit
        }
    }) || (has(Role::Knight) && reaches!(mine(Role::Knight), knight_attacks))
        || (has(Role::Bishop) && reaches!(mine(Role::Bishop), |sq| bishop_attacks(sq, occ)))
        || (has(Role::Rook) && reaches!(rooks, |sq| rook_attacks(sq, occ)))
        || (has(Role::Queen) && reaches!(mine(Role::Queen), |sq| queen_attacks(sq, occ)))
        || (has(Role::King) && reaches!(mine(Role::King), king_attacks))
}

/// Plays `mv` inside a turn: the same side moves again, en passant lapses.
#[inline(always)]
pub fn play_within_turn(pos: &mut Position, mv: Move) {
    let us = pos.turn();
    pos.play(mv);
    pos.set_turn(us);
    pos.clear_ep();
}
