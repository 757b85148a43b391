//! Dice Chess with two dice (docs/rules.md §9, variant `dice_chess`): orthodox chess
//! in which a roll of two piece-type dice decides which piece types may move.
//!
//! # Turns
//!
//! At the start of every turn, before any roll: a side to move with no legal
//! move at all (whatever the dice) is checkmated if in check and stalemated
//! otherwise. Then a **chance node**: two dice are rolled (faces `P N B R Q
//! K`, option `die_faces`). The player must move a piece of a rolled type;
//! doubles allow any legal move; castling is a king or a rook move, en
//! passant a pawn move. Moves are legal in the chess sense. If the roll
//! allows no move, in check or not, the turn passes by itself (no decision
//! node).
//!
//! **The dice rule set** ([`DiceRules`], `src/variants/dice_rules.rs`) makes
//! the relatives of this game options of it: `dice=1` (one die decides the
//! piece type), `doubles="rolled"` (doubles allow only their type),
//! `no_move="reroll"` (a roll without a move is rolled again by the same
//! player instead of passing the turn), with `die_faces`. The defaults are
//! the classic game above.
//!
//! **King capture.** A player who passed in check leaves the check standing:
//! the opponent may then capture the king with an attacking piece of a
//! rolled type (any attacker on doubles), even a pinned one; this wins at
//! once (`king_captured`). It is not compulsory.
//!
//! # Chance outcomes
//!
//! 21 unordered pairs, id = rank among the pairs in lexicographic face order
//! ([`super::dice`]), named by their letters in face order (`PN`, `QQ`,
//! `NK`); a pair has probability 2/36, doubles 1/36 (with custom
//! `die_faces`, in proportion to the face counts). One die: 6 outcomes,
//! `P` to `K`, each 1/6.
//!
//! # Draws, plies and the bound on passes
//!
//! Threefold repetition (a key after every move, none after passes), the
//! 50-move rule (passes do not count), insufficient material; `max_plies`
//! (default 1000) counts moves. Forced passes are bounded too: the game is
//! truncated (`max_plies`) when the forced passes (or rerolls) reach
//! `max_plies`, so every game ends whatever the dice (with random dice a pass
//! run is short: doubles, probability at least 1/6, allow any legal move).
//!
//! # FEN extension
//!
//! One field after the six standard ones: the roll of the current turn
//! (`-` at the chance node, or the outcome name such as `PN`, `N` with one
//! die, while the player decides). Optional on input; a roll given is applied as if just
//! rolled (so it may pass the turn). The side not to move may be in check
//! (a check left standing).

use super::dice::{self, FACE_NAMES};
pub use super::dice_rules::DiceRules;
use super::king_capture::{add_king_captures, standing_check};
use super::legal_cache::LegalCache;
use super::*;
use crate::board::{MoveKind, Role, RoleSet};
use crate::notation::fen::{parse_fen, write_fen};
use crate::notation::san;
use serde::{Deserialize, Serialize};

const NAME: &str = "dice_chess";

pub use dice::START_FEN;
use dice::{FEN_RULES, LAYOUT};
use std::sync::Arc;

const EXTRA_PLANES: [&str; 6] = [
    "roll_pawn",
    "roll_knight",
    "roll_bishop",
    "roll_rook",
    "roll_queen",
    "roll_king",
];

/// Where the current turn stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Phase {
    /// The dice are to be rolled.
    Chance,
    /// The dice are rolled and the player decides.
    Rolled,
    /// The game is over.
    Over,
}

/// A game of two-dice Dice Chess.
///
/// ```
/// use dicechess::variants::{dice_chess::DiceChess, Game, Node, Options};
/// let mut g = DiceChess::new(&Options::new()).unwrap();
/// assert_eq!(g.node(), Node::Chance);
/// let pn = (0..21).find(|&id| g.outcome_name(id) == "PN").unwrap();
/// g.apply_outcome(pn);
/// let mut ml = dicechess::board::MoveList::new();
/// g.legal_moves(&mut ml);
/// assert_eq!(ml.len(), 20); // 16 pawn moves and 4 knight moves
/// ```
#[derive(Clone, Serialize, Deserialize)]
pub struct DiceChess {
    pos: Position,
    phase: Phase,
    /// Face indices of the current roll, ascending (one die: `[f, 6]`).
    roll: Option<[u8; 2]>,
    /// The dice rule set's options (number of dice, doubles, no move).
    rules: DiceRules,
    /// Whether the side to move attacks the enemy king (set at turn start).
    standing: bool,
    /// Options fixed for the game: shared by clones (a search clones the
    /// state at every node).
    die_faces: Arc<str>,
    table: ChanceTable,
    start_fen: Arc<str>,
    progress: Progress,
    /// The rolled player's legal moves, generated once by `apply_outcome`
    /// (it must know whether there is any) for `legal_moves`.
    #[serde(skip)]
    legal: LegalCache,
}

