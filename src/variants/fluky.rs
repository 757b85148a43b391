//! Fluky Chess and Metamorph Chess (docs/rules.md §2–3): 5x5, every non-king piece
//! is a die that is rolled after it moves.
//!
//! One rule set with the option `roll_skip_on_check`: `fluky` skips the roll
//! when the *moved piece* gives check (`"moved_piece"`), `metamorph` whenever
//! the move ends with the enemy king in check (`"any"`, discovered checks
//! included).
//!
//! **Chance nodes.** After a die move (not a king move) the owner rolls it,
//! except when (1) the check exception above applies, (2) the die reaches its
//! last rank (as N, B or R), or (3) a pawn promotes (to N, B or R, chosen as
//! part of the move). Outcome ids are fixed: `0 = "P"`, `1 = "N"`, `2 = "B"`,
//! `3 = "R"` (`max_chance_outcomes() == 4`); only the faces present in the
//! `die_faces` option are outcomes, with probability (number of such faces) /
//! (number of faces), equal faces merged.
//!
//! **FEN.** The six standard fields (castling and en passant always `-`); at
//! a chance node a seventh field names the square of the die to be rolled
//! (its owner is the side *not* to move), e.g. after 1. b3 from the setup
//! `2k2/ppppp/1P3/P1PPP/2K2 b - - 0 1 b3`: White rolls the die on b3, then
//! Black moves. `fen=` accepts this form, so every state round-trips.
//!
//! **Repetition.** A key (placement with faces, side to move) is recorded for
//! the initial position and after each move once its roll (if any) is made.
//! Only captures are irreversible (a die can roll back to a pawn).
//!
//! **End of the game**, in docs/rules.md §0 order: a king move onto the enemy king's
//! start square (`goal_white`, default c5; `goal_black`, default c1) wins at
//! once; checkmate; stalemate; threefold repetition; `max_plies`.

use super::*;
use crate::board::{
    rank_of, square_name, Bitboard, Geometry, PawnStyle, Piece, Role, RoleSet, Square,
};
use crate::encode::observation::fill_squares;
use crate::notation::fen::{parse_fen, write_fen, FenRules};
use crate::notation::san;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The default setup (docs/rules.md §2 ruling).
pub const START_FEN: &str = "2k2/ppppp/5/PPPPP/2K2 w - - 0 1";

/// Faces of a die by outcome id.
pub const FACES: [Role; 4] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook];

const FACE_NAMES: [&str; 4] = ["P", "N", "B", "R"];

const LAYOUT: ActionLayout = ActionLayout {
    geometry: Geometry::SMALL,
    pass: false,
    rotations: false,
};

/// What the FEN of this rule set may contain.
pub const FEN_RULES: FenRules = FenRules {
    geometry: Geometry::SMALL,
    pawns: PawnStyle::Fluky,
    roles: RoleSet(
        (1 << Role::Pawn as u8)
            | (1 << Role::Knight as u8)
            | (1 << Role::Bishop as u8)
            | (1 << Role::Rook as u8)
            | (1 << Role::King as u8),
    ),
    allow_opponent_in_check: false,
    moves_keep_king_safe: true,
};

/// When a check cancels the roll (docs/rules.md §2 exception 1 / §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RollSkip {
    /// Fluky: the moved piece gives check from its destination.
    MovedPiece,
    /// Metamorph: the move ends with the enemy king in check.
    Any,
}

impl RollSkip {
    fn name(self) -> &'static str {
        match self {
            RollSkip::MovedPiece => "moved_piece",
            RollSkip::Any => "any",
        }
    }
}

/// A Fluky or Metamorph Chess game.
///
/// ```
/// use dicechess::variants::{fluky::Fluky, Game, Node, Options};
/// let g = Fluky::new("fluky", &Options::new()).unwrap();
/// assert_eq!(g.node(), Node::Decision(0));
/// assert_eq!(g.fen(), "2k2/ppppp/5/PPPPP/2K2 w - - 0 1");
/// ```
#[derive(Clone, Serialize, Deserialize)]
pub struct Fluky {
    pos: Position,
    /// The die to roll now (chance node), and whether the move that led
    /// here was a capture.
    pending: Option<(Square, bool)>,
    progress: Progress,
    metamorph: bool,
    skip: RollSkip,
    /// Outcome probabilities by id (0 where the face is absent).
    probs: [f64; 4],
    /// Shared by clones, as `start_fen` (a search clones at every node).
    die_faces: Arc<str>,
    /// Goal squares by colour (the enemy king's start square).
    goals: [Square; 2],
    start_fen: Arc<str>,
}

