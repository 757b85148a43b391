//! Agents of measurable strength: `random`, `greedy`, `expectimax:depth=N`
//! (*-minimax with Star1), `mcts:sims=N` (PUCT with chance nodes and
//! evaluation leaves) and `search` (budgeted alpha-beta).
//!
//! An [`AgentSpec`] is a parsed, validated description (`Clone + Send +
//! Sync`, cheap); an [`Agent`] is one instance with its search buffers, made
//! per game or per thread. Agents have no randomness of their own: every
//! call takes the caller's [`GameRng`], so a playout that uses
//! `game_rng(seed, i)` for dice and agents alike is reproducible whatever
//! the thread count.
//!
//! Specs (case-sensitive, no spaces):
//! - `random`: uniformly random legal decision.
//! - `greedy`: one decision deep: the best evaluation after the move,
//!   averaged exactly over the chance outcomes that follow it (ties broken
//!   at random). Same as `expectimax:depth=1`.
//! - `expectimax:depth=N` (N from 1 to 8): see [`expectimax`].
//! - `mcts[:sims=N][,nodes=N][,ms=T][,c=X][,select=puct|uct]
//!   [,leaf=qsearch|static|material][,chance=stratified|sample][,rollout=none|random|greedy][,rollout_plies=M]`:
//!   see [`mcts`]; at least one budget (combined: the first reached stops);
//!   defaults `c=1.4`, `select=puct`, `leaf=qsearch`, `chance=stratified`, `rollout=none`,
//!   `rollout_plies=40`.
//! - `search[:nodes=N][,ms=T][,depth=D][,option=value...]`: see [`search`];
//!   budgets combine (the first reached stops), none means `nodes=20000`.
//!
//! Values and evaluations are for player 0 in `[-1, 1]` (see [`eval`]).

pub mod digest;
pub mod eval;
pub mod expectimax;
pub mod mcts;
pub mod search;
pub mod zero;

pub use eval::Evaluate;

use crate::board::{Move, MoveList};
use crate::play::{play_out, play_out_with_dice, random_move, Dice, GameRng, PlayoutStats};
use crate::variants::{Action, GameError, Node, Outcomes};
use std::fmt;

/// Every valid spec form, for error messages.
pub const VALID_SPECS: &str = "\"random\", \"greedy\", \"expectimax:depth=N\" (N 1..=8), \
\"mcts:sims=N[,nodes=N][,ms=T][,c=X][,select=puct|uct][,leaf=qsearch|static|material][,chance=stratified|sample][,rollout=none|random|greedy][,rollout_plies=M]\" (sims 1..=10000000, at least one of sims/nodes/ms, X > 0, M 0..=10000), \
\"search[:nodes=N][,ms=T][,depth=D][,tt_mb=M][,tt|pvs|aspiration|lmr|nmp|star2|check_ext|killers|history|qsearch=0|1][,qchance=expect|stop][,sample=K]\"";

pub use mcts::Rollout;

/// A validated agent description.
#[derive(Clone, Debug, PartialEq)]
pub enum AgentSpec {
    Random,
    Greedy,
    Expectimax { depth: u32 },
    Mcts(mcts::Params),
    Search(search::Params),
}

fn bad(spec: &str, why: &str) -> GameError {
    GameError::new(format!(
        "invalid agent spec {spec:?}: {why}; valid specs: {VALID_SPECS}"
    ))
}

fn parse_int(spec: &str, key: &str, v: &str, min: u32, max: u32) -> Result<u32, GameError> {
    match v.parse::<i64>() {
        Ok(n) if (min as i64..=max as i64).contains(&n) => Ok(n as u32),
        _ => Err(bad(
            spec,
            &format!("{key} must be an integer from {min} to {max}, got {v:?}"),
        )),
    }
}

