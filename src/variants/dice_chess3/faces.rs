//! The dice left in a turn and the face a move uses: the small vocabulary
//! that the maximum-dice rule (the turn module) and its witnesses (the
//! witness module) share.

use crate::board::{Move, Position, RoleSet};

/// Dice left by face (face index = role index).
pub type DiceLeft = [u8; 6];

/// The roles of the dice left.
#[inline(always)]
pub fn roles_left(left: &DiceLeft) -> RoleSet {
    // Branch-free: the set's bits are the face (role) indices.
    let mut bits = 0u8;
    for (f, &n) in left.iter().enumerate() {
        bits |= ((n > 0) as u8) << f;
    }
    RoleSet(bits)
}

/// Whether `mv` captures the enemy king.
#[inline(always)]
pub fn captures_king(pos: &Position, mv: Move) -> bool {
    pos.king(pos.turn().other()) == Some(mv.to())
}

/// The face (role) a move uses: the moving piece's role (castling: king).
#[inline(always)]
pub fn face_of(pos: &Position, mv: Move) -> usize {
    pos.role_at(mv.from()).map_or(0, |r| r.index())
}
