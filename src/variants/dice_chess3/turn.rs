//! The maximum-dice rule of three-dice DiceChess: a player must use as many
//! dice as possible over the turn, so a move is legal only if the rest of
//! the turn can still use the maximum (king captures excepted: they end the
//! game). A king capture ends a turn, so a sequence through one counts the
//! dice used up to it.
//!
//! [`max_usable`] computes the maximum once per turn (a short search with
//! early exits); [`keeps_maximum`] tests one move. Most moves are accepted
//! by a cheap witness: moves of the remaining dice, taken from the current
//! move list, that the tested move cannot disturb (they touch none of the
//! squares it changes); only the rest go through the exact search.

use crate::board::attacks::between;
use crate::board::{Bitboard, Color, Move, MoveKind, MoveList, Position, Role, RoleSet};

/// Dice left by face (face index = role index).
pub type DiceLeft = [u8; 6];

/// The roles of the dice left.
#[inline(always)]
pub fn roles_left(left: &DiceLeft) -> RoleSet {
    let mut r = RoleSet::EMPTY;
    for (f, &n) in left.iter().enumerate() {
        if n > 0 {
            r = r.with(Role::from_index(f));
        }
    }
    r
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

/// Plays `mv` inside a turn: the same side moves again, en passant lapses.
#[inline(always)]
pub fn play_within_turn(pos: &mut Position, mv: Move) {
    let us = pos.turn();
    pos.play(mv);
    pos.set_turn(us);
    pos.clear_ep();
}

/// Whether the dice `left` can be used `need` times in a row from `pos`
/// (exact search).
pub fn can_use(pos: &Position, left: &DiceLeft, need: u8) -> bool {
    if need == 0 {
        return true;
    }
    for f in 0..6 {
        if left[f] == 0 {
            continue;
        }
        let role = Role::from_index(f).bit();
        if need == 1 {
            if pos.has_pseudo_move_of(role) {
                return true;
            }
            continue;
        }
        let mut ml = MoveList::new();
        pos.pseudo_moves_of(role, &mut ml);
        let mut rest = *left;
        rest[f] -= 1;
        for &m in ml.iter() {
            if captures_king(pos, m) {
                continue; // ends the turn after one die
            }
            let mut p = pos.clone();
            play_within_turn(&mut p, m);
            if can_use(&p, &rest, need - 1) {
                return true;
            }
        }
    }
    false
}

/// The most dice the turn can use from here.
pub fn max_usable(pos: &Position, left: &DiceLeft) -> u8 {
    let n: u8 = left.iter().sum();
    // Dice of a type the side does not have can only be used after a
    // promotion (a P die and a pawn).
    let us = pos.turn();
    let has_pawn = left[0] > 0 && pos.pieces(us, Role::Pawn).any();
    let mut bound = 0;
    for (f, &c) in left.iter().enumerate() {
        let role = Role::from_index(f);
        let promotable = has_pawn && role != Role::King && role != Role::Pawn;
        if pos.pieces(us, role).any() || promotable {
            bound += c;
        }
    }
    (1..=n.min(bound))
        .rev()
        .find(|&k| can_use(pos, left, k))
        .unwrap_or(0)
}

/// The squares a move changes: from, to, the castling rook's squares, the
/// pawn taken en passant.
#[inline(always)]
fn changed_squares(mv: Move, turn: Color) -> Bitboard {
    let (from, to) = (mv.from(), mv.to());
    let b = Bitboard::from_square(from).with(to);
    match mv.kind() {
        MoveKind::Castle => {
            let rank = from & !7;
            if to > from {
                b.with(rank + 7).with(rank + 5)
            } else {
                b.with(rank).with(rank + 3)
            }
        }
        MoveKind::EnPassant => b.with(match turn {
            Color::White => to - 8,
            Color::Black => to + 8,
        }),
        _ => b,
    }
}

/// The squares a move needs as they are: from, to and the squares crossed.
#[inline(always)]
fn footprint(mv: Move) -> Bitboard {
    between(mv.from(), mv.to()).with(mv.from()).with(mv.to())
}

/// Whether `w` (a move of the current list) stays playable, unchanged, after
/// moves that changed `touched` (no castling or en passant: their
/// conditions reach further).
#[inline(always)]
fn undisturbed(w: Move, touched: Bitboard) -> bool {
    !matches!(w.kind(), MoveKind::Castle | MoveKind::EnPassant)
        && (footprint(w) & touched).is_empty()
}

/// Whether, after `mv` (a move of face `face` from `list`, the current
/// legal candidates, which hold every move of the dice left), the dice
/// `left` minus that face can still be used `need` more times.
pub fn keeps_maximum(pos: &Position, list: &[Move], left: &DiceLeft, mv: Move, need: u8) -> bool {
    let face = face_of(pos, mv);
    let mut rest = *left;
    rest[face] -= 1;
    if need == 0 {
        return true;
    }
    let touched = changed_squares(mv, pos.turn());
    let enemy_king = pos.king(pos.turn().other()).map(Bitboard::from_square);
    let enemy_king = enemy_king.unwrap_or(Bitboard::EMPTY);
    // A witness: `need` undisturbed moves of distinct remaining dice.
    let witness = list.iter().any(|&w| {
        let fw = face_of(pos, w);
        if rest[fw] == 0 || !undisturbed(w, touched) {
            return false;
        }
        if need == 1 {
            return true;
        }
        if enemy_king.contains(w.to()) {
            return false;
        }
        let mut rest2 = rest;
        rest2[fw] -= 1;
        let touched2 = touched | footprint(w);
        list.iter()
            .any(|&w2| rest2[face_of(pos, w2)] > 0 && undisturbed(w2, touched2))
    });
    if witness {
        return true;
    }
    let mut p = pos.clone();
    play_within_turn(&mut p, mv);
    can_use(&p, &rest, need)
}