impl AgentSpec {
    /// Parses a spec such as `"mcts:sims=200,c=1.4,rollout=greedy"`.
    pub fn parse(spec: &str) -> Result<AgentSpec, GameError> {
        let (name, params) = match spec.split_once(':') {
            Some((n, p)) => (n, Some(p)),
            None => (spec, None),
        };
        let mut kv: Vec<(&str, &str)> = Vec::new();
        if let Some(p) = params {
            for item in p.split(',') {
                let Some((k, v)) = item.split_once('=') else {
                    return Err(bad(spec, &format!("parameter {item:?} is not key=value")));
                };
                if kv.iter().any(|&(k2, _)| k2 == k) {
                    return Err(bad(spec, &format!("parameter {k} given twice")));
                }
                kv.push((k, v));
            }
        }
        let allowed: &[&str] = match name {
            "random" | "greedy" => &[],
            "expectimax" => &["depth"],
            "mcts" => mcts::KEYS,
            "search" => search::KEYS,
            _ => return Err(bad(spec, &format!("unknown agent {name:?}"))),
        };
        for &(k, _) in &kv {
            if !allowed.contains(&k) {
                let what = if allowed.is_empty() {
                    format!("{name} takes no parameters, got {k:?}")
                } else {
                    format!(
                        "unknown parameter {k:?} for {name} (allowed: {})",
                        allowed.join(", ")
                    )
                };
                return Err(bad(spec, &what));
            }
        }
        if params.is_some() && kv.is_empty() {
            return Err(bad(spec, "empty parameter list"));
        }
        let get = |k: &str| kv.iter().find(|&&(k2, _)| k2 == k).map(|&(_, v)| v);
        if name == "search" {
            return search::Params::parse(&kv)
                .map(AgentSpec::Search)
                .map_err(|why| {
                    bad(
                        spec,
                        &format!("{why} (search keys: {})", search::KEYS.join(", ")),
                    )
                });
        }
        Ok(match name {
            "random" => AgentSpec::Random,
            "greedy" => AgentSpec::Greedy,
            "expectimax" => {
                let Some(d) = get("depth") else {
                    return Err(bad(spec, "expectimax needs depth=N"));
                };
                AgentSpec::Expectimax {
                    depth: parse_int(spec, "depth", d, 1, 8)?,
                }
            }
            _ => AgentSpec::Mcts(mcts::Params::parse(&kv).map_err(|why| {
                bad(
                    spec,
                    &format!("{why} (mcts keys: {})", mcts::KEYS.join(", ")),
                )
            })?),
        })
    }
}

impl fmt::Display for AgentSpec {
    /// The canonical spec string (parses back to the same spec).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentSpec::Random => f.write_str("random"),
            AgentSpec::Greedy => f.write_str("greedy"),
            AgentSpec::Expectimax { depth } => write!(f, "expectimax:depth={depth}"),
            AgentSpec::Search(p) => write!(f, "{p}"),
            AgentSpec::Mcts(p) => write!(f, "{p}"),
        }
    }
}

/// One agent instance: a spec plus its reusable search buffers. Not shared
/// between threads (make one per game or thread); all randomness comes
/// from the `rng` passed in.
pub struct Agent {
    spec: AgentSpec,
    search: expectimax::Search,
    tree: mcts::Tree,
    /// The `search` engine, made at its first use (it owns the table).
    engine: Option<Box<search::Engine>>,
}

impl Agent {
    pub fn new(spec: AgentSpec) -> Agent {
        Agent {
            spec,
            search: expectimax::Search::new(),
            tree: mcts::Tree::new(),
            engine: None,
        }
    }

    /// This agent with its MCTS tree capped at `max_nodes` nodes
    /// ([`mcts::Tree::with_max_nodes`]: a search that fills it evaluates
    /// leaves instead of growing), so that its memory is bounded by
    /// [`mcts::tree_bytes`] whatever the budget; no change for other agents.
    pub fn with_tree_cap(mut self, max_nodes: usize) -> Agent {
        self.tree = mcts::Tree::with_max_nodes(max_nodes);
        self
    }

