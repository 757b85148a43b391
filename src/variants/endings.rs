//! The orthodox endings, decided in one place (docs/rules.md §0).
//!
//! After a move (or at setup) a chess-like variant first checks its own win
//! (king reached start, king captured, six sixes: those come first in the
//! precedence list), then hands the position to its bookkeeping
//! ([`super::Progress::after_move`], [`super::Progress::start`]), which asks
//! [`orthodox_ending`] for the rest of the chain: checkmate, stalemate,
//! threefold repetition, fifty moves, insufficient material, `max_plies`. A
//! variant only says which of these endings its rules have ([`Endings`]) and
//! whether the side to move can move.

use super::{Player, Progress, Termination};
use crate::board::{Color, Position};

/// Which of the orthodox endings a rule set applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Endings {
    /// No legal move and not in check is a draw. Off in Vegas, where such a
    /// player still rolls (its stalemate ruling is decided at the roll).
    pub stalemate: bool,
    /// The 50-move rule.
    pub fifty_moves: bool,
    /// Insufficient material.
    pub insufficient_material: bool,
}

impl Endings {
    /// The 8x8 chess-based games: every orthodox ending.
    pub const CHESS: Endings = Endings {
        stalemate: true,
        fifty_moves: true,
        insufficient_material: true,
    };
    /// The 5x5 games: mate, stalemate, repetition and `max_plies` only.
    pub const SMALL: Endings = Endings {
        stalemate: true,
        fifty_moves: false,
        insufficient_material: false,
    };
    /// Vegas: chess draws, but a player without a move (not in check) rolls.
    pub const NO_STALEMATE: Endings = Endings {
        stalemate: false,
        ..Endings::CHESS
    };
}

/// A game result: why it ended and the winning colour, if any.
pub type ColorResult = (Termination, Option<Color>);

/// The first orthodox ending (§0 precedence) that applies to `pos`, reached
/// with the repetitions and plies in `progress`; `has_move` says whether the
/// side to move has a legal decision (called at most once, and only when
/// the answer matters).
#[inline(always)]
pub fn orthodox_ending(
    pos: &Position,
    progress: &Progress,
    endings: Endings,
    has_move: impl FnOnce() -> bool,
) -> Option<ColorResult> {
    let no_move = if endings.stalemate {
        (!has_move()).then(|| no_move_ending(pos))
    } else {
        // Only a mate: the check is known, so not asked again as
        // `no_move_ending` would (asking twice kept the first answer's work
        // in spilled registers, paid on every Vegas move).
        (pos.is_check() && !has_move()).then(|| checkmate(pos))
    };
    if no_move.is_some() {
        no_move
    } else if progress.rep_count >= 3 {
        Some((Termination::ThreefoldRepetition, None))
    } else if endings.fifty_moves && pos.fifty_moves() {
        Some((Termination::FiftyMoves, None))
    } else if endings.insufficient_material && pos.insufficient_material() {
        Some((Termination::InsufficientMaterial, None))
    } else if progress.plies >= progress.max_plies {
        Some((Termination::MaxPlies, None))
    } else {
        None
    }
}

/// The side to move has no move: checkmate if in check, else stalemate.
#[inline(always)]
pub fn no_move_ending(pos: &Position) -> ColorResult {
    if pos.is_check() {
        checkmate(pos)
    } else {
        (Termination::Stalemate, None)
    }
}

/// The side to move is checkmated.
#[inline(always)]
fn checkmate(pos: &Position) -> ColorResult {
    (Termination::Checkmate, Some(pos.turn().other()))
}

/// A colour result as a player result, where player 0 plays White.
#[inline(always)]
pub fn by_color_index(r: ColorResult) -> (Termination, Option<Player>) {
    (r.0, r.1.map(|c| c as Player))
}
