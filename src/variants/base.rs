//! The plain variants behind one type, for the luck dial's wrapper
//! ([`super::luck::Lucky`]): an enum that dispatches every [`Game`] call.

use super::*;
use crate::board::{Color, Move, MoveList, Position, RoleSet};
use crate::encode::ActionLayout;
use crate::rng::GameRng;

/// The ten variants as they are written, without the luck dial: the
/// game a [`luck::Lucky`] wraps. It is a [`Game`] that dispatches every
/// call (a match per call: luck games are for calibration, not the hot
/// loops of the plain variants, which are generic over each concrete game).
#[derive(Clone, serde::Serialize, serde::Deserialize)]
pub enum BaseGame {
    Chess(chess::Chess),
    Cubic(cubic::Cubic),
    CubicCheckers(cubic_checkers::CubicCheckers),
    Vegas(vegas::Vegas),
    Fluky(fluky::Fluky),
    Gardner(gardner::Gardner),
    RandomMoveNumber(random_move_number::RandomMoveNumber),
    DiceChess(dice_chess::DiceChess),
    DiceChess3(dice_chess3::DiceChess3),
}

/// Calls `$body` with `$g` bound to the concrete game inside a [`BaseGame`].
#[macro_export]
macro_rules! with_base_game {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            $crate::variants::BaseGame::Chess($g) => $body,
            $crate::variants::BaseGame::Vegas($g) => $body,
            $crate::variants::BaseGame::Cubic($g) => $body,
            $crate::variants::BaseGame::CubicCheckers($g) => $body,
            $crate::variants::BaseGame::Fluky($g) => $body,
            $crate::variants::BaseGame::Gardner($g) => $body,
            $crate::variants::BaseGame::RandomMoveNumber($g) => $body,
            $crate::variants::BaseGame::DiceChess($g) => $body,
            $crate::variants::BaseGame::DiceChess3($g) => $body,
        }
    };
}

impl BaseGame {
    /// Creates a game of `variant` with options (keyword → JSON value).
    pub fn new(variant: &str, options: &Options) -> Result<BaseGame, GameError> {
        match variant {
            "chess" => Ok(BaseGame::Chess(chess::Chess::new(options)?)),
            "cubic" => Ok(BaseGame::Cubic(cubic::Cubic::new(options)?)),
            "cubic_checkers" => Ok(BaseGame::CubicCheckers(cubic_checkers::CubicCheckers::new(
                options,
            )?)),
            "vegas" => Ok(BaseGame::Vegas(vegas::Vegas::new(options)?)),
            "fluky" | "metamorph" => Ok(BaseGame::Fluky(fluky::Fluky::new(variant, options)?)),
            "gardner" => Ok(BaseGame::Gardner(gardner::Gardner::new(options)?)),
            "random_move_number" => Ok(BaseGame::RandomMoveNumber(
                random_move_number::RandomMoveNumber::new(options)?,
            )),
            "dice_chess" => Ok(BaseGame::DiceChess(dice_chess::DiceChess::new(options)?)),
            "dice_chess3" => Ok(BaseGame::DiceChess3(dice_chess3::DiceChess3::new(options)?)),
            _ => Err(GameError::new(format!(
                "unknown variant {variant:?}; known variants: {}",
                VARIANTS.join(", ")
            ))),
        }
    }
}

