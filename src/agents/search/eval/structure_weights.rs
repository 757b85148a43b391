//! The weights of chess's structure terms ([`super::structure`]): the
//! hand-set [`HAND`] and those `scripts/texel_chess.py` fitted on the
//! engine's own games ([`FITTED`], `search:sweights=fitted`).
//!
//! Every term is a weight times a count of the position (the king danger:
//! its weight times the squared attack units), so the structure value is
//! linear in these weights; [`structure_features`](super::structure::structure_features)
//! gives each weight's coefficient. The attack units of each role, their
//! cap and the passers' rank weights scale several terms at once and stay
//! fixed.

/// The weights of the structure terms, in the units the terms count in:
/// centipawns, except the connected pawns' (quarter-centipawns per unit,
/// see `connected_sixteenths`) and the passers' dynamic terms
/// (quarter-centipawns per rank weight, see `passer_quarters`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StructureWeights {
    /// A passed pawn by relative rank (middlegame, endgame).
    pub passed_mg: [f64; 8],
    pub passed_eg: [f64; 8],
    /// Per pawn beyond the first on a file (middlegame, endgame).
    pub doubled: [f64; 2],
    /// Per pawn with no own pawn on the files beside it.
    pub isolated: [f64; 2],
    /// A rook on a file without pawns / without own pawns.
    pub rook_open: [f64; 2],
    pub rook_half_open: [f64; 2],
    /// Middlegame shelter of a king on its first two ranks, per file beside
    /// and on the king's: an own pawn one or two ranks ahead, or none.
    pub shelter_near: f64,
    pub shelter_far: f64,
    pub shelter_none: f64,
    /// Middlegame penalty per squared attack unit on the king's zone.
    pub attack_weight: f64,
    /// Per enemy piece other than a pawn or king: attacked by a pawn; a
    /// rook or queen attacked by a knight or bishop; a queen attacked by a
    /// rook; attacked and not defended (middlegame, endgame).
    pub threat_by_pawn: [f64; 2],
    pub threat_by_minor: [f64; 2],
    pub threat_by_rook: [f64; 2],
    pub hanging: [f64; 2],
    /// A connected pawn's bonus by relative rank, in quarter-centipawns per
    /// unit of `2 + phalanx - opposed`.
    pub connected: [f64; 8],
    /// Quarter-centipawns per own pawn defending a connected pawn.
    pub connected_support: f64,
    /// Endgame quarter-centipawns per rank weight and square of the enemy
    /// king's distance to a passer's square in front (up to 5), and the
    /// same subtracted for the own king's distance.
    pub passer_their_king: f64,
    pub passer_own_king: f64,
    /// With the square in front empty, quarter-centipawns per rank weight
    /// (middlegame, endgame): no square in front attacked by the enemy; the
    /// square in front not attacked; the square in front defended.
    pub passer_free: [f64; 2],
    pub passer_stop_safe: [f64; 2],
    pub passer_stop_defended: [f64; 2],
}

/// The hand-set weights.
pub const HAND: StructureWeights = StructureWeights {
    passed_mg: [0.0, 5.0, 10.0, 15.0, 25.0, 45.0, 70.0, 0.0],
    passed_eg: [0.0, 10.0, 15.0, 25.0, 45.0, 75.0, 120.0, 0.0],
    doubled: [-10.0, -20.0],
    isolated: [-10.0, -15.0],
    rook_open: [25.0, 10.0],
    rook_half_open: [12.0, 5.0],
    shelter_near: 12.0,
    shelter_far: 6.0,
    shelter_none: -12.0,
    attack_weight: 2.5,
    threat_by_pawn: [60.0, 40.0],
    threat_by_minor: [40.0, 40.0],
    threat_by_rook: [40.0, 40.0],
    hanging: [30.0, 20.0],
    connected: [0.0, 8.0, 12.0, 16.0, 32.0, 56.0, 96.0, 0.0],
    connected_support: 20.0,
    passer_their_king: 10.0,
    passer_own_king: 4.0,
    passer_free: [15.0, 30.0],
    passer_stop_safe: [5.0, 10.0],
    passer_stop_defended: [2.0, 5.0],
};

/// The weights `scripts/texel_chess.py` fitted (data/texel/structure.json).
// FITTED (written by scripts/texel_chess.py)
pub const FITTED: StructureWeights = StructureWeights {
    passed_mg: [0.0, 7.25, 4.0, 15.75, 5.75, 32.25, 86.0, 0.0],
    passed_eg: [0.0, 17.75, 26.75, 34.75, 47.0, 64.25, 103.25, 0.0],
    doubled: [-11.5, -20.5],
    isolated: [-7.25, -10.5],
    rook_open: [33.25, 12.0],
    rook_half_open: [18.25, 22.0],
    shelter_near: 14.25,
    shelter_far: 1.0,
    shelter_none: -10.0,
    attack_weight: 2.25,
    threat_by_pawn: [61.0, 26.5],
    threat_by_minor: [52.25, 46.5],
    threat_by_rook: [62.75, 72.0],
    hanging: [24.5, 21.5],
    connected: [0.0, 9.25, 10.0, 13.75, 26.0, 53.5, 48.0, 0.0],
    connected_support: 20.75,
    passer_their_king: 10.25,
    passer_own_king: 4.5,
    passer_free: [8.25, 31.0],
    passer_stop_safe: [1.75, 14.75],
    passer_stop_defended: [8.25, 8.5],
};
// END FITTED

