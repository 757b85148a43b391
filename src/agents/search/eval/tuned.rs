//! Which weights the search evaluates with (`search:weights=default|tuned`):
//! the hand-set [`WEIGHTS`] or those `scripts/texel_tune.py` fitted on the
//! engine's own games (data/texel/weights.json), one set per board size.

use super::{Weights, WEIGHTS};

/// A choice of evaluation weights.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WeightSet {
    /// [`WEIGHTS`] on every board.
    #[default]
    Default,
    /// [`TUNED_8X8`] or [`TUNED_5X5`] by the board's size.
    Tuned,
}

impl WeightSet {
    /// Parses a spec value.
    pub fn parse(v: &str) -> Result<WeightSet, String> {
        match v {
            "default" => Ok(WeightSet::Default),
            "tuned" => Ok(WeightSet::Tuned),
            _ => Err(format!("weights must be default or tuned, got {v:?}")),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            WeightSet::Default => "default",
            WeightSet::Tuned => "tuned",
        }
    }

    /// The weights of this set for a board of `files` x `ranks`.
    pub fn weights(self, files: i32, ranks: i32) -> Weights {
        match self {
            WeightSet::Default => WEIGHTS,
            WeightSet::Tuned if files * ranks >= 64 => TUNED_8X8,
            WeightSet::Tuned => TUNED_5X5,
        }
    }
}

// TUNED CONSTANTS (printed by scripts/texel_tune.py; not fitted yet: the defaults)
pub const TUNED_8X8: Weights = WEIGHTS;
pub const TUNED_5X5: Weights = WEIGHTS;
