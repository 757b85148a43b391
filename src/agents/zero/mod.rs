//! Network-guided tree search (AlphaZero's PUCT; Gumbel root selection as
//! an option) over many games at once, with the variant's chance nodes
//! handled exactly. The network is not here: a search stops at every new
//! decision node (a *leaf*), writes its observation and legal-action mask
//! into a [`Batch`], and continues when the caller has filled in the
//! batch's logits and values (one network call for the leaves of every
//! tree in the batch). [`selfplay`] drives whole games this way.
//!
//! Conventions (the same as OpenSpiel's `alpha_zero` and mctx):
//! - **Values** are in `[-1, 1]`. The network's value at a leaf is for the
//!   player deciding there (whose point of view its observation takes);
//!   every node keeps the sum of player 0's values through it, and a
//!   decision node reads it for the player deciding there (from
//!   [`Node::Decision`], not by alternation, so turns of several decisions
//!   are handled as they are). Terminal states are valued exactly
//!   ([`api::returns`]).
//! - **Priors** are the softmax of the network's logits over the legal
//!   actions only.
//! - **PUCT** picks `argmax Q + c * P * sqrt(N) / (1 + n)`, `N` the node's
//!   visits, `n` and `Q` the child's visits and mean value for the mover; an
//!   unvisited child's `Q` is its parent's mean value for the mover.
//! - **Chance nodes** are expanded with their exact outcome distribution
//!   as soon as they are reached (never leaves, never evaluated): a
//!   descent takes the outcome whose visit count lags most behind its
//!   share (`argmax p * (N + 1) - n`), the stratified, deterministic
//!   sampling of the `mcts` agent, so every outcome's visits stay within
//!   one of `p * N` and the node's mean is the expectation over its
//!   outcomes up to that rounding.
//! - **Virtual loss**: a tree may hand several leaves to one batch
//!   (`leaves_per_tree`); each pending descent counts as a loss for the
//!   deciding player on its path until its value comes back. A descent
//!   that reaches a leaf already waiting ends the tree's turn in that
//!   batch.
//! - **Gumbel** (`gumbel_m > 0`, Danihelka et al. 2022): the root samples
//!   `m` actions without replacement by `g + logits` (Gumbel-top-k) and
//!   splits the simulations among them by sequential halving, keeping the
//!   half with the best `g + logits + sigma(q)`; the decision is the last
//!   survivor and the policy target is `softmax(logits + sigma(completed
//!   q))`. Below the root the search is PUCT.
//! - **Randomness** (the root's Dirichlet noise, Gumbel draws) comes from
//!   the caller's generator only; the descents themselves are
//!   deterministic, so a search is reproducible for a seed whatever the
//!   batch it shares.

pub mod selfplay;

use crate::board::{Move, MoveList};
use crate::play::GameRng;
use crate::variants::{api, Game, Node, Outcomes, Player};
use rand::RngExt;
use rand_distr::{Distribution, Gamma};

/// The search's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// Simulations per search (at least 1; the root's evaluation is one).
    pub sims: u32,
    /// PUCT's exploration constant.
    pub c_puct: f64,
    /// Leaves one tree may hand to one batch (virtual loss beyond 1).
    pub leaves_per_tree: u32,
    /// Dirichlet noise at the root (self-play): concentration (0: none)…
    pub dirichlet_alpha: f64,
    /// …and the weight of the noise in the root's priors.
    pub dirichlet_frac: f64,
    /// Gumbel root selection with this many sampled actions (0: PUCT root).
    pub gumbel_m: u32,
    /// Gumbel's `sigma(q) = (c_visit + max n) * c_scale * q`.
    pub c_visit: f64,
    pub c_scale: f64,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            sims: 200,
            c_puct: 1.25,
            leaves_per_tree: 1,
            dirichlet_alpha: 0.0,
            dirichlet_frac: 0.25,
            gumbel_m: 0,
            c_visit: 50.0,
            c_scale: 1.0,
        }
    }
}

