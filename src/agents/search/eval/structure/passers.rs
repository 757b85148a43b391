//! Passed pawns valued by the kings' distances to the square in front
//! and by how safe their path to promotion is (`search:passers=1`).

use super::{file_ahead, relative_rank, PASSER_RANK};
use crate::agents::search::eval::structure_weights::StructureWeights;
use crate::board::{Bitboard, Color, Position, Square};

/// The dynamic terms of the passed pawns `passed` of `c` (middlegame,
/// endgame quarter-centipawns): in the endgame, the enemy king far from
/// and the own king near the square in front; with the attack maps of
/// both colours, a path to promotion the enemy does not attack.
pub(super) fn passer_quarters(
    p: &Position,
    c: Color,
    passed: Bitboard,
    attacked: Option<&[(Bitboard, Bitboard); 2]>,
    w: &StructureWeights,
) -> (f64, f64) {
    let (mut m, mut e) = (0.0, 0.0);
    let occ = p.occupied();
    for s in passed {
        let rank = PASSER_RANK[relative_rank(c, s)];
        if rank == 0 {
            continue;
        }
        let rank = f64::from(rank);
        let stop = if c == Color::White { s + 8 } else { s - 8 };
        if let (Some(own), Some(theirs)) = (p.king(c), p.king(!c)) {
            let d = |k: Square| f64::from(distance(k, stop).min(5));
            e += rank * (w.passer_their_king * d(theirs) - w.passer_own_king * d(own));
        }
        if let (false, Some(att)) = (occ.contains(stop), attacked) {
            let hit = file_ahead(c, s) & att[!c as usize].1;
            let [km, ke] = if hit.is_empty() {
                w.passer_free
            } else if !hit.contains(stop) {
                w.passer_stop_safe
            } else {
                [0.0; 2]
            };
            let [dm, de] = if att[c as usize].1.contains(stop) {
                w.passer_stop_defended
            } else {
                [0.0; 2]
            };
            m += rank * (km + dm);
            e += rank * (ke + de);
        }
    }
    (m, e)
}

/// The king-move distance between two squares of the 8x8 board.
fn distance(a: Square, b: Square) -> i32 {
    let df = ((a % 8) as i32 - (b % 8) as i32).abs();
    let dr = ((a / 8) as i32 - (b / 8) as i32).abs();
    df.max(dr)
}
