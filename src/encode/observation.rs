//! Observation tensors: `planes x ranks x files` float32, from a player's
//! point of view (ranks mirrored for the player commanding Black).
//!
//! Every variant starts with [`COMMON_PLANES`]; a variant may append its own
//! planes (dice, stocks, turn state), named by `Game::extra_planes`.

use crate::board::position::*;
use crate::board::{file_of, rank_of, Bitboard, Color, Position, Role, Square};

/// The planes every variant has, in order.
pub const COMMON_PLANES: [&str; 22] = [
    "own_pawn",
    "own_knight",
    "own_bishop",
    "own_rook",
    "own_queen",
    "own_king",
    "opponent_pawn",
    "opponent_knight",
    "opponent_bishop",
    "opponent_rook",
    "opponent_queen",
    "opponent_king",
    "repetition_1",
    "repetition_2",
    "plays_black",
    "to_move",
    "own_castle_kingside",
    "own_castle_queenside",
    "opponent_castle_kingside",
    "opponent_castle_queenside",
    "halfmove_clock",
    "plies_fraction",
];

/// Index of a square within one plane, from `view`'s point of view.
#[inline(always)]
pub fn plane_index(pos: &Position, sq: Square, view: Color) -> usize {
    let g = pos.geometry();
    let r = match view {
        Color::White => rank_of(sq),
        Color::Black => g.ranks - 1 - rank_of(sq),
    };
    r as usize * g.files as usize + file_of(sq) as usize
}

/// Sets every square of `set` to `value` in plane `plane`.
pub fn fill_squares(
    pos: &Position,
    out: &mut [f32],
    plane: usize,
    set: Bitboard,
    view: Color,
    value: f32,
) {
    let n = pos.geometry().num_squares();
    for sq in set {
        out[plane * n + plane_index(pos, sq, view)] = value;
    }
}

/// Sets a whole plane to `value`.
pub fn fill_plane(pos: &Position, out: &mut [f32], plane: usize, value: f32) {
    let n = pos.geometry().num_squares();
    out[plane * n..(plane + 1) * n].fill(value);
}

/// Writes the common planes. `view` is the colour of the observing player,
/// `to_move` whether that player decides now, `repetitions` how often the
/// current key was seen before, `plies_fraction` = plies / max_plies.
pub fn write_common(
    pos: &Position,
    out: &mut [f32],
    view: Color,
    to_move: bool,
    repetitions: u32,
    plies_fraction: f32,
) {
    let n = pos.geometry().num_squares();
    out[..COMMON_PLANES.len() * n].fill(0.0);
    for (i, role) in Role::ALL.iter().enumerate() {
        fill_squares(pos, out, i, pos.pieces(view, *role), view, 1.0);
        fill_squares(pos, out, 6 + i, pos.pieces(view.other(), *role), view, 1.0);
    }
    if repetitions >= 1 {
        fill_plane(pos, out, 12, 1.0);
    }
    if repetitions >= 2 {
        fill_plane(pos, out, 13, 1.0);
    }
    if view == Color::Black {
        fill_plane(pos, out, 14, 1.0);
    }
    if to_move {
        fill_plane(pos, out, 15, 1.0);
    }
    let cr = pos.castling_rights();
    let (ok, oq, tk, tq) = match view {
        Color::White => (
            WHITE_KINGSIDE,
            WHITE_QUEENSIDE,
            BLACK_KINGSIDE,
            BLACK_QUEENSIDE,
        ),
        Color::Black => (
            BLACK_KINGSIDE,
            BLACK_QUEENSIDE,
            WHITE_KINGSIDE,
            WHITE_QUEENSIDE,
        ),
    };
    for (i, bit) in [ok, oq, tk, tq].into_iter().enumerate() {
        if cr & bit != 0 {
            fill_plane(pos, out, 16 + i, 1.0);
        }
    }
    fill_plane(pos, out, 20, (pos.halfmove_clock() as f32 / 100.0).min(1.0));
    fill_plane(pos, out, 21, plies_fraction.min(1.0));
}
