//! `search`: a budgeted, chance-aware alpha-beta engine for every variant.
//!
//! Iterative deepening negamax with principal-variation search, aspiration
//! windows, quiescence search (captures, promotions, rotations; evasions
//! when in check), a transposition table keyed by
//! [`crate::variants::Game::search_key`], move ordering (table move,
//! MVV-LVA, killers, history; countermoves in chess), check extension,
//! null-move pruning (only where the variant offers
//! [`crate::variants::Game::search_null`]), late-move reductions and
//! futility pruning one decision above a horizon of rolls (where the
//! variant turns it on). Chess (`prune`) adds reverse futility, late-move
//! and SEE pruning, internal iterative reduction and reductions that
//! depend on the node, the move's history and whether the mover's static
//! value is improving. Chance nodes are searched
//! with Star1 and Star2 probing over the exact outcome distribution
//! ([`chance`]), or over a bounded sample of outcomes (`sample=K`).
//!
//! Values are centipawns for a player ("pov"), passed down explicitly: a
//! decision node of the other player negates, one of the same player
//! (a multi-move turn) does not, and chance nodes average. Depth counts
//! decisions; chance nodes do not use depth. A proven win `n` plies from
//! the root is worth `MATE - n`.

mod budget;
mod chance;
mod correction;
mod decision;
pub mod eval;
mod horizon;
mod leaf;
mod ordering;
pub mod params;
mod qsearch;
pub mod rolls;
mod see;
mod threats;
mod tt;
pub mod utility;

pub use budget::Poll;
pub use params::{Params, QChance, KEYS};

use super::eval::{Evaluate, SEARCH_DEFAULTS};
use crate::board::{Move, MoveList, Role};
use crate::play::GameRng;
use crate::variants::{Node, Player};
use budget::Budget;
use eval::Evaluator;
use ordering::{cont_key, is_capture, is_tactical, Context, Heuristics, MAX_PLY, NO_KEY};
use rand::RngExt;
use tt::{Bound, Table};

/// A proven win at the root.
pub const MATE: f64 = 100_000.0;
/// Values beyond this are proven results.
pub const MATE_BOUND: f64 = MATE - 1_000.0;
const INF: f64 = 1e9;
/// Width of a null window.
const EPS: f64 = 0.01;
/// Chance nodes in a row (no decision between) that are expanded.
const MAX_CHANCE_CHAIN: u32 = 4;
/// Deepest quiescence (plies below the horizon).
const QS_MAX: i32 = 16;
/// Quiescence plies that search every evasion when in check.
const QS_EVASIONS: i32 = 2;
/// What the late-move reduction of a reducible move (quiet, out of check)
/// reads in chess (`prune`): its ordering score and whether its mover's
/// static value is improving.
#[derive(Clone, Copy)]
struct Reduce {
    order_score: i32,
    improving: bool,
}

/// The late-move reduction of chess (`prune`), growing with depth and move
/// number: `0.5 + ln(depth) ln(index) / 2`, at least 1 (from a table for
/// the usual depths and move numbers).
fn log_reduction(depth: i32, index: usize) -> i32 {
    fn formula(depth: i32, index: usize) -> i32 {
        ((0.5 + (depth as f64).ln() * (index as f64).ln() / 2.0) as i32).max(1)
    }
    static TABLE: std::sync::OnceLock<[[u8; 64]; 64]> = std::sync::OnceLock::new();
    match (usize::try_from(depth), index) {
        (Ok(d), i) if d < 64 && i < 64 => {
            let t = TABLE.get_or_init(|| {
                let mut t = [[0u8; 64]; 64];
                for (d, row) in t.iter_mut().enumerate().skip(1) {
                    for (i, r) in row.iter_mut().enumerate().skip(1) {
                        *r = formula(d as i32, i) as u8;
                    }
                }
                t
            });
            t[d][i] as i32
        }
        _ => formula(depth, index),
    }
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The best decision ([`Move::NULL`] at a non-decision root).
    pub best: Move,
    /// The value for the player deciding at the root (centipawns).
    pub value: f64,
    /// The deepest completed iteration.
    pub depth: u32,
    pub nodes: u64,
    /// Best decisions from the root while the same line stays without a
    /// chance node.
    pub pv: Vec<Move>,
    /// Whether a budget or the poll callback stopped the search.
    pub stopped: bool,
}

