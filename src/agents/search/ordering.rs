//! Move ordering: the table move, captures by MVV-LVA, promotions and
//! rotations, two killer moves per ply, then quiet moves by history.

use crate::board::{Move, MoveKind, Position, Role};

/// Deepest ply the per-ply tables cover.
pub const MAX_PLY: usize = 256;

const TT_MOVE: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 24;
const PROMOTION: i32 = 1 << 23;
const KILLER: i32 = 1 << 22;
/// The countermove: after the killers, above every history score.
pub const COUNTER: i32 = KILLER - 1;
/// Captures that lose material by exchange (`see`): after the quiet
/// moves, whose history scores stay above this.
const BAD_CAPTURE: i32 = -(1 << 22);
/// History scores stay below this (halved when one reaches it).
const HISTORY_MAX: i32 = 1 << 20;

/// Ordering value of a victim or attacker (king highest as attacker).
fn rank(r: Role) -> i32 {
    [1, 3, 3, 5, 9, 10][r.index()]
}

/// Whether `m` captures (including en passant) on `p`.
#[inline]
pub fn is_capture(p: &Position, m: Move) -> bool {
    !m.is_null()
        && (matches!(m.kind(), MoveKind::EnPassant) || p.by_color(!p.turn()).contains(m.to()))
}

/// Whether `m` is a capture, promotion or rotation (what quiescence searches).
#[inline]
pub fn is_tactical(p: &Position, m: Move) -> bool {
    is_capture(p, m) || matches!(m.kind(), MoveKind::Promotion(_) | MoveKind::Rotation(_))
}

/// Killer moves and the history table of one search.
pub struct Heuristics {
    killers: Vec<[Move; 2]>,
    /// `history[colour][from][to]`.
    history: Vec<i32>,
    /// `counter[colour][from][to]` of the previous move: the quiet reply
    /// that last refuted it.
    counter: Vec<Move>,
    pub use_killers: bool,
    /// Countermoves are looked up and learned (`countermove` with `prune`).
    pub use_counter: bool,
    pub use_history: bool,
    /// Captures that lose material by exchange go after the quiet moves.
    pub use_see: bool,
}

impl Heuristics {
    pub fn new() -> Heuristics {
        Heuristics {
            killers: vec![[Move::NULL; 2]; MAX_PLY],
            history: vec![0; 2 * 64 * 64],
            counter: vec![Move::NULL; 2 * 64 * 64],
            use_killers: true,
            use_counter: false,
            use_history: true,
            use_see: false,
        }
    }

    /// Forgets everything (a new root search).
    pub fn clear(&mut self) {
        self.killers.fill([Move::NULL; 2]);
        self.history.fill(0);
        self.counter.fill(Move::NULL);
    }

    /// The countermove of `prev`, the move that led to `p` (null when
    /// there is none or countermoves are off).
    #[inline]
    pub fn counter_of(&self, p: &Position, prev: Move) -> Move {
        if !self.use_counter || prev.is_null() {
            return Move::NULL;
        }
        self.counter[Self::hist_index(p, prev)]
    }

    #[inline]
    fn hist_index(p: &Position, m: Move) -> usize {
        (p.turn().index() * 64 + m.from() as usize) * 64 + m.to() as usize
    }

    /// The ordering score of `m` at `ply` (higher first), before the
    /// exchange of a capture is checked (see [`Heuristics::exchange_checked`]).
    #[inline(always)]
    pub fn score(&self, p: &Position, m: Move, tt_move: Move, counter: Move, ply: usize) -> i32 {
        if m == tt_move && !m.is_null() {
            return TT_MOVE;
        }
        if m.is_null() {
            return -1;
        }
        let mut s = 0;
        if is_capture(p, m) {
            let victim = p.role_at(m.to()).map_or(1, rank);
            let attacker = p.role_at(m.from()).map_or(1, rank);
            s += CAPTURE + victim * 16 - attacker;
        }
        if let MoveKind::Promotion(r) | MoveKind::Rotation(r) = m.kind() {
            s += PROMOTION + rank(r);
        }
        if s != 0 {
            return s;
        }
        let ply = ply.min(MAX_PLY - 1);
        if self.use_killers {
            if self.killers[ply][0] == m {
                return KILLER + 1;
            }
            if self.killers[ply][1] == m {
                return KILLER;
            }
        }
        if m == counter {
            return COUNTER;
        }
        if self.use_history {
            self.history[Self::hist_index(p, m)]
        } else {
            0
        }
    }

