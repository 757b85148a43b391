//! UCT with explicit chance nodes: at a chance node the outcome is sampled
//! from its exact distribution and each outcome has its own child; at a
//! decision node the player to move (from [`Node::Decision`], not the
//! colour) picks the child maximising its own mean value plus
//! `c * sqrt(ln N / n)`. Unvisited children are tried first in a shuffled
//! order. A leaf is valued by a rollout (uniformly random or greedy
//! decisions, sampled dice) of at most `rollout_plies` decisions, then the
//! static evaluation if the game has not ended. The final decision is the
//! most visited child; the policy is the visit distribution.

use super::eval::{evaluate, terminal_value, Evaluate};
use super::expectimax::Search;
use super::Rollout;
use crate::board::{Move, MoveList};
use crate::play::{random_move, sample_outcome, GameRng};
use crate::variants::{Node, Outcomes};
use rand::RngExt;

#[derive(Clone, Copy)]
struct TNode {
    visits: u32,
    /// Sum of player-0 values through this node.
    w: f64,
    first_edge: u32,
    n_edges: u32,
    expanded: bool,
}

#[derive(Clone, Copy)]
struct Edge {
    /// The move (`Move.0`) or chance outcome id.
    action: u32,
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
    /// Simulations run since creation.
    pub simulations: u64,
    /// Most tree nodes (0: [`MAX_TREE_NODES`]).
    max_nodes: usize,
}

/// Most nodes one search tree grows to (about 56 bytes each with its edge):
/// once full, a simulation that reaches an unexpanded node rolls out from
/// it instead of expanding it, so `sims=10000000` cannot exhaust memory.
pub const MAX_TREE_NODES: usize = 1 << 22;

/// MCTS parameters.
#[derive(Clone, Copy, Debug)]
pub struct Params {
    pub sims: u32,
    pub c: f64,
    pub rollout: Rollout,
    pub rollout_plies: u32,
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

    /// Runs `params.sims` simulations from the decision node `root` and
    /// returns the root's decisions with their visit counts.
    pub fn search<G: Evaluate>(
        &mut self,
        root: &G,
        params: &Params,
        rng: &mut GameRng,
    ) -> Vec<(Move, u32)> {
        self.nodes.clear();
        self.edges.clear();
        self.nodes.push(new_node());
        for k in 0..params.sims.max(1) {
            if k > 0 && crate::interrupt::requested() {
                break; // the caller discards the result
            }
            self.simulate(root, params, rng);
        }
        let r = self.nodes[0];
        self.edges[r.first_edge as usize..(r.first_edge + r.n_edges) as usize]
            .iter()
            .map(|e| (Move(e.action as u16), self.nodes[e.node as usize].visits))
            .collect()
    }

    fn expand<G: Evaluate>(&mut self, n: usize, g: &G, rng: &mut GameRng) {
        let first = self.edges.len() as u32;
        match g.node() {
            Node::Terminal => {}
            Node::Chance => {
                let mut o = Outcomes::new();
                g.chance_outcomes(&mut o);
                for &(id, p) in o.as_slice() {
                    let node = self.nodes.len() as u32;
                    self.nodes.push(new_node());
                    self.edges.push(Edge {
                        action: id,
                        prob: p,
                        node,
                    });
                }
            }
            Node::Decision(_) => {
                let mut ml = MoveList::new();
                g.legal_moves(&mut ml);
                for &m in ml.iter() {
                    let node = self.nodes.len() as u32;
                    self.nodes.push(new_node());
                    self.edges.push(Edge {
                        action: m.0 as u32,
                        prob: 0.0,
                        node,
                    });
                }
                let e = &mut self.edges[first as usize..];
                for i in (1..e.len()).rev() {
                    let j = rng.random_range(0..=i);
                    e.swap(i, j);
                }
            }
        }
        let node = &mut self.nodes[n];
        node.first_edge = first;
        node.n_edges = self.edges.len() as u32 - first;
        node.expanded = true;
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
                break terminal_value(&g);
            }
            if self.nodes[n].visits == 0 && n != 0 {
                break self.rollout(&mut g, params, rng);
            }
            if !self.nodes[n].expanded {
                if n != 0 && self.full() {
                    break self.rollout(&mut g, params, rng);
                }
                self.expand(n, &g, rng);
            }
            let t = self.nodes[n];
            let edges = &self.edges[t.first_edge as usize..(t.first_edge + t.n_edges) as usize];
            let pick = match node {
                Node::Chance => {
                    let u = rng.random::<f64>();
                    let mut acc = 0.0;
                    let mut k = edges.len() - 1;
                    for (i, e) in edges.iter().enumerate() {
                        acc += e.prob;
                        if u < acc {
                            k = i;
                            break;
                        }
                    }
                    k
                }
                Node::Decision(p) => {
                    let sign = if p == 0 { 1.0 } else { -1.0 };
                    let ln_n = (t.visits.max(1) as f64).ln();
                    let mut best = (0usize, f64::NEG_INFINITY);
                    for (i, e) in edges.iter().enumerate() {
                        let c = &self.nodes[e.node as usize];
                        if c.visits == 0 {
                            best = (i, f64::INFINITY);
                            break;
                        }
                        let q = sign * c.w / c.visits as f64;
                        let s = q + params.c * (ln_n / c.visits as f64).sqrt();
                        if s > best.1 {
                            best = (i, s);
                        }
                    }
                    best.0
                }
                Node::Terminal => unreachable!(),
            };
            let e = edges[pick];
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

    fn rollout<G: Evaluate>(&mut self, g: &mut G, params: &Params, rng: &mut GameRng) -> f64 {
        let mut moves = MoveList::new();
        let mut outcomes = Outcomes::new();
        let mut plies = 0;
        loop {
            match g.node() {
                Node::Terminal => return terminal_value(g),
                Node::Chance => {
                    let o = sample_outcome(g, rng, &mut outcomes);
                    g.apply_outcome(o);
                }
                Node::Decision(_) => {
                    if plies >= params.rollout_plies {
                        return evaluate(g);
                    }
                    let m = match params.rollout {
                        Rollout::Random => random_move(g, rng, &mut moves),
                        Rollout::Greedy => self.greedy.best_move(g, 1, rng).0,
                    };
                    g.play(m);
                    plies += 1;
                }
            }
        }
    }
}
