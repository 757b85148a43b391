//! Chance nodes: Star1 with Star2 probing over the exact outcome
//! distribution (Ballard's *-minimax), or over a deterministic sample.
//!
//! Star1: after searching some outcomes, the unsearched ones lie between
//! the bounds of all values, which gives each child a window and a cut-off
//! when the expectation cannot reach `(alpha, beta)`. Star2 first probes
//! every outcome by searching only its first decision: for the player who
//! decides there that is a lower bound of the outcome's value (an upper
//! bound for the other player), and these bounds replace the loose global
//! bounds for the outcomes not searched yet.

use super::ordering::Context;
use super::tt::Bound;
use super::{from_tt, to_tt, Engine, EPS, MATE};
use crate::agents::eval::Evaluate;
use crate::variants::{cumulative_pick, Action, Node, Outcomes, Player};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Mixed into a chance node's key, so that its table entry can never be
/// taken for a decision node's.
const CHANCE_KEY: u64 = 0x9e37_79b9_7f4a_7c15;

/// Bounds of every value.
const LO: f64 = -MATE;
const HI: f64 = MATE;

impl Engine {
    /// The outcomes to search at chance node `g`: exact, or `sample` draws
    /// (with replacement, seeded by the state) when there are more.
    fn outcomes<G: Evaluate>(&self, g: &G) -> Vec<(Action, f64)> {
        let mut o = Outcomes::new();
        g.chance_outcomes(&mut o);
        let exact: Vec<(Action, f64)> =
            o.as_slice().iter().copied().filter(|x| x.1 > 0.0).collect();
        let k = self.params.sample as usize;
        if k == 0 || exact.len() <= k {
            return exact;
        }
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(g.search_key());
        let mut counts = vec![0u32; exact.len()];
        for _ in 0..k {
            counts[cumulative_pick(exact.iter().map(|x| x.1), rng.random::<f64>())] += 1;
        }
        exact
            .iter()
            .zip(counts)
            .filter(|&(_, c)| c > 0)
            .map(|(&(id, _), c)| (id, c as f64 / k as f64))
            .collect()
    }

    /// The states after the outcomes to search, with their probabilities;
    /// with `merge`, outcomes that lead to one state (equal search keys: a
    /// Dice Chess double allows any move whichever it is, a Random Move
    /// Number throw of 2 acts as a 3 that does not repeat the last throw)
    /// are searched once, with their probabilities summed.
    fn children<G: Evaluate>(&self, g: &G) -> Vec<(G, f64)> {
        let outcomes = self.outcomes(g);
        let mut out: Vec<(G, f64)> = Vec::with_capacity(outcomes.len());
        let mut keys: Vec<u64> = Vec::with_capacity(outcomes.len());
        for (id, p) in outcomes {
            let mut child = g.clone();
            child.apply_outcome(id);
            if self.params.merge {
                let key = child.search_key();
                if let Some(i) = keys.iter().position(|&k| k == key) {
                    out[i].1 += p;
                    continue;
                }
                keys.push(key);
            }
            out.push((child, p));
        }
        out
    }

