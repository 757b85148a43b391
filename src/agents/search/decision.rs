//! The decision node ([`Engine::decision`]): the table probe, static
//! value and its correction, the pruning before the moves (reverse
//! futility, null move, internal iterative reduction), singular extensions,
//! and the move loop with its pruning and late-move reductions.

use super::*;

/// Reverse futility (`prune`): deepest depth, and the margin per depth by
/// which the static value must beat beta.
const RFP_DEPTH: i32 = 6;
const RFP_MARGIN: f64 = 90.0;
/// Late-move pruning (`prune`): quiet moves searched at depth 1, 2, 3
/// before the rest are skipped.
const LMP_MOVES: [usize; 4] = [0, 5, 8, 13];
/// Quiet-move futility (`prune`): deepest depth, and the margin per depth
/// a quiet move may add to the static value.
const FUTILITY_DEPTH: i32 = 2;
const FUTILITY_MARGIN: f64 = 120.0;
/// Losing captures (`prune` with `see`): deepest depth, and the material
/// per depth a capture may lose by exchange and still be searched.
const SEE_PRUNE_DEPTH: i32 = 3;
const SEE_PRUNE_MARGIN: i32 = 90;
/// Internal iterative reduction (`iir` with `prune`): shallowest depth.
const IIR_DEPTH: i32 = 4;
/// Null-move pruning in chess (`prune`): the static value's excess over
/// beta that reduces one decision more (at most three).
const NMP_EVAL_STEP: f64 = 200.0;
/// Singular extensions (`singular`): from this depth, with a table entry
/// at most this much shallower.
const SE_DEPTH: i32 = 6;
const SE_TT_SLACK: i32 = 3;
/// How far below the table move's value (centipawns per depth) another
/// move must stay for the table move to be singular.
const SE_MARGIN: f64 = 3.0;

