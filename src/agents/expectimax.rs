//! *-minimax (expectimax with players): alpha-beta at decision nodes, Star1
//! pruning at chance nodes over the exact outcome distribution, move
//! ordering (transposition-table move, then captures by MVV-LVA and
//! promotions), iterative deepening and a transposition table keyed by a
//! hash of the full serialised state (board, dice, stocks, repetition
//! history, ply count), so states that differ only off the board never
//! share an entry.
//!
//! Values are from player 0's point of view. Whose turn it is comes from
//! [`Node::Decision`] (players, not colours), and a player may decide several
//! times in a row: each decision node maximises (player 0) or minimises
//! (player 1) on its own, nothing assumes alternation. Depth counts
//! decisions; chance nodes do not use depth, so a depth-`d` search takes the
//! exact expectation over every roll that follows its last decision before
//! evaluating.
//!
//! The search clones the state per node (the [`crate::variants::Game`]
//! trait has no undo); it allocates, unlike the playout loop.

use super::eval::{evaluate, terminal_value, Evaluate, PIECE_VALUES};
use crate::board::{Move, MoveKind, MoveList, MAX_MOVES};
use crate::play::GameRng;
use crate::variants::{Node, Outcomes};
use rand::RngExt;
use std::collections::HashMap;

/// Lowest and highest possible values (loss and win of player 0).
const L: f64 = -1.0;
const U: f64 = 1.0;
/// Chance nodes in a row (without a decision between them) that a search
/// expands; deeper chains (e.g. Vegas forced passes back and forth) are
/// valued by the static evaluation, so the search always ends.
pub const MAX_CHANCE_CHAIN: u32 = 1;
/// The table is cleared when it grows past this many entries.
const TT_LIMIT: usize = 1 << 20;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy)]
struct Entry {
    depth: u32,
    value: f64,
    bound: Bound,
    best: Move,
}

/// Ordering score of a decision: higher is searched first.
fn order_score<G: Evaluate>(g: &G, m: Move) -> i32 {
    if m.is_null() {
        return -1;
    }
    let p = g.position();
    let mut s = 0;
    if p.by_color(!p.turn()).contains(m.to()) {
        let victim = p.role_at(m.to()).map_or(0.0, |r| PIECE_VALUES[r.index()]);
        let attacker = p.role_at(m.from()).map_or(0.0, |r| PIECE_VALUES[r.index()]);
        s += 1000 + (victim * 100.0) as i32 - (attacker * 10.0) as i32;
    }
    match m.kind() {
        MoveKind::EnPassant => s += 1090,
        MoveKind::Promotion(r) | MoveKind::Rotation(r) => s += 500 + PIECE_VALUES[r.index()] as i32,
        _ => {}
    }
    s
}

/// A reusable searcher (its table is cleared at every root search).
pub struct Search {
    tt: HashMap<u64, Entry>,
    /// Nodes visited since creation (decision, chance and leaf nodes).
    pub nodes: u64,
}

impl Default for Search {
    fn default() -> Self {
        Self::new()
    }
}

impl Search {
    pub fn new() -> Search {
        Search {
            tt: HashMap::new(),
            nodes: 0,
        }
    }

    /// The best decision at a decision node with a `depth`-decision search,
    /// and its value for player 0. Ties are broken by a shuffle with `rng`.
    /// Returns [`Move::NULL`] and the evaluation elsewhere.
    pub fn best_move<G: Evaluate>(&mut self, g: &G, depth: u32, rng: &mut GameRng) -> (Move, f64) {
        self.tt.clear();
        let Node::Decision(player) = g.node() else {
            return (Move::NULL, evaluate(g));
        };
        let mut ml = MoveList::new();
        g.legal_moves(&mut ml);
        let n = ml.len();
        if n == 0 {
            return (Move::NULL, evaluate(g));
        }
        let mut moves = [Move::NULL; MAX_MOVES];
        moves[..n].copy_from_slice(&ml);
        for i in (1..n).rev() {
            let j = rng.random_range(0..=i);
            moves.swap(i, j);
        }
        let mut scored = [(0i32, Move::NULL); MAX_MOVES];
        for (k, &m) in moves[..n].iter().enumerate() {
            scored[k] = (order_score(g, m), m);
        }
        scored[..n].sort_by_key(|&(s, _)| std::cmp::Reverse(s));
        let mut best = (scored[0].1, 0.0);
        for d in 1..=depth.max(1) {
            // The previous iteration's best first.
            if let Some(k) = scored[..n].iter().position(|&(_, m)| m == best.0) {
                scored[..=k].rotate_right(1);
            }
            let mut alpha = L;
            let mut beta = U;
            let mut cur: Option<(Move, f64)> = None;
            for &(_, m) in &scored[..n] {
                let mut child = g.clone();
                child.play(m);
                let v = self.value(&child, d - 1, alpha, beta);
                let better = match cur {
                    None => true,
                    Some((_, b)) => (player == 0 && v > b) || (player != 0 && v < b),
                };
                if better {
                    cur = Some((m, v));
                    if player == 0 {
                        alpha = alpha.max(v);
                    } else {
                        beta = beta.min(v);
                    }
                }
            }
            if let Some(c) = cur {
                best = c;
            }
        }
        best
    }

    /// The value for player 0 of `g` with `depth` decisions left in the
    /// full window, from an empty table (so it does not depend on earlier
    /// searches). Uses no randomness.
    pub fn root_value<G: Evaluate>(&mut self, g: &G, depth: u32) -> f64 {
        self.tt.clear();
        self.value(g, depth, L, U)
    }

