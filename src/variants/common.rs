//! Types every variant shares: nodes, terminations, errors, options,
//! chance outcome lists and the repetition table.

use super::key_list::KeyList;
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

/// What every variant keeps the same way besides its position: decisions
/// made, the `max_plies` option, the repetitions, and the result.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Progress {
    /// Repetition keys since the last irreversible move.
    pub reps: RepetitionTable,
    /// How often the current key has been recorded (1 = first time).
    pub rep_count: u32,
    /// Player decisions made (moves and voluntary passes).
    pub plies: u32,
    /// The `max_plies` option.
    pub max_plies: u32,
    /// Why the game ended and the winning player, once it has.
    pub result: Option<(Termination, Option<Player>)>,
    /// Turns in a row that passed without a decision (see [`Progress::idle_turn`]).
    pub idle_turns: u32,
}

impl Progress {
    /// A game not started yet (record the start position with `record`).
    pub fn new(max_plies: u32) -> Progress {
        Progress {
            reps: RepetitionTable::default(),
            rep_count: 0,
            plies: 0,
            max_plies,
            result: None,
            idle_turns: 0,
        }
    }

    /// Counts a player decision (move or voluntary pass).
    #[inline(always)]
    pub fn decided(&mut self) {
        self.plies += 1;
        self.idle_turns = 0;
    }

    /// Counts a turn that passed without a decision (a forced pass) and
    /// returns whether the game must end as truncated (`max_plies`): after
    /// `max_plies` such turns in a row, so that a game in which nobody can
    /// ever move again (e.g. Vegas dice that no piece can use) still ends.
    /// `max_plies` counts decisions only (docs/rules.md §0); this is the separate
    /// bound for turns without one. Decisions reset it ([`Progress::decided`]).
    pub fn idle_turn(&mut self) -> bool {
        self.idle_turns = self.idle_turns.saturating_add(1);
        self.idle_turns >= self.max_plies
    }

    /// Records the position reached (its repetition `key`; `irreversible`:
    /// the move that led here can never be undone) and how often it has
    /// now been seen.
    #[inline(always)]
    pub fn record(&mut self, key: u64, irreversible: bool) {
        self.rep_count = self.reps.record(key, irreversible);
    }
}

/// Repetition keys recorded since the last irreversible move.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct RepetitionTable {
    keys: KeyList,
    /// A one-hash Bloom filter of `keys`: most positions are new, and a
    /// clear bit says so without scanning the keys (a variable-length scan
    /// every ply costs a mispredicted loop exit). Not state: rebuilt when
    /// it does not cover `keys` (e.g. after deserializing).
    #[serde(skip)]
    seen: [u64; SEEN_WORDS],
    /// How many of `keys` `seen` covers.
    #[serde(skip)]
    seen_len: usize,
}

const SEEN_WORDS: usize = 8;

impl RepetitionTable {
    /// The word and bit of `key` in the filter (top bits: Zobrist keys are
    /// uniform).
    #[inline(always)]
    fn slot(key: u64) -> (usize, u64) {
        let b = (key >> 55) as usize; // 0..512
        (b / 64 % SEEN_WORDS, 1u64 << (b % 64))
    }
    /// Records `key`; forgets everything before it when the move that led here
    /// was irreversible. Returns how often `key` has now been recorded.
    pub fn record(&mut self, key: u64, irreversible: bool) -> u32 {
        if irreversible {
            self.keys.clear();
            self.seen = [0; SEEN_WORDS];
            self.seen_len = 0;
        }
        if self.seen_len != self.keys.len() {
            self.seen = [0; SEEN_WORDS];
            for &k in self.keys.iter() {
                let (w, b) = Self::slot(k);
                self.seen[w] |= b;
            }
        }
        let (w, b) = Self::slot(key);
        let maybe_seen = self.seen[w] & b != 0;
        self.seen[w] |= b;
        self.keys.push(key);
        self.seen_len = self.keys.len();
        if maybe_seen {
            self.count(key)
        } else {
            1
        }
    }
    /// How often `key` was recorded.
    pub fn count(&self, key: u64) -> u32 {
        self.keys.iter().filter(|&&k| k == key).count() as u32
    }
    /// The last recorded key.
    pub fn last(&self) -> Option<u64> {
        self.keys.last()
    }
}

#[cfg(test)]
mod tests {
    use super::RepetitionTable;

    /// Counts agree with a plain scan, including across a serde round trip
    /// (which drops the filter) and with keys that share a filter bit.
    #[test]
    fn repetition_counts_match_a_plain_scan() {
        let mut t = RepetitionTable::default();
        let mut naive: Vec<u64> = Vec::new();
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for i in 0..5000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Few distinct keys (many repeats); the top bits pick the filter
            // bit, so keys differing only low share one.
            let key = ((x % 5) << 60) | ((x >> 20) % 3);
            let irreversible = x % 23 == 0;
            if irreversible {
                naive.clear();
            }
            naive.push(key);
            let want = naive.iter().filter(|&&k| k == key).count() as u32;
            assert_eq!(t.record(key, irreversible), want);
            if i % 500 == 250 {
                t = serde_json::from_str(&serde_json::to_string(&t).unwrap()).unwrap();
            }
        }
    }
}
