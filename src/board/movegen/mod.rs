//! Fully legal move generation with check and pin masks, restricted to a set
//! of roles (the dice variants' "move a piece the die shows").
//!
//! Generation writes into a [`MoveSink`], so the same code fills a
//! [`MoveList`] or just counts moves (bulk counting for perft).

mod pawns;

use super::attacks::*;
use super::moves::{MoveKind, MoveList, KING_DELTAS, KNIGHT_DELTAS};
use super::position::*;
use super::types::*;

/// Receives generated moves: a piece on `from` can go to each of `to`.
pub trait MoveSink {
    /// Moves of one kind from one square to several targets.
    fn add(&mut self, from: Square, to: Bitboard, kind: MoveKind);
    /// A pawn's non-promoting moves: normal moves to `to` (among the three
    /// squares ahead; `fwd` is 8 for White, 56 for Black), then the double
    /// push `two` (at most one square). Sinks that store moves write these
    /// branch-free.
    #[inline(always)]
    fn add_pawn(&mut self, from: Square, fwd: u32, to: Bitboard, two: Bitboard) {
        let _ = fwd;
        self.add(from, to, MoveKind::Normal);
        self.add(from, two, MoveKind::DoublePush);
    }
    /// A knight's or king's normal moves to `to`, all among `from + deltas`
    /// (ascending). Sinks that store moves write these branch-free.
    #[inline(always)]
    fn add_leaper(&mut self, from: Square, to: Bitboard, deltas: &[i8; 8]) {
        let _ = deltas;
        self.add(from, to, MoveKind::Normal);
    }
    /// True once the sink needs no more moves (generation may stop early).
    #[inline(always)]
    fn done(&self) -> bool {
        false
    }
    /// The pseudo-legal generator is about to list the moves of `role` (it
    /// lists them role by role and announces each, even one it skips, until
    /// the sink is done): sinks that keep where each role's moves begin
    /// note it here.
    #[inline(always)]
    fn begin_role(&mut self, role: Role) {
        let _ = role;
    }
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn add(&mut self, from: Square, to: Bitboard, kind: MoveKind) {
        self.push_targets(from, to, kind);
    }
    #[inline(always)]
    fn add_pawn(&mut self, from: Square, fwd: u32, to: Bitboard, two: Bitboard) {
        self.push_pawn(from, fwd, to, two);
    }
    #[inline(always)]
    fn add_leaper(&mut self, from: Square, to: Bitboard, deltas: &[i8; 8]) {
        self.push_leaper(from, to, deltas);
    }
}

/// Counts moves without listing them.
#[derive(Default)]
pub struct MoveCounter(pub u64);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn add(&mut self, _from: Square, to: Bitboard, _kind: MoveKind) {
        self.0 += to.count() as u64;
    }
}

/// Stops at the first move: "is there any legal move?".
#[derive(Default)]
pub struct AnyMove(pub bool);

impl MoveSink for AnyMove {
    #[inline(always)]
    fn add(&mut self, _from: Square, to: Bitboard, _kind: MoveKind) {
        self.0 |= to.any();
    }
    #[inline(always)]
    fn done(&self) -> bool {
        self.0
    }
}

/// Passes on only the moves that land on `within`.
struct Within<'a, S> {
    sink: &'a mut S,
    within: Bitboard,
}

impl<S: MoveSink> MoveSink for Within<'_, S> {
    #[inline(always)]
    fn add(&mut self, from: Square, to: Bitboard, kind: MoveKind) {
        self.sink.add(from, to & self.within, kind);
    }
    #[inline(always)]
    fn done(&self) -> bool {
        self.sink.done()
    }
}

/// The squares a king on `king` lands on by castling (the c- and g-file
/// squares of its rank).
#[inline(always)]
fn castling_targets(king: Square) -> Bitboard {
    Bitboard(0x44u64 << (king & !7))
}

/// Adds the normal moves `targets(from)` of every piece in `pieces`.
#[inline(always)]
fn add_each<S: MoveSink>(pieces: Bitboard, targets: impl Fn(Square) -> Bitboard, sink: &mut S) {
    for from in pieces {
        sink.add(from, targets(from), MoveKind::Normal);
    }
}

