//! Witnesses of the maximum-dice rule (docs/rules.md §10): cheap proofs
//! that the rest of a turn can still use its dice. A witness is a move of a
//! remaining die taken from the current move list; a chain of witnesses
//! that touch none of the squares the moves before them change or cross
//! (nor each other's) can be played one after the other, so it shows that
//! the dice can be used without playing anything out. Sufficient, never
//! necessary: what no witness settles goes to the exact search (`can_use`
//! in the turn module).

use super::faces::{captures_king, face_of, roles_left, DiceLeft};
use crate::board::attacks::{between, bishop_attacks, king_attacks, knight_attacks, rook_attacks};
use crate::board::{Bitboard, Color, Move, MoveKind, Position, Role, Square};

/// The squares a move changes: from, to, the castling rook's squares, the
/// pawn taken en passant.
#[inline(always)]
pub(super) fn changed_squares(mv: Move, turn: Color) -> Bitboard {
    let (from, to) = (mv.from(), mv.to());
    let b = Bitboard::from_square(from).with(to);
    if !mv.is_castle_or_en_passant() {
        return b; // the usual case, without a match on the kind
    }
    match mv.kind() {
        MoveKind::Castle => {
            let rank = from & !7;
            if to > from {
                b.with(rank + 7).with(rank + 5)
            } else {
                b.with(rank).with(rank + 3)
            }
        }
        MoveKind::EnPassant => b.with(match turn {
            Color::White => to - 8,
            Color::Black => to + 8,
        }),
        _ => b,
    }
}

/// Whether the piece `mv` moves can move straight back afterwards (its
/// from square is then empty and the squares crossed are unchanged): any
/// plain move of a piece but a pawn.
#[inline(always)]
pub(super) fn reversible(pos: &Position, mv: Move) -> bool {
    // A plain move not a pawn's is a normal move (a double step is a pawn's).
    mv.is_plain() && pos.role_at(mv.from()) != Some(Role::Pawn)
}

/// The squares a move needs as they are: from, to and the squares crossed.
#[inline(always)]
pub(super) fn footprint(mv: Move) -> Bitboard {
    between(mv.from(), mv.to()).with(mv.from()).with(mv.to())
}

/// Witness candidates: up to eight moves per face from a move list, at
/// most two per piece, no castling or en passant (their conditions reach
/// beyond the squares they touch). Read off the list lazily: a chain
/// usually takes the first witness of each face it asks, so picking the
/// rest of the list up front would be wasted.
pub struct Witnesses<'a> {
    /// Pseudo-legal moves listed face by face (as the generator lists them).
    list: &'a [Move],
    /// Where each face's moves begin in `list`, then where they end.
    bounds: [u16; 7],
    /// The faces (bits) with moves in the list.
    faces: u8,
}

impl<'a> Witnesses<'a> {
    /// The witnesses among `list`, the moves in `pos` of some faces listed
    /// face by face (each face's moves found by counting).
    pub fn new(pos: &Position, list: &'a [Move]) -> Witnesses<'a> {
        let mut count = [0u16; 6];
        for &m in list {
            count[face_of(pos, m)] += 1;
        }
        let mut starts = [0u16; 6];
        for f in 1..6 {
            starts[f] = starts[f - 1] + count[f - 1];
        }
        Witnesses::with_starts(list, starts)
    }

    /// The witnesses among `list`, listed face by face, face `f`'s moves
    /// beginning at `starts[f]` (as the generator announced them).
    pub fn with_starts(list: &'a [Move], starts: [u16; 6]) -> Witnesses<'a> {
        let mut bounds = [list.len() as u16; 7];
        bounds[..6].copy_from_slice(&starts);
        let mut faces = 0u8;
        for f in 0..6 {
            faces |= ((bounds[f] < bounds[f + 1]) as u8) << f;
        }
        Witnesses {
            list,
            bounds,
            faces,
        }
    }

    /// The faces (bits) with moves in the list.
    #[inline(always)]
    pub fn faces(&self) -> u8 {
        self.faces
    }

    /// The moves the witnesses are taken from.
    #[inline(always)]
    pub fn list(&self) -> &'a [Move] {
        self.list
    }

    /// Face `f`'s witnesses, in list order.
    #[inline(always)]
    fn of_face(&self, f: usize) -> FaceWitnesses<'a> {
        FaceWitnesses {
            moves: self.list[self.bounds[f] as usize..self.bounds[f + 1] as usize].iter(),
            from: u8::MAX,
            per_piece: 0,
            left: 8,
        }
    }