/// Every call dispatched to the concrete game (see [`BaseGame`]).
impl Game for BaseGame {
    fn variant(&self) -> &'static str {
        with_base_game!(self, g => g.variant())
    }
    fn node(&self) -> Node {
        with_base_game!(self, g => g.node())
    }
    fn position(&self) -> &Position {
        with_base_game!(self, g => g.position())
    }
    fn layout(&self) -> ActionLayout {
        with_base_game!(self, g => g.layout())
    }
    fn legal_moves(&self, out: &mut MoveList) {
        with_base_game!(self, g => g.legal_moves(out))
    }
    fn play(&mut self, mv: Move) {
        with_base_game!(self, g => g.play(mv))
    }
    fn random_legal_move(&self, rng: &mut GameRng, buf: &mut MoveList) -> Move {
        with_base_game!(self, g => g.random_legal_move(rng, buf))
    }
    fn chance_outcomes(&self, out: &mut Outcomes) {
        with_base_game!(self, g => g.chance_outcomes(out))
    }
    fn chance_table(&self) -> Option<&ChanceTable> {
        with_base_game!(self, g => g.chance_table())
    }
    fn apply_outcome(&mut self, outcome: Action) {
        with_base_game!(self, g => g.apply_outcome(outcome))
    }
    fn outcome_name(&self, outcome: Action) -> String {
        with_base_game!(self, g => g.outcome_name(outcome))
    }
    fn max_chance_outcomes(&self) -> usize {
        with_base_game!(self, g => g.max_chance_outcomes())
    }
    fn progress(&self) -> &Progress {
        with_base_game!(self, g => g.progress())
    }
    fn termination(&self) -> Option<Termination> {
        with_base_game!(self, g => g.termination())
    }
    fn winner(&self) -> Option<Player> {
        with_base_game!(self, g => g.winner())
    }
    fn san(&self, mv: Move) -> String {
        with_base_game!(self, g => g.san(mv))
    }
    fn fen(&self) -> String {
        with_base_game!(self, g => g.fen())
    }
    fn plies(&self) -> u32 {
        with_base_game!(self, g => g.plies())
    }
    fn max_plies(&self) -> u32 {
        with_base_game!(self, g => g.max_plies())
    }
    fn color_of(&self, player: Player) -> Color {
        with_base_game!(self, g => g.color_of(player))
    }
    fn repetitions(&self) -> u32 {
        with_base_game!(self, g => g.repetitions())
    }
    fn extra_planes(&self) -> &'static [&'static str] {
        with_base_game!(self, g => g.extra_planes())
    }
    fn write_extra_planes(&self, view: Color, out: &mut [f32]) {
        with_base_game!(self, g => g.write_extra_planes(view, out))
    }
    fn describe_state(&self) -> Vec<String> {
        with_base_game!(self, g => g.describe_state())
    }
    fn roller(&self) -> Color {
        with_base_game!(self, g => g.roller())
    }
    fn explain_disallowed(&self, mv: Move) -> Option<String> {
        with_base_game!(self, g => g.explain_disallowed(mv))
    }
    fn explain_unparsable(&self, text: &str) -> Option<String> {
        with_base_game!(self, g => g.explain_unparsable(text))
    }
    fn parse_decision(&self, text: &str) -> Option<Result<Move, String>> {
        with_base_game!(self, g => g.parse_decision(text))
    }
    fn check_invariants(&self) -> Result<(), String> {
        with_base_game!(self, g => g.check_invariants())
    }
    fn options(&self) -> Options {
        with_base_game!(self, g => g.options())
    }
    fn extras(&self) -> Extras {
        with_base_game!(self, g => g.extras())
    }
    fn search_key(&self) -> u64 {
        with_base_game!(self, g => g.search_key())
    }
    fn search_null(&self) -> Option<Self> {
        match self {
            BaseGame::Chess(g) => g.search_null().map(BaseGame::Chess),
            BaseGame::Cubic(g) => g.search_null().map(BaseGame::Cubic),
            BaseGame::CubicCheckers(g) => g.search_null().map(BaseGame::CubicCheckers),
            BaseGame::Vegas(g) => g.search_null().map(BaseGame::Vegas),
            BaseGame::Fluky(g) => g.search_null().map(BaseGame::Fluky),
            BaseGame::Gardner(g) => g.search_null().map(BaseGame::Gardner),
            BaseGame::RandomMoveNumber(g) => g.search_null().map(BaseGame::RandomMoveNumber),
            BaseGame::DiceChess(g) => g.search_null().map(BaseGame::DiceChess),
            BaseGame::DiceChess3(g) => g.search_null().map(BaseGame::DiceChess3),
        }
    }
    fn search_play(&mut self, mv: Move) {
        with_base_game!(self, g => g.search_play(mv))
    }
    fn search_tactical_candidates(&self, out: &mut MoveList) {
        with_base_game!(self, g => g.search_tactical_candidates(out))
    }
    fn search_roll_roles(&self, outcome: Action) -> Option<RoleSet> {
        with_base_game!(self, g => g.search_roll_roles(outcome))
    }
    fn search_roll_dice(&self, outcome: Action) -> Option<[u8; 6]> {
        with_base_game!(self, g => g.search_roll_dice(outcome))
    }
    fn search_dice_left(&self) -> Option<[u8; 6]> {
        with_base_game!(self, g => g.search_dice_left())
    }
    fn search_moves_left(&self) -> u32 {
        with_base_game!(self, g => g.search_moves_left())
    }
}
