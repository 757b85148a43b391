//! Monte Carlo tree search with explicit chance nodes and evaluation leaves.
//!
//! Values are expected scores in `[0, 1]` (win 1, draw 0.5, loss 0); every
//! node keeps the sum of player 0's scores through it, and a decision node
//! reads it from the point of view of the player deciding there (from
//! [`Node::Decision`], not by alternation), so turns of several decisions
//! (Dice Chess 3, Vegas, Random Move Number Chess) are handled as they are.
//!
//! - **Leaves**: a state reached for the first time is valued by the search
//!   engine's evaluation ([`super::search::Engine::leaf_value`]): its
//!   quiescence search (`leaf=qsearch`, default) or static evaluation
//!   (`leaf=static`), in centipawns `cp`, mapped to the expected score
//!   `1 / (1 + 10^(-cp / 400))` ([`expected_score`]: a pawn is worth 64%,
//!   a minor piece 85%, a proven win 1). `rollout=random|greedy` first plays
//!   `rollout_plies` decisions (dice sampled) from the leaf.
//! - **Chance nodes** are expanded with their exact outcome distribution as
//!   soon as they are reached (they are never leaves): a descent takes the
//!   outcome whose visit count lags most behind its share, i.e. the argmax
//!   of `p * (N + 1) - n`; this deterministic, stratified sampling keeps
//!   every outcome's visits within one of `p * N`, so the node's mean is the
//!   expectation over its outcomes up to that rounding. `chance=sample`
//!   makes a chance node a leaf at its first visit and draws its outcome
//!   from the distribution afterwards, as the first-wave MCTS did.
//! - **The first-wave agent** (UCT, sampled dice, random rollouts of 40
//!   decisions, then the material evaluation, values in `[-1, 1]` with
//!   `c = 1.4`) is `select=uct,leaf=material,chance=sample,rollout=random,c=0.7`:
//!   on the `[0, 1]` scale the same exploration is `c = 0.7`
//!   (`examples/agent_digest.rs` replays its games move for move).
//! - **Decisions**: PUCT (`select=puct`, default), `Q + c * P * sqrt(N) /
//!   (1 + n)` with priors `P` = softmax of the one-ply static values of the
//!   children for the mover (temperature 200 centipawns), unvisited
//!   children valued at their parent's mean; or UCT (`select=uct`),
//!   `Q + c * sqrt(ln N / n)` with unvisited children first.
//! - A decision node is expanded at its second visit (its first is its
//!   leaf evaluation), the root at once. Children are shuffled with the
//!   caller's generator before expansion (ties between equal moves).
//! - **Budgets**: `sims` simulations, `nodes` evaluated states (static
//!   evaluations, quiescence nodes and terminal states reached in the tree,
//!   checked between simulations) and
//!   `ms` milliseconds; the first reached stops; at least one simulation
//!   always runs. Only `ms` depends on the machine.
//! - The decision is the most visited root child (ties: higher prior, then
//!   the shuffled order); the policy is the visit distribution.

mod params;

pub use params::{Chance, Leaf, Params, Rollout, Select, KEYS};

use super::eval::{self, Evaluate};
use super::expectimax::Search;
use super::search::{Engine, MATE_BOUND};
use crate::board::{Move, MoveList};
use crate::play::{random_move, sample_outcome, GameRng};
use crate::variants::{cumulative_pick, Node, Outcomes, Player};
use rand::RngExt;
use std::time::{Duration, Instant};

/// Centipawns that multiply the odds of winning by 10 ([`expected_score`]).
pub const SCORE_SCALE_CP: f64 = 400.0;
/// Temperature of the prior softmax, in centipawns.
const PRIOR_TEMPERATURE_CP: f64 = 200.0;
/// One-ply values are clamped to this before the softmax (mates included).
const PRIOR_CLAMP_CP: f64 = 2000.0;

/// The expected score of a centipawn value: `1 / (1 + 10^(-cp / 400))`,
/// exactly 1 (0) for a proven win (loss).
pub fn expected_score(cp: f64) -> f64 {
    if cp > MATE_BOUND {
        1.0
    } else if cp < -MATE_BOUND {
        0.0
    } else {
        1.0 / (1.0 + 10f64.powf(-cp / SCORE_SCALE_CP))
    }
}

/// A player-0 value in `[-1, 1]` (the first-wave scale) as a score in `[0, 1]`.
fn unit_score(v: f64) -> f64 {
    (v + 1.0) / 2.0
}

