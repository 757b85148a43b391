//! DiceChess with three dice, the Moscow version (docs/rules.md §10, variant
//! `dice_chess3`).
//!
//! # Turns
//!
//! A **chance node** rolls three piece-type dice (56 multisets, [`dice`]).
//! The player then makes up to three single moves, one per die, in any
//! order, each a decision node of the same player: a die moves one piece of
//! its type (castling: a `K` die; a promotion: a `P` die), and the same piece
//! may move again. The player must use as many dice as possible over the
//! turn ([`turn`]); dice that cannot be used are skipped, and a turn in which
//! no die can be used passes by itself (no decision node).
//!
//! There is no check: moves are pseudo-legal, a king may stand on an
//! attacked square. Castling keeps its conditions (king and rook unmoved,
//! squares between empty, the king not attacked and not passing through or
//! landing on an attacked square). En passant only against the opponent's
//! last move and only as the first move of the turn. Promotion to Q, R, B or
//! N. Capturing the enemy king wins at once, even mid-turn
//! (`king_captured`).
//!
//! # Draws and the game-length cap
//!
//! Threefold repetition with keys after whole turns (not after a turn in
//! which no die could be used); the 50-move rule counted in turns: 100
//! turns in a row (50 by each side) without a capture or pawn move, a turn
//! without a move included (this bounds every run of such turns). No
//! checkmate, stalemate or insufficient material. `max_plies` (default 1000)
//! counts moves.
//!
//! # FEN extension
//!
//! Two fields after the six standard ones: the turn's roll (`-` at the chance
//! node, else three letters in face order, e.g. `PNK`) and the dice left
//! (`-` or e.g. `NK`). The halfmove field counts turns without a capture or
//! pawn move, the current turn included once it has a move; the fullmove
//! field counts Black's turns. The en-passant field is written when a pawn
//! of the side to move could take en passant (first move of a turn only).

mod after;
mod faces;
mod fen;
mod first_moves;
mod invariants;
mod sample;
mod shut;
#[cfg(test)]
mod tests;
mod turn;
mod witness;

use super::dice::{self, FACE_NAMES};
use super::*;
use crate::board::attacks::pawn_attacks;
use crate::board::zobrist;
use crate::board::{file_of, Role};
use crate::notation::fen::{parse_fen, FenRules};
use crate::notation::san;
use crate::rng::GameRng;
use serde::{Deserialize, Serialize};
use turn::DiceLeft;

const NAME: &str = "dice_chess3";

use dice::LAYOUT;
pub use dice::START_FEN;

/// No check in this variant: a double step may leave its mover's king
/// attacked, and the en-passant square then stands beside that attack.
const FEN_RULES: FenRules = FenRules {
    moves_keep_king_safe: false,
    ..dice::FEN_RULES
};
use std::sync::Arc;

const EXTRA_PLANES: [&str; 12] = [
    "roll_pawn",
    "roll_knight",
    "roll_bishop",
    "roll_rook",
    "roll_queen",
    "roll_king",
    "left_pawn",
    "left_knight",
    "left_bishop",
    "left_rook",
    "left_queen",
    "left_king",
];

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Phase {
    /// The dice are to be rolled.
    Chance,
    /// The player to move decides with the dice left.
    Moving,
    /// The game is over.
    Over,
}

/// A game of three-dice DiceChess.
///
/// ```
/// use dicechess::variants::{dice_chess3::DiceChess3, Game, Node, Options};
/// let mut g = DiceChess3::new(&Options::new()).unwrap();
/// let id = (0..56).find(|&id| g.outcome_name(id) == "PPN").unwrap();
/// g.apply_outcome(id);
/// assert_eq!(g.node(), Node::Decision(0));
/// assert_eq!(g.dice_left().as_deref(), Some("PPN"));
/// ```
#[derive(Clone, Serialize, Deserialize)]
pub struct DiceChess3 {
    pos: Position,
    phase: Phase,
    /// The turn's roll, faces ascending (while deciding).
    roll: Option<[u8; 3]>,
    /// Dice left in the turn, by face.
    left: DiceLeft,
    /// Dice the rest of the turn must still use (the maximum).
    need: u8,
    /// Whether the turn so far had a capture or pawn move.
    turn_reset: bool,
    table: ChanceTable,
    start_fen: Arc<str>,
    progress: Progress,
    /// The first decision's candidates (the pseudo-legal moves of the
    /// roll), found by `apply_outcome` with the turn's maximum (they share
    /// one move generation), and the witness chain that showed it; later
    /// decisions of the turn generate theirs.
    #[serde(skip)]
    first: first_moves::FirstMoves,
}

