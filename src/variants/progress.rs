//! The bookkeeping every variant does around its own move code, provided
//! once (as Pgx's `Env.step` does around each game's `_step`): decisions
//! counted for `max_plies`, repetition keys, the bound on turns that pass
//! without a decision, and the orthodox ending chain of docs/rules.md §0
//! ([`orthodox_ending`]). A variant's `play` moves its pieces and its own
//! turn state, then hands the position to [`Progress::after_move`]; its
//! constructor hands the start to [`Progress::start`]; a forced pass goes
//! through [`Progress::forced_pass`].

use super::endings::{orthodox_ending, ColorResult, Endings};
use super::key_list::KeyList;
use super::{Player, Termination};
use crate::board::Position;
use serde::{Deserialize, Serialize};

/// How a variant bounds the turns that pass without a decision (forced
/// passes, ties, forfeits), so that every game ends whatever the dice:
/// `max_plies` of them end the game as truncated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassBound {
    /// `max_plies` such turns in a row (a decision starts the count again):
    /// Vegas, Random Move Number Chess.
    InARow,
    /// `max_plies` such turns in the whole game: Dice Chess.
    InAll,
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
    /// Turns that passed without a decision: since the last decision
    /// ([`PassBound::InARow`]) or in the whole game. One field, restarted
    /// by [`Progress::decided`]: the search copies the state at every node,
    /// and a second one (a mark of the last pass) measured 2 to 12
    /// instructions a node more in chess middlegames.
    pub idle_turns: u32,
}

impl Progress {
    /// A game not started yet (see [`Progress::start`]).
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

    /// The start position: records its key (`key`, the variant's
    /// repetition key of `pos`) and returns the orthodox ending it already
    /// has, if any (`has_move` as in [`orthodox_ending`]). The caller keeps
    /// the result, mapped to players where they are not colours.
    pub fn start(
        &mut self,
        pos: &Position,
        key: u64,
        endings: Endings,
        has_move: impl FnOnce() -> bool,
    ) -> Option<ColorResult> {
        self.record(key, true);
        orthodox_ending(pos, self, endings, has_move)
    }

    /// Counts a player decision (move or voluntary pass); `passes` is how
    /// the variant bounds its turns without a decision: a decision starts an
    /// [`PassBound::InARow`] count again. A game without such turns passes
    /// [`PassBound::InAll`] (nothing to restart; the constant folds away).
    #[inline(always)]
    pub fn decided(&mut self, passes: PassBound) {
        self.plies += 1;
        if passes == PassBound::InARow {
            self.idle_turns = 0;
        }
    }

    /// After a move (counted with [`Progress::decided`]) reached `pos`:
    /// records its repetition `key` (`irreversible`: the move can never be
    /// undone, so earlier keys cannot repeat) and returns the first
    /// orthodox ending that applies, docs/rules.md §0 order. A variant's own
    /// wins (king captured, king reached start) come before this call.
    #[inline(always)]
    pub fn after_move(
        &mut self,
        pos: &Position,
        key: u64,
        irreversible: bool,
        endings: Endings,
        has_move: impl FnOnce() -> bool,
    ) -> Option<ColorResult> {
        self.record(key, irreversible);
        orthodox_ending(pos, self, endings, has_move)
    }

    /// Counts a turn that passed without a decision and returns whether
    /// the game must end as truncated (`max_plies`, then also set as the
    /// result): `max_plies` counts decisions only (docs/rules.md §0); this
    /// is the separate bound for turns without one, so that a game in which
    /// nobody can ever move again (e.g. Vegas dice that no piece can use)
    /// still ends.
    pub fn forced_pass(&mut self) -> bool {
        self.idle_turns = self.idle_turns.saturating_add(1);
        let over = self.idle_turns >= self.max_plies;
        if over {
            self.result = Some((Termination::MaxPlies, None));
        }
        over
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
    use super::{PassBound, Progress, RepetitionTable};

    /// In a row: a decision starts the count again; in all: it does not.
    #[test]
    fn forced_passes_are_bounded_in_a_row_or_in_all() {
        for (bound, want) in [(PassBound::InARow, 5), (PassBound::InAll, 3)] {
            let mut p = Progress::new(3);
            let mut passes = 0;
            for step in 0.. {
                if step == 2 {
                    p.decided(bound);
                    continue;
                }
                passes += 1;
                if p.forced_pass() {
                    break;
                }
            }
            assert_eq!(passes, want, "{bound:?}");
            assert_eq!(p.idle_turns, 3);
            assert!(p.result.is_some());
        }
    }

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
