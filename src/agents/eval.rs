//! The static evaluation: material and mobility over the [`Position`], plus a
//! per-variant hook ([`Evaluate::extra`]) for state the board does not show
//! (Cubic stocks). Dice, throws and moves left are not guessed here: the
//! searches take the exact expectation over chance nodes and see every
//! decision of a multi-move turn as its own node.
//!
//! Values are from player 0's point of view in `[-1, 1]`: a win is `1`, a
//! loss `-1`, a draw or truncation `0`; evaluations stay strictly inside
//! `(-EVAL_BOUND, EVAL_BOUND)` so that proven results always dominate.

use crate::board::{Color, Position, Role};
use crate::variants::{
    chess::Chess, cubic::Cubic, fluky::Fluky, random_move_number::RandomMoveNumber, vegas::Vegas,
    Game, Player,
};

/// Evaluations lie strictly inside `(-EVAL_BOUND, EVAL_BOUND)`.
pub const EVAL_BOUND: f64 = 0.9;

/// Piece values in pawns (the king is not counted as material).
pub const PIECE_VALUES: [f64; 6] = [1.0, 3.0, 3.25, 5.0, 9.0, 0.0];

/// Weight of one square of pseudo-mobility, in pawns.
const MOBILITY_WEIGHT: f64 = 0.05;
/// Pawns that make the evaluation `tanh(1)`.
const SCALE: f64 = 8.0;

/// What an agent needs from a variant beyond [`Game`]: an optional
/// evaluation term for variant state the board does not show.
pub trait Evaluate: Game {
    /// Extra White-minus-Black score in pawns (default 0).
    fn extra(&self) -> f64 {
        0.0
    }
}

impl Evaluate for Chess {}
impl Evaluate for Vegas {}
impl Evaluate for Fluky {}
impl Evaluate for RandomMoveNumber {}
impl Evaluate for crate::variants::dice_chess::DiceChess {}
impl Evaluate for crate::variants::dice_chess3::DiceChess3 {}
impl Evaluate for Cubic {
    /// Stocked pieces can be rolled in later: counted at 80% of their value.
    fn extra(&self) -> f64 {
        let mut s = 0.0;
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            let v = PIECE_VALUES[role.index()] * 0.8;
            s += v
                * (self.stock_count(Color::White, role) as f64
                    - self.stock_count(Color::Black, role) as f64);
        }
        s
    }
}

/// Material plus pseudo-mobility (attacked squares not occupied by own
/// pieces), White minus Black, in pawns.
pub fn board_score(p: &Position) -> f64 {
    let occ = p.occupied();
    let mut s = 0.0;
    for (c, sign) in [(Color::White, 1.0), (Color::Black, -1.0)] {
        let own = p.by_color(c);
        let mut side = 0.0;
        for r in Role::ALL {
            let pieces = p.pieces(c, r);
            side += PIECE_VALUES[r.index()] * pieces.count() as f64;
            if r != Role::Pawn && r != Role::King {
                let mut mob = 0u32;
                for sq in pieces {
                    mob += (p.role_attacks(c, r, sq, occ) & !own).count();
                }
                side += MOBILITY_WEIGHT * mob as f64;
            }
        }
        s += sign * side;
    }
    s
}

/// The value of a finished game for player 0: 1 win, -1 loss, 0 otherwise.
pub fn terminal_value<G: Game>(g: &G) -> f64 {
    match g.winner() {
        Some(0) => 1.0,
        Some(_) => -1.0,
        None => 0.0,
    }
}

/// The static evaluation for player 0 in `(-EVAL_BOUND, EVAL_BOUND)`
/// (terminal states get their exact value).
pub fn evaluate<G: Evaluate>(g: &G) -> f64 {
    if g.termination().is_some() {
        return terminal_value(g);
    }
    let white = board_score(g.position()) + g.extra();
    let v = EVAL_BOUND * (white / SCALE).tanh();
    if g.color_of(0 as Player) == Color::White {
        v
    } else {
        -v
    }
}
