//! Playing a game: the seeded per-game generator, chance sampling, random
//! decisions and the one game loop ([`play_out`]) that agents, playouts and
//! the luck analysis all run.
//!
//! Every game's randomness comes only from `(seed, game_index)`, so results
//! do not depend on threads or chunking.

use crate::board::{Move, MoveList};
use crate::variants::{Action, ChanceTable, Game, Node, Outcomes, Player};
use rand::RngExt;

use crate::rng::splitmix;
pub use crate::rng::{game_rng, uniform_index, GameRng};

/// Samples a chance outcome from the exact distribution.
#[inline]
pub fn sample_outcome<G: Game>(g: &G, rng: &mut GameRng, buf: &mut Outcomes) -> Action {
    g.chance_outcomes(buf);
    buf.sample(rng.random::<f64>())
}

/// A uniformly random legal decision (moves and pass alike): the variant's
/// [`Game::random_legal_move`] (by default, an index drawn into the list of
/// legal moves).
#[inline]
pub fn random_move<G: Game>(g: &G, rng: &mut GameRng, buf: &mut MoveList) -> Move {
    g.random_legal_move(rng, buf)
}

/// Counts from one playout.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayoutStats {
    /// Decisions made.
    pub plies: u32,
    /// Chance outcomes applied.
    pub chance_events: u32,
}

/// Where a game's dice come from.
pub trait Dice {
    /// The outcome of the chance node whose outcomes are `outcomes`; `rng`
    /// is the game's generator (shared with the agents).
    fn roll(&mut self, outcomes: &Outcomes, rng: &mut GameRng) -> Action;
    /// [`Dice::roll`] from a game's fixed table (the same outcome).
    #[inline(always)]
    fn roll_table(&mut self, table: &ChanceTable, rng: &mut GameRng) -> Action {
        self.roll(table.outcomes(), rng)
    }
}

/// Dice sampled from the game's own generator (the default).
pub struct SampledDice;

impl Dice for SampledDice {
    #[inline(always)]
    fn roll(&mut self, outcomes: &Outcomes, rng: &mut GameRng) -> Action {
        outcomes.sample(rng.random::<f64>())
    }
    #[inline(always)]
    fn roll_table(&mut self, table: &ChanceTable, rng: &mut GameRng) -> Action {
        table.sample(rng.random::<f64>())
    }
}

/// Common random numbers: the `n`-th chance node of a game draws its
/// uniform number from `(seed, stream, n)` alone, never from the game's
/// generator, so two games on one stream (a pair with colours swapped) get
/// the same dice wherever their chance nodes have the same distribution.
#[derive(Clone, Debug)]
pub struct CommonDice {
    key: u64,
    n: u64,
}