/// Called after each completed iteration with the result so far; `false`
/// stops the search.
pub type OnIteration<'a> = &'a mut dyn FnMut(&SearchResult) -> bool;

/// Mate values are stored relative to the node, so they stay right when
/// the same state is reached at another ply.
fn to_tt(v: f64, ply: usize) -> f64 {
    if v > MATE_BOUND {
        v + ply as f64
    } else if v < -MATE_BOUND {
        v - ply as f64
    } else {
        v
    }
}

fn from_tt(v: f64, ply: usize) -> f64 {
    if v > MATE_BOUND {
        v - ply as f64
    } else if v < -MATE_BOUND {
        v + ply as f64
    } else {
        v
    }
}

/// The value of a finished game for `pov`, `ply` plies from the root.
pub fn terminal_value<G: Evaluate>(g: &G, pov: Player, ply: usize) -> f64 {
    match g.winner() {
        Some(w) if w == pov => MATE - ply as f64,
        Some(_) => -(MATE - ply as f64),
        None => 0.0,
    }
}

/// A search engine: options, table and heuristics (reused between searches,
/// but every search starts from a forgotten table, so its result depends only
/// on the state, the options and the random generator).
pub struct Engine {
    params: Params,
    tt: Option<Table>,
    heur: Heuristics,
    eval: Evaluator,
    budget: Budget,
    nodes: u64,
    stopped: bool,
    root_depth: i32,
    /// Move buffers per ply (taken while a node uses them).
    moves: Vec<Vec<(i32, Move)>>,
    /// The decision being searched at each ply (null for a null move),
    /// whose countermove the next ply looks up.
    played: Vec<Move>,
    /// The continuation key of each ply's decision ([`ordering::cont_key`];
    /// [`NO_KEY`] for a null move or while continuation histories are off).
    cont_keys: Vec<u16>,
    /// The static value of each ply's decision node for its mover (NaN
    /// when in check), for `improving`.
    static_evals: Vec<f64>,
    /// The move each ply's decision leaves out while it tests whether that
    /// move is singular. An `Option`, not `Move::NULL` for none: a Vegas
    /// pass is `Move::NULL`.
    excluded: Vec<Option<Move>>,
    /// The best root move of the iteration in progress, once searched.
    root_best: Option<(Move, f64)>,
    /// `hexpand`, `qmate` and `futility` of the current search: the
    /// spec's, else the variant's ([`Evaluate::search_defaults`]), set by
    /// every [`Engine::search`] (the leaf evaluator, which never calls it,
    /// keeps the common defaults).
    hexpand: u32,
    qmate: u32,
    futility: bool,
    /// `prune` of the current search (the same way; `see` lives in the
    /// move ordering, [`Heuristics::use_see`]).
    prune: bool,
    /// Mates found on the horizon's last boards (`qmate`).
    mate_memo: threats::MateMemo,
    /// Static-value corrections by pawn structure (`corr`, with `prune`).
    corr: correction::Correction,
    use_corr: bool,
}

impl Engine {
    pub fn new(params: Params) -> Engine {
        let mut heur = Heuristics::new();
        heur.use_killers = params.killers;
        heur.use_history = params.history;
        // The utility scale is the variant's, so each search sets it.
        let eval = Evaluator::with_set(params.weights);
        Engine {
            hexpand: params.hexpand.unwrap_or(SEARCH_DEFAULTS.hexpand),
            qmate: params.qmate.unwrap_or(SEARCH_DEFAULTS.qmate),
            futility: params.futility.unwrap_or(SEARCH_DEFAULTS.futility),
            prune: params.prune.unwrap_or(SEARCH_DEFAULTS.prune),
            mate_memo: threats::MateMemo::default(),
            corr: correction::Correction::new(),
            use_corr: false,
            params,
            tt: None,
            heur,
            eval,
            budget: Budget::new(None, None, None),
            nodes: 0,
            stopped: false,
            root_depth: 0,
            moves: vec![Vec::new(); MAX_PLY + 1],
            played: vec![Move::NULL; MAX_PLY + 1],
            cont_keys: vec![NO_KEY; MAX_PLY + 1],
            static_evals: vec![f64::NAN; MAX_PLY + 1],
            excluded: vec![None; MAX_PLY + 1],
            root_best: None,
        }
    }