    /// [`Search::root_value`] of several related states (e.g. the outcomes
    /// of one roll) sharing one table, cleared first: states reached from
    /// several of them are searched once. Uses no randomness.
    pub fn root_values<'a, G: Evaluate + 'a>(
        &mut self,
        states: impl IntoIterator<Item = &'a G>,
        depth: u32,
    ) -> Vec<f64> {
        self.tt.clear();
        states
            .into_iter()
            .map(|g| self.value(g, depth, L, U))
            .collect()
    }

    /// The value for player 0 of `g` with `depth` decisions left, searched
    /// in the window `(alpha, beta)` (fail-soft).
    pub fn value<G: Evaluate>(&mut self, g: &G, depth: u32, alpha: f64, beta: f64) -> f64 {
        self.value_chain(g, depth, alpha, beta, MAX_CHANCE_CHAIN)
    }

    fn value_chain<G: Evaluate>(
        &mut self,
        g: &G,
        depth: u32,
        alpha: f64,
        beta: f64,
        chain: u32,
    ) -> f64 {
        self.nodes += 1;
        if crate::interrupt::requested() {
            return 0.0; // discarded by the interrupted caller
        }
        match g.node() {
            Node::Terminal => terminal_value(g),
            Node::Chance if chain == 0 => evaluate(g),
            Node::Chance => self.chance(g, depth, alpha, beta, chain - 1),
            Node::Decision(player) => {
                if depth == 0 {
                    return evaluate(g);
                }
                self.decision(g, player, depth, alpha, beta)
            }
        }
    }

    /// Star1 over the exact distribution: after each outcome, the bounds
    /// `L`/`U` on the outcomes not yet searched give a window for the next
    /// child and cut-offs when the chance node cannot reach the window.
    fn chance<G: Evaluate>(&mut self, g: &G, depth: u32, alpha: f64, beta: f64, chain: u32) -> f64 {
        let mut o = Outcomes::new();
        g.chance_outcomes(&mut o);
        let mut sum = 0.0;
        let mut remaining = 1.0;
        // The static evaluation of the last leaf child: rolls that leave the
        // board as it was (Vegas: every roll) share it.
        let mut last_leaf: Option<(crate::board::Position, u8, u64, f64)> = None;
        for &(id, p) in o.as_slice() {
            if p <= 0.0 {
                continue;
            }
            remaining -= p;
            let rest = remaining.max(0.0);
            let raw_a = (alpha - sum - rest * U) / p;
            let raw_b = (beta - sum - rest * L) / p;
            let mut child = g.clone();
            child.apply_outcome(id);
            let leaf = match child.node() {
                Node::Decision(_) => depth == 0,
                Node::Chance => chain == 0,
                Node::Terminal => false,
            };
            let v = if leaf {
                self.nodes += 1;
                // Everything `evaluate` reads besides the board.
                let (colour, extra) = (child.color_of(0) as u8, child.extra().to_bits());
                match &last_leaf {
                    Some((b, c, e, v)) if *c == colour && *e == extra && b == child.position() => {
                        *v
                    }
                    _ => {
                        let v = evaluate(&child);
                        last_leaf = Some((child.position().clone(), colour, extra, v));
                        v
                    }
                }
            } else {
                self.value_chain(&child, depth, raw_a.max(L), raw_b.min(U), chain)
            };
            sum += p * v;
            if v <= raw_a {
                return sum + rest * U;
            }
            if v >= raw_b {
                return sum + rest * L;
            }
        }
        sum
    }

    fn decision<G: Evaluate>(
        &mut self,
        g: &G,
        player: u8,
        depth: u32,
        mut alpha: f64,
        mut beta: f64,
    ) -> f64 {
        let key = crate::variants::snapshot::state_key(g);
        let mut tt_move: Option<Move> = None;
        if let Some(e) = self.tt.get(&key) {
            if e.depth >= depth {
                match e.bound {
                    Bound::Exact => return e.value,
                    Bound::Lower if e.value >= beta => return e.value,
                    Bound::Upper if e.value <= alpha => return e.value,
                    _ => {}
                }
            }
            tt_move = Some(e.best);
        }
        let mut ml = MoveList::new();
        g.legal_moves(&mut ml);
        let n = ml.len();
        if n == 0 {
            return evaluate(g);
        }
        let mut scored = [(0i32, Move::NULL); MAX_MOVES];
        for (k, &m) in ml.iter().enumerate() {
            let s = if Some(m) == tt_move {
                i32::MAX
            } else {
                order_score(g, m)
            };
            scored[k] = (s, m);
        }
        scored[..n].sort_by_key(|&(s, _)| std::cmp::Reverse(s));
        let (a0, b0) = (alpha, beta);
        let maximise = player == 0;
        let mut best = if maximise {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        let mut best_move = scored[0].1;
        for &(_, m) in &scored[..n] {
            let mut child = g.clone();
            child.play(m);
            let v = self.value(&child, depth - 1, alpha, beta);
            if maximise {
                if v > best {
                    best = v;
                    best_move = m;
                }
                alpha = alpha.max(best);
            } else {
                if v < best {
                    best = v;
                    best_move = m;
                }
                beta = beta.min(best);
            }
            if alpha >= beta {
                break;
            }
        }
        let bound = if best <= a0 {
            Bound::Upper
        } else if best >= b0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        if self.tt.len() >= TT_LIMIT {
            self.tt.clear();
        }
        self.tt.insert(
            key,
            Entry {
                depth,
                value: best,
                bound,
                best: best_move,
            },
        );
        best
    }
}