impl Params {
    /// Checks the ranges, naming what is allowed.
    pub fn validate(&self) -> Result<(), String> {
        if !(1..=1_000_000).contains(&self.sims) {
            return Err(format!("sims must be 1..=1000000, got {}", self.sims));
        }
        if !(self.c_puct.is_finite() && self.c_puct > 0.0) {
            return Err(format!("c_puct must be > 0, got {}", self.c_puct));
        }
        if !(1..=256).contains(&self.leaves_per_tree) {
            return Err(format!(
                "leaves_per_tree must be 1..=256, got {}",
                self.leaves_per_tree
            ));
        }
        if !(self.dirichlet_alpha.is_finite() && self.dirichlet_alpha >= 0.0) {
            return Err(format!(
                "dirichlet_alpha must be >= 0 (0: no noise), got {}",
                self.dirichlet_alpha
            ));
        }
        if !(0.0..=1.0).contains(&self.dirichlet_frac) {
            return Err(format!(
                "dirichlet_frac must be in [0, 1], got {}",
                self.dirichlet_frac
            ));
        }
        if self.gumbel_m > 4096 {
            return Err(format!(
                "gumbel_m must be 0..=4096 (0: PUCT at the root), got {}",
                self.gumbel_m
            ));
        }
        for (name, x) in [("c_visit", self.c_visit), ("c_scale", self.c_scale)] {
            if !(x.is_finite() && x >= 0.0) {
                return Err(format!("{name} must be >= 0, got {x}"));
            }
        }
        Ok(())
    }
}

/// Leaves waiting for the network, in order: observations (`n * obs_len`),
/// masks (`n * actions`), and the network's answers the caller writes:
/// logits (`n * actions`) and values (`n`).
#[derive(Default)]
pub struct Batch {
    pub obs_len: usize,
    pub actions: usize,
    pub n: usize,
    pub obs: Vec<f32>,
    pub mask: Vec<bool>,
    pub logits: Vec<f32>,
    pub values: Vec<f32>,
}

impl Batch {
    pub fn new(obs_len: usize, actions: usize) -> Batch {
        Batch {
            obs_len,
            actions,
            ..Batch::default()
        }
    }

    pub fn clear(&mut self) {
        self.n = 0;
        self.obs.clear();
        self.mask.clear();
        self.logits.clear();
        self.values.clear();
    }

    /// Appends the observation and mask of decision node `g`.
    pub(crate) fn push<G: Game>(&mut self, g: &G, p: Player, moves: &MoveList) {
        let o = self.obs.len();
        self.obs.resize(o + self.obs_len, 0.0);
        api::write_observation(g, p, &mut self.obs[o..]);
        let m = self.mask.len();
        self.mask.resize(m + self.actions, false);
        let (layout, turn) = (g.layout(), g.position().turn());
        for &mv in moves.iter() {
            self.mask[m + layout.encode(mv, turn) as usize] = true;
        }
        self.n += 1;
    }

    /// Checks the network's answers: shapes, and finite numbers where the
    /// mask is set (what the search reads).
    pub fn check_answers(&self) -> Result<(), String> {
        if self.logits.len() != self.n * self.actions || self.values.len() != self.n {
            return Err(format!(
                "expected logits of shape ({}, {}) and values of shape ({},), got {} logits and {} values",
                self.n,
                self.actions,
                self.n,
                self.logits.len(),
                self.values.len()
            ));
        }
        for (i, v) in self.values.iter().enumerate() {
            if !v.is_finite() {
                return Err(format!("value[{i}] is {v}: values must be finite"));
            }
        }
        for (k, (l, m)) in self.logits.iter().zip(&self.mask).enumerate() {
            if *m && !l.is_finite() {
                return Err(format!(
                    "logits[{}, {}] is {l} at a legal action: logits must be finite where the mask is set",
                    k / self.actions,
                    k % self.actions
                ));
            }
        }
        Ok(())
    }
}