impl Position {
    /// All legal moves.
    pub fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        self.generate(RoleSet::ALL, out);
    }

    /// Legal moves of pieces whose role is in `roles` (castling counts as a
    /// king move, a promotion as a pawn move).
    pub fn legal_moves_of(&self, roles: RoleSet, out: &mut MoveList) {
        out.clear();
        self.generate(roles, out);
    }

    /// Number of legal moves (bulk counting).
    pub fn count_legal(&self) -> u64 {
        let mut c = MoveCounter(0);
        self.generate(RoleSet::ALL, &mut c);
        c.0
    }

    /// Whether any legal move of the given roles exists.
    pub fn has_legal_move_of(&self, roles: RoleSet) -> bool {
        let mut a = AnyMove(false);
        self.generate(roles, &mut a);
        a.0
    }

    /// Whether any legal move exists.
    pub fn has_legal_move(&self) -> bool {
        self.has_legal_move_of(RoleSet::ALL)
    }

    /// A cheap sufficient test for "a legal move exists": out of check, a
    /// knight or slider that is not pinned and reaches a square not ours
    /// has a legal move. False means "not shown", not "none": the full
    /// test follows. Answers nearly every position of a real game (the
    /// mate test after every move, which the search pays at every node)
    /// without generating the king's moves first, which `generate` does.
    /// Not part of [`Position::has_legal_move`]: on 5x5 boards of random
    /// play it fails in 70% of the calls, and the full test then works out
    /// checks and pins a second time.
    #[inline]
    pub fn surely_has_legal_move(&self) -> bool {
        let us = self.turn;
        let Some(king) = self.king(us) else {
            return false;
        };
        let ours = self.by_color(us);
        let occ = self.occupied();
        if self.attackers_to(king, us.other(), occ).any() {
            return false;
        }
        let free = !self.pinned(king);
        let target = self.mask & !ours;
        let knights = self.pieces(us, Role::Knight) & free;
        // `Bitboard::any` is "not empty"; this is the iterator's.
        let some = |pieces: Bitboard, reach: &dyn Fn(Square) -> Bitboard| {
            Iterator::any(&mut pieces.into_iter(), |f| (reach(f) & target).any())
        };
        if some(knights, &knight_attacks) {
            return true;
        }
        let queens = self.by_role(Role::Queen);
        let diagonal = (self.by_role(Role::Bishop) | queens) & ours & free;
        if some(diagonal, &|f| bishop_attacks(f, occ)) {
            return true;
        }
        let straight = (self.by_role(Role::Rook) | queens) & ours & free;
        some(straight, &|f| rook_attacks(f, occ))
    }

    /// Our pieces pinned to our king `king`: enemy sliders that see the
    /// king through exactly one of ours.
    #[inline(always)]
    fn pinned(&self, king: Square) -> Bitboard {
        let us = self.turn;
        let ours = self.by_color(us);
        let theirs = self.by_color(us.other());
        let occ = ours | theirs;
        let rq = (self.by_role(Role::Rook) | self.by_role(Role::Queen)) & theirs;
        let bq = (self.by_role(Role::Bishop) | self.by_role(Role::Queen)) & theirs;
        let snipers = (rook_attacks(king, theirs) & rq) | (bishop_attacks(king, theirs) & bq);
        let mut pinned = Bitboard::EMPTY;
        for s in snipers {
            let b = between(king, s) & occ;
            if !b.more_than_one() && (b & ours).any() {
                pinned |= b;
            }
        }
        pinned
    }

    /// Whether an en-passant capture is legal right now.
    pub fn has_legal_ep(&self) -> bool {
        let Some(ep) = self.ep_square() else {
            return false;
        };
        let us = self.turn;
        let Some(king) = self.king(us) else {
            return false;
        };
        let cands = pawn_attacks(us.other(), ep) & self.pieces(us, Role::Pawn);
        Iterator::any(&mut cands.into_iter(), |from| {
            self.ep_is_legal(from, ep, king)
        })
    }

    fn ep_is_legal(&self, from: Square, ep: Square, king: Square) -> bool {
        let us = self.turn;
        let cap_sq = square(file_of(ep), rank_of(from));
        let occ = (self.occupied().without(from).without(cap_sq)).with(ep);
        let them = self.by_color(us.other()).without(cap_sq);
        let rq = (self.by_role(Role::Rook) | self.by_role(Role::Queen)) & them;
        let bq = (self.by_role(Role::Bishop) | self.by_role(Role::Queen)) & them;
        let others = ((knight_attacks(king) & self.by_role(Role::Knight))
            | (pawn_attacks(us, king) & self.by_role(Role::Pawn))
            | (king_attacks(king) & self.by_role(Role::King)))
            & them;
        (rook_attacks(king, occ) & rq).is_empty()
            && (bishop_attacks(king, occ) & bq).is_empty()
            && others.is_empty()
    }

    /// The squares a capture or promotion of the side to move lands on:
    /// the enemy pieces, the promotion rank and the en-passant square (what
    /// the search's quiescence and horizon ask [`Position::legal_moves_within`]
    /// for).
    pub fn tactical_squares(&self) -> Bitboard {
        let us = self.turn;
        let ep = self
            .ep_square()
            .map_or(Bitboard::EMPTY, Bitboard::from_square);
        self.by_color(us.other()) | Bitboard::rank(self.geometry.last_rank(us)) | ep
    }

    /// The legal moves that land on a square of `within` (the search's
    /// quiescence asks for captures and promotions only: most of the full
    /// list's cost is moves it would throw away).
    pub fn legal_moves_within(&self, within: Bitboard, out: &mut MoveList) {
        out.clear();
        self.generate_within(RoleSet::ALL, within, within, out);
    }

    /// The legal captures and promotions (en passant included), and the
    /// pawn moves to the last rank (a Cubic pawn gets there without
    /// promoting), in the order [`Position::legal_moves`] lists them: the
    /// moves of [`Position::legal_moves_within`] the tactical squares
    /// without the other pieces' quiet moves to the last rank. Pieces
    /// other than pawns are only sent to enemy pieces and only the pawns
    /// that can capture or reach the last rank are looked at, which is what
    /// the search's quiescence and horizon pay for at every node.
    pub fn tactical_moves(&self, out: &mut MoveList) {
        out.clear();
        let theirs = self.by_color(self.turn.other());
        self.generate_within(RoleSet::ALL, theirs, self.tactical_squares(), out);
    }

    /// The generator. Assumes the side to move has exactly one king; a
    /// position without one has no moves.
    #[inline]
    pub fn generate<S: MoveSink>(&self, roles: RoleSet, sink: &mut S) {
        self.generate_within(roles, Bitboard::FULL, Bitboard::FULL, sink);
    }

    /// [`Position::generate`], only moves that land on `within` (pieces
    /// other than pawns, castling included) or on `pawns_within` (pawns).
    #[inline(always)]
    fn generate_within<S: MoveSink>(
        &self,
        roles: RoleSet,
        within: Bitboard,
        pawns_within: Bitboard,
        sink: &mut S,
    ) {
        let us = self.turn;
        let them_c = us.other();
        let Some(king) = self.king(us) else {
            return;
        };
        let ours = self.by_color(us);
        let theirs = self.by_color(them_c);
        let occ = ours | theirs;
        let checkers = self.attackers_to(king, them_c, occ);

        if roles.contains(Role::King) {
            self.gen_king(king, within, sink);
        }
        if checkers.more_than_one() || sink.done() {
            return;
        }
        let evasion = match checkers.single() {
            Some(c) => between(king, c).with(c),
            None => self.mask & !ours,
        };
        let target = within & evasion;

        let pinned = self.pinned(king);

        let allowed = |from: Square| -> Bitboard {
            if pinned.contains(from) {
                line(king, from)
            } else {
                Bitboard::FULL
            }
        };

        if roles.contains(Role::Knight) {
            for from in self.pieces(us, Role::Knight) & !pinned {
                sink.add_leaper(from, knight_attacks(from) & target, &KNIGHT_DELTAS);
            }
        }
        if sink.done() {
            return;
        }
        // One call per slider role, each with its attack function inlined
        // (no per-piece `match` on the role, no function pointers).
        let moves = |from: Square, attacks: Bitboard| attacks & target & allowed(from);
        if roles.contains(Role::Bishop) {
            let pieces = self.pieces(us, Role::Bishop);
            add_each(pieces, |f| moves(f, bishop_attacks(f, occ)), sink);
        }
        if roles.contains(Role::Rook) {
            let pieces = self.pieces(us, Role::Rook);
            add_each(pieces, |f| moves(f, rook_attacks(f, occ)), sink);
        }
        if roles.contains(Role::Queen) {
            let pieces = self.pieces(us, Role::Queen);
            add_each(pieces, |f| moves(f, queen_attacks(f, occ)), sink);
        }
        if sink.done() {
            return;
        }
        if roles.contains(Role::Pawn) {
            let pawns = self.pieces(us, Role::Pawn);
            if pawns.any() {
                let target = pawns_within & evasion;
                match self.pawns {
                    PawnStyle::Orthodox => {
                        let ep = self.ep_square().filter(|&e| pawns_within.contains(e));
                        self.gen_pawns_orthodox(king, target, checkers, ep, &allowed, sink)
                    }
                    PawnStyle::Fluky | PawnStyle::Minichess => {
                        self.gen_pawns_fluky(pawns, target, &allowed, sink)
                    }
                    PawnStyle::Cubic => self.gen_pawns_cubic(pawns, target, &allowed, sink),
                }
            }
        }
        if sink.done() {
            return;
        }
        if roles.contains(Role::King) && checkers.is_empty() && self.castling != 0 {
            if within == Bitboard::FULL {
                self.gen_castling(king, sink);
            } else if (within & castling_targets(king)).any() {
                self.gen_castling(king, &mut Within { sink, within });
            }
        }
    }

    #[inline(always)]
    fn gen_king<S: MoveSink>(&self, king: Square, within: Bitboard, sink: &mut S) {
        let us = self.turn;
        let them = us.other();
        let theirs = self.by_color(them);
        let occ = self.occupied().without(king);
        let mut to = king_attacks(king) & self.mask & !self.by_color(us) & within;
        // Every square they attack, with our king off the board (so that it
        // cannot hide behind itself along a slider's line): pawns set-wise
        // and branch-free (`white` is all ones when they are White), then
        // piece by piece. Cheaper than testing each king target for
        // attackers (a rook and a bishop lookup per target): 12% fewer
        // instructions per ply in random chess games.
        let pawns = (self.by_role(Role::Pawn) & theirs).0;
        let white = (them as u64).wrapping_sub(1);
        let (not_a, not_h) = (!Bitboard::file(0).0, !Bitboard::file(7).0);
        let up = ((pawns << 7) & not_h) | ((pawns << 9) & not_a);
        let down = ((pawns >> 9) & not_h) | ((pawns >> 7) & not_a);
        let mut attacked = (up & white) | (down & !white);
        for k in self.by_role(Role::King) & theirs {
            attacked |= king_attacks(k).0;
        }
        to &= !Bitboard(attacked);
        if to.is_empty() {
            // Boxed in (as in the opening): no piece attack to compute.
            return;
        }
        let queens = self.by_role(Role::Queen);
        let rq = (self.by_role(Role::Rook) | queens) & theirs;
        let bq = (self.by_role(Role::Bishop) | queens) & theirs;
        for k in self.by_role(Role::Knight) & theirs {
            attacked |= knight_attacks(k).0;
        }
        for s in rq {
            attacked |= rook_attacks(s, occ).0;
        }
        for s in bq {
            attacked |= bishop_attacks(s, occ).0;
        }
        to &= !Bitboard(attacked);
        sink.add_leaper(king, to, &KING_DELTAS);
    }

    pub(crate) fn gen_castling<S: MoveSink>(&self, king: Square, sink: &mut S) {
        let us = self.turn;
        let (ks, qs, rank) = match us {
            Color::White => (WHITE_KINGSIDE, WHITE_QUEENSIDE, 0),
            Color::Black => (BLACK_KINGSIDE, BLACK_QUEENSIDE, 7),
        };
        if king != square(4, rank) {
            return;
        }
        let occ = self.occupied();
        let rook = Piece::new(us, Role::Rook);
        let safe = |sqs: &[u8]| {
            sqs.iter()
                .all(|&f| !self.is_attacked(square(f, rank), us.other()))
        };
        if self.castling & ks != 0
            && self.piece_at(square(7, rank)) == Some(rook)
            && (occ
                & (Bitboard::from_square(square(5, rank)) | Bitboard::from_square(square(6, rank))))
            .is_empty()
            && safe(&[5, 6])
        {
            sink.add(
                king,
                Bitboard::from_square(square(6, rank)),
                MoveKind::Castle,
            );
        }
        if self.castling & qs != 0
            && self.piece_at(square(0, rank)) == Some(rook)
            && (occ
                & (Bitboard::from_square(square(1, rank))
                    | Bitboard::from_square(square(2, rank))
                    | Bitboard::from_square(square(3, rank))))
            .is_empty()
            && safe(&[2, 3])
        {
            sink.add(
                king,
                Bitboard::from_square(square(2, rank)),
                MoveKind::Castle,
            );
        }
    }
}
