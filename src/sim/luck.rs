//! Per-roll luck along agent games (see `docs/luck.md`).
//!
//! At every roll (a chance node with more than one possible outcome) with
//! outcomes `o` of probability `p_o` and the sampled outcome `a`, player 0's
//! luck is `V(after a) - Σ p_o V(after o)`, where `V` is the expectimax value
//! for player 0 at a fixed depth ([`Search::root_value`]). Player 1's luck
//! is the negative. The evaluator draws nothing from the game generator, so
//! the games are exactly those of [`super::playouts::playouts`].
//!
//! `V` is an expectimax value at a fixed depth ([`Valuer::Expectimax`]), or
//! the search engine's value under a node or depth budget
//! ([`Valuer::Search`]), its centipawns turned into an expected result
//! for player 0 in `[-1, 1]` by the logistic `2 / (1 + 10^(-cp / 400)) - 1`
//! (mates at ±1); a budget too small to finish one iteration is
//! extended to depth 1. Whatever `V` is, the luck of a roll has mean zero over
//! the roll's own distribution, so subtracting a player's luck from the
//! result leaves the expected result unchanged (the AIVAT argument): the
//! evaluator's quality decides only how much variance that removes.

use super::game_rng;
use super::playouts::{record, GameRecord};
use crate::agents::expectimax::Search;
use crate::agents::search::{Engine, Params, MATE_BOUND};
use crate::agents::{play_game_observed, Agent, AgentSpec, Evaluate};
use crate::play::GameRng;
use crate::variants::{Action, AnyGame, Node, Outcomes};
use crate::with_game;
use rand::SeedableRng;

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
    valuer: &mut Valuing,
    g: &G,
    outcomes: &Outcomes,
    actual: Action,
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
    let values = valuer.values(children.iter().map(|c| &c.2));
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

/// What values the states after a roll (see the module doc).
#[derive(Clone, Debug, PartialEq)]
pub enum Valuer {
    /// Expectimax to this many decisions (`expectimax:depth=d`).
    Expectimax(u32),
    /// The search engine with these options; they must set a node or depth
    /// budget (a time budget would make the values depend on the machine).
    Search(Params),
}

impl Valuer {
    /// The valuer of an agent spec: `greedy` (depth 1), `expectimax:depth=d`
    /// or a `search:` spec with a node or depth budget and no time budget.
    pub fn from_spec(spec: &AgentSpec) -> Result<Valuer, String> {
        match spec {
            AgentSpec::Greedy => Ok(Valuer::Expectimax(1)),
            AgentSpec::Expectimax { depth } => Ok(Valuer::Expectimax(*depth)),
            AgentSpec::Search(p) if p.ms.is_none() => Ok(Valuer::Search(p.clone())),
            AgentSpec::Search(_) => Err(
                "a search evaluator needs a node or depth budget, not a time budget (ms=): \
                 luck must not depend on the machine's speed"
                    .into(),
            ),
            other => Err(format!(
                "the luck evaluator must be greedy, expectimax:depth=D or search:nodes=N / \
                 search:depth=D, got {other}"
            )),
        }
    }
}

/// A [`Valuer`] with its search state (one per game).
pub enum Valuing {
    Expectimax(Search, u32),
    Search(Box<Engine>, GameRng),
}

impl Valuing {
    pub fn new(valuer: &Valuer) -> Valuing {
        match valuer {
            Valuer::Expectimax(d) => Valuing::Expectimax(Search::new(), *d),
            // The root shuffle only orders equal moves; a fixed generator
            // keeps the values free of the game's randomness.
            Valuer::Search(p) => Valuing::Search(
                Box::new(Engine::new(p.clone())),
                GameRng::seed_from_u64(0x1ac4),
            ),
        }
    }

    /// Player 0's values of `states` in `[-1, 1]`.
    fn values<'a, G: Evaluate + 'a>(&mut self, states: impl Iterator<Item = &'a G>) -> Vec<f64> {
        match self {
            // One table for the roll: after a forced pass, say, the
            // opponent's positions are the same whichever roll caused it.
            Valuing::Expectimax(search, depth) => search.root_values(states, *depth),
            Valuing::Search(engine, rng) => states
                .map(|g| {
                    let mut r = engine.search(g, rng, (None, None, None), None);
                    if r.depth == 0 && matches!(g.node(), Node::Decision(_)) {
                        // The budget ran out inside the first iteration
                        // (a Vegas ply expands every roll that follows):
                        // its value is no estimate, so finish depth 1.
                        r = engine.search(g, rng, (None, None, Some(1)), None);
                    }
                    let to_move = match g.node() {
                        Node::Decision(p) => p,
                        _ => 0,
                    };
                    let v = if to_move == 0 { r.value } else { -r.value };
                    if v.abs() >= MATE_BOUND {
                        v.signum()
                    } else {
                        2.0 / (1.0 + 10f64.powf(-v / 400.0)) - 1.0
                    }
                })
                .collect(),
        }
    }
}

fn one_game<G: Evaluate>(
    g: &mut G,
    agents: &[AgentSpec; 2],
    valuer: &Valuer,
    seed: u64,
    index: u64,
    per_roll: bool,
) -> (GameLuck, RollLuck) {
    let mut rng = game_rng(seed, index);
    let mut pair = [Agent::new(agents[0].clone()), Agent::new(agents[1].clone())];
    let mut valuing = Valuing::new(valuer);
    let mut rolls = RollLuck::default();
    let (mut n, mut sum, mut abs_sum, mut max_abs) = (0u32, 0.0, 0.0, 0.0f64);
    let stats = play_game_observed(g, &mut pair, &mut rng, |x, outcomes, actual, so_far| {
        let Some((player, expected, v)) = roll_values(&mut valuing, x, outcomes, actual) else {
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
/// luck of every roll with the values of `valuer`, on
/// `threads` threads (None: rayon's default). Results are in game order and
/// the same for any thread count; the per-roll arrays are filled only when
/// `per_roll` is set (they grow with the number of rolls).
#[allow(clippy::too_many_arguments)]
pub fn roll_luck(
    proto: &AnyGame,
    agents: &[AgentSpec; 2],
    valuer: &Valuer,
    seed: u64,
    start: u64,
    count: u64,
    threads: Option<usize>,
    per_roll: bool,
) -> (Vec<GameLuck>, RollLuck) {
    let per_game = super::par_map(threads, count, 1, |k| {
        let mut g = proto.clone();
        with_game!(&mut g, x => one_game(x, agents, valuer, seed, start + k, per_roll))
    });
    let mut games = Vec::with_capacity(per_game.len());
    let mut rolls = RollLuck::default();
    for (gl, r) in per_game {
        games.push(gl);
        rolls.append(r);
    }
    (games, rolls)
}