#[derive(Clone, Copy, Debug)]
struct ZNode {
    visits: u32,
    /// Pending descents through this node (virtual losses).
    pending: u32,
    /// Sum of player 0's values through this node.
    w: f64,
    first_edge: u32,
    n_edges: u32,
    state: Expansion,
    chance: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expansion {
    New,
    /// Its observation is in the batch, its answer not yet back.
    Waiting,
    Expanded,
}

#[derive(Clone, Copy, Debug)]
struct ZEdge {
    /// `Move.0` at decision nodes, the outcome id at chance nodes.
    action: u32,
    /// The action id (decision nodes: the network's index).
    id: u32,
    /// Prior (decisions) or probability (chance).
    prior: f64,
    node: u32,
}

fn new_node() -> ZNode {
    ZNode {
        visits: 0,
        pending: 0,
        w: 0.0,
        first_edge: 0,
        n_edges: 0,
        state: Expansion::New,
        chance: false,
    }
}

/// Player 0's value as `p` sees it.
fn for_player(p: Player, v0: f64) -> f64 {
    if p == 0 {
        v0
    } else {
        -v0
    }
}

/// A leaf handed to the batch.
struct Pending<G> {
    node: u32,
    path: Vec<u32>,
    state: G,
    player: Player,
    moves: MoveList,
}

/// What one descent reached.
enum Descent<G> {
    /// A new decision node, now waiting in the batch.
    Leaf(Box<Pending<G>>),
    /// A terminal state (its value already backed up).
    Terminal,
    /// A leaf another descent of this batch is waiting for.
    Collision,
}

/// The root's Gumbel state: the sampled actions (edge indices into the
/// root's edges), their `g + logits`, and the sequential-halving schedule.
#[derive(Default)]
struct GumbelRoot {
    /// Root edge index and `g + logit` of the candidates still in.
    alive: Vec<(usize, f64)>,
    /// Logits of every root edge (for the improved policy).
    logits: Vec<f64>,
    /// The simulation at which the current phase ends.
    phase_end: u32,
    /// Simulations the current phase still owes each candidate, in turn.
    cursor: usize,
    phases_left: u32,
}

/// One search tree over a root state.
pub struct Tree<G> {
    root: G,
    nodes: Vec<ZNode>,
    edges: Vec<ZEdge>,
    pending: Vec<Pending<G>>,
    /// Simulations begun (descents that reached a leaf or a terminal).
    started: u32,
    /// Simulations whose value is backed up.
    done: u32,
    gumbel: Option<GumbelRoot>,
    /// The network's value of the root for player 0.
    root_raw: f64,
    path: Vec<u32>,
    outcomes: Outcomes,
}

impl<G: Game> Tree<G> {
    /// A fresh search from `root` (a decision node).
    pub fn new(root: G) -> Tree<G> {
        debug_assert!(matches!(root.node(), Node::Decision(_)));
        Tree {
            root,
            nodes: vec![new_node()],
            edges: Vec::new(),
            pending: Vec::new(),
            started: 0,
            done: 0,
            gumbel: None,
            root_raw: 0.0,
            path: Vec::new(),
            outcomes: Outcomes::new(),
        }
    }

    pub fn root(&self) -> &G {
        &self.root
    }

    /// Whether the search has run all its simulations.
    pub fn finished(&self, params: &Params) -> bool {
        self.done >= params.sims && self.pending.is_empty()
    }

    /// Nodes in the tree.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Runs descents until `leaves_per_tree` leaves wait in `batch`, the
    /// simulations are all begun, or a descent collides. Returns the leaves
    /// added.
    pub fn collect(&mut self, params: &Params, batch: &mut Batch) -> usize {
        let mut added = 0;
        while self.started < params.sims && added < params.leaves_per_tree as usize {
            // The root's first evaluation comes back before anything else
            // can be chosen below it.
            if self.nodes[0].state == Expansion::Waiting {
                break;
            }
            match self.descend(params) {
                Descent::Leaf(p) => {
                    batch.push(&p.state, p.player, &p.moves);
                    self.pending.push(*p);
                    self.started += 1;
                    added += 1;
                }
                Descent::Terminal => {
                    self.started += 1;
                    self.done += 1;
                }
                Descent::Collision => break,
            }
        }
        added
    }

    /// Reads the answers for this tree's leaves, which are rows
    /// `first .. first + leaves` of `batch` (in the order [`Tree::collect`]
    /// added them), expands them and backs their values up.
    pub fn absorb(&mut self, params: &Params, batch: &Batch, first: usize, rng: &mut GameRng) {
        let pending = std::mem::take(&mut self.pending);
        for (k, p) in pending.into_iter().enumerate() {
            let row = first + k;
            let logits = &batch.logits[row * batch.actions..(row + 1) * batch.actions];
            let v = (batch.values[row] as f64).clamp(-1.0, 1.0);
            self.expand_decision(p.node as usize, &p.state, &p.moves, logits);
            let v0 = for_player(p.player, v);
            if p.node == 0 {
                self.root_raw = v0;
                self.init_root(params, rng);
            }
            self.backup(&p.path, v0, true);
            self.done += 1;
        }
    }

