//! The compact move type and a fixed-capacity move list.

use super::types::{square_name, Bitboard, Role, Square};
use serde::{Deserialize, Serialize};
use std::fmt;

/// What kind of move a [`Move`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A plain move or capture (any piece, including Cubic two-step pawn moves).
    Normal,
    /// An orthodox pawn double step, which may allow en passant.
    DoublePush,
    /// An en-passant capture.
    EnPassant,
    /// Castling, encoded as the king's two-square move.
    Castle,
    /// A pawn move to the last rank that becomes the given role.
    Promotion(Role),
    /// A Cubic rotation: the pawn on `from` (== `to`) becomes the given role.
    Rotation(Role),
}

/// A move in 16 bits: from (6), to (6), kind (4).
///
/// `Move::NULL` (a1a1, normal) is never a real move; variants use it as "pass".
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Move(pub u16);

const K_NORMAL: u16 = 0;
const K_DOUBLE: u16 = 1;
const K_EP: u16 = 2;
const K_CASTLE: u16 = 3;
const K_PROMO: u16 = 4; // + role index - 1 (N=4 .. Q=7)
const K_ROT: u16 = 8; // + role index - 1 (N=8 .. Q=11)

impl Move {
    /// The pass / null move.
    pub const NULL: Move = Move(0);

    /// Builds a move.
    #[inline(always)]
    pub fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        let k = match kind {
            MoveKind::Normal => K_NORMAL,
            MoveKind::DoublePush => K_DOUBLE,
            MoveKind::EnPassant => K_EP,
            MoveKind::Castle => K_CASTLE,
            MoveKind::Promotion(r) => K_PROMO + r as u16 - 1,
            MoveKind::Rotation(r) => K_ROT + r as u16 - 1,
        };
        Move(from as u16 | (to as u16) << 6 | k << 12)
    }
    /// The square the move starts from.
    #[inline(always)]
    pub fn from(self) -> Square {
        (self.0 & 63) as Square
    }
    /// The square the move ends on (the king's square for castling).
    #[inline(always)]
    pub fn to(self) -> Square {
        (self.0 >> 6 & 63) as Square
    }
    /// The kind of move.
    #[inline(always)]
    pub fn kind(self) -> MoveKind {
        match self.0 >> 12 {
            K_NORMAL => MoveKind::Normal,
            K_DOUBLE => MoveKind::DoublePush,
            K_EP => MoveKind::EnPassant,
            K_CASTLE => MoveKind::Castle,
            k @ 4..=7 => MoveKind::Promotion(Role::from_index((k - K_PROMO + 1) as usize)),
            k => MoveKind::Rotation(Role::from_index((k - K_ROT + 1) as usize)),
        }
    }
    /// Whether the move is castling or en passant (cheaper than matching
    /// [`Move::kind`]).
    #[inline(always)]
    pub fn is_castle_or_en_passant(self) -> bool {
        matches!(self.0 >> 12, K_EP | K_CASTLE)
    }
    /// Whether the move is a plain move or a double step (no castling,
    /// en passant, promotion or rotation), read off the bits without
    /// [`Move::kind`]'s match.
    #[inline(always)]
    pub fn is_plain(self) -> bool {
        self.0 >> 12 <= K_DOUBLE
    }
    /// Whether the move is castling.
    #[inline(always)]
    pub fn is_castle(self) -> bool {
        self.0 >> 12 == K_CASTLE
    }
    /// Whether the move is a promotion.
    #[inline(always)]
    pub fn is_promotion(self) -> bool {
        (K_PROMO..K_ROT).contains(&(self.0 >> 12))
    }
    /// Whether the move is a rotation.
    #[inline(always)]
    pub fn is_rotation(self) -> bool {
        self.0 >> 12 >= K_ROT
    }
    /// The promotion role, if a promotion.
    #[inline(always)]
    pub fn promotion(self) -> Option<Role> {
        match self.kind() {
            MoveKind::Promotion(r) => Some(r),
            _ => None,
        }
    }
    /// Whether this is the null move (pass).
    #[inline(always)]
    pub fn is_null(self) -> bool {
        self.0 == 0
    }
    /// UCI text (`e2e4`, `e7e8q`; rotations as `h7h7n`; pass as `0000`).
    pub fn uci(self) -> String {
        if self.is_null() {
            return "0000".to_string();
        }
        let mut s = square_name(self.from());
        s.push_str(&square_name(self.to()));
        match self.kind() {
            MoveKind::Promotion(r) | MoveKind::Rotation(r) => s.push(r.char().to_ascii_lowercase()),
            _ => {}
        }
        s
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({})", self.uci())
    }
}

