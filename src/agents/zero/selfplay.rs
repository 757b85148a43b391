//! Many games at once, each decision of a network seat made by a search
//! [`Tree`] whose leaves go into one batch per network: self-play (both
//! seats the same network, training samples kept) and matches (a network
//! against a built-in agent or another network, in pairs on common dice).
//!
//! Game `i` of a run seeded with `seed` draws its dice from
//! `CommonDice(seed, pair)` and its random openings from the pair's opening
//! stream (`pair = i / 2` when paired, else `i`), and the searches' noise
//! and the built-in agents' tie-breaks from `game_rng(seed ^ AGENTS, i)`.
//! Results depend on `(seed, i)` and the networks' answers only, never on
//! `parallel` or the batch a leaf shared.

use super::{Batch, Params, Tree};
use crate::agents::{Agent, AgentSpec, Evaluate};
use crate::board::MoveList;
use crate::play::{game_rng, random_move, CommonDice, GameRng};
use crate::sim::playouts::{record, GameRecord};
use crate::variants::{api, cumulative_pick, Game, Node, Outcomes, Player};

const AGENTS: u64 = 0x2E50_2E50_2E50_2E50;
const OPENING: u64 = 0x0BE1_0BE1_0BE1_0BE1;

/// Who decides for a seat.
#[derive(Clone, Debug)]
pub enum Seat {
    /// The search guided by network `k` (the `k`-th evaluator).
    Net(usize),
    /// A built-in agent.
    Agent(AgentSpec),
}

/// A run's settings.
#[derive(Clone, Debug)]
pub struct Config {
    pub params: Params,
    /// The search settings of network `k`'s seats, when they differ from
    /// `params` (empty: `params` for every network). The same network may
    /// be given twice with different budgets: a stronger and a weaker seat.
    pub net_params: Vec<Params>,
    /// Games `start .. start + games` are played.
    pub games: u64,
    pub start: u64,
    /// Games in flight at once (their leaves share a batch).
    pub parallel: usize,
    pub seed: u64,
    /// The network seats' first decisions of a game drawn with probability
    /// proportional to visits (temperature 1); later ones the most visited.
    pub temperature_plies: u32,
    /// Uniformly random first decisions, the same for both games of a pair.
    pub opening_plies: u32,
    /// Games `2k` and `2k + 1` share dice and opening with seats swapped.
    pub paired: bool,
    /// Keep a training sample for every network decision.
    pub record: bool,
    /// `seats[s]` plays player `s` in even games (and player `1 - s` in odd
    /// games when paired).
    pub seats: [Seat; 2],
    /// Value every chance event with network `k`'s value head: its luck for
    /// player 0 is the value after the outcome drawn minus the value
    /// expected before it (each outcome's value the exact expectation over
    /// the chance nodes that follow it, down to decisions and ends). The
    /// games are the same with or without it.
    pub value_chance: Option<usize>,
}

