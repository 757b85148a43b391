//! Vegas Fun Chess (George Koltanowski), docs/rules.md §4: orthodox chess with two
//! piece-type dice.
//!
//! # Turns
//!
//! 1. *In check* (evasion): no roll; any legal move (it gets out of check);
//!    no pass. No legal move: checkmate.
//! 2. *Free move*: the side to move's previous move gave check: no roll; any
//!    legal move, or `pass`. (If that player is in check themselves, rule 1
//!    applies instead.) With no legal move at all the only choice is to pass,
//!    so the turn passes by itself (no decision node).
//! 3. Otherwise a **chance node**: both dice are rolled. The player must move
//!    a piece of a type shown on either die (castling is a king move, a
//!    promotion a pawn move); generation is restricted with
//!    [`Position::legal_moves_of`]. If die B (or die A, with custom dice)
//!    shows `*` (optional), any legal move or `pass`. If no piece of a rolled
//!    type can move, the turn passes by itself (forced pass, no decision).
//!    *Stalemate ruling:* with no legal move at all (not in check) the
//!    player still rolls; a king on either die draws (`stalemate`),
//!    otherwise the turn passes.
//!
//! # Chance outcomes
//!
//! An outcome is the ordered pair (die A face, die B face). Face indices are
//! `P=0 N=1 B=2 R=3 Q=4 K=5 *=6`, and the fixed outcome id is
//! `a_index * 7 + b_index` (so [`Game::max_chance_outcomes`] is 49). The name
//! is the two letters, die A first: `"PN"`, `"KQ"`, `"B*"`. Equal pairs merge:
//! with the default dice `"PNBRKP"` and `"PNBRQ*"` there are 30 outcomes, and
//! the `P?` outcomes have probability 2/36.
//!
//! # Draws, plies
//!
//! Threefold repetition (a key after every move, none after passes), the
//! 50-move rule (passes do not count), insufficient material, all automatic;
//! `max_plies` counts moves and voluntary passes. Stalemate is only decided by
//! a roll, so a move is followed by: checkmate, threefold, fifty moves,
//! insufficient material, `max_plies`.
//!
//! # FEN extension
//!
//! Two fields after the six standard ones: the roll of the current turn (`-`,
//! or the outcome name such as `PN`, while the player decides with the dice
//! shown) and `free` when the side to move is on a free move (its previous
//! move gave check), else `-`. Both are optional on input (default `- -`);
//! a roll given in a FEN is applied as if just rolled (so it may pass the turn
//! or end the game in a stalemate). A FEN whose side to move is in check is
//! read as "the opponent's previous move gave check", so after the evasion
//! the opponent has a free move.
//!
//! ```
//! use dicechess::variants::{vegas::Vegas, Game, Node, Options};
//! let mut g = Vegas::new(&Options::new()).unwrap();
//! assert_eq!(g.node(), Node::Chance);
//! g.apply_outcome(0 * 7 + 1); // die A pawn, die B knight: "PN"
//! assert_eq!(g.dice().as_deref(), Some("PN"));
//! let mut ml = dicechess::board::MoveList::new();
//! g.legal_moves(&mut ml);
//! assert_eq!(ml.len(), 20); // 16 pawn moves and 4 knight moves
//! ```

mod fen;
mod text;

use super::*;
use crate::board::{Geometry, Role, RoleSet};
use crate::encode::observation::fill_plane;
use crate::notation::fen::{parse_fen, write_fen, FenRules};
use crate::notation::san;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::sync::Arc;

/// The standard starting position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// Default faces of die A.
pub const DEFAULT_DIE_A: &str = "PNBRKP";
/// Default faces of die B (`*` = optional).
pub const DEFAULT_DIE_B: &str = "PNBRQ*";

/// Face letters by face index (`P=0 … K=5`, `*=6`).
pub const FACES: [char; 7] = ['P', 'N', 'B', 'R', 'Q', 'K', '*'];
const OPTIONAL: u8 = 6;
const KING: u8 = 5;
const MAX_FACES: usize = 100;

const FACE_NAMES: [&str; 7] = [
    "pawn", "knight", "bishop", "rook", "queen", "king", "optional",
];

const EXTRA_PLANES: [&str; 15] = [
    "die_a_pawn",
    "die_a_knight",
    "die_a_bishop",
    "die_a_rook",
    "die_a_queen",
    "die_a_king",
    "die_a_optional",
    "die_b_pawn",
    "die_b_knight",
    "die_b_bishop",
    "die_b_rook",
    "die_b_queen",
    "die_b_king",
    "die_b_optional",
    "free_move",
];

const LAYOUT: ActionLayout = ActionLayout {
    geometry: Geometry::STANDARD,
    pass: true,
    rotations: false,
};

/// Where the current turn stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Phase {
    /// The dice are to be rolled.
    Chance,
    /// The dice are rolled and the player decides (roll in `Vegas::roll`).
    Rolled,
    /// In check: no roll, must get out of check.
    Evasion,
    /// The previous move of the side to move gave check: any move or pass.
    Free,
    /// The game is over.
    Over,
}