    /// Runs the `search` engine on the decision node `g` (`None` for other
    /// agents). `limits` (nodes, ms, depth) override the spec's budgets
    /// when any is given; `poll` stops the search when it returns `true`;
    /// `on_iteration` sees each completed iteration
    /// ([`search::Engine::search_reporting`]).
    pub fn search_info<G: Evaluate>(
        &mut self,
        g: &G,
        rng: &mut GameRng,
        limits: (Option<u64>, Option<u64>, Option<u32>),
        poll: Option<search::Poll>,
        on_iteration: Option<search::OnIteration<'_>>,
    ) -> Option<search::SearchResult> {
        let engine = self.search_engine()?;
        Some(engine.search_reporting(g, rng, limits, poll, on_iteration))
    }

    /// Runs the `search` engine on every roll of the chance node `g`
    /// ([`search::Engine::search_rolls`]; `None` for other agents).
    pub fn search_rolls<G: Evaluate>(
        &mut self,
        g: &G,
        rng: &mut GameRng,
        limits: (Option<u64>, Option<u64>, Option<u32>),
        each: impl FnMut(usize, usize) -> bool,
    ) -> Option<search::rolls::ChanceSearch> {
        Some(self.search_engine()?.search_rolls(g, rng, limits, each))
    }

    /// The `search` engine, made at its first use (`None` for other agents).
    fn search_engine(&mut self) -> Option<&mut search::Engine> {
        let AgentSpec::Search(p) = &self.spec else {
            return None;
        };
        Some(
            self.engine
                .get_or_insert_with(|| Box::new(search::Engine::new(p.clone()))),
        )
    }

    /// A new game starts: the `search` engine no longer uses what it
    /// stored in the previous game (with `keep`; a no-op otherwise).
    pub fn new_game(&mut self) {
        if let Some(e) = self.engine.as_mut() {
            e.new_game();
        }
    }

    /// The spec.
    pub fn spec(&self) -> &AgentSpec {
        &self.spec
    }

    /// Nodes visited by expectimax/greedy searches since creation.
    pub fn nodes(&self) -> u64 {
        self.search.nodes
    }

    /// MCTS simulations run since creation.
    pub fn simulations(&self) -> u64 {
        self.tree.simulations
    }

    /// Nodes of the MCTS tree of the last search (0 for other agents).
    pub fn tree_len(&self) -> usize {
        self.tree.len()
    }

    /// States MCTS evaluated since creation (what its `nodes` budget
    /// counts: static evaluations, quiescence nodes and terminal states).
    pub fn evaluated(&self) -> u64 {
        self.tree.evaluated
    }

    /// The search depth of a `greedy` (1) or `expectimax` agent; `None`
    /// for agents that do not value states by expectimax.
    pub fn search_depth(&self) -> Option<u32> {
        match self.spec {
            AgentSpec::Greedy => Some(1),
            AgentSpec::Expectimax { depth } => Some(depth),
            _ => None,
        }
    }

    /// The expectimax value of `g` for player 0 with `depth` decisions
    /// (default: the agent's own depth), in `[-1, 1]`: exact at terminal
    /// states, the exact expectation over the outcomes at chance nodes.
    /// `None` for `random` and `mcts` agents. Uses no randomness.
    pub fn value<G: Evaluate>(&mut self, g: &G, depth: Option<u32>) -> Option<f64> {
        let own = self.search_depth()?;
        Some(self.search.root_value(g, depth.unwrap_or(own)))
    }

    /// A decision at a decision node of `g` ([`Move::NULL`] elsewhere).
    pub fn select<G: Evaluate>(&mut self, g: &G, rng: &mut GameRng) -> Move {
        if !matches!(g.node(), Node::Decision(_)) {
            return Move::NULL;
        }
        if self.spec == AgentSpec::Random {
            // Exactly the draw `play_random_game` makes.
            let mut ml = MoveList::new();
            return random_move(g, rng, &mut ml);
        }
        self.decide(g, rng).0
    }