impl Fluky {
    /// Creates a game; `variant` is `"fluky"` or `"metamorph"` (their
    /// default `roll_skip_on_check` differs). Options: `fen`, `max_plies`
    /// (400), `roll_skip_on_check`, `die_faces` (`"PPPNBR"`), `goal_white`
    /// (`"c5"`), `goal_black` (`"c1"`).
    pub fn new(variant: &str, options: &Options) -> Result<Fluky, GameError> {
        let (name, metamorph, default_skip) = match variant {
            "fluky" => ("fluky", false, "moved_piece"),
            "metamorph" => ("metamorph", true, "any"),
            _ => {
                return Err(GameError::new(format!(
                    "Fluky rules cover the variants fluky and metamorph, not {variant:?}"
                )))
            }
        };
        let mut r = OptionReader::new(name, options);
        let fen = r.string("fen")?;
        let max_plies = r.int("max_plies", 400, 1, 1_000_000)? as u32;
        let skip = match r
            .choice("roll_skip_on_check", default_skip, &["moved_piece", "any"])?
            .as_str()
        {
            "any" => RollSkip::Any,
            _ => RollSkip::MovedPiece,
        };
        let die_faces = r.string("die_faces")?.unwrap_or_else(|| "PPPNBR".into());
        let goal_white = r.string("goal_white")?.unwrap_or_else(|| "c5".into());
        let goal_black = r.string("goal_black")?.unwrap_or_else(|| "c1".into());
        r.finish()?;

        let probs = parse_die_faces(name, &die_faces)?;
        let goal = |key: &str, s: &str| {
            Geometry::SMALL.parse_square(s).ok_or_else(|| {
                GameError::new(format!(
                    "{name} option {key} must be a square a1..e5, got {s:?}"
                ))
            })
        };
        let goals = [
            goal("goal_white", &goal_white)?,
            goal("goal_black", &goal_black)?,
        ];
        let start_fen = fen.unwrap_or_else(|| START_FEN.to_string());
        let (pos, pending) = parse_fluky_fen(name, &start_fen, skip)?;
        let mut g = Fluky {
            pos,
            pending: pending.map(|sq| (sq, false)),
            progress: Progress::new(max_plies),
            metamorph,
            skip,
            probs,
            die_faces: die_faces.into(),
            goals,
            start_fen: start_fen.into(),
        };
        if g.pending.is_none() {
            g.finish_move(true);
        }
        Ok(g)
    }

    /// The square of the die to be rolled at a chance node.
    pub fn pending_roll(&self) -> Option<Square> {
        self.pending.map(|p| p.0)
    }

    /// The goal square of a colour's king.
    pub fn goal(&self, c: Color) -> Square {
        self.goals[c as usize]
    }

    /// Whether a roll follows `mv` (legal, by the side to move) in the
    /// current position; `after` is the position after it.
    fn roll_follows(&self, role: Role, mv: Move, after: &Position) -> bool {
        self.roll_possible(role, mv) && self.check_allows_roll(mv, after)
    }

    /// Exceptions 2 and 3 and king moves: decided before the move is played.
    #[inline(always)]
    fn roll_possible(&self, role: Role, mv: Move) -> bool {
        role != Role::King
            && mv.promotion().is_none()
            && rank_of(mv.to()) != Geometry::SMALL.last_rank(self.pos.turn())
    }

    /// Exception 1 on the position `after` the move (the enemy to move).
    #[inline(always)]
    fn check_allows_roll(&self, mv: Move, after: &Position) -> bool {
        let checkers = after.checkers();
        match self.skip {
            RollSkip::MovedPiece => !checkers.contains(mv.to()),
            RollSkip::Any => checkers.is_empty(),
        }
    }

    /// Records the repetition key after a move (and its roll) and decides
    /// whether the game is over.
    fn finish_move(&mut self, irreversible: bool) {
        let pos = &self.pos;
        let key = pos.repetition_key();
        self.progress.result = self
            .progress
            .after_move(pos, key, irreversible, Endings::SMALL, || {
                pos.has_legal_move()
            })
            .map(by_color_index);
    }
}

