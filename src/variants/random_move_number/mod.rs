//! Random Move Number Chess (docs/rules.md §5, Charles Daniel 2007): orthodox chess
//! in which a six-sided die decides how many moves a player makes in a turn.
//!
//! **Players are not colours.** Player 0 and player 1 throw for colours first
//! (the higher throw plays White, ties are thrown again); a third 6 in a row
//! later makes the players exchange colours. [`Game::color_of`] tells which
//! colour a player commands; [`Game::node`] reports the player commanding the
//! colour to move; results are per player.
//!
//! **Chance outcomes.** Every chance node is one throw of the die: outcome
//! ids `0..=5` are the throws `"1"`…`"6"` (id = throw − 1), each with
//! probability 1/6; `max_chance_outcomes() == 6`. The chance nodes are the
//! colour-choosing throws (player 0, then player 1, again after a tie) and
//! the throw at the start of every turn after each colour's first move.
//!
//! **The throw table** (d = throw, n = length of the run of equal throws
//! ending the thrower's record, colour-choosing throws included):
//! 2–5: n = 1 → 1 move, else n moves; 1: n − 1 moves (0 forfeits the turn);
//! 6: n = 1 → 2, n = 2 → 3, n = 3 → switch sides (turn forfeited),
//! n = 4, 5 → n + 1, n ≥ 6 → the thrower loses (`six_sixes`). (A run of more
//! than five 6s before the sixth turn-throw 6 can only come from tied
//! colour-choosing throws; it loses like six.)
//!
//! **Moves.** A move after which the opponent's king is in check ends the
//! turn. Within a multi-move turn the same colour moves again
//! ([`Position::set_turn`]) and en passant lapses ([`Position::clear_ep`]).
//! If a check is left standing (the checked player forfeited or switched),
//! the side to move may capture the enemy king with any piece attacking it,
//! even one that is pinned (`king_captured`); other moves keep normal
//! legality.
//!
//! **FEN.** The six standard fields, then the turn state:
//! `<phase> <moves_left> <first_turns> <colours> <record0> <record1>`:
//! * `phase`: `choose0` (player 0 throws for colours), `choose1` (player 1
//!   throws for colours), `throw` (the player to move throws), `move` (the
//!   player to move decides), `over` (finished: not accepted as input);
//! * `moves_left`: moves left in the current turn (0 unless `move`);
//! * `first_turns`: how many of the two throw-free first turns are still to
//!   begin (2 during colour choice, 1 during White's… i.e. the first
//!   mover's first move, 0 afterwards);
//! * `colours`: `-` before the colour choice, else `wb` (player 0 White) or
//!   `bw` (player 0 Black);
//! * `record0`, `record1`: each player's throws as digits (`-` if none).
//!
//! A FEN with only the six standard fields starts the game at the colour
//! choice. Example, the start: `rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w
//! KQkq - 0 1 choose0 0 2 - - -`.

mod fen;
mod text;

use super::*;
use crate::board::{file_of, square_name, Geometry, Role};
use crate::notation::fen::{parse_fen, validate, write_fen, FenRules};
use crate::notation::san;
use serde::{Deserialize, Serialize};

/// The standard starting position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

const NAME: &str = "random_move_number";

const LAYOUT: ActionLayout = ActionLayout {
    geometry: Geometry::STANDARD,
    pass: false,
    rotations: false,
};

const FEN_RULES: FenRules = FenRules {
    allow_opponent_in_check: true,
    ..FenRules::CHESS
};

const OUTCOME_NAMES: [&str; 6] = ["1", "2", "3", "4", "5", "6"];

/// Where the game stands between actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Player 0 throws for colours.
    Choose0,
    /// Player 1 throws for colours.
    Choose1,
    /// The player to move throws for the number of moves.
    Throw,
    /// The player to move decides (`moves_left` > 0).
    Move,
}

impl Phase {
    fn name(self) -> &'static str {
        match self {
            Phase::Choose0 => "choose0",
            Phase::Choose1 => "choose1",
            Phase::Throw => "throw",
            Phase::Move => "move",
        }
    }
}

/// What a throw gives (docs/rules.md §5 table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThrowEffect {
    /// Make this many moves (0 = the turn is forfeited).
    Moves(u32),
    /// Exchange colours; the turn passes to the opponent.
    Switch,
    /// The thrower loses (`six_sixes`).
    Lose,
}