    /// Number of leaves waiting in the batch.
    pub fn waiting(&self) -> usize {
        self.pending.len()
    }

    fn descend(&mut self, params: &Params) -> Descent<G> {
        let mut g = self.root.clone();
        let mut path = std::mem::take(&mut self.path);
        path.clear();
        let mut n = 0usize;
        loop {
            path.push(n as u32);
            match g.node() {
                Node::Terminal => {
                    let v0 = api::returns(&g)[0];
                    self.backup(&path, v0, false);
                    self.path = path;
                    return Descent::Terminal;
                }
                Node::Chance => {
                    if self.nodes[n].state != Expansion::Expanded {
                        self.expand_chance(n, &g);
                    }
                    let e = self.edges[self.nodes[n].first_edge as usize + self.pick_chance(n)];
                    g.apply_outcome(e.action);
                    n = e.node as usize;
                }
                Node::Decision(p) => match self.nodes[n].state {
                    Expansion::Waiting => {
                        self.path = path;
                        return Descent::Collision;
                    }
                    Expansion::New => {
                        self.nodes[n].state = Expansion::Waiting;
                        for &k in &path {
                            self.nodes[k as usize].pending += 1;
                        }
                        let mut moves = MoveList::new();
                        g.legal_moves(&mut moves);
                        let pending = Pending {
                            node: n as u32,
                            path: path.clone(),
                            state: g,
                            player: p,
                            moves,
                        };
                        self.path = path;
                        return Descent::Leaf(Box::new(pending));
                    }
                    Expansion::Expanded => {
                        let i = if n == 0 && self.gumbel.is_some() {
                            self.pick_gumbel(params)
                        } else {
                            self.pick_puct(n, p, params)
                        };
                        let e = self.edges[self.nodes[n].first_edge as usize + i];
                        g.play(Move(e.action as u16));
                        n = e.node as usize;
                    }
                },
            }
        }
    }

    fn backup(&mut self, path: &[u32], v0: f64, was_pending: bool) {
        for &k in path {
            let t = &mut self.nodes[k as usize];
            t.visits += 1;
            t.w += v0;
            if was_pending {
                t.pending -= 1;
            }
        }
    }

    fn push_child(&mut self, action: u32, id: u32, prior: f64) {
        let node = self.nodes.len() as u32;
        self.nodes.push(new_node());
        self.edges.push(ZEdge {
            action,
            id,
            prior,
            node,
        });
    }

    fn expand_chance(&mut self, n: usize, g: &G) {
        let first = self.edges.len();
        let mut o = std::mem::take(&mut self.outcomes);
        g.chance_outcomes(&mut o);
        for &(id, p) in o.as_slice() {
            self.push_child(id, id, p);
        }
        self.outcomes = o;
        let t = &mut self.nodes[n];
        t.first_edge = first as u32;
        t.n_edges = (self.edges.len() - first) as u32;
        t.state = Expansion::Expanded;
        t.chance = true;
    }

    fn expand_decision(&mut self, n: usize, g: &G, moves: &MoveList, logits: &[f32]) {
        let first = self.edges.len();
        let (layout, turn) = (g.layout(), g.position().turn());
        let mut max = f64::NEG_INFINITY;
        for &mv in moves.iter() {
            let id = layout.encode(mv, turn);
            let l = logits[id as usize] as f64;
            max = max.max(l);
            self.push_child(mv.0 as u32, id, l);
        }
        // Softmax over the legal actions (logits kept in `prior` until now).
        let mut sum = 0.0;
        for e in &mut self.edges[first..] {
            e.prior = (e.prior - max).exp();
            sum += e.prior;
        }
        for e in &mut self.edges[first..] {
            e.prior /= sum;
        }
        // The root's logits are needed again by Gumbel.
        if n == 0 {
            let l: Vec<f64> = self.edges[first..]
                .iter()
                .map(|e| logits[e.id as usize] as f64)
                .collect();
            self.gumbel = Some(GumbelRoot {
                logits: l,
                ..GumbelRoot::default()
            });
        }
        let t = &mut self.nodes[n];
        t.first_edge = first as u32;
        t.n_edges = (self.edges.len() - first) as u32;
        t.state = Expansion::Expanded;
    }