impl DiceChess3 {
    /// The decision's candidates (the pseudo-legal moves of the dice left)
    /// into `out`: the roll's cached list at the turn's first decision,
    /// generated otherwise. Returns whether they came from the cache.
    fn candidates(&self, out: &mut MoveList) -> bool {
        let cached = self.first.copy_to(out);
        if !cached {
            self.pos.pseudo_moves_of(turn::roles_left(&self.left), out);
        }
        cached
    }

    /// Options: `fen` (default the start position; may carry the roll and
    /// the dice left), `max_plies` (default 1000).
    pub fn new(options: &Options) -> Result<DiceChess3, GameError> {
        let mut r = OptionReader::new(NAME, options);
        let fen = r.string("fen")?;
        let max_plies = r.int("max_plies", 1000, 1, 1_000_000)? as u32;
        r.finish()?;
        let fen = fen.unwrap_or_else(|| START_FEN.to_string());
        let (pos, rest) = parse_fen(&fen, &FEN_RULES).map_err(GameError::new)?;
        let mut g = DiceChess3 {
            pos,
            phase: Phase::Chance,
            roll: None,
            left: DiceLeft::NONE,
            need: 0,
            turn_reset: false,
            table: dice::outcome_table(3, &[1; 6]).into(),
            start_fen: fen.clone().into(),
            progress: Progress::new(max_plies),
            first: Default::default(),
        };
        g.read_turn_state(&rest)?;
        g.progress.record(g.repetition_key(), true);
        // Mid-turn the halfmove field already counts this turn: the rule is
        // applied when the turn ends.
        if g.pos.fifty_moves() && g.moves_made() == 0 {
            g.finish(Termination::FiftyMoves, None);
        } else if g.phase == Phase::Moving {
            g.need = turn::max_usable(&g.pos, &g.left);
            if g.need == 0 && g.moves_made() == 0 {
                g.empty_turn();
            } else if g.need == 0 {
                // The dice left cannot be used: the turn ends here.
                g.pos.play_null();
                g.end_turn();
            }
        }
        Ok(g)
    }

    /// The turn's roll (`"PNK"`) while the player decides, else `None`.
    pub fn dice(&self) -> Option<String> {
        self.roll.map(|r| dice::roll_name(&r))
    }

    /// The dice not used yet this turn (`"NK"`) while deciding, else `None`.
    pub fn dice_left(&self) -> Option<String> {
        (self.phase == Phase::Moving).then(|| self.left_name())
    }

    fn left_name(&self) -> String {
        let mut s = String::new();
        for (f, n) in self.left.counts().into_iter().enumerate() {
            for _ in 0..n {
                s.push(dice::FACE_LETTERS[f]);
            }
        }
        s
    }

    /// Moves made so far in the current turn.
    fn moves_made(&self) -> u8 {
        match self.phase {
            Phase::Moving => 3 - self.left.total(),
            _ => 0,
        }
    }

    /// Whether a pawn of the side to move could take en passant.
    fn ep_possible(&self) -> bool {
        match self.pos.ep_square() {
            Some(ep) => {
                let us = self.pos.turn();
                (pawn_attacks(us.other(), ep) & self.pos.pieces(us, Role::Pawn)).any()
            }
            None => false,
        }
    }

    /// The repetition key: placement, side, castling, en passant if possible.
    fn repetition_key(&self) -> u64 {
        match self.pos.ep_square() {
            Some(ep) if self.ep_possible() => self.pos.hash() ^ zobrist::ep_file(file_of(ep)),
            _ => self.pos.hash(),
        }
    }

    fn finish(&mut self, t: Termination, winner: Option<Color>) {
        self.progress.result = Some((t, winner.map(|c| c as Player)));
        self.phase = Phase::Over;
        self.roll = None;
        self.left = DiceLeft::NONE;
        self.need = 0;
    }

