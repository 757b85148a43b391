//! Move ordering: the table move, captures by MVV-LVA, promotions and
//! rotations, two killer moves per ply, then quiet moves by history (in
//! chess also the countermove, and continuation histories: how a quiet move
//! fared after the two previous decisions).

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

/// Continuation histories stay within this (each update moves a score
/// towards it by the bonus's share of the distance: `h += b - h |b| / MAX`).
const CONT_MAX: i32 = 1 << 14;
/// The continuation key of no move (the root, a null move, none played).
pub const NO_KEY: u16 = u16::MAX;
/// Continuation keys: the mover's colour and role, and the target square.
const CONT_KEYS: usize = 2 * 6 * 64;
/// A continuation table's entries for one key: the role and target square
/// of the move that follows (its colour is the key's opponent's or own).
const CONT_MOVES: usize = 6 * 64;

/// The continuation key of `m` on `p` (before it is played): who moves what
/// where.
#[inline]
pub fn cont_key(p: &Position, m: Move) -> u16 {
    match p.role_at(m.from()).filter(|_| !m.is_null()) {
        Some(r) => ((p.turn().index() * 6 + r.index()) * 64 + m.to() as usize) as u16,
        None => NO_KEY,
    }
}

/// What a node's quiet moves are ordered by beyond their own history: the
/// previous decision and its countermove, and the continuation keys of the
/// previous two ([`NO_KEY`] where there is none or the tables are off).
#[derive(Clone, Copy)]
pub struct Context {
    pub prev: Move,
    pub counter: Move,
    pub cont: [u16; 2],
}

