//! Games in pairs on common dice: game 0 of pair `k` seats agent A as
//! player 0 and agent B as player 1, game 1 swaps the seats, and both draw
//! their dice from the same stream ([`CommonDice`]: the `n`-th chance node
//! of either game uses the same uniform number). Most of the dice noise then
//! cancels within a pair, so a pair's mean score estimates the difference
//! in skill with less variance than two independent games.
//!
//! Reproducible whatever the thread count: pair `k` uses only `(seed, k)`.

use super::playouts::{record, GameRecord};
use crate::agents::{play_game_with_dice, Agent, AgentSpec};
use crate::play::{game_rng, CommonDice, GameRng};
use crate::variants::AnyGame;
use crate::with_game;
use rayon::prelude::*;

/// The two games of one pair: `[A as player 0, B as player 0]`.
pub type PairRecord = [GameRecord; 2];

/// Where the agents' own randomness comes from (never the dice stream).
fn agent_seed(seed: u64) -> u64 {
    seed ^ 0xA6E7_A6E7_A6E7_A6E7
}

/// The agents' generator and the common dice of pair `pair` (each of the
/// pair's two games starts from fresh copies).
pub(crate) fn pair_generators(seed: u64, pair: u64) -> (GameRng, CommonDice) {
    (
        game_rng(agent_seed(seed), pair),
        CommonDice::new(seed, pair),
    )
}

/// Plays one game of pair `pair` with `seats[p]` deciding for player `p`.
/// The agents' generator is also the pair's (common random numbers for
/// their tie-breaks too): with the same agent in both seats, both games of a
/// pair are the same game.
fn play_one(proto: &AnyGame, seats: [&AgentSpec; 2], seed: u64, pair: u64) -> GameRecord {
    let (mut rng, mut dice) = pair_generators(seed, pair);
    let mut agents = [Agent::new(seats[0].clone()), Agent::new(seats[1].clone())];
    let mut g = proto.clone();
    with_game!(&mut g, x => {
        let s = play_game_with_dice(x, &mut agents, &mut rng, &mut dice);
        record(x, s.plies, s.chance_events)
    })
}

/// Plays pairs `start .. start + count` of a run seeded with `seed` between
/// `agents[0]` (A) and `agents[1]` (B), on `threads` threads (None: rayon's
/// default). Records are in pair order; `winner` codes are per game (player
/// 0 of game 1 is B).
pub fn paired_playouts(
    proto: &AnyGame,
    agents: &[AgentSpec; 2],
    seed: u64,
    start: u64,
    count: u64,
    threads: Option<usize>,
) -> Vec<PairRecord> {
    let [a, b] = agents;
    let token = crate::interrupt::current();
    let run = || {
        (0..count)
            .into_par_iter()
            .map(|k| {
                crate::interrupt::within(token.as_ref(), || {
                    let pair = start + k;
                    [
                        play_one(proto, [a, b], seed, pair),
                        play_one(proto, [b, a], seed, pair),
                    ]
                })
            })
            .collect()
    };
    super::on_threads(threads, run)
}