#[derive(Clone, Copy)]
struct TNode {
    visits: u32,
    /// Sum of player 0's scores through this node.
    w: f64,
    first_edge: u32,
    n_edges: u32,
    expanded: bool,
}

#[derive(Clone, Copy)]
struct Edge {
    /// The move (`Move.0`) or chance outcome id.
    action: u32,
    /// The outcome's probability (chance) or the move's prior (decision).
    prob: f64,
    node: u32,
}

/// The search tree, reused between searches (its buffers keep capacity).
#[derive(Default)]
pub struct Tree {
    nodes: Vec<TNode>,
    edges: Vec<Edge>,
    path: Vec<u32>,
    greedy: Search,
    /// The leaf evaluator, made at first use.
    engine: Option<Box<Engine>>,
    /// Simulations run since creation.
    pub simulations: u64,
    /// States evaluated since creation (see [`Params::nodes`]).
    pub evaluated: u64,
    /// Most tree nodes (0: [`MAX_TREE_NODES`]).
    max_nodes: usize,
}

/// Most nodes one search tree grows to (about 56 bytes each with its edge):
/// once full, a simulation that reaches an unexpanded node evaluates it
/// instead of expanding it, so `sims=10000000` cannot exhaust memory.
pub const MAX_TREE_NODES: usize = 1 << 22;

/// Most children one expansion adds: a decision's legal moves or a chance
/// node's outcomes.
pub const MAX_CHILDREN: usize = if crate::board::MAX_MOVES > crate::variants::MAX_OUTCOMES {
    crate::board::MAX_MOVES
} else {
    crate::variants::MAX_OUTCOMES
};

/// The most bytes the buffers of a tree of at most `max_nodes` nodes
/// ([`Tree::with_max_nodes`]) hold: it grows to `max_nodes` plus one
/// expansion ([`MAX_CHILDREN`]); its nodes, edges and path are at most that
/// many each, and a `Vec` holds at most twice its longest length.
pub fn tree_bytes(max_nodes: usize) -> u64 {
    let longest = (max_nodes.max(1) + MAX_CHILDREN) as u64;
    let each = std::mem::size_of::<TNode>() + std::mem::size_of::<Edge>() + 4;
    2 * longest * each as u64
}

fn new_node() -> TNode {
    TNode {
        visits: 0,
        w: 0.0,
        first_edge: 0,
        n_edges: 0,
        expanded: false,
    }
}

/// A player-0 score seen by `p`.
fn for_player(p: Player, score0: f64) -> f64 {
    if p == 0 {
        score0
    } else {
        1.0 - score0
    }
}

impl Tree {
    pub fn new() -> Tree {
        Tree::default()
    }

    /// A tree that grows to at most `max_nodes` nodes (plus one expansion).
    pub fn with_max_nodes(max_nodes: usize) -> Tree {
        Tree {
            max_nodes: max_nodes.max(1),
            ..Tree::default()
        }
    }