/// Outcome probabilities from a `die_faces` string.
fn parse_die_faces(variant: &str, faces: &str) -> Result<[f64; 4], GameError> {
    let mut counts = [0u32; 4];
    for c in faces.chars() {
        match FACE_NAMES.iter().position(|n| n.starts_with(c)) {
            Some(i) => counts[i] += 1,
            None => {
                return Err(GameError::new(format!(
                    "{variant} option die_faces must consist of the letters P, N, B, R \
                     (one per face), got {faces:?}"
                )))
            }
        }
    }
    let n: u32 = counts.iter().sum();
    if n == 0 || n > 1000 {
        return Err(GameError::new(format!(
            "{variant} option die_faces must have 1 to 1000 faces (letters P, N, B, R), got {faces:?}"
        )));
    }
    Ok(counts.map(|c| c as f64 / n as f64))
}

/// Parses a Fluky FEN: the standard fields, optionally followed by the square
/// of the die to roll.
fn parse_fluky_fen(
    variant: &str,
    text: &str,
    skip: RollSkip,
) -> Result<(Position, Option<Square>), GameError> {
    let err = |m: String| GameError::new(format!("{variant} FEN {text:?}: {m}"));
    if text
        .split_whitespace()
        .next()
        .is_some_and(|b| b.contains(['q', 'Q']))
    {
        return Err(err(
            "there are no queens in this variant (pieces: K, and dice showing P, N, B or R)".into(),
        ));
    }
    let (pos, rest) = parse_fen(text, &FEN_RULES).map_err(err)?;
    let pending = match rest.as_slice() {
        [] | ["-"] => None,
        [s] => {
            let sq = Geometry::SMALL.parse_square(s).ok_or_else(|| {
                err(format!(
                    "the 7th field must be '-' or the square of the die to roll, got {s:?}"
                ))
            })?;
            let roller = pos.turn().other();
            match pos.piece_at(sq) {
                Some(p) if p.color == roller && p.role != Role::King => {}
                _ => {
                    return Err(err(format!(
                        "the die to roll on {s} must be a die of the side that just moved ({})",
                        roller.name()
                    )))
                }
            }
            if rank_of(sq) == Geometry::SMALL.last_rank(roller) {
                return Err(err(format!("a die on its last rank ({s}) is never rolled")));
            }
            let checkers = pos.checkers();
            let skipped = match skip {
                RollSkip::MovedPiece => checkers.contains(sq),
                RollSkip::Any => checkers.any(),
            };
            if skipped {
                return Err(err(format!(
                    "the die on {s} cannot be pending a roll: the check it stands in skips the roll"
                )));
            }
            Some(sq)
        }
        _ => {
            return Err(err(format!(
            "unexpected extra fields {rest:?} (allowed: one field, the square of the die to roll)"
        )))
        }
    };
    Ok((pos, pending))
}

