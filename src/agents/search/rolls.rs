//! Analysis before the roll: at a chance node, one search per outcome and
//! their expectation, so a position can be valued (and each roll's best
//! move read) where no player decides yet.
//!
//! The expectation is taken as the search takes it at its own chance nodes:
//! on the variant's utility scale ([`super::utility`]), not by averaging
//! centipawns.

use super::utility::Utility;
use super::{terminal_value, Engine, SearchResult};
use crate::agents::eval::Evaluate;
use crate::play::GameRng;
use crate::variants::{Action, Node, Outcomes, Player};

/// One outcome of a chance root and what followed it.
#[derive(Clone, Debug)]
pub struct RollSearch {
    pub outcome: Action,
    pub probability: f64,
    /// The value for the roller (centipawns).
    pub value: f64,
    /// Nodes searched for this roll (with the next roll's searches when
    /// another roll follows it).
    pub nodes: u64,
    /// The search after the roll; `None` when no decision follows (the
    /// roll ends the game, valued exactly, or is followed by another roll,
    /// valued by the analysis of that roll).
    pub search: Option<SearchResult>,
}

/// A search at a chance node.
#[derive(Clone, Debug)]
pub struct ChanceSearch {
    /// The player the values are for: the one who decides after the roll.
    pub roller: Player,
    /// The expectation over the outcomes searched (all of them unless
    /// `stopped`).
    pub value: f64,
    pub rolls: Vec<RollSearch>,
    /// Nodes searched in all.
    pub nodes: u64,
    /// Whether an interrupt or `each` stopped it before the last outcome
    /// (a budget that stops a roll's search does not).
    pub stopped: bool,
}

/// Rolls in a row that [`Engine::search_rolls`] searches below the first
/// (a chain of passes is valued statically beyond).
const MAX_CHAIN: u32 = 1;

/// The player who decides after the chance node `g`'s rolls (the first
/// outcome that leads to a decision says; otherwise the player of the
/// colour to move, as when every roll is followed by another).
fn roller<G: Evaluate>(g: &G, outcomes: &Outcomes) -> Player {
    for &(id, _) in outcomes.as_slice() {
        let mut child = g.clone();
        child.apply_outcome(id);
        if let Node::Decision(p) = child.node() {
            return p;
        }
    }
    g.position().turn() as Player
}

impl Engine {
    /// Searches every outcome of the chance node `g` with `limits` (a
    /// budget per roll) and takes the expectation for the roller. An
    /// outcome followed by another roll (a turn passed for want of a move,
    /// a second throw) is valued by the same analysis of that roll, one
    /// level deep (statically below). `each` is called after every roll of
    /// `g` with (rolls done, rolls in all) and stops the analysis when it
    /// returns `false`; so does an interrupt ([`crate::interrupt`]).
    pub fn search_rolls<G: Evaluate>(
        &mut self,
        g: &G,
        rng: &mut GameRng,
        limits: (Option<u64>, Option<u64>, Option<u32>),
        mut each: impl FnMut(usize, usize) -> bool,
    ) -> ChanceSearch {
        self.rolls_below(g, rng, limits, 0, &mut each)
    }

    fn rolls_below<G: Evaluate>(
        &mut self,
        g: &G,
        rng: &mut GameRng,
        limits: (Option<u64>, Option<u64>, Option<u32>),
        chain: u32,
        each: &mut dyn FnMut(usize, usize) -> bool,
    ) -> ChanceSearch {
        debug_assert!(matches!(g.node(), Node::Chance));
        let mut outcomes = Outcomes::new();
        g.chance_outcomes(&mut outcomes);
        let pov = roller(g, &outcomes);
        let total = outcomes.as_slice().len();
        let mut rolls = Vec::with_capacity(total);
        let mut stopped = false;
        for (i, &(id, probability)) in outcomes.as_slice().iter().enumerate() {
            let mut child = g.clone();
            child.apply_outcome(id);
            let (value, nodes, search) = match child.node() {
                Node::Decision(me) => {
                    let r = self.search(&child, rng, limits, None);
                    let v = if me == pov { r.value } else { -r.value };
                    (v, r.nodes, Some(r))
                }
                Node::Terminal => (terminal_value(&child, pov, 0), 0, None),
                Node::Chance if chain < MAX_CHAIN => {
                    let next = self.rolls_below(&child, rng, limits, chain + 1, &mut |_, _| true);
                    let v = if next.roller == pov {
                        next.value
                    } else {
                        -next.value
                    };
                    (v, next.nodes, None)
                }
                Node::Chance => (
                    self.eval
                        .at_chance(&child, pov, |c| terminal_value(c, pov, 1)),
                    0,
                    None,
                ),
            };
            rolls.push(RollSearch {
                outcome: id,
                probability,
                value,
                nodes,
                search,
            });
            if crate::interrupt::requested() || !each(i + 1, total) {
                stopped = i + 1 < total || crate::interrupt::requested();
                break;
            }
        }
        let value = self.expectation(g, &rolls);
        ChanceSearch {
            roller: pov,
            value,
            nodes: rolls.iter().map(|r| r.nodes).sum(),
            rolls,
            stopped,
        }
    }