    /// After the root's expansion: Dirichlet noise, or the Gumbel draw.
    fn init_root(&mut self, params: &Params, rng: &mut GameRng) {
        let r = self.nodes[0];
        let edges = r.first_edge as usize..(r.first_edge + r.n_edges) as usize;
        if params.gumbel_m == 0 {
            self.gumbel = None;
            if params.dirichlet_alpha > 0.0 && r.n_edges > 1 {
                let gamma = Gamma::new(params.dirichlet_alpha, 1.0).expect("alpha > 0");
                let noise: Vec<f64> = edges.clone().map(|_| gamma.sample(rng)).collect();
                let sum: f64 = noise.iter().sum();
                if sum > 0.0 {
                    let f = params.dirichlet_frac;
                    for (e, x) in self.edges[edges].iter_mut().zip(&noise) {
                        e.prior = (1.0 - f) * e.prior + f * x / sum;
                    }
                }
            }
            return;
        }
        let gr = self.gumbel.as_mut().expect("root expanded");
        let mut scored: Vec<(usize, f64)> = gr
            .logits
            .iter()
            .enumerate()
            .map(|(i, &l)| (i, l + gumbel_noise(rng)))
            .collect();
        // Gumbel-top-k: the m best of g + logits (ties: lower index).
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let m = (params.gumbel_m as usize).min(scored.len()).max(1);
        scored.truncate(m);
        gr.alive = scored;
        gr.phases_left = (m as f64).log2().ceil().max(1.0) as u32;
        gr.cursor = 0;
        // The root's own evaluation was simulation 1.
        let budget = params.sims.saturating_sub(1);
        gr.phase_end = 1 + phase_budget(budget, gr.phases_left, m);
    }

    /// Gumbel's `sigma` of a child's completed value (in `[0, 1]`).
    fn sigma(&self, params: &Params, q01: f64) -> f64 {
        let r = self.nodes[0];
        let max_n = self.edges[r.first_edge as usize..(r.first_edge + r.n_edges) as usize]
            .iter()
            .map(|e| self.nodes[e.node as usize].visits)
            .max()
            .unwrap_or(0);
        (params.c_visit + max_n as f64) * params.c_scale * q01
    }

    /// The root's value for its mover, mixed with the children's values as
    /// mctx's `qtransform_completed_by_mix_value` does: what an unvisited
    /// child's value is taken to be.
    fn mixed_value(&self, p: Player) -> f64 {
        let r = self.nodes[0];
        let edges = &self.edges[r.first_edge as usize..(r.first_edge + r.n_edges) as usize];
        let raw = for_player(p, self.root_raw);
        let (mut sum_p, mut sum_pq, mut sum_n) = (0.0, 0.0, 0.0);
        for e in edges {
            let c = self.nodes[e.node as usize];
            if c.visits > 0 {
                sum_p += e.prior;
                sum_pq += e.prior * for_player(p, c.w / c.visits as f64);
                sum_n += c.visits as f64;
            }
        }
        if sum_p <= 0.0 {
            return raw;
        }
        (raw + sum_n * sum_pq / sum_p) / (1.0 + sum_n)
    }

    /// Completed values for the root's mover in `[0, 1]` per root edge.
    fn completed_q01(&self) -> Vec<f64> {
        let p = match self.root.node() {
            Node::Decision(p) => p,
            _ => 0,
        };
        let r = self.nodes[0];
        let mix = self.mixed_value(p);
        self.edges[r.first_edge as usize..(r.first_edge + r.n_edges) as usize]
            .iter()
            .map(|e| {
                let c = self.nodes[e.node as usize];
                let q = if c.visits > 0 {
                    for_player(p, c.w / c.visits as f64)
                } else {
                    mix
                };
                (q + 1.0) / 2.0
            })
            .collect()
    }

