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
use crate::variants::{api, Game, Node, Outcomes, Player};

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
            let (net, tree) = s.tree.as_mut().expect("advanced to a network decision");
            let b = &mut batches[*net];
            firsts.push(b.n);
            tree.collect(&cfg.params, b);
        }
        for (net, b) in batches.iter_mut().enumerate() {
            if b.n > 0 {
                evaluate(net, b).inspect_err(|_| out.interrupted = true)?;
                out.leaves += b.n as u64;
                out.batches += 1;
            }
        }
        for (s, &first) in slots.iter_mut().zip(&firsts) {
            let (net, tree) = s.tree.as_mut().expect("searching");
            if tree.waiting() > 0 {
                tree.absorb(&cfg.params, &batches[*net], first, &mut s.rng);
            }
            if tree.finished(&cfg.params) {
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
    if s.tree.is_some() {
        return false;
    }
    loop {
        match s.game.node() {
            Node::Terminal => return true,
            Node::Chance => {
                s.game.chance_outcomes(outcomes);
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

/// Plays the finished search's decision (and keeps its sample).
fn decide<G: Evaluate>(s: &mut Slot<G>, cfg: &Config, obs_len: usize) {
    let (_, tree) = s.tree.take().expect("searching");
    let p = match tree.root().node() {
        Node::Decision(p) => p,
        _ => unreachable!("searches start at decisions"),
    };
    if cfg.record {
        let mut obs = vec![0.0f32; obs_len];
        api::write_observation(tree.root(), p, &mut obs);
        let ids = tree.root_children();
        let pi = tree.improved_policy(&cfg.params);
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
    let m = tree.choose(&cfg.params, t, &mut s.rng);
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