    /// The expectation for `pov` of the chance node `g` in `(alpha, beta)`
    /// (fail-soft: a bound beyond the window when cut off), through the
    /// transposition table: after a roll the opponent's moves lead to the
    /// same next roll whichever roll allowed them (a knight move under every
    /// roll with a knight), so chance nodes recur within one search.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn chance<G: Evaluate>(
        &mut self,
        g: &G,
        depth: i32,
        alpha: f64,
        beta: f64,
        pov: Player,
        ply: usize,
        chain: u32,
    ) -> f64 {
        // Stored for player 0 (the other player's value is the negation).
        let flip = pov != 0;
        let table = self.tt.is_some() && self.params.chance_tt;
        let key = if table {
            g.search_key() ^ CHANCE_KEY
        } else {
            0
        };
        if let Some(h) = self
            .tt
            .as_ref()
            .filter(|_| table)
            .and_then(|t| t.probe(key))
        {
            if h.depth >= depth {
                let v0 = from_tt(h.value, ply);
                let (v, bound) = if flip {
                    (-v0, h.bound.flipped())
                } else {
                    (v0, h.bound)
                };
                if bound.cuts(v, alpha, beta) {
                    return v;
                }
            }
        }
        let v = self.chance_search(g, depth, alpha, beta, pov, ply, chain);
        if self.stopped {
            return v;
        }
        if let Some(t) = self.tt.as_mut().filter(|_| table) {
            let bound = Bound::of(v, alpha, beta);
            let (v0, bound) = if flip {
                (-v, bound.flipped())
            } else {
                (v, bound)
            };
            t.store(key, depth, to_tt(v0, ply), bound, None, f64::NAN);
        }
        v
    }

    /// [`Engine::chance`] without the table.
    #[allow(clippy::too_many_arguments)]
    fn chance_search<G: Evaluate>(
        &mut self,
        g: &G,
        depth: i32,
        alpha: f64,
        beta: f64,
        pov: Player,
        ply: usize,
        chain: u32,
    ) -> f64 {
        let outcomes = self.children(g);
        // The expectation is taken in utility (see `utility.rs`): windows,
        // bounds and sums below are utilities, children are searched and
        // compared in centipawns.
        let ut = self.eval.utility;
        let (ua, ub) = (ut.utility(alpha), ut.utility(beta));
        // Per outcome: lower and upper bound of its value for `pov` (cp),
        // and their utilities (computed once: `tanh` is not cheap).
        let mut memo = ut.memo();
        let unknown = ((LO, HI), (memo.utility(LO), memo.utility(HI)));
        let mut bounds = vec![unknown; outcomes.len()];
        if self.params.star2 && depth >= 1 && outcomes.len() > 1 {
            let (mut lo_sum, mut hi_sum) = (0.0, 0.0);
            for (i, (child, p)) in outcomes.iter().enumerate() {
                let p = *p;
                let b = self.probe(child, depth, alpha, beta, pov, ply + 1);
                if self.stopped {
                    return 0.0;
                }
                bounds[i] = (b, (memo.utility(b.0), memo.utility(b.1)));
                lo_sum += p * bounds[i].1 .0;
                hi_sum += p * bounds[i].1 .1;
            }
            if lo_sum >= ub {
                return ut.centipawns(lo_sum);
            }
            if hi_sum <= ua {
                return ut.centipawns(hi_sum);
            }
        }
        // Bounds of the expectation over the outcomes after the current one.
        let mut rest_lo: f64 = outcomes
            .iter()
            .zip(&bounds)
            .map(|(o, b)| o.1 * b.1 .0)
            .sum();
        let mut rest_hi: f64 = outcomes
            .iter()
            .zip(&bounds)
            .map(|(o, b)| o.1 * b.1 .1)
            .sum();
        let mut sum = 0.0;
        for (i, (child, p)) in outcomes.iter().enumerate() {
            let p = *p;
            let ((lo, hi), (lo_u, hi_u)) = bounds[i];
            rest_lo -= p * lo_u;
            rest_hi -= p * hi_u;
            let a = ut.centipawns((ua - sum - rest_hi) / p);
            let b = ut.centipawns((ub - sum - rest_lo) / p);
            let v = self.node(
                child,
                depth,
                a.max(lo - EPS),
                b.min(hi + EPS),
                pov,
                ply + 1,
                chain,
            );
            if self.stopped {
                return 0.0;
            }
            sum += p * memo.utility(v);
            if v <= a {
                return ut.centipawns(sum + rest_hi);
            }
            if v >= b {
                return ut.centipawns(sum + rest_lo);
            }
        }
        ut.centipawns(sum)
    }

    /// Star2 probe of an outcome: its value for `pov` is bounded by the
    /// value of the first decision of whoever decides there.
    fn probe<G: Evaluate>(
        &mut self,
        child: &G,
        depth: i32,
        alpha: f64,
        beta: f64,
        pov: Player,
        ply: usize,
    ) -> (f64, f64) {
        let Node::Decision(p) = child.node() else {
            return (LO, HI);
        };
        let mut tt_move = None;
        if let Some(t) = self.tt.as_ref() {
            if let Some(h) = t.probe(child.search_key()) {
                tt_move = h.mv;
            }
        }
        let mut buf = std::mem::take(&mut self.moves[ply]);
        self.fill_moves(child, tt_move, &Context::NONE, ply, false, &mut buf);
        if buf.is_empty() {
            self.moves[ply] = buf;
            return (LO, HI);
        }
        let m = self.heur.pick(child.position(), &mut buf, 0);
        self.moves[ply] = buf;
        let mut grand = child.clone();
        grand.search_play(m);
        // The window for `p`.
        let (a, b) = if p == pov {
            (alpha, beta)
        } else {
            (-beta, -alpha)
        };
        let v = self.node(&grand, depth - 1, a, b, p, ply + 1, 0);
        if v <= a {
            // Only an upper bound of that move's value: no bound of the node.
            return (LO, HI);
        }
        if p == pov {
            (v, HI)
        } else {
            (LO, -v)
        }
    }
}