    /// The turn is over (the side to move is the opponent already): key,
    /// draws, then the next roll.
    fn end_turn(&mut self) {
        let moved = self.moves_made() > 0;
        self.roll = None;
        self.left = DiceLeft::NONE;
        self.need = 0;
        self.phase = Phase::Chance;
        if moved {
            self.progress.record(self.repetition_key(), self.turn_reset);
            if self.progress.rep_count >= 3 {
                return self.finish(Termination::ThreefoldRepetition, None);
            }
        }
        self.turn_reset = false;
        if self.pos.fifty_moves() {
            self.finish(Termination::FiftyMoves, None);
        } else if self.progress.plies >= self.progress.max_plies {
            self.finish(Termination::MaxPlies, None);
        }
    }

    /// A turn in which no die can be used: it still counts for the 50-move
    /// rule.
    fn empty_turn(&mut self) {
        let quiet = self.pos.halfmove_clock() + 1;
        self.pos.play_null();
        self.pos.set_clocks(quiet, self.pos.fullmove_number());
        self.phase = Phase::Chance;
        self.roll = None;
        self.left = DiceLeft::NONE;
        if self.pos.fifty_moves() {
            self.finish(Termination::FiftyMoves, None);
        }
    }

    fn describe_dice(&self) -> String {
        let left: Vec<&str> = self
            .left
            .counts()
            .into_iter()
            .enumerate()
            .flat_map(|(f, n)| (0..n).map(move |_| FACE_NAMES[f]))
            .collect();
        format!(
            "roll {}, dice left {} ({}; {} more must be used this turn)",
            self.dice().unwrap_or_default(),
            self.left_name(),
            left.join(", "),
            self.need
        )
    }
}

