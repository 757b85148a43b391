//! Correction history (`corr`): how far searches have found the static
//! value off in positions with the same pawns, per side to move, as an
//! exponential moving average that corrects later static values. A pawn
//! structure the evaluation misjudges (a blocked centre, a weak square
//! complex) is misjudged the same way in every position that has it.

use super::eval::structure::{pawn_sets, pawn_slot};
use crate::board::Position;

const BITS: u32 = 14;
/// The largest weight of one update, out of [`SCALE`].
const MAX_WEIGHT: f64 = 16.0;
const SCALE: f64 = 256.0;
/// Corrections are kept within this many centipawns.
const LIMIT: f64 = 300.0;

pub struct Correction {
    table: Vec<f64>,
}

impl Correction {
    pub fn new() -> Correction {
        Correction { table: Vec::new() }
    }

    /// Forgets every correction (each search starts afresh, so that a
    /// search does not depend on earlier ones).
    pub fn clear(&mut self) {
        if self.table.is_empty() {
            self.table = vec![0.0; 2 << BITS];
        } else {
            self.table.fill(0.0);
        }
    }

    fn slot(p: &Position) -> usize {
        ((p.turn() as usize) << BITS) | pawn_slot(pawn_sets(p), 23, BITS)
    }

    /// The correction of `p`'s static value for the side to move.
    #[inline]
    pub fn get(&self, p: &Position) -> f64 {
        self.table[Self::slot(p)]
    }

    /// A search of `depth` found `diff` between `p`'s value and its
    /// corrected static value: the correction moves towards it, more for
    /// a deeper search.
    pub fn update(&mut self, p: &Position, depth: i32, diff: f64) {
        let w = (depth as f64 + 1.0).min(MAX_WEIGHT);
        let e = &mut self.table[Self::slot(p)];
        let target = (*e + diff).clamp(-LIMIT, LIMIT);
        *e = (*e * (SCALE - w) + target * w) / SCALE;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::{parse_fen, FenRules};

    fn pos(fen: &str) -> Position {
        parse_fen(fen, &FenRules::CHESS).unwrap().0
    }

    #[test]
    fn corrections_follow_the_pawns_and_the_side_to_move() {
        let mut c = Correction::new();
        c.clear();
        let a = pos("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1");
        // The same pawns, other pieces: the same correction.
        let a2 = pos("3qk3/pp6/8/8/8/8/PP6/R3K3 w - - 0 1");
        let black = pos("4k3/pp6/8/8/8/8/PP6/4K3 b - - 0 1");
        let other = pos("4k3/p7/8/8/8/8/PP6/4K3 w - - 0 1");
        for _ in 0..200 {
            let d = 100.0 - c.get(&a);
            c.update(&a, 20, d);
        }
        assert!((c.get(&a) - 100.0).abs() < 1.0, "{}", c.get(&a));
        assert_eq!(c.get(&a2), c.get(&a));
        assert_eq!(c.get(&black), 0.0);
        assert_eq!(c.get(&other), 0.0);
        // A deeper search moves it further; the limit holds.
        c.clear();
        c.update(&a, 1, 50.0);
        let shallow = c.get(&a);
        c.clear();
        c.update(&a, 8, 50.0);
        assert!(c.get(&a) > shallow && shallow > 0.0);
        for _ in 0..1000 {
            c.update(&a, 20, 10_000.0);
        }
        assert!(c.get(&a) <= LIMIT);
    }
}