    /// A new game starts: with `keep`, what the searches of the previous
    /// game stored is not used (the table keeps only one game's entries).
    pub fn new_game(&mut self) {
        if let Some(t) = self.tt.as_mut() {
            t.forget();
        }
    }

    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Searches the decision node `g` within the budgets of the options,
    /// overridden by `nodes`/`ms`/`depth` when given. Root moves are
    /// shuffled with `rng` before ordering (ties between equal moves);
    /// `poll` is called every few thousand nodes and stops the search
    /// when it returns `true`.
    pub fn search<G: Evaluate>(
        &mut self,
        g: &G,
        rng: &mut GameRng,
        limits: (Option<u64>, Option<u64>, Option<u32>),
        poll: Option<Poll>,
    ) -> SearchResult {
        self.search_reporting(g, rng, limits, poll, None)
    }

    /// [`Engine::search`], calling `on_iteration` with the result so far
    /// after every completed iteration (its principal variation read from
    /// the table, which reading does not change, so the search is the same
    /// as without it); the search stops there when it returns `false`.
    pub fn search_reporting<G: Evaluate>(
        &mut self,
        g: &G,
        rng: &mut GameRng,
        limits: (Option<u64>, Option<u64>, Option<u32>),
        poll: Option<Poll>,
        mut on_iteration: Option<OnIteration<'_>>,
    ) -> SearchResult {
        let (nodes, ms, depth) = limits;
        let mut p = self.params.clone();
        if nodes.is_some() || ms.is_some() || depth.is_some() {
            (p.nodes, p.ms, p.depth) = (nodes, ms, depth);
        }
        self.budget = Budget::new(p.node_limit(), p.ms, poll);
        let max_depth = p.depth.unwrap_or(params::MAX_DEPTH) as i32;
        let own = g.search_defaults();
        if self.params.tt {
            let mb = self.params.tt_mb;
            self.tt
                .get_or_insert_with(|| Table::new(mb))
                .new_search(self.params.keep.unwrap_or(own.keep));
        }
        let scale = self.params.uscale.unwrap_or(own.uscale);
        self.hexpand = self.params.hexpand.unwrap_or(own.hexpand);
        self.qmate = self.params.qmate.unwrap_or(own.qmate);
        self.futility = self.params.futility.unwrap_or(own.futility);
        self.prune = self.params.prune.unwrap_or(own.prune);
        self.heur.use_see = self.params.see.unwrap_or(own.see);
        self.heur.use_counter = self.prune && self.params.countermove;
        self.heur.use_cont = self.prune && self.params.conthist;
        self.eval
            .set_structure(self.params.structure.unwrap_or(own.structure));
        self.eval.set_pst(self.params.pst.unwrap_or(own.pst));
        self.eval.set_terms(self.params.structure_terms());
        if self.eval.utility.scale() != scale {
            self.eval.utility = utility::Utility::new(scale);
        }
        self.heur.clear();
        self.use_corr = self.prune && self.params.corr;
        if self.use_corr {
            self.corr.clear();
        }
        self.mate_memo = threats::MateMemo::default();
        self.nodes = 0;
        self.stopped = false;

        let Node::Decision(me) = g.node() else {
            let value = match g.node() {
                Node::Terminal => terminal_value(g, 0, 0),
                _ => self.eval.at_chance(g, 0, |c| terminal_value(c, 0, 1)),
            };
            return SearchResult {
                best: Move::NULL,
                value,
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
                stopped: false,
            };
        };
        let mut ml = MoveList::new();
        g.legal_moves(&mut ml);
        let mut root: Vec<Move> = ml.iter().copied().collect();
        for i in (1..root.len()).rev() {
            let j = rng.random_range(0..=i);
            root.swap(i, j);
        }
        let pos = g.position();
        root.sort_by_key(|&m| {
            let s = self.heur.score(pos, m, None, &Context::NONE, 0);
            std::cmp::Reverse(self.heur.exchange_checked(pos, m, s))
        });

        let mut best = (root.first().copied().unwrap_or(Move::NULL), 0.0);
        let mut done = 0;
        if root.is_empty() {
            best.1 = self.eval.static_value(g, me);
        }
        for d in 1..=max_depth {
            if root.is_empty() {
                break;
            }
            self.root_depth = d;
            self.root_best = None;
            let mut delta = 30.0;
            let aspire = self.params.aspiration && d >= 4 && best.1.abs() < MATE_BOUND;
            let (mut a, mut b) = if aspire {
                (best.1 - delta, best.1 + delta)
            } else {
                (-INF, INF)
            };
            let v = loop {
                let v = self.root(g, &root, d, a, b, me);
                if self.stopped {
                    break v;
                }
                if v <= a {
                    b = (a + b) / 2.0;
                    a = v - delta;
                } else if v >= b {
                    b = v + delta;
                } else {
                    break v;
                }
                delta *= 3.0;
                if delta > 1000.0 {
                    (a, b) = (-INF, INF);
                }
            };
            if self.stopped {
                // The best of the moves this deeper iteration completed (the
                // previous best is searched first, so once it completed, its
                // deeper value is known: a shallower value, e.g. of a capture
                // whose recapture lay beyond the horizon, does not outvote it).
                if let Some(rb) = self.root_best {
                    best = rb;
                }
                break;
            }
            if let Some(rb) = self.root_best {
                best = (rb.0, v);
            }
            done = d as u32;
            if let Some(k) = root.iter().position(|&m| m == best.0) {
                root[..=k].rotate_right(1);
            }
            if let Some(report) = on_iteration.as_deref_mut() {
                let so_far = SearchResult {
                    best: best.0,
                    value: best.1,
                    depth: done,
                    nodes: self.nodes,
                    pv: self.principal_variation(g, best.0, done as usize + 1),
                    stopped: false,
                };
                if !report(&so_far) {
                    self.stopped = true;
                    break;
                }
            }
        }
        let pv = self.principal_variation(g, best.0, done as usize + 1);
        SearchResult {
            best: best.0,
            value: best.1,
            depth: done,
            nodes: self.nodes,
            pv,
            stopped: self.stopped,
        }
    }