impl Game for DiceChess3 {
    game_accessors!();
    fn search_key(&self) -> u64 {
        // The board, the phase and the turn state: the dice left, how many
        // the turn must still use, and whether it already reset the 50-turn
        // count.
        let left = self
            .left
            .counts()
            .into_iter()
            .fold(0u64, |k, n| k << 3 | (n.min(7) as u64));
        let turn = self.phase as u64
            | (self.need as u64) << 4
            | (self.turn_reset as u64) << 8
            | left << 16;
        super::mix_key(self.pos.hash(), turn)
    }
    fn extras(&self) -> Extras {
        Extras {
            dice: self.dice(),
            dice_left: self.dice_left(),
            ..Extras::default()
        }
    }
    fn variant(&self) -> &'static str {
        NAME
    }
    fn node(&self) -> Node {
        match self.phase {
            Phase::Chance => Node::Chance,
            Phase::Moving => Node::Decision(self.pos.turn() as Player),
            Phase::Over => Node::Terminal,
        }
    }
    fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        if self.phase != Phase::Moving {
            return;
        }
        self.candidates(out);
        if self.need > 1 {
            // The witnesses read a list that the filter does not change.
            match self.first.witnesses() {
                Some(wit) => turn::keep_legal(&self.pos, &wit, &self.left, self.need, out),
                None => {
                    let list = out.clone();
                    let wit = witness::Witnesses::new(&self.pos, &list);
                    turn::keep_legal(&self.pos, &wit, &self.left, self.need, out);
                }
            }
        }
    }
    fn play(&mut self, mv: Move) {
        self.first.invalidate();
        self.progress.decided(PassBound::InAll);
        let us = self.pos.turn();
        let face = turn::face_of(&self.pos, mv);
        let king_capture = turn::captures_king(&self.pos, mv);
        let (quiet, fullmove) = (self.pos.halfmove_clock(), self.pos.fullmove_number());
        let first = self.moves_made() == 0;
        self.pos.play(mv);
        let reset = self.pos.halfmove_clock() == 0;
        self.turn_reset |= reset;
        // Branch-free: 0 after a reset in the turn, else one more at the
        // turn's first move.
        let quiet = (quiet + first as u32) * !self.turn_reset as u32;
        self.left.take(face);
        self.need -= 1;
        if king_capture {
            self.pos.set_clocks(quiet, fullmove);
            return self.finish(Termination::KingCaptured, Some(us));
        }
        if self.need == 0 {
            // The pieces moved pass the turn: Black's turn ends a full move.
            self.pos.set_clocks(quiet, fullmove + us as u32);
            self.end_turn();
        } else {
            self.pos.set_turn(us);
            self.pos.clear_ep();
            self.pos.set_clocks(quiet, fullmove);
            if self.progress.plies >= self.progress.max_plies {
                self.finish(Termination::MaxPlies, None);
            }
        }
    }
    fn random_legal_move(&self, rng: &mut GameRng, buf: &mut MoveList) -> Move {
        self.sample_legal(rng, buf)
    }
    fn chance_outcomes(&self, out: &mut Outcomes) {
        if self.phase == Phase::Chance {
            out.copy_from(self.table.outcomes());
        } else {
            out.clear();
        }
    }
    fn chance_table(&self) -> Option<&ChanceTable> {
        Some(&self.table)
    }
    fn apply_outcome(&mut self, outcome: Action) {
        let r = dice::roll_faces(3, outcome);
        self.left = DiceLeft::of_roll(&r);
        self.roll = Some(r);
        self.turn_reset = false;
        // The candidates go straight into the cache (a list only when they
        // overflow it).
        let roles = turn::roles_left(&self.left);
        self.first.fill(&self.pos, roles);
        let (need, chain) = match self.first.witnesses() {
            Some(wit) => turn::max_with_chain(&self.pos, &self.left, &wit),
            None => {
                let mut list = MoveList::new();
                self.pos.pseudo_moves_of(roles, &mut list);
                let wit = witness::Witnesses::new(&self.pos, &list);
                turn::max_with_chain(&self.pos, &self.left, &wit)
            }
        };
        (self.need, self.first.chain) = (need, chain);
        if self.need == 0 {
            self.empty_turn();
        } else {
            self.phase = Phase::Moving;
        }
    }
    fn search_roll_roles(&self, outcome: Action) -> Option<RoleSet> {
        Some(dice::roles_of(&dice::roll_faces(3, outcome)))
    }
    fn search_dice_left(&self) -> Option<[u8; 6]> {
        (self.phase == Phase::Moving).then(|| self.left.counts())
    }
    fn search_roll_dice(&self, outcome: Action) -> Option<[u8; 6]> {
        Some(DiceLeft::of_roll(&dice::roll_faces(3, outcome)).counts())
    }
    fn outcome_name(&self, outcome: Action) -> String {
        if (outcome as usize) < dice::num_rolls(3) {
            dice::roll_name(&dice::roll_faces(3, outcome))
        } else {
            outcome.to_string()
        }
    }
    fn max_chance_outcomes(&self) -> usize {
        dice::num_rolls(3)
    }
    fn san(&self, mv: Move) -> String {
        let mut legal = MoveList::new();
        self.legal_moves(&mut legal);
        san::san_body_among(&self.pos, mv, &legal)
    }
    fn fen(&self) -> String {
        self.write_fen()
    }
    fn extra_planes(&self) -> &'static [&'static str] {
        &EXTRA_PLANES
    }
    fn write_extra_planes(&self, _view: Color, out: &mut [f32]) {
        let n = self.pos.geometry().num_squares();
        out[..EXTRA_PLANES.len() * n].fill(0.0);
        if let Some(r) = self.roll {
            let mut counts = [0u8; 6];
            for f in r {
                counts[f as usize] += 1;
            }
            dice::write_count_planes(&self.pos, out, 0, &counts, 3.0);
            dice::write_count_planes(&self.pos, out, 6, &self.left.counts(), 3.0);
        }
    }
    fn describe_state(&self) -> Vec<String> {
        let side = self.pos.turn().name();
        vec![match self.phase {
            Phase::Chance => format!("dice: {side} to roll three dice"),
            Phase::Moving => format!("dice: {}", self.describe_dice()),
            Phase::Over => "dice: none".into(),
        }]
    }
    fn explain_disallowed(&self, mv: Move) -> Option<String> {
        if self.phase != Phase::Moving {
            return None;
        }
        if mv.is_null() {
            return Some(format!("passing is not allowed: {}", self.describe_dice()));
        }
        let face = turn::face_of(&self.pos, mv);
        let text = san::san_body(&self.pos, mv);
        Some(if self.left.get(face) == 0 {
            format!(
                "{text} is a {} move, but {}",
                FACE_NAMES[face],
                self.describe_dice()
            )
        } else {
            format!(
                "{text} would leave fewer dice usable than possible this turn ({})",
                self.describe_dice()
            )
        })
    }
    fn check_invariants(&self) -> Result<(), String> {
        self.invariants()
    }
    fn options(&self) -> Options {
        let mut o = Options::new();
        o.insert("fen".into(), (*self.start_fen).into());
        o.insert("max_plies".into(), self.progress.max_plies.into());
        o
    }
}