impl Context {
    pub const NONE: Context = Context {
        prev: Move::NULL,
        counter: Move::NULL,
        cont: [NO_KEY; 2],
    };
}

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
    /// `cont[n][key of the decision n + 1 plies back][role][to]`
    /// (allocated while continuation histories are on).
    cont: Vec<i16>,
    pub use_killers: bool,
    /// Countermoves are looked up and learned (`countermove` with `prune`).
    pub use_counter: bool,
    /// Continuation histories are read and learned (`conthist` with `prune`).
    pub use_cont: bool,
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
            cont: Vec::new(),
            use_killers: true,
            use_counter: false,
            use_cont: false,
            use_history: true,
            use_see: false,
        }
    }

    /// Forgets everything (a new root search).
    pub fn clear(&mut self) {
        self.killers.fill([Move::NULL; 2]);
        self.history.fill(0);
        self.counter.fill(Move::NULL);
        if self.use_cont {
            self.cont.clear();
            self.cont.resize(2 * CONT_KEYS * CONT_MOVES, 0);
        }
    }

    /// The context of a node reached by decisions with continuation keys
    /// `keys` (the previous first), the previous one `prev`.
    #[inline]
    pub fn context(&self, p: &Position, prev: Move, keys: [u16; 2]) -> Context {
        Context {
            prev,
            counter: self.counter_of(p, prev),
            cont: if self.use_cont { keys } else { [NO_KEY; 2] },
        }
    }

    /// Where continuation table `n` holds quiet move `m` of `p` after a
    /// decision with key `key`.
    #[inline]
    fn cont_index(p: &Position, m: Move, n: usize, key: u16) -> Option<usize> {
        let r = p.role_at(m.from())?;
        (key != NO_KEY)
            .then(|| (n * CONT_KEYS + key as usize) * CONT_MOVES + r.index() * 64 + m.to() as usize)
    }

    /// The continuation histories' score of quiet move `m` in `ctx`.
    #[inline]
    fn cont_score(&self, p: &Position, m: Move, ctx: &Context) -> i32 {
        let mut s = 0;
        for (n, &key) in ctx.cont.iter().enumerate() {
            if let Some(i) = Self::cont_index(p, m, n, key) {
                s += self.cont[i] as i32;
            }
        }
        s
    }

    /// Moves continuation entry `i` by `bonus` (towards ±[`CONT_MAX`]).
    #[inline]
    fn cont_update(&mut self, i: usize, bonus: i32) {
        let h = self.cont[i] as i32;
        self.cont[i] = (h + bonus - h * bonus.abs() / CONT_MAX) as i16;
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
    pub fn score(
        &self,
        p: &Position,
        m: Move,
        tt_move: Option<Move>,
        ctx: &Context,
        ply: usize,
    ) -> i32 {
        if tt_move == Some(m) {
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
        if m == ctx.counter {
            return COUNTER;
        }
        let cont = if ctx.cont == [NO_KEY; 2] {
            0
        } else {
            self.cont_score(p, m, ctx)
        };
        if self.use_history {
            self.history[Self::hist_index(p, m)] + cont
        } else {
            cont
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

    /// A quiet move caused a cut-off at `ply` with `depth` left, in `ctx`
    /// (in reply to `ctx.prev`); `tried` are the moves searched before it,
    /// with their ordering scores (they get a malus).
    pub fn on_cutoff(
        &mut self,
        p: &Position,
        m: Move,
        ctx: &Context,
        depth: i32,
        ply: usize,
        tried: &[(i32, Move)],
    ) {
        if m.is_null() || is_tactical(p, m) {
            return;
        }
        if self.use_counter && !ctx.prev.is_null() {
            self.counter[Self::hist_index(p, ctx.prev)] = m;
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
        if self.use_cont {
            let bonus = (depth * depth).min(400);
            for (n, &key) in ctx.cont.iter().enumerate() {
                if let Some(i) = Self::cont_index(p, m, n, key) {
                    self.cont_update(i, bonus);
                }
                for &(_, q) in tried {
                    if q != m && !is_tactical(p, q) {
                        if let Some(j) = Self::cont_index(p, q, n, key) {
                            self.cont_update(j, -bonus);
                        }
                    }
                }
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

    /// The position after 1.e4 e5 2.Nf3 Nc6 and White's quiet moves there.
    fn italian_quiet_moves() -> (Position, Vec<Move>) {
        let (p, _) = parse_fen(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            &FenRules::CHESS,
        )
        .unwrap();
        let mut ml = MoveList::new();
        p.legal_moves(&mut ml);
        let quiet = ml
            .iter()
            .copied()
            .filter(|&m| !is_tactical(&p, m))
            .collect();
        (p, quiet)
    }

    /// A quiet reply that refuted a move is ordered after the killers and
    /// before every quiet move by history, only in reply to that move and
    /// only while countermoves are on.
    #[test]
    fn countermove_orders_between_killers_and_history() {
        let (p, quiet) = italian_quiet_moves();
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
        let none = Context::NONE;
        for _ in 0..50 {
            h.on_cutoff(&p, other, &none, 20, 3, &[]);
        }
        h.on_cutoff(&p, killer, &none, 1, 5, &[]);
        h.on_cutoff(&p, reply, &h.context(&p, prev, [NO_KEY; 2]), 1, 7, &[]);
        let counter = h.counter_of(&p, prev);
        assert_eq!(counter, reply);
        assert_eq!(h.counter_of(&p, unrelated), Move::NULL);
        let ctx = h.context(&p, prev, [NO_KEY; 2]);
        let score = |m| h.score(&p, m, None, &ctx, 5);
        assert!(score(killer) > score(reply), "killers first");
        assert!(score(reply) > score(other), "then the countermove");
        assert!(score(other) > 0);
        h.use_counter = false;
        assert_eq!(h.counter_of(&p, prev), Move::NULL);
    }

    /// A quiet move that refuted a decision is ordered above one that did
    /// not, only after a decision with the same continuation key; the move
    /// tried before it falls below zero; the scores stay within the bound.
    #[test]
    fn continuation_history_follows_the_previous_decisions() {
        let (p, quiet) = italian_quiet_moves();
        let (good, tried, other) = (quiet[0], quiet[1], quiet[2]);
        // Keys of Black's Nc6 and of White's Nf3 before it.
        let key = |c: usize, r: Role, to: (u8, u8)| {
            ((c * 6 + r.index()) * 64 + square(to.0, to.1) as usize) as u16
        };
        let keys = [key(1, Role::Knight, (2, 5)), key(0, Role::Knight, (5, 2))];
        let elsewhere = [key(1, Role::Bishop, (2, 5)), NO_KEY];
        let mut h = Heuristics::new();
        h.use_history = false;
        h.use_killers = false;
        h.use_cont = true;
        h.clear();
        let ctx = h.context(&p, Move::NULL, keys);
        let tried_list = [(0, tried)];
        for _ in 0..200 {
            h.on_cutoff(&p, good, &ctx, 20, 3, &tried_list);
        }
        let score =
            |h: &Heuristics, m, keys| h.score(&p, m, None, &h.context(&p, Move::NULL, keys), 3);
        assert!(score(&h, good, keys) > 0);
        assert!(score(&h, good, keys) <= 2 * CONT_MAX);
        assert!(score(&h, tried, keys) < 0);
        assert!(score(&h, tried, keys) >= -2 * CONT_MAX);
        assert_eq!(score(&h, other, keys), 0);
        assert_eq!(score(&h, good, elsewhere), 0);
        assert_eq!(score(&h, good, [NO_KEY; 2]), 0);
        // Off: no score, nothing learned.
        h.use_cont = false;
        assert_eq!(score(&h, good, keys), 0);
        assert_eq!(cont_key(&p, Move::NULL), NO_KEY);
        let ng5 = Move::new(square(5, 2), square(6, 4), MoveKind::Normal);
        assert_eq!(cont_key(&p, ng5), key(0, Role::Knight, (6, 4)));
        // No piece on the from-square: no key.
        let empty = Move::new(square(6, 0), square(5, 2), MoveKind::Normal);
        assert_eq!(cont_key(&p, empty), NO_KEY);
    }
}
