//! The plain variants behind one type, for the luck dial's wrapper
//! ([`super::luck::Lucky`]): an enum (generated with [`super::AnyGame`] from
//! the registry) whose [`Game`] impl dispatches every call.

use super::*;
use crate::board::{Color, Move, MoveList, Position, RoleSet};
use crate::encode::ActionLayout;
use crate::rng::GameRng;
use crate::with_base_game;

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
        self.search_null_in_arm()
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