/// Capacity of a [`MoveList`]. 8x8 chess has at most 218 legal moves; Cubic
/// pawns and rotations can add more, so we leave generous room.
pub const MAX_MOVES: usize = 512;

/// A move list on the stack (no allocation in hot loops).
#[derive(Clone)]
pub struct MoveList {
    len: usize,
    moves: [Move; MAX_MOVES],
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            len: 0,
            moves: [Move::NULL; MAX_MOVES],
        }
    }
    /// Appends a move (ignored if the list is full, which legal generation
    /// never reaches).
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        debug_assert!(self.len < MAX_MOVES);
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }
    /// Removes every move.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }
    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }
    /// Whether the list has no moves.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
    /// Keeps the moves for which `f` is true.
    pub fn retain(&mut self, mut f: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            if f(self.moves[i]) {
                self.moves[j] = self.moves[i];
                j += 1;
            }
        }
        self.len = j;
    }
    /// Replaces the contents with the first `len` of `moves`: 64 moves are
    /// copied unconditionally (no length-dependent branch for the usual
    /// sizes: random games mispredict those), the rest in blocks of 32.
    #[inline(always)]
    pub(crate) fn set_from_prefix<const N: usize>(&mut self, moves: &[Move; N], len: usize) {
        const { assert!(N <= MAX_MOVES && N >= 64 && N % 32 == 0) };
        let len = len.min(N);
        self.moves[..64].copy_from_slice(&moves[..64]);
        let mut i = 64;
        while i < len {
            self.moves[i..i + 32].copy_from_slice(&moves[i..i + 32]);
            i += 32;
        }
        self.len = len;
    }
    /// Appends `from` -> each square of `to`, all of one kind (the move
    /// generator's hot path, see [`write_targets`]).
    #[inline(always)]
    pub(crate) fn push_targets(&mut self, from: Square, to: Bitboard, kind: MoveKind) {
        self.len = write_targets(&mut self.moves, self.len, from, to, kind).unwrap_or_else(|n| n);
    }
    /// A knight's or king's normal moves (see [`write_leaper`]).
    #[inline(always)]
    pub(crate) fn push_leaper(&mut self, from: Square, to: Bitboard, deltas: &[i8; 8]) {
        self.len = write_leaper(&mut self.moves, self.len, from, to, deltas).unwrap_or_else(|n| n);
    }
    /// A pawn's non-promoting moves (see [`write_pawn`]).
    #[inline(always)]
    pub(crate) fn push_pawn(&mut self, from: Square, fwd: u32, to: Bitboard, two: Bitboard) {
        self.len = write_pawn(&mut self.moves, self.len, from, fwd, to, two).unwrap_or_else(|n| n);
    }
    /// Removes the move at `index` (which must be below `len`) and puts
    /// the last move in its place.
    #[inline(always)]
    pub fn swap_remove(&mut self, index: usize) -> Move {
        assert!(
            index < self.len,
            "swap_remove index {index} of {}",
            self.len
        );
        let m = self.moves[index];
        self.len -= 1;
        self.moves[index] = self.moves[self.len];
        m
    }
    /// Whether `m` is in the list.
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
}