impl Engine {
    /// A decision node of `me`, valued for `me`.
    pub(super) fn decision<G: Evaluate>(
        &mut self,
        g: &G,
        mut depth: i32,
        mut alpha: f64,
        beta: f64,
        me: Player,
        ply: usize,
    ) -> f64 {
        if ply >= MAX_PLY - 2 {
            return self.eval.static_value(g, me);
        }
        if depth <= 0 {
            return if self.params.qsearch {
                self.quiescence(g, depth, alpha, beta, me, ply)
            } else {
                self.eval.static_value(g, me)
            };
        }
        let pv_node = beta - alpha > 1.5 * EPS;
        let key = if self.tt.is_some() { g.search_key() } else { 0 };
        let mut tt_move = None;
        // The static value, when the table has it or this node works it out.
        let mut known_eval = f64::NAN;
        // Testing whether the excluded move is singular: the table's
        // result counts that move, so it neither cuts nor is replaced.
        let excluded = self.excluded[ply];
        let testing = excluded.is_some();
        let mut tt_hit = None;
        if let Some(h) = self.tt.as_ref().and_then(|t| t.probe(key)) {
            tt_move = h.mv;
            known_eval = h.eval;
            debug_assert!(
                known_eval.is_nan()
                    || known_eval.to_bits() == self.eval.static_value(g, me).to_bits()
            );
            let v = from_tt(h.value, ply);
            if !pv_node && !testing && h.depth >= depth && h.bound.cuts(v, alpha, beta) {
                return v;
            }
            tt_hit = Some((v, h.depth, h.bound));
        }
        // Without a table move the ordering is a guess: search one
        // decision less (`iir`, chess); the next visit has the move.
        if self.prune && self.params.iir && depth >= IIR_DEPTH && tt_move.is_none() {
            depth -= 1;
        }
        let in_check = g.position().is_check();
        // Pruning near the leaves at non-PV nodes (`prune`): the static
        // value far above beta fails high at once (reverse futility);
        // far below alpha, quiet moves are skipped below.
        let prune = self.prune && !pv_node && !in_check;
        // Whether the mover's static value rose since its last decision
        // (`improving`, with `prune`): if not, quiet moves are pruned and
        // reduced more; if so, reverse futility needs a smaller margin.
        let track = self.prune && self.params.improving;
        let have_static = (prune && depth <= RFP_DEPTH) || (track && !in_check);
        let static_eval = if have_static {
            if known_eval.is_nan() {
                known_eval = self.eval.static_value(g, me);
            }
            known_eval + self.correction(g, in_check)
        } else {
            0.0
        };
        let improving = if track {
            let e = if in_check { f64::NAN } else { static_eval };
            self.static_evals[ply] = e;
            // Unknown (in check now or then, or the root): improving.
            !(ply >= 2 && e <= self.static_evals[ply - 2])
        } else {
            true
        };
        let rfp_depth = depth - (track && improving) as i32;
        if prune
            && depth <= RFP_DEPTH
            && beta.abs() < MATE_BOUND
            && static_eval - RFP_MARGIN * rfp_depth as f64 >= beta
        {
            return static_eval;
        }
        if self.params.nmp
            && !pv_node
            && !testing
            && !in_check
            && depth >= 3
            && beta.abs() < MATE_BOUND
        {
            // Not with king and pawns only (zugzwang).
            let pos = g.position();
            let pieces =
                pos.by_color(pos.turn()) & !pos.by_role(Role::Pawn) & !pos.by_role(Role::King);
            let null = if pieces.any() { g.search_null() } else { None };
            if let Some(null) = null {
                if known_eval.is_nan() {
                    known_eval = self.eval.static_value(g, me);
                }
                let eval = known_eval + self.correction(g, in_check);
                if eval >= beta {
                    // In chess (`prune` with `adaptive`), more the further
                    // the static value is above beta.
                    let r = 2
                        + depth / 4
                        + if self.prune && self.params.adaptive {
                            (((eval - beta) / NMP_EVAL_STEP) as i32).min(3)
                        } else {
                            0
                        };
                    self.played[ply] = Move::NULL;
                    self.cont_keys[ply] = NO_KEY;
                    let v = self.node(&null, depth - 1 - r, beta - EPS, beta, me, ply + 1, 0);
                    if self.stopped {
                        return 0.0;
                    }
                    if v >= beta {
                        return v.min(MATE_BOUND);
                    }
                }
            }
        }

        // Singular extensions (`singular`, with `prune`): when no other
        // move comes near the table move's lower bound in a reduced
        // search, the table move is searched one decision deeper; when
        // another also beats beta, the node fails high at once.
        let mut singular = false;
        let candidate = tt_hit.filter(|&(v, tt_depth, bound)| {
            self.prune
                && self.params.singular
                && !testing
                && depth >= SE_DEPTH
                && tt_move.is_some()
                && tt_depth >= depth - SE_TT_SLACK
                && bound != Bound::Upper
                && v.abs() < MATE_BOUND
        });
        if let Some((v, _, _)) = candidate {
            let s_beta = v - SE_MARGIN * depth as f64;
            self.excluded[ply] = tt_move;
            let sv = self.decision(g, (depth - 1) / 2, s_beta - EPS, s_beta, me, ply);
            self.excluded[ply] = None;
            if self.stopped {
                return 0.0;
            }
            if sv < s_beta {
                singular = true;
            } else if s_beta >= beta {
                return s_beta;
            }
        }
        let mut buf = std::mem::take(&mut self.moves[ply]);
        let prev = if ply > 0 {
            self.played[ply - 1]
        } else {
            Move::NULL
        };
        let back = |n: usize| ply.checked_sub(n).map_or(NO_KEY, |i| self.cont_keys[i]);
        let ctx = self.heur.context(g.position(), prev, [back(1), back(2)]);
        self.fill_moves(g, tt_move, &ctx, ply, false, &mut buf);
        if buf.is_empty() {
            self.moves[ply] = buf;
            return self.eval.static_value(g, me);
        }
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let pos = g.position();
        // Futility: one decision above the horizon, a move that ends the
        // turn without check leaves the roll to the other player, whose
        // captures and mates on the horizon can only lower the mover's
        // static value, so that value bounds the move's.
        let futile = self.futility && depth == 1 && !in_check;
        let mut quiets = 0;
        // Worked out at the first quiet move that may be skipped.
        let mut checks: Option<see::CheckSquares> = None;
        let mut i = 0;
        while i < buf.len() {
            let m = self.heur.pick(pos, &mut buf, i);
            if excluded == Some(m) {
                i += 1;
                continue;
            }
            let reducible = !in_check && !is_tactical(pos, m);
            // A late quiet move near the leaves, or one that cannot lift
            // the static value to alpha, is not searched unless it may
            // give check. Both tests only get truer along the list (more
            // quiet moves, a higher alpha), so the first skip drops every
            // later quiet move that cannot check, unplayed.
            if prune && reducible && best > -MATE_BOUND {
                quiets += 1;
                let late = (depth as usize) < LMP_MOVES.len()
                    && quiets
                        > if improving {
                            LMP_MOVES[depth as usize]
                        } else {
                            LMP_MOVES[depth as usize] * 2 / 3
                        };
                let futile_quiet = depth <= FUTILITY_DEPTH
                    && static_eval + FUTILITY_MARGIN * depth as f64 <= alpha;
                let skipped = (late || futile_quiet)
                    .then(|| &*checks.get_or_insert_with(|| see::CheckSquares::new(pos)))
                    .filter(|c| !c.may_check(pos, m));
                if let Some(checks) = skipped {
                    if futile_quiet {
                        best = best.max(static_eval);
                    }
                    let mut kept = i;
                    for r in i + 1..buf.len() {
                        let q = buf[r].1;
                        if is_tactical(pos, q) || checks.may_check(pos, q) {
                            buf[kept] = buf[r];
                            kept += 1;
                        }
                    }
                    buf.truncate(kept);
                    continue;
                }
            }
            // A capture near the leaves that loses more than a margin by
            // exchange is not searched either (`prune` with `see`).
            if prune
                && self.heur.use_see
                && !reducible
                && best > -MATE_BOUND
                && depth <= SEE_PRUNE_DEPTH
                && is_capture(pos, m)
                && !see::see_ge(pos, m, -SEE_PRUNE_MARGIN * depth)
            {
                i += 1;
                continue;
            }
            let mut child = g.clone();
            child.search_play(m);
            // The child's table probe comes after the futility test below
            // and the child's own checks: start loading its bucket now.
            if depth >= 2 {
                if let Some(t) = self.tt.as_ref() {
                    t.prefetch(child.search_key());
                }
            }
            if futile
                && i > 0
                && !child.position().is_check()
                && matches!(child.node(), Node::Chance)
                && child.position().turn() != pos.turn()
            {
                let f = self.eval.static_value(&child, me);
                if f <= alpha {
                    best = best.max(f);
                    i += 1;
                    continue;
                }
            }
            self.played[ply] = m;
            self.cont_keys[ply] = self.cont_key(g, m);
            let reduce = reducible.then_some(Reduce {
                order_score: buf[i].0,
                improving,
            });
            let extend = singular && tt_move == Some(m);
            let v = self.child_value(&child, depth, i, reduce, extend, alpha, beta, me, ply);
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
                        self.heur.on_cutoff(pos, m, &ctx, depth, ply, &buf[..i]);
                        break;
                    }
                }
            }
            i += 1;
        }
        self.moves[ply] = buf;
        // What the search found the corrected static value off by, where
        // the bound says so and a quiet move (or none) decided (`corr`).
        let bound = Bound::of(best, alpha0, beta);
        if self.use_corr && have_static && !in_check && !testing && best.abs() < MATE_BOUND {
            let quiet = best_move.is_none_or(|m| !is_tactical(pos, m));
            if quiet
                && !(bound == Bound::Lower && best <= static_eval)
                && !(bound == Bound::Upper && best >= static_eval)
            {
                self.corr.update(pos, depth, best - static_eval);
            }
        }
        if !testing {
            self.store_result(key, depth, best, bound, best_move, known_eval, ply);
        }
        best
    }
}