/// The precomputed chance outcomes (serialised as a list of pairs).
#[derive(Clone, Copy)]
struct OutcomeTable(Outcomes);

impl Serialize for OutcomeTable {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.as_slice().serialize(s)
    }
}

impl<'de> Deserialize<'de> for OutcomeTable {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v: Vec<(Action, f64)> = Vec::deserialize(d)?;
        let mut o = Outcomes::new();
        for (id, p) in v {
            o.add(id, p);
        }
        Ok(OutcomeTable(o))
    }
}

/// A Vegas Fun Chess game.
#[derive(Clone, Serialize, Deserialize)]
pub struct Vegas {
    pos: Position,
    phase: Phase,
    /// Face indices (die A, die B) of the current turn's roll.
    roll: Option<(u8, u8)>,
    /// Whether the side to move's previous move gave check (meaningful when
    /// it is not in check).
    free: bool,
    /// Options fixed for the game: shared by clones (a search clones the
    /// state at every node).
    die_a: Arc<str>,
    die_b: Arc<str>,
    table: Arc<OutcomeTable>,
    start_fen: Arc<str>,
    progress: Progress,
}

fn face_index(c: char) -> Option<u8> {
    FACES.iter().position(|&f| f == c).map(|i| i as u8)
}

/// The roles a roll allows (the optional face allows none by itself).
#[inline(always)]
fn roll_roles(a: u8, b: u8) -> RoleSet {
    let mut r = RoleSet::EMPTY;
    if a < OPTIONAL {
        r = r.with(Role::from_index(a as usize));
    }
    if b < OPTIONAL {
        r = r.with(Role::from_index(b as usize));
    }
    r
}

fn roll_name(a: u8, b: u8) -> String {
    let mut s = String::with_capacity(2);
    s.push(FACES[a as usize]);
    s.push(FACES[b as usize]);
    s
}

impl Vegas {
    /// The current roll as its outcome name (`"PN"`, `"B*"`) while the player
    /// decides with the dice shown (and in a stalemate ended by a king),
    /// else `None`.
    pub fn dice(&self) -> Option<String> {
        self.roll.map(|(a, b)| roll_name(a, b))
    }

    /// Whether the side to move is on a free move (its previous move gave
    /// check; it may move anything or pass).
    pub fn is_free_move(&self) -> bool {
        self.phase == Phase::Free
    }

    /// The faces of die A and die B.
    pub fn dice_faces(&self) -> (&str, &str) {
        (&self.die_a, &self.die_b)
    }

    fn finish(&mut self, t: Termination, winner: Option<Color>) {
        self.progress.result = Some((t, winner.map(|c| c as Player)));
        self.phase = Phase::Over;
    }

    /// Settles the start of a turn: evasion, free move (or its forced pass)
    /// or the chance node.
    fn start_turn(&mut self) {
        self.roll = None;
        if self.pos.is_check() {
            // Checkmate was decided before (after the move, or at setup).
            self.free = false;
            self.phase = Phase::Evasion;
        } else if self.free {
            if self.pos.has_legal_move() {
                self.phase = Phase::Free;
            } else {
                // Only a pass is possible: no decision (docs/rules.md §0).
                self.pass_turn();
            }
        } else {
            self.phase = Phase::Chance;
        }
    }

    /// A turn passes without a decision; `max_plies` such turns in a row
    /// end the game as truncated ([`Progress::forced_pass`]).
    fn forced_pass(&mut self) {
        if self.progress.forced_pass() {
            self.finish(Termination::MaxPlies, None);
        } else {
            self.pass_turn();
        }
    }

    /// The side to move passes (forced or voluntary): no key, no clock.
    fn pass_turn(&mut self) {
        self.pos.play_null();
        // The new side to move did not give check with its previous move: the
        // passer was not in check (a player in check never passes).
        self.free = false;
        self.start_turn();
    }
}