/// Writes the moves `from` -> each square of `to` (one kind) into `buf`
/// starting at `len`. Returns the new length, or `Err(len)` with as many
/// moves as fitted when `buf` ran out of room. The kind is encoded once and
/// the length kept in a register (the move generator's innermost loop).
#[inline(always)]
pub(crate) fn write_targets(
    buf: &mut [Move],
    len: usize,
    from: Square,
    to: Bitboard,
    kind: MoveKind,
) -> Result<usize, usize> {
    let base = Move::new(from, 0, kind).0;
    if let Some(dst) = buf.get_mut(len..len + 64) {
        // Room for any 64 targets: one bounds check for the whole call
        // (`i & 63` needs none). Blocks of four slots, each written
        // unconditionally with `i` advanced only while targets remain: most
        // pieces have at most four moves, so the loop exit (which would
        // mispredict after a varying count) is mostly the first test.
        let mut i = 0;
        let mut x = to.0;
        loop {
            for _ in 0..4 {
                dst[i & 63] = Move(base | (x.trailing_zeros() as u16) << 6);
                i += (x != 0) as usize;
                x &= x.wrapping_sub(1);
            }
            if x == 0 {
                return Ok(len + i);
            }
        }
    }
    let mut len = len;
    for t in to {
        if len == buf.len() {
            return Err(len);
        }
        buf[len] = Move(base | (t as u16) << 6);
        len += 1;
    }
    Ok(len)
}

/// Writes a pawn's non-promoting moves into `buf` at `len` without a loop:
/// `to` (normal moves, all among the three squares ahead: `fwd` is 8 for
/// White's pawns, 56 for Black's, i.e. -8 mod 64) in ascending square order,
/// then `two` (the double push, at most one square). Each candidate is
/// written unconditionally and the length advanced by whether it is a
/// target: pawns have 0-2 moves, and a loop over so few mispredicts its
/// exit. Same results and order as `write_targets` twice.
#[inline(always)]
pub(crate) fn write_pawn(
    buf: &mut [Move],
    len: usize,
    from: Square,
    fwd: u32,
    to: Bitboard,
    two: Bitboard,
) -> Result<usize, usize> {
    let f = from as u32;
    let ahead = (f + fwd) & 63;
    let double = (f + 2 * fwd) & 63;
    debug_assert!(to.0 & !(0b111u64.rotate_left(ahead.wrapping_sub(1) & 63)) == 0);
    debug_assert!(two.0 & !(1u64 << double) == 0);
    let Some(dst) = buf.get_mut(len..len + 4) else {
        let len = write_targets(buf, len, from, to, MoveKind::Normal)?;
        return write_targets(buf, len, from, two, MoveKind::DoublePush);
    };
    let base = from as u16;
    let mut i = 0;
    // Off-board neighbours wrap to squares that are never in `to`.
    for c in [ahead.wrapping_sub(1) & 63, ahead, (ahead + 1) & 63] {
        dst[i & 3] = Move(base | (c as u16) << 6);
        i += (to.0 >> c & 1) as usize;
    }
    dst[i & 3] = Move(base | (double as u16) << 6 | K_DOUBLE << 12);
    i += (two.0 >> double & 1) as usize;
    Ok(len + i)
}

/// Square offsets of a knight's moves, ascending.
pub(crate) const KNIGHT_DELTAS: [i8; 8] = [-17, -15, -10, -6, 6, 10, 15, 17];
/// Square offsets of a king's steps, ascending.
pub(crate) const KING_DELTAS: [i8; 8] = [-9, -8, -7, -1, 1, 7, 8, 9];

/// Writes a leaper's normal moves `from` -> each square of `to` (all among
/// `from + deltas`, which are ascending) into `buf` at `len` without a
/// loop over `to`, like [`write_pawn`]: each candidate is written and the
/// length advanced by membership. Candidates off the board wrap (mod 64)
/// to squares more than 31 away, which are never in `to`; so the result
/// and order are those of [`write_targets`].
#[inline(always)]
pub(crate) fn write_leaper(
    buf: &mut [Move],
    len: usize,
    from: Square,
    to: Bitboard,
    deltas: &[i8; 8],
) -> Result<usize, usize> {
    let Some(dst) = buf.get_mut(len..len + 8) else {
        return write_targets(buf, len, from, to, MoveKind::Normal);
    };
    let base = from as u16;
    let mut i = 0;
    for &d in deltas {
        let c = (from as u32).wrapping_add(d as u32) & 63;
        dst[i & 7] = Move(base | (c as u16) << 6);
        i += (to.0 >> c & 1) as usize;
    }
    Ok(len + i)
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}