impl CommonDice {
    /// The dice of stream `stream` in a run seeded with `seed`.
    pub fn new(seed: u64, stream: u64) -> CommonDice {
        CommonDice {
            key: splitmix(splitmix(seed ^ 0xD1CE_D1CE_D1CE_D1CE) ^ stream),
            n: 0,
        }
    }
    /// The uniform number in `[0, 1)` of the next chance node.
    pub fn next_uniform(&mut self) -> f64 {
        let z = splitmix(self.key ^ splitmix(self.n));
        self.n += 1;
        (z >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

impl Dice for CommonDice {
    #[inline(always)]
    fn roll(&mut self, outcomes: &Outcomes, _rng: &mut GameRng) -> Action {
        outcomes.sample(self.next_uniform())
    }
    #[inline(always)]
    fn roll_table(&mut self, table: &ChanceTable, _rng: &mut GameRng) -> Action {
        table.sample(self.next_uniform())
    }
}

/// Plays `g` to the end: dice sampled from `rng`, player `p`'s decisions
/// from `decide(g, p, rng)`, and `on_roll(g, outcomes, actual, stats so far)`
/// called at every chance node before the sampled outcome `actual` is
/// applied (it sees no generator, so it cannot change the game). The one
/// game loop of random and agent playouts.
#[inline(always)]
pub fn play_out<G: Game>(
    g: &mut G,
    rng: &mut GameRng,
    decide: impl FnMut(&G, Player, &mut GameRng) -> Move,
    on_roll: impl FnMut(&G, &Outcomes, Action, &PlayoutStats),
) -> PlayoutStats {
    play_out_with_dice(g, rng, &mut SampledDice, decide, on_roll)
}

/// [`play_out`] with the dice from `dice`.
#[inline(always)]
pub fn play_out_with_dice<G: Game, D: Dice>(
    g: &mut G,
    rng: &mut GameRng,
    dice: &mut D,
    mut decide: impl FnMut(&G, Player, &mut GameRng) -> Move,
    mut on_roll: impl FnMut(&G, &Outcomes, Action, &PlayoutStats),
) -> PlayoutStats {
    let mut outcomes = Outcomes::new();
    let mut stats = PlayoutStats::default();
    loop {
        match g.node() {
            Node::Terminal => return stats,
            Node::Chance => {
                // A fixed table is read in place; otherwise the outcomes
                // are listed into the loop's buffer.
                let (listed, o) = match g.chance_table() {
                    Some(table) => (table.outcomes(), dice.roll_table(table, rng)),
                    None => {
                        g.chance_outcomes(&mut outcomes);
                        (&outcomes, dice.roll(&outcomes, rng))
                    }
                };
                on_roll(g, listed, o, &stats);
                g.apply_outcome(o);
                stats.chance_events += 1;
            }
            Node::Decision(p) => {
                let m = decide(g, p, rng);
                g.play(m);
                stats.plies += 1;
                // Every 64 decisions, not steps: no counter of its own in the
                // loop. Runs of turns without a decision are short (every
                // variant ends one by `max_plies` or the fifty-move rule).
                if stats.plies % 64 == 0 && crate::interrupt::requested() {
                    return stats; // an unfinished game: the interrupted caller discards it
                }
            }
        }
    }
}

/// Advances `g` by `decisions` uniformly random decisions, sampling the
/// dice on the way, and on to the next decision node; whether it stopped
/// at one (false: the game ended first). The random positions of tests,
/// benches and probes.
pub fn play_random_decisions<G: Game>(g: &mut G, rng: &mut GameRng, decisions: u32) -> bool {
    let (mut moves, mut outcomes) = (MoveList::new(), Outcomes::new());
    let mut made = 0;
    loop {
        match g.node() {
            Node::Terminal => return false,
            Node::Chance => {
                let a = sample_outcome(g, rng, &mut outcomes);
                g.apply_outcome(a);
            }
            Node::Decision(_) if made >= decisions => return true,
            Node::Decision(_) => {
                let m = random_move(g, rng, &mut moves);
                g.play(m);
                made += 1;
            }
        }
    }
}

/// Plays `g` to the end with uniformly random decisions and sampled dice.
pub fn play_random_game<G: Game>(g: &mut G, rng: &mut GameRng) -> PlayoutStats {
    let mut moves = MoveList::new();
    play_out(
        g,
        rng,
        |g, _, rng| random_move(g, rng, &mut moves),
        |_, _, _, _| {},
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::{chess::Chess, dice_chess::DiceChess, vegas::Vegas, Options};

    #[test]
    fn random_decisions_stop_at_the_next_decision_or_the_end() {
        // Chess: every ply is a decision.
        let mut g = Chess::new(&Options::new()).unwrap();
        assert!(play_random_decisions(&mut g, &mut game_rng(3, 0), 10));
        assert_eq!(g.progress().plies, 10);
        assert!(matches!(g.node(), Node::Decision(_)));
        // Dice Chess starts at a roll: it is sampled on the way to the
        // first decision.
        let mut d = DiceChess::new(&Options::new()).unwrap();
        assert_eq!(d.node(), Node::Chance);
        assert!(play_random_decisions(&mut d, &mut game_rng(3, 0), 0));
        assert!(matches!(d.node(), Node::Decision(_)));
        // More decisions than any game lasts: it ends first.
        let mut g = Chess::new(&Options::new()).unwrap();
        assert!(!play_random_decisions(
            &mut g,
            &mut game_rng(3, 1),
            u32::MAX
        ));
        assert_eq!(g.node(), Node::Terminal);
        // The same seed, the same position.
        let fen_after = |seed| {
            let mut v = Vegas::new(&Options::new()).unwrap();
            play_random_decisions(&mut v, &mut game_rng(seed, 2), 20);
            v.fen()
        };
        assert_eq!(fen_after(5), fen_after(5));
        assert_ne!(fen_after(5), fen_after(6));
    }
}