    /// Nodes in the tree of the last search.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree has no node (no search yet).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    fn full(&self) -> bool {
        let cap = if self.max_nodes == 0 {
            MAX_TREE_NODES
        } else {
            self.max_nodes
        };
        self.nodes.len() >= cap
    }

    fn engine(&mut self) -> &mut Engine {
        self.engine
            .get_or_insert_with(|| Box::new(Engine::leaf_evaluator()))
    }

    /// Runs simulations from `root` until a budget of `params` is reached
    /// (one when it has none) and returns the root's decisions with their
    /// visit counts, in expansion order.
    pub fn search<G: Evaluate>(
        &mut self,
        root: &G,
        params: &Params,
        rng: &mut GameRng,
    ) -> Vec<(Move, u32)> {
        self.nodes.clear();
        self.edges.clear();
        self.nodes.push(new_node());
        let unbounded = params.sims.is_none() && params.nodes.is_none() && params.ms.is_none();
        let sims = params.sims.unwrap_or(if unbounded { 1 } else { u32::MAX });
        let deadline = params
            .ms
            .map(|ms| Instant::now() + Duration::from_millis(ms));
        let start_nodes = self.evaluated;
        for k in 0..sims {
            if k > 0 {
                if params
                    .nodes
                    .is_some_and(|n| self.evaluated - start_nodes >= n)
                    || deadline.is_some_and(|d| Instant::now() >= d)
                {
                    break;
                }
                if crate::interrupt::requested() {
                    break; // the caller discards the result
                }
            }
            self.simulate(root, params, rng);
        }
        self.root_edges()
            .iter()
            .map(|e| (Move(e.action as u16), self.nodes[e.node as usize].visits))
            .collect()
    }

    fn root_edges(&self) -> &[Edge] {
        let r = self.nodes[0];
        &self.edges[r.first_edge as usize..(r.first_edge + r.n_edges) as usize]
    }

    /// The decision of the last search: the most visited root child, ties
    /// broken by the higher prior, then the expansion order
    /// ([`Move::NULL`] if the root has no decision).
    pub fn best(&self) -> Move {
        let mut best: Option<(u32, f64, Move)> = None;
        for e in self.root_edges() {
            let v = self.nodes[e.node as usize].visits;
            if best.is_none_or(|b| (v, e.prob) > (b.0, b.1)) {
                best = Some((v, e.prob, Move(e.action as u16)));
            }
        }
        best.map_or(Move::NULL, |b| b.2)
    }

    /// The mean score of the root for player 0 after the last search.
    pub fn root_score(&self) -> f64 {
        let r = self.nodes[0];
        if r.visits == 0 {
            0.5
        } else {
            r.w / r.visits as f64
        }
    }

    fn expand<G: Evaluate>(&mut self, n: usize, g: &G, params: &Params, rng: &mut GameRng) {
        let first = self.edges.len();
        match g.node() {
            Node::Terminal => {}
            Node::Chance => {
                let mut o = Outcomes::new();
                g.chance_outcomes(&mut o);
                for &(id, p) in o.as_slice() {
                    self.push_child(id, p);
                }
            }
            Node::Decision(p) => {
                let mut ml = MoveList::new();
                g.legal_moves(&mut ml);
                let mut moves: Vec<Move> = ml.iter().copied().collect();
                for i in (1..moves.len()).rev() {
                    let j = rng.random_range(0..=i);
                    moves.swap(i, j);
                }
                let uniform = 1.0 / moves.len().max(1) as f64;
                for &m in &moves {
                    self.push_child(m.0 as u32, uniform);
                }
                if params.select == Select::Puct && moves.len() > 1 {
                    self.set_priors(g, p, &moves, first);
                }
            }
        }
        let node = &mut self.nodes[n];
        node.first_edge = first as u32;
        node.n_edges = (self.edges.len() - first) as u32;
        node.expanded = true;
    }

    fn push_child(&mut self, action: u32, prob: f64) {
        let node = self.nodes.len() as u32;
        self.nodes.push(new_node());
        self.edges.push(Edge { action, prob, node });
    }

    /// Priors of the decisions `moves` of `p` (edges from `first`): a
    /// softmax of the one-ply static values for `p`.
    fn set_priors<G: Evaluate>(&mut self, g: &G, p: Player, moves: &[Move], first: usize) {
        let engine = self
            .engine
            .get_or_insert_with(|| Box::new(Engine::leaf_evaluator()));
        let before = engine.leaf_nodes();
        let mut logits = Vec::with_capacity(moves.len());
        for &m in moves {
            let mut child = g.clone();
            child.play(m);
            let v = engine.static_leaf(&child, p);
            logits.push(v.clamp(-PRIOR_CLAMP_CP, PRIOR_CLAMP_CP) / PRIOR_TEMPERATURE_CP);
        }
        self.evaluated += engine.leaf_nodes() - before;
        let max = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mut sum = 0.0;
        for x in logits.iter_mut() {
            *x = (*x - max).exp();
            sum += *x;
        }
        for (e, x) in self.edges[first..].iter_mut().zip(&logits) {
            e.prob = x / sum;
        }
    }

    /// The child index to descend to from the expanded node `n`.
    fn pick(&self, n: usize, node: Node, params: &Params, rng: &mut GameRng) -> usize {
        let t = self.nodes[n];
        let edges = &self.edges[t.first_edge as usize..(t.first_edge + t.n_edges) as usize];
        let mut best = (0usize, f64::NEG_INFINITY);
        match node {
            Node::Chance if params.chance == Chance::Sample => {
                return cumulative_pick(edges.iter().map(|e| e.prob), rng.random::<f64>());
            }
            Node::Chance => {
                let total = t.visits as f64 + 1.0;
                for (i, e) in edges.iter().enumerate() {
                    let s = e.prob * total - self.nodes[e.node as usize].visits as f64;
                    if s > best.1 {
                        best = (i, s);
                    }
                }
            }
            Node::Decision(p) => {
                let parent_q = if t.visits == 0 {
                    0.5
                } else {
                    for_player(p, t.w / t.visits as f64)
                };
                let sqrt_n = (t.visits.max(1) as f64).sqrt();
                let ln_n = (t.visits.max(1) as f64).ln();
                for (i, e) in edges.iter().enumerate() {
                    let c = &self.nodes[e.node as usize];
                    let s = match params.select {
                        Select::Puct => {
                            let q = if c.visits == 0 {
                                parent_q
                            } else {
                                for_player(p, c.w / c.visits as f64)
                            };
                            q + params.c * e.prob * sqrt_n / (1.0 + c.visits as f64)
                        }
                        Select::Uct => {
                            if c.visits == 0 {
                                return i;
                            }
                            for_player(p, c.w / c.visits as f64)
                                + params.c * (ln_n / c.visits as f64).sqrt()
                        }
                    };
                    if s > best.1 {
                        best = (i, s);
                    }
                }
            }
            Node::Terminal => unreachable!("terminal nodes have no children"),
        }
        best.0
    }

    fn simulate<G: Evaluate>(&mut self, root: &G, params: &Params, rng: &mut GameRng) {
        self.simulations += 1;
        let mut g = root.clone();
        self.path.clear();
        let mut n = 0usize;
        let value = loop {
            self.path.push(n as u32);
            let node = g.node();
            if node == Node::Terminal {
                self.evaluated += 1; // so that a `nodes` budget always runs out
                break if params.leaf == Leaf::Material {
                    unit_score(eval::terminal_value(&g))
                } else {
                    expected_score(super::search::terminal_value(&g, 0, 0))
                };
            }
            let fresh = self.nodes[n].visits == 0 && n != 0;
            let leaf_kind = match node {
                Node::Chance => params.chance == Chance::Sample,
                _ => true,
            };
            if leaf_kind && fresh {
                break self.leaf(&mut g, params, rng);
            }
            if !self.nodes[n].expanded {
                if n != 0 && self.full() {
                    break self.leaf(&mut g, params, rng);
                }
                self.expand(n, &g, params, rng);
            }
            let t = self.nodes[n];
            let e = self.edges[t.first_edge as usize + self.pick(n, node, params, rng)];
            match node {
                Node::Chance => g.apply_outcome(e.action),
                _ => g.play(Move(e.action as u16)),
            }
            n = e.node as usize;
        };
        for &k in &self.path {
            let t = &mut self.nodes[k as usize];
            t.visits += 1;
            t.w += value;
        }
    }

    /// Player 0's score of a new leaf: after the rollout, if any, the
    /// engine's value mapped by [`expected_score`].
    fn leaf<G: Evaluate>(&mut self, g: &mut G, params: &Params, rng: &mut GameRng) -> f64 {
        if params.rollout != Rollout::None {
            self.rollout(g, params, rng);
        }
        if params.leaf == Leaf::Material {
            self.evaluated += 1;
            return unit_score(eval::evaluate(g));
        }
        let quiesce = params.leaf == Leaf::Qsearch;
        let engine = self.engine();
        let before = engine.leaf_nodes();
        let cp = engine.leaf_value(g, 0, quiesce);
        let used = engine.leaf_nodes() - before;
        self.evaluated += used;
        expected_score(cp)
    }

    /// Plays up to `rollout_plies` decisions (and every roll on the way).
    fn rollout<G: Evaluate>(&mut self, g: &mut G, params: &Params, rng: &mut GameRng) {
        let mut moves = MoveList::new();
        let mut outcomes = Outcomes::new();
        let mut plies = 0;
        loop {
            match g.node() {
                Node::Terminal => return,
                Node::Chance => {
                    let o = sample_outcome(g, rng, &mut outcomes);
                    g.apply_outcome(o);
                }
                Node::Decision(_) => {
                    if plies >= params.rollout_plies {
                        return;
                    }
                    let m = match params.rollout {
                        Rollout::Greedy => self.greedy.best_move(g, 1, rng).0,
                        _ => random_move(g, rng, &mut moves),
                    };
                    g.play(m);
                    plies += 1;
                }
            }
        }
    }
}
