//! Per-roll luck along agent games (see `docs/luck.md`).
//!
//! At every roll (a chance node with more than one possible outcome) with
//! outcomes `o` of probability `p_o` and the sampled outcome `a`, player 0's
//! luck is `V(after a) - Σ p_o V(after o)`, where `V` is the expectimax value
//! for player 0 at a fixed depth ([`Search::root_value`]). Player 1's luck
//! is the negative. The evaluator draws nothing from the game generator, so
//! the games are exactly those of [`super::playouts::playouts`].

use super::game_rng;
use super::playouts::{record, GameRecord};
use crate::agents::expectimax::Search;
use crate::agents::{play_game_observed, Agent, AgentSpec, Evaluate};
use crate::variants::{Action, AnyGame, Node, Outcomes};
use crate::with_game;
use rayon::prelude::*;

/// Luck totals of one game, for player 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameLuck {
    /// The game, as [`super::playouts::playouts`] records it.
    pub record: GameRecord,
    /// Rolls (chance nodes with more than one possible outcome).
    pub n_rolls: u32,
    /// Sum of player 0's luck over the rolls.
    pub luck_sum: f64,
    /// Sum of |luck| over the rolls.
    pub abs_luck_sum: f64,
    /// Largest |luck| of one roll (0 without rolls).
    pub max_abs_luck: f64,
}

/// Per-roll values of a run, flattened in game order (struct of arrays).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RollLuck {
    /// Game index in the run (`start + k`).
    pub game: Vec<u64>,
    /// Decisions made in the game before the roll.
    pub ply: Vec<u32>,
    /// Player to move after the actual roll (-1: not a decision node).
    pub player: Vec<i8>,
    /// Player 0's luck.
    pub luck: Vec<f64>,
    /// Σ p_o V(after o): the value expected before the roll.
    pub v_expected: Vec<f64>,
    /// V(after the actual outcome).
    pub v_actual: Vec<f64>,
}

impl RollLuck {
    fn append(&mut self, mut other: RollLuck) {
        self.game.append(&mut other.game);
        self.ply.append(&mut other.ply);
        self.player.append(&mut other.player);
        self.luck.append(&mut other.luck);
        self.v_expected.append(&mut other.v_expected);
        self.v_actual.append(&mut other.v_actual);
    }

    /// Number of rolls.
    pub fn len(&self) -> usize {
        self.luck.len()
    }

    /// No rolls.
    pub fn is_empty(&self) -> bool {
        self.luck.is_empty()
    }
}

/// One roll: `(player after the roll, V expected, V actual)`, or `None` for
/// a chance node with a single possible outcome (no luck involved).
pub fn roll_values<G: Evaluate>(
    search: &mut Search,
    g: &G,
    outcomes: &Outcomes,
    actual: Action,
    depth: u32,
) -> Option<(i8, f64, f64)> {
    let possible = outcomes.as_slice().iter().filter(|o| o.1 > 0.0).count();
    if possible < 2 {
        return None;
    }
    let children: Vec<(Action, f64, G)> = outcomes
        .as_slice()
        .iter()
        .filter(|o| o.1 > 0.0)
        .map(|&(id, p)| {
            let mut child = g.clone();
            child.apply_outcome(id);
            (id, p, child)
        })
        .collect();
    // One table for the roll: after a forced pass, say, the opponent's
    // positions are the same whichever roll caused it.
    let values = search.root_values(children.iter().map(|c| &c.2), depth);
    let (mut expected, mut v_actual, mut player) = (0.0, 0.0, -1);
    for ((id, p, child), v) in children.iter().zip(values) {
        expected += p * v;
        if *id == actual {
            v_actual = v;
            if let Node::Decision(q) = child.node() {
                player = q as i8;
            }
        }
    }
    Some((player, expected, v_actual))
}

fn one_game<G: Evaluate>(
    g: &mut G,
    agents: &[AgentSpec; 2],
    depth: u32,
    seed: u64,
    index: u64,
    per_roll: bool,
) -> (GameLuck, RollLuck) {
    let mut rng = game_rng(seed, index);
    let mut pair = [Agent::new(agents[0].clone()), Agent::new(agents[1].clone())];
    let mut search = Search::new();
    let mut rolls = RollLuck::default();
    let (mut n, mut sum, mut abs_sum, mut max_abs) = (0u32, 0.0, 0.0, 0.0f64);
    let stats = play_game_observed(g, &mut pair, &mut rng, |x, outcomes, actual, so_far| {
        let Some((player, expected, v)) = roll_values(&mut search, x, outcomes, actual, depth)
        else {
            return;
        };
        let luck = v - expected;
        n += 1;
        sum += luck;
        abs_sum += luck.abs();
        max_abs = max_abs.max(luck.abs());
        if per_roll {
            rolls.game.push(index);
            rolls.ply.push(so_far.plies);
            rolls.player.push(player);
            rolls.luck.push(luck);
            rolls.v_expected.push(expected);
            rolls.v_actual.push(v);
        }
    });
    (
        GameLuck {
            record: record(g, stats.plies, stats.chance_events),
            n_rolls: n,
            luck_sum: sum,
            abs_luck_sum: abs_sum,
            max_abs_luck: max_abs,
        },
        rolls,
    )
}

/// Plays games `start .. start + count` of a run seeded with `seed` exactly
/// as [`super::playouts::playouts`] does (same records) and measures the
/// luck of every roll with a depth-`eval_depth` expectimax value, on
/// `threads` threads (None: rayon's default). Results are in game order and
/// the same for any thread count; the per-roll arrays are filled only when
/// `per_roll` is set (they grow with the number of rolls).
#[allow(clippy::too_many_arguments)]
pub fn roll_luck(
    proto: &AnyGame,
    agents: &[AgentSpec; 2],
    eval_depth: u32,
    seed: u64,
    start: u64,
    count: u64,
    threads: Option<usize>,
    per_roll: bool,
) -> (Vec<GameLuck>, RollLuck) {
    let token = crate::interrupt::current();
    let run = || {
        let per_game: Vec<(GameLuck, RollLuck)> = (0..count)
            .into_par_iter()
            .map(|k| {
                crate::interrupt::within(token.as_ref(), || {
                    let mut g = proto.clone();
                    with_game!(&mut g, x => one_game(x, agents, eval_depth, seed, start + k, per_roll))
                })
            })
            .collect();
        let mut games = Vec::with_capacity(per_game.len());
        let mut rolls = RollLuck::default();
        for (gl, r) in per_game {
            games.push(gl);
            rolls.append(r);
        }
        (games, rolls)
    };
    super::on_threads(threads, run)
}
