//! Types every variant shares: nodes, terminations, errors, options,
//! chance outcome lists (the bookkeeping of plies and repetitions is
//! `progress.rs`).

use serde::{Deserialize, Serialize};
use std::fmt;

/// An action id: a move/pass/rotation id at decision nodes (see
/// [`crate::encode::ActionLayout`]), an outcome id at chance nodes.
pub type Action = u32;

/// A player: 0 or 1.
pub type Player = u8;

/// What kind of node a state is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    Chance,
    Decision(Player),
    Terminal,
}

/// Why a game ended (docs/rules.md §0 names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Termination {
    Checkmate,
    KingReachedStart,
    KingCaptured,
    Stalemate,
    ThreefoldRepetition,
    FiftyMoves,
    InsufficientMaterial,
    SixSixes,
    MaxPlies,
    CubesLeft,
    NoJumps,
    NoMoves,
}

impl Termination {
    /// All reasons; a reason's code is its index here (`dc.TERMINATIONS`).
    pub const ALL: [Termination; 12] = [
        Termination::Checkmate,
        Termination::KingReachedStart,
        Termination::KingCaptured,
        Termination::Stalemate,
        Termination::ThreefoldRepetition,
        Termination::FiftyMoves,
        Termination::InsufficientMaterial,
        Termination::SixSixes,
        Termination::MaxPlies,
        Termination::CubesLeft,
        Termination::NoJumps,
        Termination::NoMoves,
    ];

    /// The docs/rules.md name, e.g. `"threefold_repetition"`.
    pub fn name(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::KingReachedStart => "king_reached_start",
            Termination::KingCaptured => "king_captured",
            Termination::Stalemate => "stalemate",
            Termination::ThreefoldRepetition => "threefold_repetition",
            Termination::FiftyMoves => "fifty_moves",
            Termination::InsufficientMaterial => "insufficient_material",
            Termination::SixSixes => "six_sixes",
            Termination::MaxPlies => "max_plies",
            Termination::CubesLeft => "cubes_left",
            Termination::NoJumps => "no_jumps",
            Termination::NoMoves => "no_moves",
        }
    }

    /// Index in [`Termination::ALL`].
    pub fn code(self) -> u8 {
        self as u8
    }
}

/// A user-facing error (Python: `ValueError`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameError(pub String);

impl GameError {
    pub fn new(msg: impl Into<String>) -> GameError {
        GameError(msg.into())
    }
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GameError {}

impl From<String> for GameError {
    fn from(s: String) -> GameError {
        GameError(s)
    }
}

/// Variant options by keyword (`fen`, `max_plies`, rule options).
pub type Options = serde_json::Map<String, serde_json::Value>;

/// Reads options with validation; unknown keys are an error listing the
/// allowed ones.
pub struct OptionReader<'a> {
    opts: &'a Options,
    variant: &'static str,
    allowed: Vec<&'static str>,
}

impl<'a> OptionReader<'a> {
    pub fn new(variant: &'static str, opts: &'a Options) -> Self {
        OptionReader {
            opts,
            variant,
            allowed: Vec::new(),
        }
    }