impl Game for Vegas {
    game_accessors!();
    fn extras(&self) -> Extras {
        Extras {
            dice: self.dice(),
            ..Extras::default()
        }
    }
    fn search_key(&self) -> u64 {
        let (a, b) = self.roll.map_or((7, 7), |(a, b)| (a as u64, b as u64));
        super::mix_key(self.pos.hash(), self.phase as u64 | a << 8 | b << 16)
    }
    fn variant(&self) -> &'static str {
        "vegas"
    }
    fn node(&self) -> Node {
        match self.phase {
            Phase::Chance => Node::Chance,
            Phase::Over => Node::Terminal,
            _ => Node::Decision(self.pos.turn() as Player),
        }
    }
    fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        match self.phase {
            Phase::Rolled => {
                let (a, b) = self.roll.unwrap_or((OPTIONAL, OPTIONAL));
                if a == OPTIONAL || b == OPTIONAL {
                    self.pos.legal_moves(out);
                    out.push(Move::NULL);
                } else {
                    self.pos.legal_moves_of(roll_roles(a, b), out);
                }
            }
            Phase::Evasion => self.pos.legal_moves(out),
            Phase::Free => {
                self.pos.legal_moves(out);
                out.push(Move::NULL);
            }
            Phase::Chance | Phase::Over => {}
        }
    }
    fn play(&mut self, mv: Move) {
        self.progress.decided(PassBound::InARow);
        self.roll = None;
        if mv.is_null() {
            if self.progress.plies >= self.progress.max_plies {
                self.finish(Termination::MaxPlies, None);
            } else {
                self.pass_turn();
            }
            return;
        }
        // The opponent's previous move gave check iff the mover is in check now.
        let mover_was_in_check = self.phase == Phase::Evasion;
        self.pos.play(mv);
        self.free = mover_was_in_check;
        let irreversible = self.pos.halfmove_clock() == 0;
        let pos = &self.pos;
        let key = pos.repetition_key();
        match self
            .progress
            .after_move(pos, key, irreversible, Endings::NO_STALEMATE, || {
                pos.has_legal_move()
            }) {
            Some((t, winner)) => self.finish(t, winner),
            None => self.start_turn(),
        }
    }
    fn chance_outcomes(&self, out: &mut Outcomes) {
        if self.phase == Phase::Chance {
            out.copy_from(&self.table.0);
        } else {
            out.clear();
        }
    }
    fn apply_outcome(&mut self, outcome: Action) {
        let (a, b) = ((outcome / 7) as u8, (outcome % 7) as u8);
        self.roll = Some((a, b));
        let optional = a == OPTIONAL || b == OPTIONAL;
        let can_move = if optional {
            self.pos.has_legal_move()
        } else {
            self.pos.has_legal_move_of(roll_roles(a, b))
        };
        if can_move {
            self.phase = Phase::Rolled;
        } else if !optional && self.pos.has_legal_move() {
            // Only pieces of other types could move: a forced pass.
            self.forced_pass();
        } else if a == KING || b == KING {
            // Stalemate ruling: no legal move at all and a king rolled.
            self.finish(Termination::Stalemate, None);
        } else {
            self.forced_pass();
        }
    }
    fn search_roll_roles(&self, outcome: Action) -> Option<RoleSet> {
        let (a, b) = ((outcome / 7) as u8, (outcome % 7) as u8);
        Some(if a == OPTIONAL || b == OPTIONAL {
            RoleSet::ALL
        } else {
            roll_roles(a, b)
        })
    }
    fn outcome_name(&self, outcome: Action) -> String {
        if outcome < 49 {
            roll_name((outcome / 7) as u8, (outcome % 7) as u8)
        } else {
            outcome.to_string()
        }
    }
    fn max_chance_outcomes(&self) -> usize {
        49
    }
    fn san(&self, mv: Move) -> String {
        if mv.is_null() {
            "pass".into()
        } else {
            san::san(&self.pos, mv)
        }
    }
    fn fen(&self) -> String {
        self.fen_text()
    }
    fn extra_planes(&self) -> &'static [&'static str] {
        &EXTRA_PLANES
    }
    fn write_extra_planes(&self, _view: Color, out: &mut [f32]) {
        let n = self.pos.geometry().num_squares();
        out[..EXTRA_PLANES.len() * n].fill(0.0);
        if let Some((a, b)) = self.roll {
            fill_plane(&self.pos, out, a as usize, 1.0);
            fill_plane(&self.pos, out, 7 + b as usize, 1.0);
        }
        if self.phase == Phase::Free {
            fill_plane(&self.pos, out, 14, 1.0);
        }
    }
    fn describe_state(&self) -> Vec<String> {
        self.describe_text()
    }
    fn explain_disallowed(&self, mv: Move) -> Option<String> {
        self.explain_text(mv)
    }
    fn check_invariants(&self) -> Result<(), String> {
        let p = &self.pos;
        p.check_hash()?;
        p.check_opponent_safe()?;
        let in_check = p.is_check();
        match self.phase {
            Phase::Chance => {
                if in_check || self.free || self.roll.is_some() {
                    return Err("chance node in check, on a free move or with a roll".into());
                }
            }
            Phase::Rolled => {
                if in_check || self.roll.is_none() {
                    return Err("rolled decision in check or without a roll".into());
                }
            }
            Phase::Evasion => {
                if !in_check || self.roll.is_some() {
                    return Err("evasion node not in check or with a roll".into());
                }
            }
            Phase::Free => {
                if in_check || !self.free || self.roll.is_some() {
                    return Err("free move in check, without the flag or with a roll".into());
                }
            }
            Phase::Over => {
                if self.progress.result.is_none() {
                    return Err("over without a result".into());
                }
            }
        }
        if let Node::Decision(_) = self.node() {
            let mut ml = MoveList::new();
            self.legal_moves(&mut ml);
            if ml.is_empty() {
                return Err("decision node without legal decisions".into());
            }
        }
        Ok(())
    }
    fn options(&self) -> Options {
        let mut o = Options::new();
        o.insert("fen".into(), (*self.start_fen).into());
        o.insert("max_plies".into(), self.progress.max_plies.into());
        o.insert("die_a".into(), (*self.die_a).into());
        o.insert("die_b".into(), (*self.die_b).into());
        o
    }
}
