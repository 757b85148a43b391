//! Chance nodes average utilities, not centipawns.
//!
//! Minimax only compares values, so any increasing scale serves a
//! deterministic game. An expectation adds them, so the scale must be
//! linear in the expected score: a 5% chance to capture the king is worth
//! about 5% of a game, not 5% of a mate score in centipawns (5,000 cp,
//! more than a queen). Chance nodes therefore map their children's values
//! to a utility in `[-1, 1]` (twice the expected score minus one), average
//! those, and map the mean back to centipawns. The map is increasing and
//! invertible piecewise:
//!
//! - ordinary values `|v| <= 10 * scale`: `NORMAL * tanh(v / scale)`,
//!   stretched so that `10 * scale` reaches `NORMAL` (`tanh(v / scale)` is
//!   `2E - 1` for a logistic expected score `E` of `2v / scale` nats);
//! - larger values up to [`MATE_BOUND`]: linear up to `WIN`;
//! - proven results `MATE - n`: `1 - n * PER_PLY` (so a mixture of wins in
//!   different plies keeps its mean distance);
//! - window bounds beyond `MATE` (the search's infinities): above 1.
//!
//! Scale 0 is the identity (centipawns averaged as they are: the old way,
//! kept for ablations, `search:uscale=0`).

use super::{MATE, MATE_BOUND};

/// Ordinary values lie in `(-NORMAL, NORMAL)`.
const NORMAL: f64 = 0.999;
/// Utility lost per ply to a proven result.
const PER_PLY: f64 = 1e-7;
/// The utility of the slowest proven result (`MATE_BOUND`).
const WIN: f64 = 1.0 - (MATE - MATE_BOUND) * PER_PLY;
/// Utility per centipawn beyond `MATE` (window bounds only).
const BEYOND: f64 = 1e-9;
/// Ordinary values end at this many `scale`s.
const SPAN: f64 = 10.0;

/// The centipawn ↔ utility map of one scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Utility {
    /// Centipawns per unit of `atanh` (about 347 for chess's "400 cp
    /// multiply the odds by 10"; flatter in games with more luck).
    scale: f64,
    /// `tanh(SPAN)`, so that `SPAN * scale` maps to `NORMAL` exactly.
    stretch: f64,
}

impl Utility {
    pub fn new(scale: f64) -> Utility {
        Utility {
            scale,
            stretch: SPAN.tanh(),
        }
    }

    pub fn scale(&self) -> f64 {
        self.scale
    }

    /// The utility of centipawn value `v`.
    pub fn utility(&self, v: f64) -> f64 {
        if self.scale == 0.0 {
            return v;
        }
        let a = v.abs();
        let u = if a <= SPAN * self.scale {
            NORMAL * (a / self.scale).tanh() / self.stretch
        } else if a <= MATE_BOUND {
            let t = (a - SPAN * self.scale) / (MATE_BOUND - SPAN * self.scale);
            NORMAL + t * (WIN - NORMAL)
        } else if a <= MATE {
            1.0 - (MATE - a) * PER_PLY
        } else {
            1.0 + (a - MATE) * BEYOND
        };
        u.copysign(v)
    }

    /// The centipawn value of utility `u` (the inverse of [`Utility::utility`]).
    pub fn centipawns(&self, u: f64) -> f64 {
        if self.scale == 0.0 {
            return u;
        }
        let a = u.abs();
        let v = if a <= NORMAL {
            let x = (a * self.stretch / NORMAL).min(1.0 - 1e-16);
            self.scale * x.atanh()
        } else if a <= WIN {
            let t = (a - NORMAL) / (WIN - NORMAL);
            SPAN * self.scale + t * (MATE_BOUND - SPAN * self.scale)
        } else if a <= 1.0 {
            MATE - (1.0 - a) / PER_PLY
        } else {
            MATE + (a - 1.0) / BEYOND
        };
        v.copysign(u)
    }
}

/// [`Utility::utility`] remembering its last few values: the outcomes of
/// one roll share a handful of values (the board stays as it was; a roll's
/// best capture differs by the roles it shows), and `tanh` was a quarter
/// of a Vegas search's instructions.
#[derive(Clone, Copy, Debug)]
pub struct Memo {
    ut: Utility,
    /// The bits of recent values and their utilities (NaN bits: empty; no
    /// value searched is NaN).
    recent: [(u64, f64); MEMO],
    /// The slot the next new value takes.
    next: usize,
}

const MEMO: usize = 4;

impl Memo {
    #[inline]
    pub fn utility(&mut self, v: f64) -> f64 {
        let bits = v.to_bits();
        if let Some(&(_, u)) = self.recent.iter().find(|e| e.0 == bits) {
            return u;
        }
        let u = self.ut.utility(v);
        self.recent[self.next] = (bits, u);
        self.next = (self.next + 1) % MEMO;
        u
    }
}

impl Utility {
    /// A [`Memo`] of this map.
    pub fn memo(self) -> Memo {
        Memo {
            ut: self,
            recent: [(f64::NAN.to_bits(), f64::NAN); MEMO],
            next: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_increases() {
        let u = Utility::new(400.0);
        let mut last = f64::NEG_INFINITY;
        for &v in &[
            -1e9,
            -MATE,
            -MATE + 3.0,
            -MATE_BOUND,
            -9000.0,
            -4000.0,
            -250.0,
            -1.0,
            0.0,
            0.5,
            30.0,
            3999.0,
            4001.0,
            50_000.0,
            MATE_BOUND,
            MATE - 7.0,
            MATE,
            2e5,
            1e9,
        ] {
            let x = u.utility(v);
            assert!(x > last, "not increasing at {v}");
            last = x;
            let back = u.centipawns(x);
            assert!(
                (back - v).abs() <= 1e-6 * v.abs().max(1.0),
                "{v} -> {x} -> {back}"
            );
        }
    }

    /// The memo gives the map's bits, for repeated and changing values.
    #[test]
    fn memo_agrees_with_the_map() {
        let u = Utility::new(400.0);
        let mut m = u.memo();
        let values = [
            0.0, -0.0, -0.0, 30.0, 30.0, 30.5, -MATE, -MATE, 0.0, 4001.0, 7.0, 8.0,
        ];
        for v in values.into_iter().chain(values.into_iter().rev()) {
            assert_eq!(m.utility(v).to_bits(), u.utility(v).to_bits(), "{v}");
        }
    }

    #[test]
    fn scale_zero_is_the_identity() {
        let u = Utility::new(0.0);
        for v in [-1e9, -MATE, -3.5, 0.0, 250.0, MATE - 2.0] {
            assert_eq!(u.utility(v), v);
            assert_eq!(u.centipawns(v), v);
        }
    }

    #[test]
    fn a_small_chance_of_a_win_is_worth_little() {
        // 5% wins, otherwise level: about 5% of a game, a few dozen cp.
        let u = Utility::new(400.0);
        let mean = 0.05 * u.utility(MATE - 3.0) + 0.95 * u.utility(0.0);
        let v = u.centipawns(mean);
        assert!(v > 15.0 && v < 30.0, "{v}");
        // Certain wins in 3 and 5 plies average to a win in 4.
        let mean = 0.5 * u.utility(MATE - 3.0) + 0.5 * u.utility(MATE - 5.0);
        assert!((u.centipawns(mean) - (MATE - 4.0)).abs() < 1e-6);
        // Mostly lost but one outcome wins: not a proven result.
        let mean = 0.9 * u.utility(-MATE + 2.0) + 0.1 * u.utility(MATE - 2.0);
        assert!(u.centipawns(mean) > -MATE_BOUND);
    }
}
