//! The maximum-dice rule of three-dice DiceChess: a player must use as many
//! dice as possible over the turn, so a move is legal only if the rest of
//! the turn can still use the maximum (king captures excepted: they end the
//! game). A king capture ends a turn, so a sequence through one counts the
//! dice used up to it.
//!
//! [`max_with_chain`] computes the maximum once per roll together with the
//! first decision's moves (one move generation for both; the game keeps the
//! list); [`keep_legal`] filters a decision's moves, and [`LegalTest`]
//! tests single moves (random decisions test only the moves they draw). Most cases are settled by a cheap
//! witness ([`super::witness`]): moves of the remaining dice, taken from
//! the current move list, that the moves before them cannot disturb (they
//! touch none of the squares those change or cross); only the rest go
//! through the exact search ([`can_use`]).

use super::after::{has_move_after, play_within_turn};
use super::shut::{frees, ShutIn};
use super::witness::{changed_squares, footprint, freed_chain, reversible, Chain, Witnesses};
use crate::board::position::{BLACK_KINGSIDE, BLACK_QUEENSIDE, WHITE_KINGSIDE, WHITE_QUEENSIDE};
use crate::board::{
    square, Bitboard, Color, Move, MoveKind, MoveList, MoveSink, Piece, Position, Role, RoleSet,
    Square,
};

pub use super::faces::{captures_king, face_of, roles_left, DiceLeft};

/// Whether the dice `left` can be used `need` times in a row from `pos`
/// (exact search).
pub fn can_use(pos: &Position, left: &DiceLeft, need: u8) -> bool {
    match need {
        0 => return true,
        1 => return pos.has_pseudo_move_of(roles_left(left)),
        2 => return can_use_two(pos, left),
        _ => {}
    }
    let mut ml = MoveList::new();
    for f in 0..6 {
        if left.get(f) == 0 {
            continue;
        }
        pos.pseudo_moves_of(Role::from_index(f).bit(), &mut ml);
        let mut rest = *left;
        rest.take(f);
        for &m in ml.iter() {
            if captures_king(pos, m) {
                continue; // ends the turn after one die
            }
            let mut p = pos.clone();
            play_within_turn(&mut p, m);
            if can_use(&p, &rest, need - 1) {
                return true;
            }
        }
    }
    false
}

/// [`can_use`] for two dice: each move of a first die is tested as the
/// generator finds it (no move list to fill, and generation stops at the
/// first that leaves the last die a move).
fn can_use_two(pos: &Position, left: &DiceLeft) -> bool {
    let mut s = SecondDie {
        pos,
        left,
        rest: *left,
        last: RoleSet::EMPTY,
        shut: None,
        found: false,
    };
    for f in 0..6 {
        if left.get(f) == 0 {
            continue;
        }
        s.rest = *left;
        s.rest.take(f);
        s.last = roles_left(&s.rest);
        pos.generate_pseudo(Role::from_index(f).bit(), &mut s);
        if s.found {
            return true;
        }
    }
    false
}

/// The move sink of [`can_use_two`] for one face of the first die.
struct SecondDie<'a> {
    pos: &'a Position,
    left: &'a DiceLeft,
    /// The dice after one of this face, and their roles.
    rest: DiceLeft,
    last: RoleSet,
    /// Built after a first failure: most searches that fail try moves that
    /// leave the last die's pieces as shut in as they were.
    shut: Option<ShutIn>,
    found: bool,
}

impl MoveSink for SecondDie<'_> {
    #[inline(always)]
    fn add(&mut self, from: Square, to: Bitboard, kind: MoveKind) {
        for t in to {
            if self.found {
                return;
            }
            let m = Move::new(from, t, kind);
            if captures_king(self.pos, m) // ends the turn after one die
                || self.shut.as_ref().is_some_and(|s| s.stays_shut(&self.rest, m))
            {
                continue;
            }
            if has_move_after(self.pos, m, self.last) {
                self.found = true;
                return;
            }
            if self.shut.is_none() {
                self.shut = Some(ShutIn::new(self.pos, self.left));
            }
        }
    }
    #[inline(always)]
    fn done(&self) -> bool {
        self.found
    }
}

/// The most dice the turn can use from here.
pub fn max_usable(pos: &Position, left: &DiceLeft) -> u8 {
    let mut list = MoveList::new();
    pos.pseudo_moves_of(roles_left(left), &mut list);
    max_with_chain(pos, left, &Witnesses::new(pos, &list)).0
}

