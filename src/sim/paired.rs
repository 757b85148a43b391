//! Games in pairs on common dice: game 0 of pair `k` seats agent A as
//! player 0 and agent B as player 1, game 1 swaps the seats, and both draw
//! their dice from the same stream ([`CommonDice`]: the `n`-th chance node
//! of either game uses the same uniform number). Most of the dice noise then
//! cancels within a pair, so a pair's mean score estimates the difference
//! in skill with less variance than two independent games.
//!
//! With `opening_plies > 0` the first decisions of both games are uniformly
//! random moves drawn from the pair's own opening stream, so both games of
//! a pair open identically, and different pairs open differently: without
//! it, deterministic agents in a game without dice play every pair alike.
//!
//! Reproducible whatever the thread count: pair `k` uses only `(seed, k)`.

use super::playouts::{record, GameRecord};
use crate::agents::{Agent, AgentSpec};
use crate::play::{game_rng, play_out_with_dice, CommonDice};
use crate::variants::{Action, AnyGame, Game};
use crate::with_game;

/// The two games of one pair: `[A as player 0, B as player 0]`.
pub type PairRecord = [GameRecord; 2];

/// Where the agents' own randomness comes from (never the dice stream).
fn agent_seed(seed: u64) -> u64 {
    seed ^ 0xA6E7_A6E7_A6E7_A6E7
}

/// Where the random opening moves come from (the same for both games of a pair).
fn opening_seed(seed: u64) -> u64 {
    seed ^ 0x0BE1_0BE1_0BE1_0BE1
}

fn play_one(
    proto: &AnyGame,
    seats: [&AgentSpec; 2],
    seed: u64,
    pair: u64,
    opening_plies: u32,
) -> GameRecord {
    play_pair_game::<false>(proto, seats, seed, pair, opening_plies, &|_| {})
}

/// Plays one game of pair `pair` with `seats[p]` deciding for player `p`
/// after `opening_plies` random decisions; `on_action` sees every action
/// (decisions and rolls) in order when `RECORD` (compiled out otherwise).
/// The agents' generator is also the pair's (common random numbers for
/// their tie-breaks too): with the same agent in both seats, both games of a
/// pair are the same game.
pub(crate) fn play_pair_game<const RECORD: bool>(
    proto: &AnyGame,
    seats: [&AgentSpec; 2],
    seed: u64,
    pair: u64,
    opening_plies: u32,
    on_action: &impl Fn(Action),
) -> GameRecord {
    let mut rng = game_rng(agent_seed(seed), pair);
    let mut opening_rng = game_rng(opening_seed(seed), pair);
    let mut dice = CommonDice::new(seed, pair);
    let mut opening = Agent::new(AgentSpec::Random);
    let mut agents = [Agent::new(seats[0].clone()), Agent::new(seats[1].clone())];
    let mut decisions = 0u32;
    let mut g = proto.clone();
    with_game!(&mut g, x => {
        let s = play_out_with_dice(
            x,
            &mut rng,
            &mut dice,
            |g, p, rng| {
                decisions += 1;
                let m = if decisions <= opening_plies {
                    opening.select(g, &mut opening_rng)
                } else {
                    agents[p as usize & 1].select(g, rng)
                };
                if RECORD {
                    on_action(g.layout().encode(m, g.position().turn()));
                }
                m
            },
            |_, _, o, _| {
                if RECORD {
                    on_action(o)
                }
            },
        );
        record(x, s.plies, s.chance_events)
    })
}

/// Plays pairs `start .. start + count` of a run seeded with `seed` between
/// `agents[0]` (A) and `agents[1]` (B), each game opening with
/// `opening_plies` random decisions, on `threads` threads (None: rayon's
/// default). Records are in pair order; `winner` codes are per game (player
/// 0 of game 1 is B).
pub fn paired_playouts(
    proto: &AnyGame,
    agents: &[AgentSpec; 2],
    seed: u64,
    start: u64,
    count: u64,
    opening_plies: u32,
    threads: Option<usize>,
) -> Vec<PairRecord> {
    let [a, b] = agents;
    super::par_map(threads, count, 1, |k| {
        let pair = start + k;
        [
            play_one(proto, [a, b], seed, pair, opening_plies),
            play_one(proto, [b, a], seed, pair, opening_plies),
        ]
    })
}