impl DiceChess {
    /// Options: `fen` (default the start position, optionally with the roll
    /// field), `max_plies` (default 1000), `die_faces` (default `"PNBRQK"`),
    /// and the dice rule set's `dice` (default 2), `doubles` (`"any"`) and
    /// `no_move` (`"pass"`), see [`DiceRules`].
    pub fn new(options: &Options) -> Result<DiceChess, GameError> {
        let mut r = OptionReader::new(NAME, options);
        let fen = r.string("fen")?;
        let max_plies = r.int("max_plies", 1000, 1, 1_000_000)? as u32;
        let (die_faces, counts) = dice::read_die(NAME, r.string("die_faces")?)?;
        let rules = DiceRules::read(&mut r)?;
        r.finish()?;
        let fen = fen.unwrap_or_else(|| START_FEN.to_string());
        let (pos, rest) = parse_fen(&fen, &FEN_RULES).map_err(GameError::new)?;
        if pos.king_attacked(Color::White) && pos.king_attacked(Color::Black) {
            return Err(GameError::new(format!(
                "{NAME} FEN: both kings are in check, which cannot happen in a game"
            )));
        }
        let table = dice::outcome_table(rules.k(), &counts);
        let roll = match rest.as_slice() {
            [] => None,
            [t] => rules.parse_roll_field(NAME, t, &die_faces, &counts)?,
            _ => {
                return Err(GameError::new(format!(
                    "{NAME} FEN has at most one field after the standard six (the roll, e.g. \
                     'PN' or '-'), got {rest:?}"
                )))
            }
        };
        let mut g = DiceChess {
            pos,
            phase: Phase::Chance,
            roll: None,
            rules,
            standing: false,
            die_faces: die_faces.into(),
            table: table.into(),
            start_fen: fen.into(),
            progress: Progress::new(max_plies),
            legal: LegalCache::default(),
        };
        // A check left standing lets the side to move capture the king
        // with a rolled piece: that is a move whatever the board says.
        let pos = &g.pos;
        let has_move = || standing_check(pos) || pos.has_legal_move();
        match g
            .progress
            .start(pos, pos.repetition_key(), Endings::CHESS, has_move)
        {
            Some((t, winner)) => g.finish(t, winner),
            None => {
                g.start_turn();
                if let (Some(id), Phase::Chance) = (roll, g.phase) {
                    g.apply_outcome(id);
                }
            }
        }
        Ok(g)
    }

    /// The current roll's name (`"PN"`, `"QQ"`) while the player decides,
    /// else `None`.
    pub fn dice(&self) -> Option<String> {
        self.roll.map(|r| dice::roll_name(&r))
    }

    /// The `die_faces` option.
    pub fn die_faces(&self) -> &str {
        &self.die_faces
    }

    /// The dice rule set's options.
    pub fn rules(&self) -> DiceRules {
        self.rules
    }

    fn finish(&mut self, t: Termination, winner: Option<Color>) {
        self.progress.result = Some((t, winner.map(|c| c as Player)));
        self.phase = Phase::Over;
        self.roll = None;
    }

    /// Start of a turn, before the roll: chess checkmate or stalemate
    /// (whatever the dice), else the chance node.
    fn start_turn(&mut self) {
        self.roll = None;
        self.standing = standing_check(&self.pos);
        if !self.standing && !self.pos.has_legal_move() {
            if self.pos.is_check() {
                self.finish(Termination::Checkmate, Some(self.pos.turn().other()));
            } else {
                self.finish(Termination::Stalemate, None);
            }
        } else {
            self.phase = Phase::Chance;
        }
    }