    /// The score `s` of `m` (from [`Heuristics::score`]) with the exchange
    /// checked (`use_see`): a capture that loses material by exchange goes
    /// after the quiet moves. Checked only for a capture about to be
    /// searched (most are never reached), which orders the moves as checking
    /// every capture first would: a capture's score only falls.
    pub fn exchange_checked(&self, p: &Position, m: Move, s: i32) -> i32 {
        // Captures (with or without promotion), not the table move.
        if !self.use_see || s <= CAPTURE || s >= TT_MOVE {
            return s;
        }
        let victim = p.role_at(m.to()).map_or(1, rank);
        let attacker = p.role_at(m.from()).map_or(1, rank);
        // A victim worth the attacker or more cannot lose the exchange.
        if victim < attacker && !super::see::see_ge(p, m, 0) {
            BAD_CAPTURE + victim * 16 - attacker
        } else {
            s
        }
    }

    /// Moves the best-scored remaining entry of `buf` to `i` and returns
    /// its move (the exchanges of captures checked on the way).
    #[inline]
    pub fn pick(&self, p: &Position, buf: &mut [(i32, Move)], i: usize) -> Move {
        loop {
            // The first of the best scores (the running best kept in a
            // register, not reloaded from the slice).
            let (mut k, mut top) = (i, buf[i].0);
            for (j, &(s, _)) in buf.iter().enumerate().skip(i + 1) {
                if s > top {
                    (k, top) = (j, s);
                }
            }
            let checked = self.exchange_checked(p, buf[k].1, buf[k].0);
            if checked != buf[k].0 {
                // Fell below the quiet moves: look again.
                buf[k].0 = checked;
                continue;
            }
            buf.swap(i, k);
            return buf[i].1;
        }
    }

    /// A quiet move caused a cut-off at `ply` with `depth` left, in reply
    /// to `prev`; `tried` are the moves searched before it, with their
    /// ordering scores (they get a malus).
    pub fn on_cutoff(
        &mut self,
        p: &Position,
        m: Move,
        prev: Move,
        depth: i32,
        ply: usize,
        tried: &[(i32, Move)],
    ) {
        if m.is_null() || is_tactical(p, m) {
            return;
        }
        if self.use_counter && !prev.is_null() {
            self.counter[Self::hist_index(p, prev)] = m;
        }
        let ply = ply.min(MAX_PLY - 1);
        if self.use_killers && self.killers[ply][0] != m {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = m;
        }
        if self.use_history {
            let bonus = (depth * depth).min(400);
            let i = Self::hist_index(p, m);
            self.history[i] += bonus;
            let mut overflow = self.history[i] >= HISTORY_MAX;
            for &(_, q) in tried {
                if !q.is_null() && q != m {
                    let j = Self::hist_index(p, q);
                    self.history[j] -= bonus;
                    overflow |= self.history[j] <= -HISTORY_MAX;
                }
            }
            if overflow {
                self.history.iter_mut().for_each(|h| *h /= 2);
            }
        }
    }
}

impl Default for Heuristics {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{square, MoveList};
    use crate::notation::fen::{parse_fen, FenRules};

    /// A quiet reply that refuted a move is ordered after the killers and
    /// before every quiet move by history, only in reply to that move and
    /// only while countermoves are on.
    #[test]
    fn countermove_orders_between_killers_and_history() {
        let (p, _) = parse_fen(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            &FenRules::CHESS,
        )
        .unwrap();
        let mut ml = MoveList::new();
        p.legal_moves(&mut ml);
        let quiet: Vec<Move> = ml
            .iter()
            .copied()
            .filter(|&m| !is_tactical(&p, m))
            .collect();
        let (reply, killer, other) = (quiet[0], quiet[1], quiet[2]);
        // The previous move (Black's Nc6) and another one.
        let normal = |f: (u8, u8), t: (u8, u8)| {
            Move::new(square(f.0, f.1), square(t.0, t.1), MoveKind::Normal)
        };
        let prev = normal((1, 7), (2, 5));
        let unrelated = normal((6, 7), (5, 5));
        let mut h = Heuristics::new();
        h.use_counter = true;
        // `other` has a large history score; `killer` is the ply's killer.
        for _ in 0..50 {
            h.on_cutoff(&p, other, Move::NULL, 20, 3, &[]);
        }
        h.on_cutoff(&p, killer, Move::NULL, 1, 5, &[]);
        h.on_cutoff(&p, reply, prev, 1, 7, &[]);
        let counter = h.counter_of(&p, prev);
        assert_eq!(counter, reply);
        assert_eq!(h.counter_of(&p, unrelated), Move::NULL);
        let score = |m| h.score(&p, m, Move::NULL, counter, 5);
        assert!(score(killer) > score(reply), "killers first");
        assert!(score(reply) > score(other), "then the countermove");
        assert!(score(other) > 0);
        h.use_counter = false;
        assert_eq!(h.counter_of(&p, prev), Move::NULL);
    }
}