    /// The continuation key of decision `m` of `g` (while the tables are on).
    #[inline]
    fn cont_key<G: Evaluate>(&self, g: &G, m: Move) -> u16 {
        if self.heur.use_cont {
            cont_key(g.position(), m)
        } else {
            NO_KEY
        }
    }

    /// One iteration at the root: PVS over `root` in order.
    fn root<G: Evaluate>(
        &mut self,
        g: &G,
        root: &[Move],
        depth: i32,
        mut alpha: f64,
        beta: f64,
        me: Player,
    ) -> f64 {
        let mut best = -INF;
        // The root's static value is not tracked: unknown (improving).
        self.static_evals[0] = f64::NAN;
        for (i, &m) in root.iter().enumerate() {
            let mut child = g.clone();
            child.search_play(m);
            self.played[0] = m;
            self.cont_keys[0] = self.cont_key(g, m);
            let v = self.child_value(&child, depth, i, None, false, alpha, beta, me, 0);
            if self.stopped {
                return best.max(-INF);
            }
            if v > best {
                best = v;
                if v > alpha || self.root_best.is_none() {
                    self.root_best = Some((m, v));
                }
                alpha = alpha.max(v);
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }

    /// The value of `child` (reached by the `index`-th move of a decision
    /// node of `me` at `ply` with `depth` left): principal-variation search
    /// with late-move reductions (of a move with `reduce`) and check extension.
    #[allow(clippy::too_many_arguments)]
    fn child_value<G: Evaluate>(
        &mut self,
        child: &G,
        depth: i32,
        index: usize,
        reduce: Option<Reduce>,
        singular: bool,
        alpha: f64,
        beta: f64,
        me: Player,
        ply: usize,
    ) -> f64 {
        let gives_check = child.position().is_check();
        // Only when the checked side must answer (in Random Move Number
        // Chess the checking player may move again: no extension).
        let answer = matches!(child.node(), Node::Decision(p) if p != me);
        let ext = ((self.params.check_ext && gives_check && answer || singular)
            && (ply as i32) < 2 * self.root_depth) as i32;
        let nd = depth - 1 + ext;
        let mut r = 0;
        let lmr = self.params.lmr && depth >= 3 && index >= 3 && !gives_check;
        if let Some(rd) = reduce.filter(|_| lmr) {
            r = if self.prune {
                // `adaptive`: one less in a principal variation and for a
                // killer or countermove, one more for a move with a bad
                // history or when the mover's static value is falling.
                let r = log_reduction(depth, index);
                if self.params.adaptive {
                    r - (beta - alpha > 1.5 * EPS) as i32
                        + (!rd.improving) as i32
                        + match rd.order_score {
                            s if s >= ordering::COUNTER => -1,
                            s if s < 0 => 1,
                            _ => 0,
                        }
                } else {
                    r
                }
            } else {
                1 + (depth >= 6) as i32 + (index >= 12) as i32
            }
            .min(nd - 1)
            .max(0);
        }
        let zw = if self.params.pvs && index > 0 {
            alpha + EPS
        } else {
            beta
        };
        let mut v = self.node(child, nd - r, alpha, zw, me, ply + 1, 0);
        if r > 0 && v > alpha && !self.stopped {
            v = self.node(child, nd, alpha, zw, me, ply + 1, 0);
        }
        if zw < beta && v > alpha && v < beta && !self.stopped {
            v = self.node(child, nd, alpha, beta, me, ply + 1, 0);
        }
        v
    }

    /// The value of any node for `pov` in the window `(alpha, beta)`
    /// (fail-soft). `chain` counts the chance nodes just passed.
    #[allow(clippy::too_many_arguments)]
    fn node<G: Evaluate>(
        &mut self,
        g: &G,
        depth: i32,
        alpha: f64,
        beta: f64,
        pov: Player,
        ply: usize,
        chain: u32,
    ) -> f64 {
        self.nodes += 1;
        if self.stopped || self.budget.exhausted(self.nodes) {
            self.stopped = true;
            return 0.0;
        }
        match g.node() {
            Node::Terminal => terminal_value(g, pov, ply),
            Node::Chance => {
                // At the horizon only narrow chance nodes are expanded: a
                // quiescence search per outcome of a Vegas roll (30) costs
                // more than a whole ply; wide ones are valued with their
                // captures (`hcap`) or statically.
                let horizon_expect =
                    depth == 0 && self.params.qsearch && self.params.qchance == QChance::Expect;
                let wide = horizon_expect && self.eval.is_wide(g, self.hexpand);
                let expand = depth > 0 || (horizon_expect && !wide);
                if !expand || chain >= MAX_CHANCE_CHAIN || ply >= MAX_PLY - 2 {
                    if wide && self.params.hcap {
                        return self.wide_horizon(g, pov, ply);
                    }
                    return self
                        .eval
                        .at_chance(g, pov, |c| terminal_value(c, pov, ply + 1));
                }
                self.chance(g, depth, alpha, beta, pov, ply, chain + 1)
            }
            Node::Decision(p) if p == pov => self.decision(g, depth, alpha, beta, p, ply),
            Node::Decision(p) => -self.decision(g, depth, -beta, -alpha, p, ply),
        }
    }

    /// The correction of `g`'s static value for its mover (`corr`; 0 in
    /// check, where no static value is used).
    #[inline]
    fn correction<G: Evaluate>(&self, g: &G, in_check: bool) -> f64 {
        if self.use_corr && !in_check {
            self.corr.get(g.position())
        } else {
            0.0
        }
    }

    /// Stores a node's result in the table, if there is one: its best
    /// move unless every move failed low, and its static value `eval`
    /// (NaN when not known).
    #[allow(clippy::too_many_arguments)]
    fn store_result(
        &mut self,
        key: u64,
        depth: i32,
        best: f64,
        bound: Bound,
        best_move: Option<Move>,
        eval: f64,
        ply: usize,
    ) {
        if let Some(t) = self.tt.as_mut() {
            let mv = best_move.filter(|_| bound != Bound::Upper);
            t.store(key, depth, to_tt(best, ply), bound, mv, eval);
        }
    }
}
