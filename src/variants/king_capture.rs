//! Capturing a king left in check: after a player in check could not move
//! (a forfeited turn in Random Move Number Chess, a roll without a legal move
//! in two-dice Dice Chess), the check stands and the opponent may capture
//! the king with an attacking piece, even a pinned one (the game is over).

use crate::board::{rank_of, Move, MoveKind, MoveList, Position, Role, RoleSet};

/// Whether the side to move attacks the enemy king (a check left standing).
#[inline(always)]
pub fn standing_check(pos: &Position) -> bool {
    pos.king_attacked(pos.turn().other())
}

/// Adds every capture of the enemy king by a piece of `roles` to `out`
/// (a pawn capturing on the last rank promotes, four ways), skipping moves
/// already listed.
pub fn add_king_captures(pos: &Position, roles: RoleSet, out: &mut MoveList) {
    let us = pos.turn();
    let Some(k) = pos.king(us.other()) else {
        return;
    };
    let attackers = pos.attackers_to(k, us, pos.occupied());
    let promo = rank_of(k) == pos.geometry().last_rank(us);
    for from in attackers {
        let Some(role) = pos.role_at(from) else {
            continue;
        };
        if !roles.contains(role) {
            continue;
        }
        if promo && role == Role::Pawn {
            for r in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                let m = Move::new(from, k, MoveKind::Promotion(r));
                if !out.contains(m) {
                    out.push(m);
                }
            }
        } else {
            let m = Move::new(from, k, MoveKind::Normal);
            if !out.contains(m) {
                out.push(m);
            }
        }
    }
}