/// Middlegame and endgame suffixes of a pair's names.
const PHASES: [&str; 2] = ["mg", "eg"];

impl StructureWeights {
    /// All weights zero.
    pub const ZERO: StructureWeights = StructureWeights {
        passed_mg: [0.0; 8],
        passed_eg: [0.0; 8],
        doubled: [0.0; 2],
        isolated: [0.0; 2],
        rook_open: [0.0; 2],
        rook_half_open: [0.0; 2],
        shelter_near: 0.0,
        shelter_far: 0.0,
        shelter_none: 0.0,
        attack_weight: 0.0,
        threat_by_pawn: [0.0; 2],
        threat_by_minor: [0.0; 2],
        threat_by_rook: [0.0; 2],
        hanging: [0.0; 2],
        connected: [0.0; 8],
        connected_support: 0.0,
        passer_their_king: 0.0,
        passer_own_king: 0.0,
        passer_free: [0.0; 2],
        passer_stop_safe: [0.0; 2],
        passer_stop_defended: [0.0; 2],
    };

    /// Calls `f` with the name and a reference of every weight, in one
    /// fixed order (the order of [`Self::names`] and [`Self::to_vec`]).
    /// The by-rank arrays list ranks 1-6 only: no pawn stands on its
    /// first or last rank.
    fn visit(&mut self, mut f: impl FnMut(String, &mut f64)) {
        let ranks = |f: &mut dyn FnMut(String, &mut f64), name: &str, a: &mut [f64; 8]| {
            for (r, v) in a.iter_mut().enumerate().take(7).skip(1) {
                f(format!("{name}.{r}"), v);
            }
        };
        let pair = |f: &mut dyn FnMut(String, &mut f64), name: &str, a: &mut [f64; 2]| {
            for (ph, v) in PHASES.iter().zip(a.iter_mut()) {
                f(format!("{name}.{ph}"), v);
            }
        };
        let f = &mut f;
        ranks(f, "passed_mg", &mut self.passed_mg);
        ranks(f, "passed_eg", &mut self.passed_eg);
        pair(f, "doubled", &mut self.doubled);
        pair(f, "isolated", &mut self.isolated);
        pair(f, "rook_open", &mut self.rook_open);
        pair(f, "rook_half_open", &mut self.rook_half_open);
        f("shelter_near".into(), &mut self.shelter_near);
        f("shelter_far".into(), &mut self.shelter_far);
        f("shelter_none".into(), &mut self.shelter_none);
        f("attack_weight".into(), &mut self.attack_weight);
        pair(f, "threat_by_pawn", &mut self.threat_by_pawn);
        pair(f, "threat_by_minor", &mut self.threat_by_minor);
        pair(f, "threat_by_rook", &mut self.threat_by_rook);
        pair(f, "hanging", &mut self.hanging);
        ranks(f, "connected", &mut self.connected);
        f("connected_support".into(), &mut self.connected_support);
        f("passer_their_king".into(), &mut self.passer_their_king);
        f("passer_own_king".into(), &mut self.passer_own_king);
        pair(f, "passer_free", &mut self.passer_free);
        pair(f, "passer_stop_safe", &mut self.passer_stop_safe);
        pair(f, "passer_stop_defended", &mut self.passer_stop_defended);
    }

    /// The weights' names, in [`Self::to_vec`]'s order.
    pub fn names() -> Vec<String> {
        let mut names = Vec::new();
        let mut zero = StructureWeights::ZERO;
        zero.visit(|n, _| names.push(n));
        names
    }

    /// The weights as a flat vector.
    pub fn to_vec(&self) -> Vec<f64> {
        let mut copy = *self;
        let mut out = Vec::new();
        copy.visit(|_, v| out.push(*v));
        out
    }

    /// Weights from a flat vector in [`Self::to_vec`]'s order.
    pub fn from_slice(values: &[f64]) -> Result<StructureWeights, String> {
        let n = StructureWeights::names().len();
        if values.len() != n {
            return Err(format!(
                "expected {n} structure weights, got {}",
                values.len()
            ));
        }
        let mut w = StructureWeights::ZERO;
        let mut it = values.iter();
        w.visit(|_, v| *v = *it.next().expect("length checked"));
        Ok(w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flat_vector_round_trips_and_names_are_unique() {
        let names = StructureWeights::names();
        assert_eq!(names.len(), HAND.to_vec().len());
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len());
        let v: Vec<f64> = (0..names.len()).map(|i| i as f64 + 0.5).collect();
        assert_eq!(StructureWeights::from_slice(&v).unwrap().to_vec(), v);
        assert_eq!(StructureWeights::from_slice(&HAND.to_vec()).unwrap(), HAND);
        assert!(StructureWeights::from_slice(&v[1..]).is_err());
    }
}