/// The throw table: `d` thrown, `n` the length of the run ending with it.
pub fn throw_effect(d: u8, n: u32) -> ThrowEffect {
    match d {
        1 => ThrowEffect::Moves(n - 1),
        6 => match n {
            1 => ThrowEffect::Moves(2),
            2 => ThrowEffect::Moves(3),
            3 => ThrowEffect::Switch,
            4 | 5 => ThrowEffect::Moves(n + 1),
            _ => ThrowEffect::Lose,
        },
        _ => ThrowEffect::Moves(if n == 1 { 1 } else { n }),
    }
}

/// A game of Random Move Number Chess.
///
/// ```
/// use dicechess::variants::{random_move_number::RandomMoveNumber, Game, Node, Options};
/// let mut g = RandomMoveNumber::new(&Options::new()).unwrap();
/// assert_eq!(g.node(), Node::Chance);
/// g.apply_outcome(2); // player 0 throws 3
/// g.apply_outcome(4); // player 1 throws 5: player 1 plays White
/// assert_eq!(g.node(), Node::Decision(1));
/// assert_eq!(g.throw_records(), [vec![3], vec![5]]);
/// ```
#[derive(Clone, Serialize, Deserialize)]
pub struct RandomMoveNumber {
    pos: Position,
    phase: Phase,
    moves_left: u32,
    first_turns: u8,
    /// Whether the colours have been chosen.
    chosen: bool,
    /// The player commanding White (player 0 until chosen).
    white: Player,
    records: [Vec<u8>; 2],
    /// Length of the run of equal throws ending each record.
    runs: [u32; 2],
    progress: Progress,
}

fn run_of(rec: &[u8]) -> u32 {
    match rec.last() {
        None => 0,
        Some(&d) => rec.iter().rev().take_while(|&&x| x == d).count() as u32,
    }
}

impl RandomMoveNumber {
    // ----- accessors for bindings and tests -----

    /// The colour each player commands (`None` before the colour choice).
    pub fn colors(&self) -> Option<[Color; 2]> {
        self.chosen.then(|| [self.color_of(0), self.color_of(1)])
    }
    /// Moves left in the current turn (0 except at decision nodes).
    pub fn moves_left(&self) -> u32 {
        if self.progress.result.is_none() && self.phase == Phase::Move {
            self.moves_left
        } else {
            0
        }
    }
    /// Each player's throws so far.
    pub fn throw_records(&self) -> [Vec<u8>; 2] {
        self.records.clone()
    }
    /// The phase (meaningful while the game is not over).
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// The player commanding colour `c`.
    #[inline(always)]
    pub fn player_of(&self, c: Color) -> Player {
        if c == Color::White {
            self.white
        } else {
            1 - self.white
        }
    }
    /// The player who throws at the current chance node.
    pub fn thrower(&self) -> Player {
        match self.phase {
            Phase::Choose0 => 0,
            Phase::Choose1 => 1,
            _ => self.player_of(self.pos.turn()),
        }
    }

    // ----- rules -----

    /// Whether the enemy king (of the side not to move) is attacked: a check
    /// left standing, so the side to move may capture the king.
    #[inline(always)]
    fn standing_check(&self) -> bool {
        self.pos.king_attacked(self.pos.turn().other())
    }

    /// Whether the side to move has a move (king captures included).
    fn has_variant_move(&self) -> bool {
        self.pos.has_legal_move() || self.standing_check()
    }

    /// A colour result as a result per player.
    fn by_player(&self, r: ColorResult) -> (Termination, Option<Player>) {
        (r.0, r.1.map(|c| self.player_of(c)))
    }

    /// Counts a turn that passed without a decision (a tie for colours, a
    /// forfeit, a switch); after `max_plies` of them in a row the game ends
    /// as truncated (the bound that ends even games whose throws are
    /// dictated, see [`Progress::forced_pass`]). Returns whether it ended.
    fn idle_turn_ends_game(&mut self) -> bool {
        if self.progress.forced_pass() {
            self.moves_left = 0;
            return true;
        }
        false
    }

    /// The side to move has no move: checkmate if in check, else stalemate.
    fn end_without_moves(&mut self) {
        self.progress.result = Some(self.by_player(no_move_ending(&self.pos)));
    }

    /// Start of a turn of the player commanding the colour to move.
    fn begin_turn(&mut self) {
        self.moves_left = 0;
        if !self.has_variant_move() {
            self.end_without_moves();
            return;
        }
        self.start_turn();
    }

    /// Start of a turn when the side to move is known to have a move.
    fn start_turn(&mut self) {
        self.moves_left = 0;
        if self.first_turns > 0 {
            self.first_turns -= 1;
            self.moves_left = 1;
            self.phase = Phase::Move;
        } else {
            self.phase = Phase::Throw;
        }
    }