/// The turn's maximum from here, given the witnesses `wit` of the first
/// decision's candidates, the pseudo-legal moves of the dice `left` (a roll
/// needs both: one move generation and one set of witnesses; [`keep_legal`] with the
/// maximum gives the legal moves, a random decision tests only the moves it
/// draws, [`LegalTest`]). With the maximum comes the witness chain that
/// showed it, if one did: a first move clear of its squares keeps the
/// maximum ([`Chain::squares_without`]).
///
/// Where no witness chain shows that `k` dice can be used, `k` is reachable
/// exactly when a move that does not take the king keeps `k` (the first
/// such move found settles it).
pub fn max_with_chain(pos: &Position, left: &DiceLeft, wit: &Witnesses) -> (u8, Option<Chain>) {
    let list = wit.list();
    let mut steps = Chain::default();
    let mut chained = |k: u8| {
        steps = Chain::default();
        wit.chain_steps(pos, Bitboard::EMPTY, left, k, &mut steps)
            .is_some()
    };
    // A chain of all the dice needs no bound (the usual case).
    let all = left.total();
    if all >= 2 && wit.covers(left) && chained(all) {
        return (all, Some(steps));
    }
    let (bound, freeing) = usable_bound(pos, left, wit.faces());
    for k in (2..=bound).rev() {
        if k < all && chained(k) {
            return (k, Some(steps));
        }
        // `k` dice can be used exactly when a move that does not take the
        // king keeps `k`: the first one found settles it. Moves that free
        // a shut-in face are tried first: where one is needed, the others
        // fail (each after a search).
        let mut test = LegalTest::new(pos, wit, left, k);
        let mut keeps = |&m: &Move| !captures_king(pos, m) && test.is_legal(m);
        let frees = |m: &&Move| freeing.contains(m.from());
        if list.iter().filter(frees).any(&mut keeps) || list.iter().filter(|m| !frees(m)).any(keeps)
        {
            return (k, None);
        }
    }
    // One die at most: any move will do.
    ((bound > 0 && !list.is_empty()) as u8, None)
}

/// Keeps the moves of `list` (the pseudo-legal moves of the dice `left`,
/// whose witnesses are `wit`) after which the rest of the turn can still
/// use `need - 1` dice, and king captures.
pub fn keep_legal(pos: &Position, wit: &Witnesses, left: &DiceLeft, need: u8, list: &mut MoveList) {
    if need <= 1 {
        return; // every move uses one die and nothing more is possible
    }
    let mut test = LegalTest::new(pos, wit, left, need);
    list.retain(|m| test.is_legal(m));
}

/// Whether `mv`, a pseudo-legal move of the dice `left`, is legal when the
/// turn can still use two of them: it takes the king, or a die of the rest
/// can move after it (exact, on bitboards: [`has_move_after`]).
#[inline]
pub fn keeps_two(pos: &Position, left: &DiceLeft, mv: Move) -> bool {
    let mut rest = *left;
    rest.take(face_of(pos, mv));
    captures_king(pos, mv) || has_move_after(pos, mv, roles_left(&rest))
}

/// The maximum-dice rule for single moves of one decision: which of the
/// pseudo-legal moves of the dice `left` keep the turn's maximum `need`
/// (king captures always do). What one test finds (each face's witness
/// chain of the other dice, the shut-in faces) serves the next.
pub struct LegalTest<'a> {
    pos: &'a Position,
    wit: &'a Witnesses<'a>,
    left: &'a DiceLeft,
    need: u8,
    king: Option<Square>,
    /// Each face's chain of the other dice, found when a move of it asks.
    chains: [Option<Option<Bitboard>>; 6],
    shut: Option<ShutIn>,
}

impl<'a> LegalTest<'a> {
    /// The test for the moves in `pos` of the dice `left` whose witnesses
    /// are `wit`, when the turn can still use `need` of them.
    pub fn new(
        pos: &'a Position,
        wit: &'a Witnesses<'a>,
        left: &'a DiceLeft,
        need: u8,
    ) -> LegalTest<'a> {
        LegalTest {
            pos,
            wit,
            left,
            need,
            king: pos.king(pos.turn().other()),
            chains: [None; 6],
            shut: None,
        }
    }

    /// Whether `m`, a pseudo-legal move of the dice left, is legal.
    #[inline]
    pub fn is_legal(&mut self, m: Move) -> bool {
        self.need <= 1
            || Some(m.to()) == self.king
            || keeps_maximum(
                self.pos,
                self.wit,
                &mut self.chains,
                &mut self.shut,
                self.left,
                m,
                self.need - 1,
            )
    }
}

