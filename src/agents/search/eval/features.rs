//! The search evaluation as a linear function of its weights: for a state,
//! the coefficient of every weight (middlegame and endgame parts already
//! multiplied by the taper), so that `features · weights` is the static
//! value for White. `scripts/texel_tune.py` fits the weights on positions
//! of the engine's own games with these features (Texel tuning).

use super::{mg_share, square_terms, Weights};
use crate::agents::eval::Evaluate;
use crate::board::{Color, Role};
use crate::variants::Node;

/// Number of weights (8 per-role groups of 6, bishop pair, tempo).
pub const NUM_FEATURES: usize = 8 * 6 + 2;

const GROUPS: [&str; 8] = [
    "mg_value",
    "eg_value",
    "mg_center",
    "eg_center",
    "mg_advance",
    "eg_advance",
    "mg_mobility",
    "eg_mobility",
];
const ROLES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];

/// The names of the weights in feature order (`mg_value.pawn`, ...,
/// `bishop_pair`, `tempo`).
pub fn feature_names() -> Vec<String> {
    let mut out = Vec::with_capacity(NUM_FEATURES);
    for g in GROUPS {
        for r in ROLES {
            out.push(format!("{g}.{r}"));
        }
    }
    out.push("bishop_pair".into());
    out.push("tempo".into());
    out
}

impl Weights {
    /// The weights in feature order.
    pub fn to_vec(&self) -> Vec<f64> {
        let mut out = Vec::with_capacity(NUM_FEATURES);
        for g in self.groups() {
            out.extend_from_slice(g);
        }
        out.push(self.bishop_pair);
        out.push(self.tempo);
        out
    }

    fn groups(&self) -> [&[f64; 6]; 8] {
        [
            &self.mg_value,
            &self.eg_value,
            &self.mg_center,
            &self.eg_center,
            &self.mg_advance,
            &self.eg_advance,
            &self.mg_mobility,
            &self.eg_mobility,
        ]
    }
}

/// The features of non-terminal state `g` and the offset the weights do
/// not scale ([`Evaluate::extra`] and [`Evaluate::search_terms`]):
/// `features · w.to_vec() + offset` is the search's static value of `g`
/// for White with weights `w` (tempo included at decision nodes).
pub fn eval_features<G: Evaluate>(g: &G) -> ([f64; NUM_FEATURES], f64) {
    let p = g.position();
    let geo = p.geometry();
    let (files, ranks) = (geo.files as i32, geo.ranks as i32);
    let ph = mg_share(p);
    let occ = p.occupied();
    let mut x = [0.0; NUM_FEATURES];
    for c in Color::ALL {
        let sign = if c == Color::White { 1.0 } else { -1.0 };
        let own = p.by_color(c);
        for r in Role::ALL {
            let i = r.index();
            let pieces = p.pieces(c, r);
            for s in pieces {
                let t = square_terms(c, r, s as i32, files, ranks);
                let mob = (p.role_attacks(c, r, s, occ) & !own).count() as f64;
                let mg = [1.0, t.center, t.mg_advance, mob];
                let eg = [1.0, t.center, t.eg_advance, mob];
                for k in 0..4 {
                    x[12 * k + i] += sign * ph * mg[k];
                    x[12 * k + 6 + i] += sign * (1.0 - ph) * eg[k];
                }
            }
            if r == Role::Bishop && pieces.more_than_one() {
                x[48] += sign;
            }
        }
    }
    if let Node::Decision(pl) = g.node() {
        x[49] = if g.color_of(pl) == Color::White {
            1.0
        } else {
            -1.0
        };
    }
    (x, 100.0 * g.extra() + g.search_terms())
}
