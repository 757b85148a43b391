//! Quiescence search, move lists and the principal variation.

use super::ordering::{is_tactical, Context};
use super::threats::{king_in_two, takes_in_two};
use super::tt::{Bound, Hit};
use super::{from_tt, Engine, EPS, INF, MATE, QS_EVASIONS, QS_MAX};
use crate::agents::eval::Evaluate;
use crate::board::{Move, MoveKind, MoveList, Role};
use crate::variants::{Node, Player};

/// Delta pruning's margin over the victim's value (centipawns).
const DELTA_MARGIN: f64 = 200.0;

impl Engine {
    /// Quiescence at a decision node of `me`: stand pat, then tactical
    /// moves (every move when in check, near the horizon).
    pub(super) fn quiescence<G: Evaluate>(
        &mut self,
        g: &G,
        depth: i32,
        mut alpha: f64,
        beta: f64,
        me: Player,
        ply: usize,
    ) -> f64 {
        let evasions = depth > -QS_EVASIONS && g.position().is_check();
        let alpha0 = alpha;
        // The table (`qtt`): a result of this depth or deeper that cuts,
        // else the static value and best capture stored with it.
        let key = (self.params.qtt && self.tt.is_some()).then(|| g.search_key());
        let mut known_eval = f64::NAN;
        let mut tt_move = None;
        if let Some(h) = key.and_then(|k| self.tt.as_ref()?.probe(k)) {
            let v = from_tt(h.value, ply);
            if h.depth >= depth && h.bound.cuts(v, alpha, beta) && beta - alpha <= 1.5 * EPS {
                return v;
            }
            known_eval = h.eval;
            tt_move = h.mv;
        }
        let mut best = -INF;
        if !evasions {
            // Two dice left that take the king in two moves (`hking`):
            // quiescence would see only the second move.
            if self.params.hking {
                if let Some(dice) = g.search_dice_left() {
                    if dice.iter().sum::<u8>() >= 2
                        && takes_in_two(&king_in_two(g.position(), &mut MoveList::new()), &dice)
                    {
                        return MATE - (ply + 2) as f64;
                    }
                }
            }
            let moves = g.search_moves_left().min(self.qmate);
            if moves >= 1 {
                let mut ml = MoveList::new();
                if let Some(n) = self.mate_memo.shortest_mate(g.position(), moves, &mut ml) {
                    return MATE - (ply + n as usize) as f64;
                }
            }
            if known_eval.is_nan() {
                known_eval = self.eval.static_value(g, me);
            }
            best = known_eval + self.correction(g, false);
            if best >= beta || depth <= -QS_MAX {
                if let Some(key) = key {
                    let bound = Bound::of(best, alpha0, beta);
                    self.store_result(key, depth, best, bound, None, known_eval, ply);
                }
                return best;
            }
            alpha = alpha.max(best);
        }
        let mut buf = std::mem::take(&mut self.moves[ply]);
        self.fill_moves(g, tt_move, &Context::NONE, ply, !evasions, &mut buf);
        if buf.is_empty() && evasions {
            best = self.eval.static_value(g, me);
        }
        // Delta pruning (`delta`, with `prune` and `see`): a capture whose
        // victim, with a margin, cannot lift the stand-pat to alpha.
        let delta = self.params.delta && self.prune && self.heur.use_see && !evasions;
        let stand_pat = best;
        let mut best_move = None;
        for i in 0..buf.len() {
            let m = self.heur.pick(g.position(), &mut buf, i);
            // A capture that loses material by exchange cannot raise the
            // stand-pat (`see`; evasions are all searched): ordered last
            // with a negative score, so the rest are skipped too.
            if self.heur.use_see && !evasions && buf[i].0 < 0 {
                break;
            }
            if delta && !matches!(m.kind(), MoveKind::Promotion(_)) {
                let pos = g.position();
                let victim = pos.role_at(m.to()).unwrap_or(Role::Pawn);
                if stand_pat + self.eval.piece_value(victim) + DELTA_MARGIN <= alpha {
                    continue;
                }
            }
            let mut child = g.clone();
            child.search_play(m);
            if let (Some(_), Some(t)) = (key, self.tt.as_ref()) {
                t.prefetch(child.search_key());
            }
            let v = self.node(&child, depth - 1, alpha, beta, me, ply + 1, 0);
            if self.stopped {
                self.moves[ply] = buf;
                return 0.0;
            }
            if v > best {
                best = v;
                best_move = Some(m);
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.moves[ply] = buf;
        if let Some(key) = key {
            let bound = Bound::of(best, alpha0, beta);
            self.store_result(key, depth, best, bound, best_move, known_eval, ply);
        }
        best
    }

    /// The legal decisions of `g` with ordering scores (only tactical ones
    /// when `tactical_only`).
    pub(super) fn fill_moves<G: Evaluate>(
        &self,
        g: &G,
        tt_move: Option<Move>,
        ctx: &Context,
        ply: usize,
        tactical_only: bool,
        buf: &mut Vec<(i32, Move)>,
    ) {
        let mut ml = MoveList::new();
        if tactical_only {
            g.search_tactical_candidates(&mut ml);
        } else {
            g.legal_moves(&mut ml);
        }
        let pos = g.position();
        buf.clear();
        for &m in ml.iter() {
            if tactical_only && !is_tactical(pos, m) {
                continue;
            }
            buf.push((self.heur.score(pos, m, tt_move, ctx, ply), m));
        }
    }

    /// The principal variation from the table: `first`, then table moves
    /// while they are legal decisions and no chance node intervenes.
    pub(super) fn principal_variation<G: Evaluate>(
        &self,
        g: &G,
        first: Move,
        max: usize,
    ) -> Vec<Move> {
        let mut pv = Vec::new();
        if first.is_null() && !matches!(g.node(), Node::Decision(_)) {
            return pv;
        }
        let mut s = g.clone();
        let mut ml = MoveList::new();
        let mut m = first;
        while pv.len() < max {
            s.legal_moves(&mut ml);
            if !ml.contains(m) {
                break;
            }
            pv.push(m);
            s.play(m);
            if !matches!(s.node(), Node::Decision(_)) {
                break;
            }
            match self.tt.as_ref().and_then(|t| t.probe(s.search_key())) {
                Some(Hit { mv: Some(next), .. }) => m = next,
                _ => break,
            }
        }
        pv
    }
}