    fn value(&mut self, key: &'static str) -> Option<&'a serde_json::Value> {
        self.allowed.push(key);
        self.opts.get(key).filter(|v| !v.is_null())
    }

    /// An integer option in `min..=max`.
    pub fn int(
        &mut self,
        key: &'static str,
        default: i64,
        min: i64,
        max: i64,
    ) -> Result<i64, GameError> {
        match self.value(key) {
            None => Ok(default),
            Some(v) => match v.as_i64() {
                Some(n) if (min..=max).contains(&n) => Ok(n),
                _ => Err(GameError::new(format!(
                    "{} option {key} must be an integer from {min} to {max}, got {v}",
                    self.variant
                ))),
            },
        }
    }

    /// A string option, if given.
    pub fn string(&mut self, key: &'static str) -> Result<Option<String>, GameError> {
        match self.value(key) {
            None => Ok(None),
            Some(v) => v.as_str().map(|s| Some(s.to_string())).ok_or_else(|| {
                GameError::new(format!(
                    "{} option {key} must be a string, got {v}",
                    self.variant
                ))
            }),
        }
    }

    /// A string option restricted to `choices`.
    pub fn choice(
        &mut self,
        key: &'static str,
        default: &'static str,
        choices: &[&'static str],
    ) -> Result<String, GameError> {
        let s = self.string(key)?.unwrap_or_else(|| default.to_string());
        if choices.contains(&s.as_str()) {
            Ok(s)
        } else {
            Err(GameError::new(format!(
                "{} option {key} must be one of {}, got {s:?}",
                self.variant,
                choices
                    .iter()
                    .map(|c| format!("{c:?}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )))
        }
    }

    /// Call last: rejects keys that were not read.
    pub fn finish(self) -> Result<(), GameError> {
        for k in self.opts.keys() {
            if !self.allowed.contains(&k.as_str()) {
                return Err(GameError::new(format!(
                    "unknown option {k:?} for variant {}; allowed options: {}",
                    self.variant,
                    self.allowed.join(", ")
                )));
            }
        }
        Ok(())
    }
}

/// Capacity of an [`Outcomes`] list.
pub const MAX_OUTCOMES: usize = 64;

/// Chance outcomes `(id, probability)` on the stack.
#[derive(Clone, Copy)]
pub struct Outcomes {
    len: usize,
    items: [(Action, f64); MAX_OUTCOMES],
}

impl Default for Outcomes {
    fn default() -> Self {
        Self::new()
    }
}

impl Outcomes {
    pub fn new() -> Outcomes {
        Outcomes {
            len: 0,
            items: [(0, 0.0); MAX_OUTCOMES],
        }
    }
    pub fn clear(&mut self) {
        self.len = 0;
    }
    /// Adds an outcome; an id already present gets the probability added
    /// (equal faces merge). Ids are below the variant's
    /// `max_chance_outcomes()`, which is at most [`MAX_OUTCOMES`] for every
    /// variant (tests/hardening.rs checks), so the list cannot overflow; an
    /// overflow would be a bug and panics rather than drop an outcome.
    pub fn add(&mut self, id: Action, p: f64) {
        for it in &mut self.items[..self.len] {
            if it.0 == id {
                it.1 += p;
                return;
            }
        }
        assert!(
            self.len < MAX_OUTCOMES,
            "more than {MAX_OUTCOMES} distinct chance outcomes: raise MAX_OUTCOMES"
        );
        self.items[self.len] = (id, p);
        self.len += 1;
    }
    /// Becomes a copy of `other`. Copies only its outcomes, not the whole
    /// capacity as `*self = *other` would: a variant with a precomputed
    /// table pays this at every roll (30 outcomes of 64 in Vegas).
    #[inline]
    pub fn copy_from(&mut self, other: &Outcomes) {
        self.items[..other.len].copy_from_slice(other.as_slice());
        self.len = other.len;
    }
    #[inline]
    pub fn as_slice(&self) -> &[(Action, f64)] {
        &self.items[..self.len]
    }
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Samples an outcome with a uniform number `u` in `[0, 1)`.
    #[inline]
    pub fn sample(&self, u: f64) -> Action {
        let i = cumulative_pick(self.as_slice().iter().map(|x| x.1), u);
        self.items[i].0
    }
}

/// The index a uniform draw `u` in `[0, 1)` lands on when the
/// probabilities `probs` are laid end to end (the last index takes what
/// rounding leaves; 0 when there are none). Chance outcomes in playouts,
/// MCTS and the search's sampled chance nodes are all drawn this way.
#[inline]
pub fn cumulative_pick(probs: impl IntoIterator<Item = f64>, u: f64) -> usize {
    let mut acc = 0.0;
    let mut last = 0;
    for (i, p) in probs.into_iter().enumerate() {
        acc += p;
        if u < acc {
            return i;
        }
        last = i;
    }
    last
}

/// Variant state beyond the board that `State` shows as properties (each
/// `None` where a variant has no such thing).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Extras {
    /// The roll the player decides with (`"PN"`, `"B*"`, `"PNK"`).
    pub dice: Option<String>,
    /// Three-dice DiceChess: the dice not used yet this turn.
    pub dice_left: Option<String>,
    /// The colour each player commands, indexed by player, where players
    /// are not colours (Random Move Number Chess, once chosen).
    pub colors: Option<[crate::board::Color; 2]>,
    /// Moves left in the current turn (Random Move Number Chess).
    pub moves_left: Option<u32>,
    /// Each player's throws so far (Random Move Number Chess).
    pub throw_records: Option<[Vec<u8>; 2]>,
    /// The squares of the paused cubes, White's first (Cubic Checkers).
    pub paused: Option<Vec<String>>,
}

/// The name of outcome id `outcome` in a variant's table of outcome names
/// (the id itself if it is out of the table).
pub fn outcome_name_in(names: &[&str], outcome: Action) -> String {
    names
        .get(outcome as usize)
        .map(|s| s.to_string())
        .unwrap_or_else(|| outcome.to_string())
}

/// Serialised as the list of `(id, probability)` pairs (precomputed tables).
impl Serialize for Outcomes {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.as_slice().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Outcomes {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v: Vec<(Action, f64)> = Vec::deserialize(d)?;
        if v.len() > MAX_OUTCOMES {
            return Err(serde::de::Error::custom("too many chance outcomes"));
        }
        let mut o = Outcomes::new();
        for (id, p) in v {
            o.add(id, p);
        }
        Ok(o)
    }
}