    /// Sequential halving at the root: the candidate owed a simulation in
    /// the current phase, round-robin; at a phase's end the better half
    /// (by `g + logits + sigma(q)`) stays.
    fn pick_gumbel(&mut self, params: &Params) -> usize {
        let sim = self.started + 1;
        let q = self.completed_q01();
        let sig: Vec<f64> = q.iter().map(|&x| self.sigma(params, x)).collect();
        let gr = self.gumbel.as_mut().expect("gumbel root");
        if sim > gr.phase_end && gr.alive.len() > 1 && gr.phases_left > 1 {
            gr.alive.sort_by(|a, b| {
                (b.1 + sig[b.0])
                    .total_cmp(&(a.1 + sig[a.0]))
                    .then(a.0.cmp(&b.0))
            });
            let keep = gr.alive.len().div_ceil(2);
            gr.alive.truncate(keep);
            gr.phases_left -= 1;
            gr.cursor = 0;
            let budget = params.sims.saturating_sub(gr.phase_end);
            gr.phase_end += phase_budget(budget, gr.phases_left, gr.alive.len());
        }
        let i = gr.alive[gr.cursor % gr.alive.len()].0;
        gr.cursor += 1;
        i
    }

    fn pick_chance(&self, n: usize) -> usize {
        let t = self.nodes[n];
        let edges = &self.edges[t.first_edge as usize..(t.first_edge + t.n_edges) as usize];
        let total = (t.visits + t.pending) as f64 + 1.0;
        let mut best = (0usize, f64::NEG_INFINITY);
        for (i, e) in edges.iter().enumerate() {
            let c = self.nodes[e.node as usize];
            let s = e.prior * total - (c.visits + c.pending) as f64;
            if s > best.1 {
                best = (i, s);
            }
        }
        best.0
    }

    fn pick_puct(&self, n: usize, p: Player, params: &Params) -> usize {
        let t = self.nodes[n];
        let edges = &self.edges[t.first_edge as usize..(t.first_edge + t.n_edges) as usize];
        let parent_q = if t.visits == 0 {
            0.0
        } else {
            for_player(p, t.w / t.visits as f64)
        };
        let sqrt_n = ((t.visits + t.pending).max(1) as f64).sqrt();
        let mut best = (0usize, f64::NEG_INFINITY);
        for (i, e) in edges.iter().enumerate() {
            let c = self.nodes[e.node as usize];
            let n_eff = c.visits + c.pending;
            let q = if n_eff == 0 {
                parent_q
            } else {
                // A pending descent counts as a loss for the mover.
                (for_player(p, c.w) - c.pending as f64) / n_eff as f64
            };
            let s = q + params.c_puct * e.prior * sqrt_n / (1.0 + n_eff as f64);
            if s > best.1 {
                best = (i, s);
            }
        }
        best.0
    }

    /// Chance nodes expanded, and the largest `|n_i - p_i * N|` over their
    /// outcomes (`N` the node's visits): the stratified descent keeps it
    /// at most 1. For tests.
    pub fn chance_strata_error(&self) -> (usize, f64) {
        let (mut count, mut worst) = (0usize, 0.0f64);
        for t in &self.nodes {
            if !t.chance || t.visits == 0 {
                continue;
            }
            let edges = &self.edges[t.first_edge as usize..(t.first_edge + t.n_edges) as usize];
            count += 1;
            for e in edges {
                let n = self.nodes[e.node as usize].visits as f64;
                worst = worst.max((n - e.prior * t.visits as f64).abs());
            }
        }
        (count, worst)
    }

    fn root_edges(&self) -> &[ZEdge] {
        let r = self.nodes[0];
        &self.edges[r.first_edge as usize..(r.first_edge + r.n_edges) as usize]
    }

    /// The root's decisions after the search: `(move, action id, visits,
    /// prior)` in legal-move order.
    pub fn root_children(&self) -> Vec<(Move, u32, u32, f64)> {
        self.root_edges()
            .iter()
            .map(|e| {
                (
                    Move(e.action as u16),
                    e.id,
                    self.nodes[e.node as usize].visits,
                    e.prior,
                )
            })
            .collect()
    }

    /// The root's mean value for player 0.
    pub fn root_value(&self) -> f64 {
        let r = self.nodes[0];
        if r.visits == 0 {
            0.0
        } else {
            r.w / r.visits as f64
        }
    }