    /// Whether `need` dice of `rest` can be used by witnesses one after the
    /// other, none touching a square changed before (`touched`) or used by
    /// another, none but the last taking the king: if so, `touched` and the
    /// squares of the chain found. Sufficient, not necessary: a `None` is
    /// settled by the exact search.
    pub fn chain(
        &self,
        pos: &Position,
        touched: Bitboard,
        rest: &DiceLeft,
        need: u8,
    ) -> Option<Bitboard> {
        self.chain_steps(pos, touched, rest, need, &mut Chain::default())
    }

    /// [`Witnesses::chain`] that also writes the chain's steps to `steps`
    /// (when there is a chain; each level records its step on the way back).
    pub fn chain_steps(
        &self,
        pos: &Position,
        touched: Bitboard,
        rest: &DiceLeft,
        need: u8,
        steps: &mut Chain,
    ) -> Option<Bitboard> {
        // One entry per number of dice (three at most): each level calls
        // the next one's directly (no test of `need` on the way down).
        debug_assert!(need <= 3, "a turn has three dice");
        match need {
            0 => Some(touched),
            1 => self.last_step(touched, roles_left(rest).0 & self.faces, steps),
            2 => self.chain_of::<2>(pos, touched, rest, steps),
            _ => self.chain_of::<3>(pos, touched, rest, steps),
        }
    }

    /// [`Witnesses::chain_steps`] for `NEED` dice, two or three: a witness
    /// of a face of `rest` clear of `touched`, then a chain of the others.
    #[inline(never)]
    fn chain_of<const NEED: u8>(
        &self,
        pos: &Position,
        touched: Bitboard,
        rest: &DiceLeft,
        steps: &mut Chain,
    ) -> Option<Bitboard> {
        // The faces of `rest` with witnesses, in order, as set bits.
        let mut faces = roles_left(rest).0 & self.faces;
        while faces != 0 {
            let f = faces.trailing_zeros() as usize;
            faces &= faces - 1;
            for w in self.of_face(f) {
                let fp = footprint(w);
                if (fp & touched).any() || captures_king(pos, w) {
                    continue;
                }
                let mut rest2 = *rest;
                rest2.take(f);
                let next = match NEED {
                    2 => self.last_step(touched | fp, roles_left(&rest2).0 & self.faces, steps),
                    _ => self.chain_of::<2>(pos, touched | fp, &rest2, steps),
                };
                if let Some(squares) = next {
                    steps.push(f, 1, fp);
                    return Some(squares);
                }
                // The same piece back and forth with the other dice of its
                // face (a single piece can use them all), the rest by
                // witnesses clear of it.
                if rest2.get(f) > 0 && reversible(pos, w) {
                    let k = rest2.get(f).min(NEED - 1);
                    if k == NEED - 1 {
                        steps.push(f, 1 + k, fp);
                        return Some(touched | fp);
                    }
                    let rest2 = rest2.without_face(f);
                    if let Some(squares) =
                        self.chain_steps(pos, touched | fp, &rest2, NEED - 1 - k, steps)
                    {
                        steps.push(f, 1 + k, fp);
                        return Some(squares);
                    }
                }
            }
        }
        None
    }

    /// The last step of a chain: any move of a face of `faces` but
    /// castling and en passant clear of `touched` (the first found; no
    /// limit per piece: nothing follows it, so trying every move costs no
    /// search).
    fn last_step(&self, touched: Bitboard, mut faces: u8, steps: &mut Chain) -> Option<Bitboard> {
        while faces != 0 {
            let f = faces.trailing_zeros() as usize;
            faces &= faces - 1;
            let moves = &self.list[self.bounds[f] as usize..self.bounds[f + 1] as usize];
            for &w in moves {
                let fp = footprint(w);
                if (fp & touched).is_empty() && !w.is_castle_or_en_passant() {
                    steps.push(f, 1, fp);
                    return Some(touched | fp);
                }
            }
        }
        None
    }

    /// The squares of one witness chain that uses `need` of the dice
    /// `left` but one of face `f` (`None`: no chain). A move of that face
    /// that changes none of these squares keeps the chain valid, so it
    /// keeps the maximum without a search of its own.
    pub(super) fn chain_without(
        &self,
        pos: &Position,
        left: &DiceLeft,
        f: usize,
        need: u8,
    ) -> Option<Bitboard> {
        let mut rest = *left;
        rest.take(f);
        if need == rest.total() && !self.covers(&rest) {
            return None;
        }
        self.chain(pos, Bitboard::EMPTY, &rest, need)
    }

    /// Whether every face of the dice `left` has a witness (a chain that
    /// uses them all needs one of each).
    pub(super) fn covers(&self, left: &DiceLeft) -> bool {
        roles_left(left).0 & !self.faces == 0
    }
}

