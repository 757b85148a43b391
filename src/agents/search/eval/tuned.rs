//! Which weights the search evaluates with
//! (`search:weights=default|hand|tuned|fitted`): the hand-set [`WEIGHTS`],
//! those `scripts/texel_tune.py` fitted on the engine's own games
//! (data/texel/weights.json), one set per board size, or chess's own fit by
//! `scripts/texel_chess.py` ([`FITTED_CHESS`], data/texel/chess_base.json).
//! The default takes the tuned weights where they won in paired matches
//! (5x5: Fluky 0.56, Metamorph 0.56, Gardner 0.50 over 200 pairs, see
//! docs/search.md) and the hand-set ones elsewhere.

use super::{Weights, WEIGHTS};

/// A choice of evaluation weights.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WeightSet {
    /// [`TUNED_5X5`] on 5x5 boards, [`WEIGHTS`] on 8x8 boards.
    #[default]
    Default,
    /// [`WEIGHTS`] on every board.
    Hand,
    /// [`TUNED_8X8`] or [`TUNED_5X5`] by the board's size.
    Tuned,
    /// [`FITTED_CHESS`] on 8x8 boards, [`TUNED_5X5`] on 5x5 boards.
    Fitted,
}

impl WeightSet {
    /// Parses a spec value.
    pub fn parse(v: &str) -> Result<WeightSet, String> {
        match v {
            "default" => Ok(WeightSet::Default),
            "hand" => Ok(WeightSet::Hand),
            "tuned" => Ok(WeightSet::Tuned),
            "fitted" => Ok(WeightSet::Fitted),
            _ => Err(format!(
                "weights must be default, hand, tuned or fitted, got {v:?}"
            )),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            WeightSet::Default => "default",
            WeightSet::Hand => "hand",
            WeightSet::Tuned => "tuned",
            WeightSet::Fitted => "fitted",
        }
    }

    /// The weights of this set for a board of `files` x `ranks`.
    pub fn weights(self, files: i32, ranks: i32) -> Weights {
        let big = files * ranks >= 64;
        match self {
            WeightSet::Hand => WEIGHTS,
            WeightSet::Default if big => WEIGHTS,
            WeightSet::Tuned if big => TUNED_8X8,
            WeightSet::Fitted if big => FITTED_CHESS,
            WeightSet::Default | WeightSet::Tuned | WeightSet::Fitted => TUNED_5X5,
        }
    }
}

// TUNED CONSTANTS (printed by scripts/texel_tune.py)
pub const TUNED_8X8: Weights = Weights {
    mg_value: [71.2, 281.6, 339.0, 464.7, 922.7, 0.0],
    eg_value: [214.8, 394.2, 407.0, 617.8, 732.7, 0.0],
    mg_center: [0.6, 7.0, 3.2, 1.7, 2.8, -6.3],
    eg_center: [2.5, 6.0, 3.7, 1.0, 3.7, 10.9],
    mg_advance: [1.5, 1.9, -0.1, -0.0, 1.3, -17.1],
    eg_advance: [14.9, 2.9, 0.0, 0.5, 0.5, 1.0],
    mg_mobility: [0.0, 3.1, 4.5, 4.0, 2.5, 0.0],
    eg_mobility: [0.0, 4.2, 5.5, 4.4, -0.9, 0.0],
    bishop_pair: 30.0,
    tempo: 11.0,
};
pub const TUNED_5X5: Weights = Weights {
    mg_value: [129.2, 346.1, 361.3, 477.7, 1019.6, 0.0],
    eg_value: [198.9, 278.7, 288.1, 495.8, 935.4, 0.0],
    mg_center: [5.0, 9.4, 4.6, -0.9, 2.0, -4.6],
    eg_center: [-1.2, 6.3, 4.3, -2.5, 4.0, 16.5],
    mg_advance: [7.7, 3.1, -0.6, 1.4, -0.2, -13.9],
    eg_advance: [13.8, 3.1, -0.5, 0.4, -0.0, 3.8],
    mg_mobility: [0.0, 6.4, 6.0, 6.1, -0.1, 0.0],
    eg_mobility: [0.0, 4.5, 3.7, 3.0, 1.8, 0.0],
    bishop_pair: 24.6,
    tempo: 13.0,
};

/// Chess's base weights fitted on its own games at the chess defaults
/// with the hand-set structure weights (per-square corrections and
/// structure terms on) by `scripts/texel_chess.py --what base`, starting
/// from [`WEIGHTS`].
// FITTED_CHESS (written by scripts/texel_chess.py)
pub const FITTED_CHESS: Weights = Weights {
    mg_value: [80.25, 339.25, 363.0, 498.75, 1051.75, 0.0],
    eg_value: [96.0, 272.5, 287.0, 519.0, 934.25, 0.0],
    mg_center: [2.25, 8.75, 3.5, 2.75, 5.0, -7.25],
    eg_center: [0.25, 4.25, 2.0, 2.75, 3.5, 7.5],
    mg_advance: [4.0, 3.25, 1.5, -0.0, 1.5, -14.5],
    eg_advance: [9.5, 0.5, -0.5, 2.5, 1.0, -0.75],
    mg_mobility: [-1.5, 4.25, 4.75, 3.5, 1.25, -0.5],
    eg_mobility: [0.5, 2.5, 3.25, 4.0, 1.75, -2.25],
    bishop_pair: 33.0,
    tempo: 15.75,
};
// END FITTED_CHESS