    /// What of player `p`'s last throw decides the future, for search
    /// keys: once colours are chosen, a later throw only asks whether it
    /// repeats the last one, and the table treats 2, 3, 4 and 5 alike, so
    /// with the run length the last throw's class (1, one of 2-5, or 6)
    /// settles every later turn; during the colour choice the throw itself
    /// (player 0's is compared with player 1's).
    fn last_throw_class(&self, p: Player) -> u8 {
        match self.records[p as usize].last() {
            None => 0,
            Some(&d) if self.chosen && (2..=5).contains(&d) => 2,
            Some(&d) => d,
        }
    }

    fn push_throw(&mut self, p: Player, d: u8) -> u32 {
        let rec = &mut self.records[p as usize];
        let run = if rec.last() == Some(&d) {
            self.runs[p as usize] + 1
        } else {
            1
        };
        rec.push(d);
        self.runs[p as usize] = run;
        run
    }
}

impl Game for RandomMoveNumber {
    game_accessors!();
    fn extras(&self) -> Extras {
        Extras {
            colors: self.colors(),
            moves_left: Some(self.moves_left()),
            throw_records: Some(self.throw_records()),
            ..Extras::default()
        }
    }
    fn search_moves_left(&self) -> u32 {
        self.moves_left().max(1)
    }
    fn search_key(&self) -> u64 {
        let turn = self.phase as u64
            | (self.moves_left as u64) << 4
            | (self.first_turns as u64) << 12
            | (self.chosen as u64) << 16
            | (self.white as u64) << 17
            | (self.runs[0].min(255) as u64) << 24
            | (self.runs[1].min(255) as u64) << 32
            | (self.last_throw_class(0) as u64) << 40
            | (self.last_throw_class(1) as u64) << 44;
        super::mix_key(self.pos.hash(), turn)
    }
    fn variant(&self) -> &'static str {
        NAME
    }
    fn node(&self) -> Node {
        if self.progress.result.is_some() {
            return Node::Terminal;
        }
        match self.phase {
            Phase::Move => Node::Decision(self.player_of(self.pos.turn())),
            _ => Node::Chance,
        }
    }
    fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        if self.progress.result.is_some() || self.phase != Phase::Move {
            return;
        }
        self.pos.legal_moves(out);
        // A check left standing: every attacker may capture the king.
        super::king_capture::add_king_captures(&self.pos, crate::board::RoleSet::ALL, out);
    }
    fn play(&mut self, mv: Move) {
        let mover = self.pos.turn();
        let mover_player = self.player_of(mover);
        self.progress.decided(PassBound::InARow);
        if self.pos.king(mover.other()) == Some(mv.to()) {
            self.pos.play(mv);
            self.moves_left = 0;
            self.progress.result = Some((Termination::KingCaptured, Some(mover_player)));
            return;
        }
        self.pos.play(mv);
        self.moves_left -= 1;
        let irreversible = self.pos.halfmove_clock() == 0;
        let mut continues = false;
        if self.pos.is_check() {
            // A checking move ends the turn.
            self.moves_left = 0;
        } else if self.moves_left > 0 {
            continues = true;
            self.pos.set_turn(mover);
            self.pos.clear_ep();
        }
        // After a legal non-capturing-the-king move the mover's king is safe,
        // so orthodox legality decides whether the side to move can move.
        let pos = &self.pos;
        let end = self.progress.after_move(
            pos,
            pos.repetition_key(),
            irreversible,
            Endings::CHESS,
            || pos.has_legal_move(),
        );
        self.progress.result = end.map(|r| self.by_player(r));
        if self.progress.result.is_some() {
            self.moves_left = 0;
            return;
        }
        if !continues {
            // The side to move has a move (checked above).
            self.start_turn();
        }
    }
    fn chance_outcomes(&self, out: &mut Outcomes) {
        out.clear();
        if self.progress.result.is_none() && self.phase != Phase::Move {
            for id in 0..6 {
                out.add(id, 1.0 / 6.0);
            }
        }
    }
    fn apply_outcome(&mut self, outcome: Action) {
        let d = (outcome.min(5) + 1) as u8;
        match self.phase {
            Phase::Choose0 => {
                self.push_throw(0, d);
                self.phase = Phase::Choose1;
            }
            Phase::Choose1 => {
                self.push_throw(1, d);
                let d0 = self.records[0].last().copied().unwrap_or(0);
                if d0 == d {
                    // A tie: thrown again (a turn without a decision).
                    if self.idle_turn_ends_game() {
                        return;
                    }
                    self.phase = Phase::Choose0;
                } else {
                    self.chosen = true;
                    self.white = if d0 > d { 0 } else { 1 };
                    self.begin_turn();
                }
            }
            Phase::Throw => {
                let p = self.player_of(self.pos.turn());
                let n = self.push_throw(p, d);
                match throw_effect(d, n) {
                    ThrowEffect::Lose => {
                        self.progress.result = Some((Termination::SixSixes, Some(1 - p)));
                    }
                    ThrowEffect::Switch => {
                        self.white = 1 - self.white;
                        if !self.idle_turn_ends_game() {
                            self.begin_turn();
                        }
                    }
                    ThrowEffect::Moves(0) => {
                        self.pos.play_null();
                        if !self.idle_turn_ends_game() {
                            self.begin_turn();
                        }
                    }
                    ThrowEffect::Moves(k) => {
                        self.moves_left = k;
                        self.phase = Phase::Move;
                    }
                }
            }
            Phase::Move => {}
        }
    }
    fn outcome_name(&self, outcome: Action) -> String {
        outcome_name_in(&OUTCOME_NAMES, outcome)
    }
    fn max_chance_outcomes(&self) -> usize {
        6
    }
    fn san(&self, mv: Move) -> String {
        if mv.is_null() {
            return "pass".into();
        }
        if self.pos.king(self.pos.turn().other()) == Some(mv.to()) {
            return self.king_capture_san(mv);
        }
        san::san(&self.pos, mv)
    }
    fn fen(&self) -> String {
        self.fen_text()
    }
    fn color_of(&self, player: Player) -> Color {
        if player == self.white {
            Color::White
        } else {
            Color::Black
        }
    }
    fn extra_planes(&self) -> &'static [&'static str] {
        &[
            "moves_left_div8_capped",
            "own_run_length_div6_capped",
            "own_last_throw_div6",
            "opponent_run_length_div6_capped",
            "opponent_last_throw_div6",
        ]
    }
    fn write_extra_planes(&self, view: Color, out: &mut [f32]) {
        let n = self.pos.geometry().num_squares();
        let me = self.player_of(view) as usize;
        let last = |p: usize| self.records[p].last().copied().unwrap_or(0) as f32 / 6.0;
        let run = |p: usize| (self.runs[p] as f32 / 6.0).min(1.0);
        let vals = [
            (self.moves_left() as f32 / 8.0).min(1.0),
            run(me),
            last(me),
            run(1 - me),
            last(1 - me),
        ];
        for (i, v) in vals.into_iter().enumerate() {
            out[i * n..(i + 1) * n].fill(v);
        }
    }
    fn describe_state(&self) -> Vec<String> {
        self.describe_text()
    }
    fn check_invariants(&self) -> Result<(), String> {
        let p = &self.pos;
        p.check_hash()?;
        for pl in 0..2 {
            if self.runs[pl] != run_of(&self.records[pl]) {
                return Err(format!("cached run of player {pl} is wrong"));
            }
        }
        if self.progress.result.is_some() {
            return Ok(());
        }
        if p.king(Color::White).is_none() || p.king(Color::Black).is_none() {
            return Err("a king is missing in a running game".into());
        }
        if p.king_attacked(Color::White) && p.king_attacked(Color::Black) {
            return Err("both kings attacked".into());
        }
        match self.phase {
            Phase::Move => {
                if self.moves_left == 0 {
                    return Err("decision node with no moves left".into());
                }
                if !self.chosen {
                    return Err("decision before the colour choice".into());
                }
                let mut ml = MoveList::new();
                self.legal_moves(&mut ml);
                if ml.is_empty() {
                    return Err("decision node without legal moves".into());
                }
                // A check left standing only at the first move of a turn:
                // then the ep right is gone (the opponent did not just move).
                if self.standing_check() && p.ep_square().is_some() && p.has_legal_ep() {
                    return Err("en passant possible with a check left standing".into());
                }
            }
            Phase::Throw => {
                if self.moves_left != 0 || self.first_turns != 0 {
                    return Err("throw node with moves left or first turns pending".into());
                }
            }
            Phase::Choose0 | Phase::Choose1 => {
                if self.chosen {
                    return Err("colour-choosing throw after the colours were chosen".into());
                }
            }
        }
        Ok(())
    }
    fn options(&self) -> Options {
        let mut o = Options::new();
        o.insert("max_plies".into(), self.progress.max_plies.into());
        o
    }
}