    /// The policy target over the root's decisions (in
    /// [`Tree::root_children`]'s order): the visit distribution (PUCT), or
    /// `softmax(logits + sigma(completed q))` (Gumbel).
    pub fn improved_policy(&self, params: &Params) -> Vec<f64> {
        if params.gumbel_m > 0 {
            if let Some(gr) = &self.gumbel {
                let q = self.completed_q01();
                let z: Vec<f64> = gr
                    .logits
                    .iter()
                    .zip(&q)
                    .map(|(l, &x)| l + self.sigma(params, x))
                    .collect();
                return softmax(&z);
            }
        }
        let visits: Vec<f64> = self
            .root_edges()
            .iter()
            .map(|e| self.nodes[e.node as usize].visits as f64)
            .collect();
        let total: f64 = visits.iter().sum();
        if total <= 0.0 {
            return self.root_edges().iter().map(|e| e.prior).collect();
        }
        visits.iter().map(|v| v / total).collect()
    }

    /// The decision: with Gumbel, the surviving candidate with the best
    /// `g + logits + sigma(q)`; with PUCT, at `temperature` 0 the most
    /// visited child (ties: higher prior, then legal-move order), else a
    /// child drawn with probability proportional to `visits^(1/t)`.
    pub fn choose(&self, params: &Params, temperature: f64, rng: &mut GameRng) -> Move {
        let children = self.root_children();
        if children.is_empty() {
            return Move::NULL;
        }
        if params.gumbel_m > 0 {
            if let Some(gr) = &self.gumbel {
                let q = self.completed_q01();
                let best = gr
                    .alive
                    .iter()
                    .map(|&(i, s)| (i, s + self.sigma(params, q[i])))
                    .fold((usize::MAX, f64::NEG_INFINITY), |b, x| {
                        if x.1 > b.1 {
                            x
                        } else {
                            b
                        }
                    });
                if best.0 != usize::MAX {
                    return children[best.0].0;
                }
            }
        }
        if temperature > 0.0 {
            let w: Vec<f64> = children
                .iter()
                .map(|c| (c.2 as f64).powf(1.0 / temperature))
                .collect();
            let total: f64 = w.iter().sum();
            if total > 0.0 && total.is_finite() {
                let u = rng.random::<f64>() * total;
                let mut acc = 0.0;
                for (c, x) in children.iter().zip(&w) {
                    acc += x;
                    if u < acc {
                        return c.0;
                    }
                }
            }
        }
        let mut best = children[0];
        for &c in &children[1..] {
            if (c.2, c.3) > (best.2, best.3) {
                best = c;
            }
        }
        best.0
    }
}

/// Simulations each of `alive` candidates gets in one of `phases` phases
/// sharing `budget` (at least one each).
fn phase_budget(budget: u32, phases: u32, alive: usize) -> u32 {
    let per = budget / (phases.max(1) * alive.max(1) as u32);
    per.max(1) * alive as u32
}

/// A standard Gumbel draw, `-ln(-ln u)`.
fn gumbel_noise(rng: &mut GameRng) -> f64 {
    let u: f64 = rng.random::<f64>().clamp(1e-300, 1.0 - 1e-16);
    -(-u.ln()).ln()
}

fn softmax(z: &[f64]) -> Vec<f64> {
    let max = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<f64> = z.iter().map(|x| (x - max).exp()).collect();
    let s: f64 = e.iter().sum();
    e.iter().map(|x| x / s).collect()
}

/// Runs one search per root to the end, calling `evaluate` once per batch
/// (the leaves of every unfinished tree). Each tree draws its noise from
/// its own generator in `rngs`. Returns the trees.
pub fn search_all<G: Game, E>(
    roots: Vec<G>,
    params: &Params,
    rngs: &mut [GameRng],
    batch: &mut Batch,
    mut evaluate: impl FnMut(&mut Batch) -> Result<(), E>,
) -> Result<Vec<Tree<G>>, E> {
    let mut trees: Vec<Tree<G>> = roots.into_iter().map(Tree::new).collect();
    loop {
        batch.clear();
        let mut firsts = Vec::with_capacity(trees.len());
        for t in trees.iter_mut() {
            firsts.push(batch.n);
            t.collect(params, batch);
        }
        if batch.n == 0 {
            // A round without leaves: every tree has begun and backed up
            // all its simulations (no collision without a waiting leaf).
            debug_assert!(trees.iter().all(|t| t.finished(params)));
            return Ok(trees);
        }
        evaluate(batch)?;
        for ((t, &first), rng) in trees.iter_mut().zip(&firsts).zip(rngs.iter_mut()) {
            t.absorb(params, batch, first, rng);
        }
    }
}
