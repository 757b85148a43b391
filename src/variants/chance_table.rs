//! A chance node's outcomes that a variant keeps fixed (the same table at
//! every chance node), with their running sums: the playout loop reads the
//! table in place ([`super::Game::chance_table`]) instead of copying it at
//! every roll, and draws an outcome without the chain of additions of
//! [`Outcomes::sample`], with the same result for every uniform number.

use super::common::{Outcomes, MAX_OUTCOMES};
use super::Action;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Fixed chance outcomes with their running sums (serialised as the
/// outcomes, a list of pairs). Shared, not copied, by clones: a search
/// clones the game at every node.
#[derive(Clone, Serialize, Deserialize)]
#[serde(from = "Outcomes", into = "Outcomes")]
pub struct ChanceTable(Arc<Table>);

struct Table {
    outcomes: Outcomes,
    /// `sums[i]`: the probabilities of outcomes `0..=i` added up in order,
    /// as [`Outcomes::sample`] adds them; infinite past the outcomes (a
    /// fixed length: the count has no loop exit to mispredict).
    sums: [f64; MAX_OUTCOMES],
}

impl From<Outcomes> for ChanceTable {
    fn from(outcomes: Outcomes) -> ChanceTable {
        let mut sums = [f64::INFINITY; MAX_OUTCOMES];
        let mut acc = 0.0;
        for (s, &(_, p)) in sums.iter_mut().zip(outcomes.as_slice()) {
            acc += p;
            *s = acc;
        }
        ChanceTable(Arc::new(Table { outcomes, sums }))
    }
}

impl From<ChanceTable> for Outcomes {
    fn from(t: ChanceTable) -> Outcomes {
        t.0.outcomes
    }
}

impl ChanceTable {
    /// The outcomes.
    #[inline(always)]
    pub fn outcomes(&self) -> &Outcomes {
        &self.0.outcomes
    }

    /// The outcome [`Outcomes::sample`] gives for `u` in `[0, 1)`: the first
    /// whose running sum exceeds `u`, that is (the sums never decrease) the
    /// number of sums not above `u`, counted without a branch; the last
    /// outcome if every sum is (rounding).
    #[inline]
    pub fn sample(&self, u: f64) -> Action {
        let below: usize = self.0.sums.iter().map(|&s| (s <= u) as usize).sum();
        let items = self.0.outcomes.as_slice();
        debug_assert!(!items.is_empty(), "a chance table without outcomes");
        items[below.min(items.len() - 1)].0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::{AnyGame, Game, Options};

    /// The table draws what the list draws, for uniform numbers spread
    /// over `[0, 1)` and on every running sum and its neighbours.
    #[test]
    fn samples_as_the_outcomes() {
        for name in ["dice_chess3", "vegas", "dice_chess"] {
            let g = AnyGame::new(name, &Options::new()).unwrap();
            let mut out = Outcomes::new();
            crate::with_game!(&g, x => x.chance_outcomes(&mut out));
            let t = ChanceTable::from(out);
            let mut us: Vec<f64> = (0..100_000).map(|i| i as f64 / 100_000.0).collect();
            for &s in &t.0.sums[..out.len()] {
                us.extend([s, s.next_down(), s.next_up()].iter().filter(|u| **u < 1.0));
            }
            us.push(1.0f64.next_down());
            for u in us {
                assert_eq!(t.sample(u), out.sample(u), "{name} u={u}");
            }
        }
    }
}