impl Game for Fluky {
    game_accessors!();
    fn search_key(&self) -> u64 {
        let pending = self
            .pending
            .map_or(0, |(sq, cap)| 1 + sq as u64 * 2 + cap as u64);
        super::mix_key(self.pos.hash(), pending)
    }
    fn variant(&self) -> &'static str {
        if self.metamorph {
            "metamorph"
        } else {
            "fluky"
        }
    }
    fn node(&self) -> Node {
        if self.progress.result.is_some() {
            Node::Terminal
        } else if self.pending.is_some() {
            Node::Chance
        } else {
            Node::Decision(self.pos.turn() as Player)
        }
    }
    fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        if self.progress.result.is_none() && self.pending.is_none() {
            self.pos.legal_moves(out);
        }
    }
    fn play(&mut self, mv: Move) {
        let us = self.pos.turn();
        let Some(role) = self.pos.role_at(mv.from()) else {
            debug_assert!(false, "no piece to move for {mv:?}");
            return;
        };
        let may_roll = self.roll_possible(role, mv);
        let captured = self.pos.play(mv).is_some();
        self.progress.decided(PassBound::InAll);
        if role == Role::King {
            if mv.to() == self.goals[us as usize] {
                self.progress
                    .reps
                    .record(self.pos.repetition_key(), captured);
                self.progress.result = Some((Termination::KingReachedStart, Some(us as Player)));
                return;
            }
        } else if may_roll && self.check_allows_roll(mv, &self.pos) {
            self.pending = Some((mv.to(), captured));
            return;
        }
        self.finish_move(captured);
    }
    fn chance_outcomes(&self, out: &mut Outcomes) {
        out.clear();
        if self.pending.is_some() && self.progress.result.is_none() {
            for (id, &p) in self.probs.iter().enumerate() {
                if p > 0.0 {
                    out.add(id as Action, p);
                }
            }
        }
    }
    fn apply_outcome(&mut self, outcome: Action) {
        let Some((sq, captured)) = self.pending else {
            return;
        };
        let role = FACES[(outcome as usize).min(3)];
        if self.pos.role_at(sq) != Some(role) {
            self.pos.set_role(sq, role);
        }
        self.pending = None;
        self.finish_move(captured);
    }
    fn outcome_name(&self, outcome: Action) -> String {
        outcome_name_in(&FACE_NAMES, outcome)
    }
    fn max_chance_outcomes(&self) -> usize {
        4
    }
    fn san(&self, mv: Move) -> String {
        if mv.is_null() {
            return "pass".into();
        }
        let mut s = san::san_body(&self.pos, mv);
        let mut after = self.pos.clone();
        after.play(mv);
        if after.is_check() {
            let role = self.pos.role_at(mv.from()).unwrap_or(Role::King);
            if !self.roll_follows(role, mv, &after) && !after.has_legal_move() {
                s.push('#');
            } else {
                s.push('+');
            }
        }
        s
    }
    fn fen(&self) -> String {
        let mut s = write_fen(&self.pos);
        if let Some((sq, _)) = self.pending {
            s.push(' ');
            s.push_str(&square_name(sq));
        }
        s
    }
    fn extra_planes(&self) -> &'static [&'static str] {
        &[
            "die_to_roll",
            "own_king_goal_square",
            "opponent_king_goal_square",
        ]
    }
    fn write_extra_planes(&self, view: Color, out: &mut [f32]) {
        let p = &self.pos;
        if let Some((sq, _)) = self.pending {
            fill_squares(p, out, 0, Bitboard::from_square(sq), view, 1.0);
        }
        let own = Bitboard::from_square(self.goals[view as usize]);
        let opp = Bitboard::from_square(self.goals[view.other() as usize]);
        fill_squares(p, out, 1, own, view, 1.0);
        fill_squares(p, out, 2, opp, view, 1.0);
    }
    fn roller(&self) -> Color {
        match self.pending {
            Some(_) => self.pos.turn().other(),
            None => self.pos.turn(),
        }
    }
    fn describe_state(&self) -> Vec<String> {
        let mut v = Vec::new();
        match self.pending {
            Some((sq, _)) => {
                let face = self.pos.piece_at(sq).map(|p| p.role.char()).unwrap_or('?');
                v.push(format!(
                    "roll pending: {} rolls the die on {} (moved as {face})",
                    self.pos.turn().other().name(),
                    square_name(sq)
                ));
            }
            None => v.push("roll pending: none".into()),
        }
        v.push(format!(
            "die faces: {} ; roll skipped on check: {}",
            self.die_faces,
            self.skip.name()
        ));
        v.push(format!(
            "king goal squares: white {}, black {}",
            square_name(self.goals[0]),
            square_name(self.goals[1])
        ));
        v
    }
    fn check_invariants(&self) -> Result<(), String> {
        let p = &self.pos;
        p.check_hash()?;
        if p.by_role(Role::Queen).any() {
            return Err("a queen on the board".into());
        }
        if let Node::Decision(_) = self.node() {
            if p.king_attacked(p.turn().other()) {
                return Err("the king of the side not to move is capturable".into());
            }
            if !p.has_legal_move() {
                return Err("decision node without legal moves".into());
            }
        }
        for c in [Color::White, Color::Black] {
            let last = Bitboard::rank(Geometry::SMALL.last_rank(c));
            if (p.pieces(c, Role::Pawn) & last).any() {
                return Err(format!("{} pawn on its last rank", c.name()));
            }
        }
        if let Some((sq, _)) = self.pending {
            match p.piece_at(sq) {
                Some(Piece { color, role }) if color != p.turn() && role != Role::King => {}
                _ => return Err("pending roll square has no die of the roller".into()),
            }
        }
        Ok(())
    }
    fn options(&self) -> Options {
        let mut o = Options::new();
        o.insert("fen".into(), (*self.start_fen).into());
        o.insert("max_plies".into(), self.progress.max_plies.into());
        o.insert("roll_skip_on_check".into(), self.skip.name().into());
        o.insert("die_faces".into(), (*self.die_faces).into());
        o.insert("goal_white".into(), square_name(self.goals[0]).into());
        o.insert("goal_black".into(), square_name(self.goals[1]).into());
        o
    }
}