    /// The moves a roll allowing `roles` gives the side to move.
    fn moves_of(&self, roles: RoleSet, out: &mut MoveList) {
        self.pos.legal_moves_of(roles, out);
        self.extra_moves(roles, out);
    }

    /// Fills the cache with [`Self::moves_of`]; returns whether there is
    /// any move.
    fn fill_legal(&mut self, roles: RoleSet) -> bool {
        let mut ml = MoveList::new();
        self.moves_of(roles, &mut ml);
        self.legal.set(&ml);
        !ml.is_empty()
    }

    /// Moves a roll allows beyond the role-filtered legal moves: castling
    /// as a rook move, and king captures of a check left standing.
    fn extra_moves(&self, roles: RoleSet, out: &mut MoveList) {
        let pos = &self.pos;
        if roles.contains(Role::Rook)
            && !roles.contains(Role::King)
            && pos.castling_rights() != 0
            && !pos.is_check()
        {
            if let Some(k) = pos.king(pos.turn()) {
                pos.gen_castling(k, out);
            }
        }
        if self.standing {
            add_king_captures(pos, roles, out);
        }
    }

    /// A roll allowed no move: the turn passes to the opponent (no key,
    /// no clock), or with `no_move="reroll"` the same player rolls again.
    /// Both are turns without a decision, bounded by `max_plies`.
    fn pass_turn(&mut self) {
        if self.progress.forced_pass() {
            self.finish(Termination::MaxPlies, None);
        } else if self.rules.reroll {
            self.roll = None;
            self.phase = Phase::Chance;
        } else {
            self.pos.play_null();
            self.start_turn();
        }
    }
}