/// An upper bound on the dice usable this turn: dice of faces that can move
/// now, or that a move of another live face could free (it leaves a square
/// that shuts them in), or that a promotion could create; a king die also
/// when castling could come within the turn ([`castling_reachable`]; a
/// block of an attack line can allow it, so attacks are not asked). The
/// faces that can move now are `moving` (as bits). With the bound, the
/// squares whose leaving could free a face that counts.
fn usable_bound(pos: &Position, left: &DiceLeft, moving: u8) -> (u8, Bitboard) {
    let us = pos.turn();
    // Faces as bits: those with dice left, and the live ones.
    let have = roles_left(left).0;
    let mut live = moving;
    let pawns = pos.pieces(us, Role::Pawn);
    // A pawn that can promote before another die: one step from the last
    // rank, or two with two pawn dice (a pawn moves one rank per die).
    let (seventh, sixth) = match us {
        Color::White => (Bitboard::rank(6), Bitboard::rank(5)),
        Color::Black => (Bitboard::rank(1), Bitboard::rank(2)),
    };
    let promotable = (pawns & seventh).any() || left.get(0) >= 2 && (pawns & sixth).any();
    // Two moves before a die (capturing what blocks a pawn and moving on)
    // need two dice of one face.
    let moves = if left.has_pair() { 2 } else { 1 };
    let mut freeing = Bitboard::EMPTY;
    for _ in 0..2 {
        if have & 32 != 0 && castling_reachable(pos, left, live) {
            live |= 32;
        }
        let mut movers = Bitboard::EMPTY;
        let mut faces = live & have;
        while faces != 0 {
            let f = faces.trailing_zeros() as usize;
            faces &= faces - 1;
            movers |= pos.pieces(us, Role::from_index(f));
        }
        // Castling (a king die) moves a rook too, and can free what its
        // square shuts in.
        if live & have & 32 != 0 && pos.castling_rights() != 0 {
            movers |= pos.pieces(us, Role::Rook);
        }
        let promo = live & have & 1 != 0 && promotable;
        let mut dead = have & !live;
        while dead != 0 {
            let f = dead.trailing_zeros() as usize;
            dead &= dead - 1;
            let lift = frees(pos, f, moves) & movers;
            if promo && (1..5).contains(&f) || lift.any() {
                live |= 1 << f;
                freeing |= lift;
            }
        }
    }
    ((0..6).map(|f| left.get(f) * (live >> f & 1)).sum(), freeing)
}

/// Whether the side to move could castle within the turn, given the faces
/// that are `live` (can be used in it): it keeps the right, its king and
/// that rook stand on their squares (a move from or to either square loses
/// the right), and each own piece between them is of a live face, with a
/// die of its face each to leave (an enemy piece between is not ruled out).
fn castling_reachable(pos: &Position, left: &DiceLeft, live: u8) -> bool {
    let us = pos.turn();
    let (kingside, queenside, rank) = match us {
        Color::White => (WHITE_KINGSIDE, WHITE_QUEENSIDE, 0),
        Color::Black => (BLACK_KINGSIDE, BLACK_QUEENSIDE, 7),
    };
    let rights = pos.castling_rights();
    if rights & (kingside | queenside) == 0
        || pos.piece_at(square(4, rank)) != Some(Piece::new(us, Role::King))
    {
        return false;
    }
    let sides: [(u8, u8, &[u8]); 2] = [(kingside, 7, &[5, 6]), (queenside, 0, &[1, 2, 3])];
    sides.iter().any(|&(right, rook, between)| {
        let mut need = [0u8; 6];
        rights & right != 0
            && pos.piece_at(square(rook, rank)) == Some(Piece::new(us, Role::Rook))
            && between
                .iter()
                .all(|&file| match pos.piece_at(square(file, rank)) {
                    Some(p) if p.color == us => {
                        let g = p.role.index();
                        need[g] += 1;
                        live >> g & 1 != 0 && need[g] <= left.get(g)
                    }
                    _ => true,
                })
    })
}

/// Whether, after `mv` (a move of the dice `left`), the rest of the dice can
/// still be used `need` more times. `wit` holds the witnesses of the current
/// move list, `chains` the [`Witnesses::chain_without`] of each face (filled
/// in here on first use).
fn keeps_maximum(
    pos: &Position,
    wit: &Witnesses,
    chains: &mut [Option<Option<Bitboard>>; 6],
    shut: &mut Option<ShutIn>,
    left: &DiceLeft,
    mv: Move,
    need: u8,
) -> bool {
    let face = face_of(pos, mv);
    let changed = changed_squares(mv, pos.turn());
    let mut rest = *left;
    rest.take(face);
    let chain = *chains[face].get_or_insert_with(|| wit.chain_without(pos, left, face, need));
    match chain {
        Some(squares) if (squares & changed).is_empty() => return true,
        // A chain that must also avoid `changed` exists only if one exists.
        Some(_) if wit.chain(pos, changed, &rest, need).is_some() => return true,
        _ => {}
    }
    // The moved piece back and forth with the dice of its face left, then
    // a chain of the other dice clear of every square the move needed.
    if rest.get(face) > 0 && reversible(pos, mv) {
        let k = rest.get(face).min(need);
        let others = rest.without_face(face);
        if k == need || wit.chain(pos, footprint(mv), &others, need - k).is_some() {
            return true;
        }
    }
    if need == 1 {
        return has_move_after(pos, mv, roles_left(&rest));
    }
    if freed_chain(pos, wit, mv, &rest, changed, need) {
        return true;
    }
    // Dice whose pieces are all shut in, and `mv` frees none: no search.
    let shut = shut.get_or_insert_with(|| ShutIn::new(pos, left));
    if shut.stays_shut(&rest, mv) || need == 2 && shut.pair_stays_shut(pos, &rest, mv) {
        return false;
    }
    let mut p = pos.clone();
    play_within_turn(&mut p, mv);
    can_use(&p, &rest, need)
}