    /// The expectation of the rolls' values on the variant's utility scale,
    /// over the probability the rolls cover.
    fn expectation<G: Evaluate>(&self, g: &G, rolls: &[RollSearch]) -> f64 {
        let scale = self.params.uscale.unwrap_or(g.search_defaults().uscale);
        let u = Utility::new(scale);
        let mass: f64 = rolls.iter().map(|r| r.probability).sum();
        if mass <= 0.0 {
            return 0.0;
        }
        let sum: f64 = rolls
            .iter()
            .map(|r| r.probability * u.utility(r.value))
            .sum();
        u.centipawns(sum / mass)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::search::{Params, MATE_BOUND};
    use crate::rng::game_rng;
    use crate::variants::dice_chess::DiceChess;
    use crate::variants::dice_chess3::DiceChess3;
    use crate::variants::{Game, Options};

    fn analyse<G: Evaluate>(g: &G, nodes: u64, seed: u64) -> ChanceSearch {
        let mut e = Engine::new(Params::default());
        let mut rng = game_rng(seed, 0);
        e.search_rolls(g, &mut rng, (Some(nodes), None, None), |_, _| true)
    }

    #[test]
    fn every_roll_is_searched_and_the_expectation_lies_between_them() {
        let g = DiceChess::new(&Options::new()).unwrap();
        assert!(matches!(g.node(), Node::Chance));
        let r = analyse(&g, 2_000, 1);
        let mut o = Outcomes::new();
        g.chance_outcomes(&mut o);
        assert_eq!(r.rolls.len(), o.as_slice().len());
        assert!(!r.stopped);
        assert_eq!(r.roller, 0);
        let total: f64 = r.rolls.iter().map(|x| x.probability).sum();
        assert!((total - 1.0).abs() < 1e-9);
        let lo = r
            .rolls
            .iter()
            .map(|x| x.value)
            .fold(f64::INFINITY, f64::min);
        let hi = r
            .rolls
            .iter()
            .map(|x| x.value)
            .fold(f64::NEG_INFINITY, f64::max);
        assert!(lo < hi, "the rolls of the start differ in value");
        assert!(
            lo <= r.value && r.value <= hi,
            "{lo} <= {} <= {hi}",
            r.value
        );
        let mut searched = 0;
        for x in &r.rolls {
            let name = g.outcome_name(x.outcome);
            match &x.search {
                // White rolls and White decides: the value is the search's.
                Some(s) => {
                    assert_eq!(s.value, x.value, "{name}");
                    assert!(s.nodes <= 2_000, "{name}");
                    searched += 1;
                }
                // Neither a pawn nor a knight, and no double (which allows
                // any move): nothing at the start can move, the turn passes.
                None => {
                    let b = name.as_bytes();
                    assert!(b[0] != b[1] && !name.contains(['P', 'N']), "{name}");
                }
            }
        }
        // BR, BQ, BK, RQ, RK and QK pass.
        assert_eq!(searched, r.rolls.len() - 6);
    }

    #[test]
    fn a_roll_that_lets_the_king_be_taken_is_a_win_for_the_roller() {
        // Black's king on e8 stands on the e-file of White's rook: every
        // roll with an R lets White take it; no other roll can.
        let mut o = Options::new();
        o.insert("fen".into(), "4k3/8/8/8/8/8/8/K3R3 w - - 0 1 - -".into());
        let g = DiceChess3::new(&o).unwrap();
        let r = analyse(&g, 5_000, 1);
        let mut p_rook = 0.0;
        for x in &r.rolls {
            let name = g.outcome_name(x.outcome);
            if name.contains('R') {
                assert!(x.value > MATE_BOUND, "{name}: {}", x.value);
                p_rook += x.probability;
            } else {
                assert!(x.value < MATE_BOUND, "{name}: {}", x.value);
            }
        }
        // 1 - (5/6)^3 of the rolls show a rook.
        assert!((p_rook - 91.0 / 216.0).abs() < 1e-9, "{p_rook}");
        assert!(r.value > 0.0);
    }

    #[test]
    fn each_can_stop_the_analysis() {
        let g = DiceChess::new(&Options::new()).unwrap();
        let mut e = Engine::new(Params::default());
        let mut rng = game_rng(1, 0);
        let r = e.search_rolls(&g, &mut rng, (Some(500), None, None), |done, _| done < 3);
        assert_eq!(r.rolls.len(), 3);
        assert!(r.stopped);
    }

    #[test]
    fn the_same_seed_gives_the_same_analysis() {
        let g = DiceChess::new(&Options::new()).unwrap();
        let run = || {
            analyse(&g, 1_000, 7)
                .rolls
                .iter()
                .map(|x| (x.value, x.search.as_ref().map(|s| s.best)))
                .collect::<Vec<_>>()
        };
        assert_eq!(run(), run());
    }
}