impl Config {
    /// The search settings of network `k`.
    pub fn params_of(&self, k: usize) -> &Params {
        self.net_params.get(k).unwrap_or(&self.params)
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct FinishedGame {
    pub index: u64,
    /// The seat index of player 0 (0, or 1 in the odd game of a pair).
    pub seat_of_player0: u8,
    pub record: GameRecord,
    /// Player 0's return (+1, 0, -1).
    pub return0: f64,
    /// With [`Config::value_chance`]: the sum of player 0's luck over the
    /// game's chance events, and how many were valued (all of them).
    pub luck0: f64,
    pub valued: u32,
}

/// What a run produced: finished games in the order they ended and, when
/// recording, one sample per network decision of those games.
#[derive(Default, Debug)]
pub struct Output {
    pub games: Vec<FinishedGame>,
    /// Observations, `samples * obs_len`.
    pub obs: Vec<f32>,
    /// Policy targets over the action space, `samples * actions`.
    pub policy: Vec<f32>,
    /// The deciding player's final return.
    pub z: Vec<f32>,
    /// The search's root value for the deciding player.
    pub root_value: Vec<f32>,
    pub player: Vec<u8>,
    pub game: Vec<u64>,
    /// Leaves evaluated and network calls made.
    pub leaves: u64,
    pub batches: u64,
    /// Stopped early by the round callback; unfinished games are dropped.
    pub interrupted: bool,
}

impl Output {
    pub fn samples(&self) -> usize {
        self.z.len()
    }
}

struct Sample {
    obs: Vec<f32>,
    policy: Vec<(u32, f32)>,
    player: Player,
    root_value: f32,
}

struct Slot<G> {
    index: u64,
    game: G,
    dice: CommonDice,
    rng: GameRng,
    opening_rng: GameRng,
    /// Seat index of player 0.
    seat0: usize,
    agents: [Option<Agent>; 2],
    tree: Option<(usize, Tree<G>)>,
    samples: Vec<Sample>,
    plies: u32,
    chance_events: u32,
    /// A chance event waiting for its outcomes' values.
    chance: Option<ChanceValuation<G>>,
    luck0: f64,
    valued: u32,
}

/// Chance nodes followed after an outcome before a chance state is valued
/// by the network itself (chains: the luck dial's coin, draw and block
/// before a roll; Vegas's rolls nobody can use, which can repeat).
pub const CHANCE_CHAIN: u32 = 3;

/// The most states one chance event's valuation sends to the network;
/// beyond it, chance states are valued by the network themselves.
pub const CHANCE_LEAVES: usize = 4096;

/// The player whose side a state's network value is for: the decider, or
/// at a chance node the side to move on the board.
fn valued_player<G: Game>(g: &G) -> Player {
    match g.node() {
        Node::Decision(p) => p,
        _ => {
            if g.color_of(0) == g.position().turn() {
                0
            } else {
                1
            }
        }
    }
}

/// The states that value one chance event's outcomes: each outcome's value
/// is the probability-weighted sum of its leaves' (decisions valued by the
/// network, ends by their returns, chance nodes expanded exactly for
/// [`CHANCE_CHAIN`] levels within [`CHANCE_LEAVES`] states and valued by
/// the network beyond, as expectimax values a chance node at its horizon).
struct ChanceValuation<G> {
    /// The outcomes in the order the game lists them, with probabilities.
    outcomes: Vec<(u32, f64)>,
    /// Per leaf: its outcome, its weight within the outcome, and its exact
    /// player-0 value (an end) or `None` (the next network leaf).
    leaves: Vec<(usize, f64, Option<f64>)>,
    /// The network leaves in order, for the batch, with the player whose
    /// side their value is for.
    states: Vec<(G, Player)>,
}

impl<G: Game> ChanceValuation<G> {
    /// The valuation of chance node `g`, whose outcomes are `outcomes`.
    fn new(g: &G, outcomes: &[(u32, f64)]) -> Self {
        let mut v = ChanceValuation {
            outcomes: outcomes.to_vec(),
            leaves: Vec::new(),
            states: Vec::new(),
        };
        // Breadth first, so the budget cuts the deepest chains.
        let mut level: Vec<(G, usize, f64)> = v
            .outcomes
            .iter()
            .enumerate()
            .map(|(i, &(id, _))| {
                let mut after = g.clone();
                after.apply_outcome(id);
                (after, i, 1.0)
            })
            .collect();
        let mut o = Outcomes::new();
        for depth in 0..=CHANCE_CHAIN {
            let mut next = Vec::new();
            let n = level.len();
            for (k, (g, i, w)) in level.into_iter().enumerate() {
                if let Node::Terminal = g.node() {
                    v.leaves.push((i, w, Some(api::returns(&g)[0])));
                    continue;
                }
                if let (Node::Chance, true) = (g.node(), depth < CHANCE_CHAIN) {
                    g.chance_outcomes(&mut o);
                    // Every state still to place counts: the budget is a bound.
                    let placed = v.states.len() + next.len() + (n - k - 1);
                    if placed + o.len() <= CHANCE_LEAVES {
                        for &(id, q) in o.as_slice() {
                            let mut after = g.clone();
                            after.apply_outcome(id);
                            next.push((after, i, w * q));
                        }
                        continue;
                    }
                }
                let p = valued_player(&g);
                v.leaves.push((i, w, None));
                v.states.push((g, p));
            }
            level = next;
        }
        debug_assert!(level.is_empty());
        v
    }

    fn push(&self, b: &mut Batch) {
        let mut moves = MoveList::new();
        for (g, p) in &self.states {
            moves.clear();
            if let Node::Decision(_) = g.node() {
                g.legal_moves(&mut moves);
            }
            b.push(g, *p, &moves);
        }
    }

    /// Each outcome's player-0 value, the network's answers from `first`.
    fn values(&self, b: &Batch, first: usize) -> Vec<f64> {
        let mut v = vec![0.0; self.outcomes.len()];
        let mut d = 0;
        for &(i, w, exact) in &self.leaves {
            let x = exact.unwrap_or_else(|| {
                let side = self.states[d].1;
                let x = b.values[first + d] as f64;
                d += 1;
                if side == 0 {
                    x
                } else {
                    -x
                }
            });
            v[i] += w * x;
        }
        v
    }
}

/// Plays a run, calling `evaluate(k, batch)` once per round for every
/// network `k` with leaves waiting, and `on_round(&output)` after every
/// round (`Ok(false)` stops the run). An error from either stops the run
/// too and comes back beside what finished: finished games are always
/// kept ([`Output::interrupted`] is set when the run stopped early).
pub fn play<G: Evaluate, E>(
    proto: &G,
    cfg: &Config,
    networks: usize,
    evaluate: impl FnMut(usize, &mut Batch) -> Result<(), E>,
    on_round: impl FnMut(&Output) -> Result<bool, E>,
) -> (Output, Option<E>) {
    let mut out = Output::default();
    let err = play_into(proto, cfg, networks, evaluate, on_round, &mut out).err();
    (out, err)
}

fn play_into<G: Evaluate, E>(
    proto: &G,
    cfg: &Config,
    networks: usize,
    mut evaluate: impl FnMut(usize, &mut Batch) -> Result<(), E>,
    mut on_round: impl FnMut(&Output) -> Result<bool, E>,
    out: &mut Output,
) -> Result<(), E> {
    let obs_len: usize = api::observation_shape(proto).iter().product();
    let actions = proto.layout().num_actions();
    let mut batches: Vec<Batch> = (0..networks)
        .map(|_| Batch::new(obs_len, actions))
        .collect();
    let mut slots: Vec<Slot<G>> = Vec::new();
    let mut next = cfg.start;
    let end = cfg.start + cfg.games;
    let mut outcomes = Outcomes::new();
    let mut moves = MoveList::new();
    loop {
        while slots.len() < cfg.parallel.max(1) && next < end {
            slots.push(new_slot(proto, cfg, next));
            next += 1;
        }
        if slots.is_empty() {
            return Ok(());
        }
        // Advance every game to a network decision (or its end).
        let mut k = 0;
        while k < slots.len() {
            let s = &mut slots[k];
            if advance(s, cfg, &mut outcomes, &mut moves) {
                let done = slots.swap_remove(k);
                finish(done, cfg, obs_len, actions, out);
                if next < end {
                    slots.push(new_slot(proto, cfg, next));
                    next += 1;
                }
                continue;
            }
            k += 1;
        }
        if slots.is_empty() {
            continue;
        }
        // One batch per network; each slot's leaves in order.
        for b in batches.iter_mut() {
            b.clear();
        }
        let mut firsts = Vec::with_capacity(slots.len());
        for s in slots.iter_mut() {
            if let (Some(c), Some(net)) = (&s.chance, cfg.value_chance) {
                firsts.push(batches[net].n);
                c.push(&mut batches[net]);
                continue;
            }
            let (net, tree) = s.tree.as_mut().expect("advanced to a network decision");
            let b = &mut batches[*net];
            firsts.push(b.n);
            tree.collect(cfg.params_of(*net), b);
        }
        for (net, b) in batches.iter_mut().enumerate() {
            if b.n > 0 {
                evaluate(net, b).inspect_err(|_| out.interrupted = true)?;
                out.leaves += b.n as u64;
                out.batches += 1;
            }
        }
        for (s, &first) in slots.iter_mut().zip(&firsts) {
            if let (Some(c), Some(net)) = (s.chance.take(), cfg.value_chance) {
                settle_chance(s, c, &batches[net], first);
                continue;
            }
            let (net, tree) = s.tree.as_mut().expect("searching");
            let params = cfg.params_of(*net);
            if tree.waiting() > 0 {
                tree.absorb(params, &batches[*net], first, &mut s.rng);
            }
            if tree.finished(params) {
                decide(s, cfg, obs_len);
            }
        }
        let go_on = on_round(out).inspect_err(|_| out.interrupted = true)?;
        if !go_on {
            out.interrupted = true;
            return Ok(());
        }
    }
}

fn new_slot<G: Evaluate>(proto: &G, cfg: &Config, index: u64) -> Slot<G> {
    let pair = if cfg.paired { index / 2 } else { index };
    let seat0 = if cfg.paired && index % 2 == 1 { 1 } else { 0 };
    let agents = std::array::from_fn(|s| match &cfg.seats[s] {
        Seat::Agent(spec) => Some(Agent::new(spec.clone())),
        Seat::Net(_) => None,
    });
    Slot {
        index,
        game: proto.clone(),
        dice: CommonDice::new(cfg.seed, pair),
        rng: game_rng(cfg.seed ^ AGENTS, index),
        opening_rng: game_rng(cfg.seed ^ OPENING, pair),
        seat0,
        agents,
        tree: None,
        samples: Vec::new(),
        plies: 0,
        chance_events: 0,
        chance: None,
        luck0: 0.0,
        valued: 0,
    }
}

/// Plays rolls, openings and built-in agents' decisions until a network
/// decides (its search begun) or the game ends (`true`).
fn advance<G: Evaluate>(
    s: &mut Slot<G>,
    cfg: &Config,
    outcomes: &mut Outcomes,
    moves: &mut MoveList,
) -> bool {
    if s.tree.is_some() || s.chance.is_some() {
        return false;
    }
    loop {
        match s.game.node() {
            Node::Terminal => return true,
            Node::Chance => {
                s.game.chance_outcomes(outcomes);
                if cfg.value_chance.is_some() {
                    if outcomes.len() > 1 {
                        s.chance = Some(ChanceValuation::new(&s.game, outcomes.as_slice()));
                        return false;
                    }
                    // A forced outcome: no luck.
                    s.valued += 1;
                }
                let o = outcomes.sample(s.dice.next_uniform());
                s.game.apply_outcome(o);
                s.chance_events += 1;
            }
            Node::Decision(p) => {
                let seat = seat_of(s, p);
                if s.plies < cfg.opening_plies {
                    let m = random_move(&s.game, &mut s.opening_rng, moves);
                    s.game.play(m);
                    s.plies += 1;
                    continue;
                }
                match &cfg.seats[seat] {
                    Seat::Net(net) => {
                        s.tree = Some((*net, Tree::new(s.game.clone())));
                        return false;
                    }
                    Seat::Agent(_) => {
                        let agent = s.agents[seat].as_mut().expect("agent seat");
                        let m = agent.select(&s.game, &mut s.rng);
                        s.game.play(m);
                        s.plies += 1;
                    }
                }
            }
        }
    }
}

fn seat_of<G>(s: &Slot<G>, p: Player) -> usize {
    if p == 0 {
        s.seat0
    } else {
        1 - s.seat0
    }
}

/// Draws the valued chance event's outcome, as the game would have without
/// the valuation, and adds its luck.
fn settle_chance<G: Game>(s: &mut Slot<G>, c: ChanceValuation<G>, b: &Batch, first: usize) {
    let v = c.values(b, first);
    let expected: f64 = c.outcomes.iter().zip(&v).map(|(o, x)| o.1 * x).sum();
    // Drawn from the listed outcomes as `Outcomes::sample` draws.
    let i = cumulative_pick(c.outcomes.iter().map(|o| o.1), s.dice.next_uniform());
    s.luck0 += v[i] - expected;
    s.valued += 1;
    s.game.apply_outcome(c.outcomes[i].0);
    s.chance_events += 1;
}

/// Plays the finished search's decision (and keeps its sample).
fn decide<G: Evaluate>(s: &mut Slot<G>, cfg: &Config, obs_len: usize) {
    let (net, tree) = s.tree.take().expect("searching");
    let p = match tree.root().node() {
        Node::Decision(p) => p,
        _ => unreachable!("searches start at decisions"),
    };
    if cfg.record {
        let mut obs = vec![0.0f32; obs_len];
        api::write_observation(tree.root(), p, &mut obs);
        let ids = tree.root_children();
        let pi = tree.improved_policy(cfg.params_of(net));
        s.samples.push(Sample {
            obs,
            policy: ids.iter().zip(&pi).map(|(c, &x)| (c.1, x as f32)).collect(),
            player: p,
            root_value: (if p == 0 { 1.0 } else { -1.0 } * tree.root_value()) as f32,
        });
    }
    let t = if s.plies < cfg.opening_plies + cfg.temperature_plies {
        1.0
    } else {
        0.0
    };
    let m = tree.choose(cfg.params_of(net), t, &mut s.rng);
    s.game.play(m);
    s.plies += 1;
}

fn finish<G: Game>(s: Slot<G>, cfg: &Config, obs_len: usize, actions: usize, out: &mut Output) {
    let returns = api::returns(&s.game);
    out.games.push(FinishedGame {
        index: s.index,
        seat_of_player0: s.seat0 as u8,
        record: record(&s.game, s.plies, s.chance_events),
        return0: returns[0],
        luck0: s.luck0,
        valued: s.valued,
    });
    if !cfg.record {
        return;
    }
    for smp in s.samples {
        debug_assert_eq!(smp.obs.len(), obs_len);
        out.obs.extend_from_slice(&smp.obs);
        let base = out.policy.len();
        out.policy.resize(base + actions, 0.0);
        for (id, x) in smp.policy {
            out.policy[base + id as usize] = x;
        }
        out.z.push(returns[smp.player as usize & 1] as f32);
        out.root_value.push(smp.root_value);
        out.player.push(smp.player);
        out.game.push(s.index);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::GameRng;
    use crate::variants::{AnyGame, Options};
    use crate::with_game;
    use rand::RngExt;

    /// A deterministic stand-in for a network's value head.
    fn value_of(obs: &[f32]) -> f64 {
        let s: f64 = obs
            .iter()
            .enumerate()
            .map(|(i, &x)| x as f64 * ((i % 7) as f64 - 3.0))
            .sum();
        (s / 10.0).tanh()
    }

    /// The plain recursive expectation the valuation must equal: player 0's
    /// value of a state `depth` chance levels below an outcome (decisions,
    /// and chance nodes past the chain limit, valued by [`value_of`]).
    fn reference<G: Game>(g: &G, obs_len: usize, depth: u32) -> f64 {
        match g.node() {
            Node::Terminal => api::returns(g)[0],
            Node::Chance if depth < CHANCE_CHAIN => {
                let mut o = Outcomes::new();
                g.chance_outcomes(&mut o);
                o.as_slice()
                    .iter()
                    .map(|&(id, p)| {
                        let mut a = g.clone();
                        a.apply_outcome(id);
                        p * reference(&a, obs_len, depth + 1)
                    })
                    .sum()
            }
            _ => {
                let p = valued_player(g);
                let mut obs = vec![0.0; obs_len];
                api::write_observation(g, p, &mut obs);
                let v = value_of(&obs);
                if p == 0 {
                    v
                } else {
                    -v
                }
            }
        }
    }

    /// Every chance node met in random games, chains of chance nodes
    /// (the luck dial before a roll) and ends included, gets each outcome's
    /// value equal to the recursive expectation.
    #[test]
    fn chance_values_are_the_exact_expectation() {
        for variant in [
            "fluky",
            "gardner:luck=0.3",
            "fluky:luck=0.5",
            "dice_chess",
            "vegas",
        ] {
            let (name, opts) = variant.split_once(':').unwrap_or((variant, ""));
            let mut options = Options::new();
            if let Some((k, v)) = opts.split_once('=') {
                options.insert(k.into(), serde_json::json!(v.parse::<f64>().unwrap()));
            }
            let g0 = AnyGame::new(name, &options).unwrap();
            with_game!(&g0, proto => {
                let obs_len: usize = api::observation_shape(proto).iter().product();
                let actions = proto.layout().num_actions();
                let mut rng: GameRng = crate::play::game_rng(3, 0);
                let mut checked = 0;
                for game in 0..4 {
                    let mut g = proto.clone();
                    let mut moves = MoveList::new();
                    let mut outcomes = Outcomes::new();
                    for _ in 0..60 {
                        match g.node() {
                            Node::Terminal => break,
                            Node::Chance => {
                                g.chance_outcomes(&mut outcomes);
                                let c = ChanceValuation::new(&g, outcomes.as_slice());
                                assert!(c.states.len() <= CHANCE_LEAVES.max(c.outcomes.len()));
                                let mut b = Batch::new(obs_len, actions);
                                c.push(&mut b);
                                b.values = (0..b.n)
                                    .map(|i| value_of(&b.obs[i * obs_len..(i + 1) * obs_len]) as f32)
                                    .collect();
                                let got = c.values(&b, 0);
                                // Past the budget the cut depends on the order; exact below it.
                                let exact = c.states.len() + crate::variants::MAX_OUTCOMES < CHANCE_LEAVES;
                                for (&(id, _), v) in c.outcomes.iter().zip(&got) {
                                    let mut a = g.clone();
                                    a.apply_outcome(id);
                                    let want = reference(&a, obs_len, 0);
                                    assert!(!exact || (v - want).abs() < 1e-5, "{variant} game {game}: {v} vs {want}");
                                }
                                checked += exact as u32;
                                g.chance_outcomes(&mut outcomes);
                                g.apply_outcome(outcomes.sample(rng.random::<f64>()));
                            }
                            Node::Decision(_) => {
                                g.legal_moves(&mut moves);
                                let m = moves.as_slice()[rng.random_range(0..moves.len())];
                                g.play(m);
                            }
                        }
                    }
                }
                assert!(checked > 10, "{variant}: {checked} chance nodes");
            });
        }
    }
}