impl Game for DiceChess {
    game_accessors!();
    fn search_key(&self) -> u64 {
        // The board (side to move included), the phase and the roles the
        // roll allows (the roll is gone after the move, so rolls allowing
        // the same roles, such as all six doubles, lead to one state and the
        // search's chance nodes merge them); the rest (a check left
        // standing) follows from the board.
        let roll = self.roll.map_or(0x100, |r| self.rules.roles(r).0 as u64);
        super::mix_key(self.pos.hash(), self.phase as u64 | roll << 8)
    }
    fn extras(&self) -> Extras {
        Extras {
            dice: self.dice(),
            ..Extras::default()
        }
    }
    fn variant(&self) -> &'static str {
        NAME
    }
    fn node(&self) -> Node {
        match self.phase {
            Phase::Chance => Node::Chance,
            Phase::Rolled => Node::Decision(self.pos.turn() as Player),
            Phase::Over => Node::Terminal,
        }
    }
    fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        if let (Phase::Rolled, Some(r)) = (self.phase, self.roll) {
            if !self.legal.copy_to(out) {
                self.moves_of(self.rules.roles(r), out);
            }
        }
    }
    fn play(&mut self, mv: Move) {
        self.progress.decided(PassBound::InAll);
        self.roll = None;
        let mover = self.pos.turn();
        if self.pos.king(mover.other()) == Some(mv.to()) {
            self.pos.play(mv);
            self.finish(Termination::KingCaptured, Some(mover));
            return;
        }
        self.pos.play(mv);
        let irreversible = self.pos.halfmove_clock() == 0;
        // The mover's king is safe after a legal move: no check stands, so
        // the board's legal moves decide mate and stalemate.
        let pos = &self.pos;
        let key = pos.repetition_key();
        match self
            .progress
            .after_move(pos, key, irreversible, Endings::CHESS, || {
                pos.has_legal_move()
            }) {
            Some((t, winner)) => self.finish(t, winner),
            None => {
                self.standing = false;
                self.phase = Phase::Chance;
            }
        }
    }
    fn chance_outcomes(&self, out: &mut Outcomes) {
        if self.phase == Phase::Chance {
            out.copy_from(self.table.outcomes());
        } else {
            out.clear();
        }
    }
    fn apply_outcome(&mut self, outcome: Action) {
        let r = self.rules.roll(outcome);
        if self.fill_legal(self.rules.roles(r)) {
            self.roll = Some(r);
            self.phase = Phase::Rolled;
        } else {
            self.pass_turn();
        }
    }
    fn search_roll_roles(&self, outcome: Action) -> Option<RoleSet> {
        Some(self.rules.roles(self.rules.roll(outcome)))
    }
    fn outcome_name(&self, outcome: Action) -> String {
        if (outcome as usize) < dice::num_rolls(self.rules.k()) {
            dice::roll_name(self.rules.faces(&self.rules.roll(outcome)))
        } else {
            outcome.to_string()
        }
    }
    fn max_chance_outcomes(&self) -> usize {
        dice::num_rolls(self.rules.k())
    }
    fn san(&self, mv: Move) -> String {
        let mut legal = MoveList::new();
        self.legal_moves(&mut legal);
        let mut s = san::san_body_among(&self.pos, mv, &legal);
        s.push_str(san::orthodox_suffix(&self.pos, mv));
        s
    }
    fn fen(&self) -> String {
        let mut s = write_fen(&self.pos);
        s.push(' ');
        match self.roll {
            Some(r) => s.push_str(&dice::roll_name(&r)),
            None => s.push('-'),
        }
        s
    }
    fn extra_planes(&self) -> &'static [&'static str] {
        &EXTRA_PLANES
    }
    fn write_extra_planes(&self, _view: Color, out: &mut [f32]) {
        let n = self.pos.geometry().num_squares();
        out[..EXTRA_PLANES.len() * n].fill(0.0);
        if let Some(r) = self.roll {
            let mut counts = [0u8; 6];
            for &f in self.rules.faces(&r) {
                counts[f as usize] += 1;
            }
            let scale = self.rules.dice as f32;
            dice::write_count_planes(&self.pos, out, 0, &counts, scale);
        }
    }
    fn describe_state(&self) -> Vec<String> {
        let side = self.pos.turn().name();
        let mut v = vec![match (self.phase, self.roll) {
            (Phase::Chance, _) => format!("dice: {side} to roll"),
            (Phase::Rolled, Some(r)) => {
                format!("dice: {} — {}", dice::roll_name(&r), self.rules.describe(r))
            }
            _ => "dice: none".into(),
        }];
        if self.phase == Phase::Rolled && self.standing {
            v.push("the enemy king was left in check: it may be captured".into());
        }
        v.push(format!("die faces: {}", self.die_faces));
        if self.rules != DiceRules::CLASSIC {
            let mut o = Options::new();
            self.rules.write(&mut o);
            let o: Vec<String> = o.iter().map(|(k, v)| format!("{k}={v}")).collect();
            v.push(format!("dice rules: {}", o.join(", ")));
        }
        v
    }
    fn explain_disallowed(&self, mv: Move) -> Option<String> {
        let r = self.roll?;
        if mv.is_null() {
            return Some(format!(
                "passing is not allowed: a turn passes by itself only when the roll allows \
                 no move; {}",
                self.rules.describe(r)
            ));
        }
        let role = self.pos.role_at(mv.from())?;
        let what = match mv.kind() {
            MoveKind::Castle => "castling is a king or rook move".to_string(),
            _ => format!(
                "{} is a {} move",
                san::san(&self.pos, mv),
                FACE_NAMES[role.index()]
            ),
        };
        Some(format!("{what}, but {}", self.rules.describe(r)))
    }
    fn check_invariants(&self) -> Result<(), String> {
        let p = &self.pos;
        if p.hash() != p.compute_hash() {
            return Err("incremental hash differs from recomputed hash".into());
        }
        if self.phase == Phase::Over {
            return match self.progress.result {
                Some(_) => Ok(()),
                None => Err("over without a result".into()),
            };
        }
        if p.king_attacked(Color::White) && p.king_attacked(Color::Black) {
            return Err("both kings attacked".into());
        }
        if self.standing != standing_check(p) {
            return Err("cached standing check is stale".into());
        }
        match (self.phase, self.roll) {
            (Phase::Chance, None) => {}
            (Phase::Rolled, Some(_)) => {
                let mut ml = MoveList::new();
                self.legal_moves(&mut ml);
                if ml.is_empty() {
                    return Err("decision node without legal moves".into());
                }
            }
            _ => return Err("roll shown at a chance node or missing at a decision".into()),
        }
        Ok(())
    }
    fn options(&self) -> Options {
        let mut o = Options::new();
        o.insert("fen".into(), (*self.start_fen).into());
        o.insert("max_plies".into(), self.progress.max_plies.into());
        o.insert("die_faces".into(), (*self.die_faces).into());
        self.rules.write(&mut o);
        o
    }
}