/// One face's witnesses ([`Witnesses`]): its moves but castling and en
/// passant, at most two per piece (a piece's moves come one after the
/// other) and eight in all.
struct FaceWitnesses<'a> {
    moves: std::slice::Iter<'a, Move>,
    /// The piece of the last witness, and how many it gave.
    from: Square,
    per_piece: u8,
    /// Witnesses still to give.
    left: u8,
}

impl Iterator for FaceWitnesses<'_> {
    type Item = Move;
    #[inline(always)]
    fn next(&mut self) -> Option<Move> {
        if self.left == 0 {
            return None;
        }
        for &m in self.moves.by_ref() {
            if m.is_castle_or_en_passant() {
                continue;
            }
            if m.from() != self.from {
                self.from = m.from();
                self.per_piece = 0;
            }
            if self.per_piece < 2 {
                self.per_piece += 1;
                self.left -= 1;
                return Some(m);
            }
        }
        None
    }
}

/// Whether, after `mv` (a plain move, promotion or double push), a piece of
/// a face of `rest` can step onto the square `mv` left and witnesses clear
/// of both moves use the other `need - 1` dice (or that piece steps back
/// with a second die of its face). Moves that free a shut-in piece for a
/// later die have no witness of their own; this settles many of them
/// without playing `mv` out.
pub(super) fn freed_chain(
    pos: &Position,
    wit: &Witnesses,
    mv: Move,
    rest: &DiceLeft,
    changed: Bitboard,
    need: u8,
) -> bool {
    if !(mv.is_plain() || mv.is_promotion()) {
        return false;
    }
    let us = pos.turn();
    let (from, to) = (mv.from(), mv.to());
    let occ = pos.occupied().without(from).with(to);
    let mine = |r: Role| pos.pieces(us, r).without(from);
    // Pieces that reach the vacated square, found from it (attacks are
    // symmetric; a pawn pushes onto it unless it would promote).
    let straight = rook_attacks(from, occ);
    let diagonal = bishop_attacks(from, occ);
    for g in 0..6 {
        if rest.get(g) == 0 {
            continue;
        }
        let role = Role::from_index(g);
        let reach = match role {
            Role::Pawn => match us {
                Color::White if (16..56).contains(&from) => Bitboard::from_square(from - 8),
                Color::Black if (8..48).contains(&from) => Bitboard::from_square(from + 8),
                _ => Bitboard::EMPTY,
            },
            Role::Knight => knight_attacks(from),
            Role::Bishop => diagonal,
            Role::Rook => straight,
            Role::Queen => straight | diagonal,
            Role::King => king_attacks(from),
        };
        for sq in reach & mine(role) {
            let mut rest2 = *rest;
            rest2.take(g);
            let fp = between(sq, from).with(sq).with(from);
            if need == 1
                || wit.chain(pos, changed | fp, &rest2, need - 1).is_some()
                || need == 2 && rest2.get(g) > 0 && role != Role::Pawn
            {
                return true;
            }
        }
    }
    false
}

/// The steps of a witness chain ([`Witnesses::chain_steps`]): each one
/// witness of a face with the dice it uses (more than one: the same piece
/// back and forth) and the squares it needs.
#[derive(Clone, Copy, Debug, Default)]
pub struct Chain {
    squares: [Bitboard; 3],
    faces: [u8; 3],
    dice: [u8; 3],
    len: u8,
    /// More steps than fit (not with three dice): nothing can be read off.
    overflow: bool,
}

impl Chain {
    #[inline(always)]
    fn push(&mut self, f: usize, dice: u8, squares: Bitboard) {
        let i = self.len as usize;
        if i < 3 {
            (self.squares[i], self.faces[i], self.dice[i]) = (squares, f as u8, dice);
            self.len += 1;
        } else {
            self.overflow = true;
        }
    }

    /// The squares of a chain for one die fewer, that die of face `f`: a
    /// move of face `f` that changes none of them keeps the rest of the
    /// chain valid (as [`Witnesses::chain_without`]). Without a one-die step
    /// of face `f` to leave out, the whole chain's squares (a die of `f`
    /// back and forth still moves its piece; a chain without `f` uses dice
    /// the move leaves).
    pub fn squares_without(&self, f: usize) -> Bitboard {
        if self.overflow {
            return Bitboard::FULL;
        }
        // Branch-free over all three slots (an unused one has no squares
        // and no dice).
        let mut squares = Bitboard::EMPTY;
        let mut left_out = false;
        for i in 0..3 {
            let out = !left_out & (self.faces[i] as usize == f) & (self.dice[i] == 1);
            left_out |= out;
            squares.0 |= self.squares[i].0 & 0u64.wrapping_sub(!out as u64);
        }
        squares
    }
}
