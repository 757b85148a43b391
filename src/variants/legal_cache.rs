//! A copy of the current position's legal moves kept in a game's state:
//! variants whose turn logic needs the list anyway (chess's mate test, a
//! roll's "can any move be made" test) generate it once and `legal_moves`
//! copies it instead of generating it a second time (random playouts call
//! both every ply).

use crate::board::moves::{write_leaper, write_pawn, write_targets};
use crate::board::{Bitboard, Move, MoveKind, MoveList, MoveSink, Position, RoleSet, Square};

/// Room in the cache. Positions of real games rarely have more than 60
/// legal moves (218 at most); one with more than this is simply not cached
/// (generated again). Kept small because the game is copied on every
/// clone and sets the size of `AnyGame`.
const CACHE_MOVES: usize = 128;

/// The legal moves of the current position (see the module doc). Not game
/// state: a game keeps it `#[serde(skip)]` and generates again when invalid.
#[derive(Clone)]
pub struct LegalCache {
    /// The list is complete and belongs to the current position.
    valid: bool,
    /// More moves than fit were generated (then `valid` is false).
    overflow: bool,
    len: usize,
    moves: [Move; CACHE_MOVES],
}

impl Default for LegalCache {
    fn default() -> Self {
        LegalCache {
            valid: false,
            overflow: false,
            len: 0,
            moves: [Move::NULL; CACHE_MOVES],
        }
    }
}

impl MoveSink for LegalCache {
    #[inline(always)]
    fn add(&mut self, from: Square, to: Bitboard, kind: MoveKind) {
        let r = write_targets(&mut self.moves, self.len, from, to, kind);
        self.take(r);
    }
    #[inline(always)]
    fn add_leaper(&mut self, from: Square, to: Bitboard, deltas: &[i8; 8]) {
        let r = write_leaper(&mut self.moves, self.len, from, to, deltas);
        self.take(r);
    }
    #[inline(always)]
    fn add_pawn(&mut self, from: Square, fwd: u32, to: Bitboard, two: Bitboard) {
        let r = write_pawn(&mut self.moves, self.len, from, fwd, to, two);
        self.take(r);
    }
}

impl LegalCache {
    #[inline(always)]
    fn take(&mut self, written: Result<usize, usize>) {
        match written {
            Ok(n) => self.len = n,
            Err(n) => {
                self.len = n;
                self.overflow = true;
            }
        }
    }
    /// Generates the legal moves of `pos`; returns whether there is any.
    #[inline(always)]
    pub(crate) fn fill(&mut self, pos: &Position) -> bool {
        self.len = 0;
        self.overflow = false;
        pos.generate(RoleSet::ALL, self);
        self.valid = !self.overflow;
        self.len > 0 || self.overflow
    }
    /// Replaces the moves by `list` (variants whose list is more than one
    /// generator call; kept apart from `fill` so that chess's generator
    /// stays specialised to its one caller).
    pub(crate) fn set(&mut self, list: &MoveList) {
        let n = list.len();
        self.overflow = n > CACHE_MOVES;
        self.valid = !self.overflow;
        self.len = n.min(CACHE_MOVES);
        self.moves[..self.len].copy_from_slice(&list[..self.len]);
    }
    /// Empties the list for a generator that writes it move by move (`add`,
    /// `push`); `finish` makes it valid.
    #[inline(always)]
    pub(crate) fn start(&mut self) {
        self.len = 0;
        self.overflow = false;
        self.valid = false;
    }
    /// Appends one move (see `start`).
    #[inline(always)]
    pub(crate) fn push(&mut self, m: Move) {
        match self.moves.get_mut(self.len) {
            Some(slot) => {
                *slot = m;
                self.len += 1;
            }
            None => self.overflow = true,
        }
    }
    /// Marks the list written since `start` complete (valid unless it
    /// overflowed); returns whether there is any move.
    #[inline(always)]
    pub(crate) fn finish(&mut self) -> bool {
        self.valid = !self.overflow;
        self.len > 0 || self.overflow
    }
    /// Moves written since `start` (as many as fitted).
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }
    /// Marks the moves stale (the position changed).
    #[inline(always)]
    pub(crate) fn invalidate(&mut self) {
        self.valid = false;
    }
    /// The moves, if the cache is valid.
    #[inline(always)]
    pub(crate) fn moves(&self) -> Option<&[Move]> {
        self.valid.then(|| &self.moves[..self.len])
    }
    /// Copies the moves into `out` if the cache is valid; returns whether it
    /// was.
    #[inline(always)]
    pub(crate) fn copy_to(&self, out: &mut MoveList) -> bool {
        if self.valid {
            out.set_from_prefix(&self.moves, self.len);
        }
        self.valid
    }
}