    /// The decision distribution at a decision node (empty elsewhere), in
    /// legal-move order: uniform for `random`; one-hot on the decision the
    /// search chooses for `greedy` and `expectimax`; for `mcts` the root
    /// visit counts divided by their sum (the decision is the most visited,
    /// the first in the shuffled expansion order among equals). A call
    /// runs a fresh search (draws from `rng`), like [`Agent::select`].
    pub fn policy<G: Evaluate>(&mut self, g: &G, rng: &mut GameRng) -> Vec<(Move, f64)> {
        if !matches!(g.node(), Node::Decision(_)) {
            return Vec::new();
        }
        if self.spec == AgentSpec::Random {
            let mut ml = MoveList::new();
            g.legal_moves(&mut ml);
            let p = 1.0 / ml.len().max(1) as f64;
            return ml.iter().map(|&m| (m, p)).collect();
        }
        self.decide(g, rng).1
    }

    /// The chosen decision and the policy (searching agents).
    fn decide<G: Evaluate>(&mut self, g: &G, rng: &mut GameRng) -> (Move, Vec<(Move, f64)>) {
        let mut ml = MoveList::new();
        g.legal_moves(&mut ml);
        if ml.is_empty() {
            return (Move::NULL, Vec::new());
        }
        let one_hot = |best: Move| -> (Move, Vec<(Move, f64)>) {
            let p = ml
                .iter()
                .map(|&m| (m, if m == best { 1.0 } else { 0.0 }))
                .collect();
            (best, p)
        };
        if ml.len() == 1 {
            return one_hot(ml[0]);
        }
        match self.spec {
            AgentSpec::Random | AgentSpec::Greedy => one_hot(self.search.best_move(g, 1, rng).0),
            AgentSpec::Expectimax { depth } => one_hot(self.search.best_move(g, depth, rng).0),
            AgentSpec::Search(_) => {
                let r = self.search_info(g, rng, (None, None, None), None, None);
                one_hot(r.map_or(ml[0], |r| r.best))
            }
            AgentSpec::Mcts(params) => {
                let visits = self.tree.search(g, &params, rng);
                let best = self.tree.best();
                let total: u32 = visits.iter().map(|x| x.1).sum();
                let p = ml
                    .iter()
                    .map(|&m| {
                        let v = visits.iter().find(|x| x.0 == m).map_or(0, |x| x.1);
                        (m, v as f64 / total.max(1) as f64)
                    })
                    .collect();
                (best, p)
            }
        }
    }
}

/// Plays `g` to the end: player `p`'s decisions come from `agents[p]`, dice
/// are sampled with `rng` (which the agents share).
pub fn play_game<G: Evaluate>(
    g: &mut G,
    agents: &mut [Agent; 2],
    rng: &mut GameRng,
) -> PlayoutStats {
    play_game_observed(g, agents, rng, |_, _, _, _| {})
}

/// [`play_game`] calling `on_roll(state, outcomes, actual, stats so far)` at
/// every chance node before the sampled outcome `actual` is applied. The observer sees
/// no generator, so the game is exactly the one [`play_game`] plays.
pub fn play_game_observed<G: Evaluate>(
    g: &mut G,
    agents: &mut [Agent; 2],
    rng: &mut GameRng,
    on_roll: impl FnMut(&G, &Outcomes, Action, &PlayoutStats),
) -> PlayoutStats {
    play_out(
        g,
        rng,
        |g, p, rng| agents[p as usize & 1].select(g, rng),
        on_roll,
    )
}

/// [`play_game`] with the dice from `dice` (e.g. [`crate::play::CommonDice`] for games
/// played in pairs on the same dice).
pub fn play_game_with_dice<G: Evaluate, D: Dice>(
    g: &mut G,
    agents: &mut [Agent; 2],
    rng: &mut GameRng,
    dice: &mut D,
) -> PlayoutStats {
    play_out_with_dice(
        g,
        rng,
        dice,
        |g, p, rng| agents[p as usize & 1].select(g, rng),
        |_, _, _, _| {},
    )
}
