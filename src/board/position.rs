//! The position: bitboards plus a mailbox, side to move, castling, en passant,
//! clocks and an incrementally updated Zobrist hash.

use super::attacks::*;
use super::moves::{Move, MoveKind};
use super::types::*;
use super::zobrist;
use serde::{Deserialize, Serialize};

/// How pawns move in a rule set. Everything else about piece movement is
/// shared by every variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PawnStyle {
    /// FIDE: one step, a double step from the second rank with en passant,
    /// promotion to Q, R, B or N.
    Orthodox,
    /// Fluky / Metamorph: one step only, no en passant, promotion to N, B or R.
    Fluky,
    /// Cubic: one or two steps straight, two steps diagonally, from any rank,
    /// capture one step diagonally; no promotion, no en passant.
    Cubic,
    /// Gardner minichess: one step only, no en passant, promotion to Q, R, B
    /// or N.
    Minichess,
}

impl PawnStyle {
    /// The roles a pawn may promote to, best first.
    pub fn promotion_roles(self) -> &'static [Role] {
        match self {
            PawnStyle::Orthodox | PawnStyle::Minichess => {
                &[Role::Queen, Role::Rook, Role::Bishop, Role::Knight]
            }
            PawnStyle::Fluky => &[Role::Rook, Role::Bishop, Role::Knight],
            PawnStyle::Cubic => &[],
        }
    }
}

/// Castling right bit: White may castle kingside (`K`).
pub const WHITE_KINGSIDE: u8 = 1;
/// Castling right bit: White may castle queenside (`Q`).
pub const WHITE_QUEENSIDE: u8 = 2;
/// Castling right bit: Black may castle kingside (`k`).
pub const BLACK_KINGSIDE: u8 = 4;
/// Castling right bit: Black may castle queenside (`q`).
pub const BLACK_QUEENSIDE: u8 = 8;

const NO_SQUARE: u8 = 64;

/// A board position (no game history: that lives in the variants).
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) by_role: [Bitboard; 6],
    /// 0 = empty, else 1 + color * 6 + role.
    #[serde(with = "serde_mailbox")]
    pub(crate) mailbox: [u8; 64],
    pub(crate) turn: Color,
    pub(crate) castling: u8,
    pub(crate) ep: u8,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) hash: u64,
    pub(crate) geometry: Geometry,
    pub(crate) mask: Bitboard,
    pub(crate) pawns: PawnStyle,
}

mod serde_mailbox {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    pub fn serialize<S: Serializer>(m: &[u8; 64], s: S) -> Result<S::Ok, S::Error> {
        m.as_slice().serialize(s)
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[u8; 64], D::Error> {
        let v: Vec<u8> = Vec::deserialize(d)?;
        v.try_into()
            .map_err(|_| serde::de::Error::custom("mailbox must have 64 entries"))
    }
}

/// The piece each mailbox value stands for (0 empty, else 1 + color * 6 +
/// role; 13..16 unused): decoding is one load, no division (role lookups
/// are hot in the dice variants).
const MAILBOX_PIECES: [Option<Piece>; 16] = {
    let mut t = [None; 16];
    let mut v = 1;
    while v <= 12 {
        let color = if v > 6 { Color::Black } else { Color::White };
        t[v] = Some(Piece {
            color,
            role: Role::ALL[(v - 1) % 6],
        });
        v += 1;
    }
    t
};

/// The roles of [`MAILBOX_PIECES`] (a table of its own: one byte a load).
const MAILBOX_ROLES: [Option<Role>; 16] = {
    let mut t = [None; 16];
    let mut v = 0;
    while v < 16 {
        if let Some(p) = MAILBOX_PIECES[v] {
            t[v] = Some(p.role);
        }
        v += 1;
    }
    t
};

impl Position {
    /// An empty board of the given geometry and pawn style, White to move.
    pub fn empty(geometry: Geometry, pawns: PawnStyle) -> Position {
        Position {
            by_color: [Bitboard::EMPTY; 2],
            by_role: [Bitboard::EMPTY; 6],
            mailbox: [0; 64],
            turn: Color::White,
            castling: 0,
            ep: NO_SQUARE,
            halfmove: 0,
            fullmove: 1,
            // The key of "no castling rights" is part of every hash (see
            // `compute_hash`), so an empty board starts with it.
            hash: zobrist::castling(0),
            geometry,
            mask: geometry.mask(),
            pawns,
        }
    }

    // ----- accessors -----

    /// Side to move.
    #[inline(always)]
    pub fn turn(&self) -> Color {
        self.turn
    }
    /// Board geometry.
    #[inline(always)]
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }
    /// Pawn rules.
    #[inline(always)]
    pub fn pawn_style(&self) -> PawnStyle {
        self.pawns
    }
    /// The squares of the board.
    #[inline(always)]
    pub fn board_mask(&self) -> Bitboard {
        self.mask
    }
    /// Pieces of a colour.
    #[inline(always)]
    pub fn by_color(&self, c: Color) -> Bitboard {
        self.by_color[c as usize]
    }
    /// Pieces of a role (both colours).
    #[inline(always)]
    pub fn by_role(&self, r: Role) -> Bitboard {
        self.by_role[r as usize]
    }
    /// Whether `other` has every piece on the same square (side to move,
    /// rights and clocks aside).
    pub fn same_pieces(&self, other: &Position) -> bool {
        self.by_color == other.by_color && self.by_role == other.by_role
    }
    /// Pieces of a colour and role.
    #[inline(always)]
    pub fn pieces(&self, c: Color, r: Role) -> Bitboard {
        self.by_color[c as usize] & self.by_role[r as usize]
    }
    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }
    /// The piece on a square.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        MAILBOX_PIECES[(self.mailbox[sq as usize] & 15) as usize]
    }
    /// The role on a square.
    #[inline(always)]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        MAILBOX_ROLES[(self.mailbox[sq as usize] & 15) as usize]
    }
    /// Castling rights as bits (`WHITE_KINGSIDE` …).
    #[inline(always)]
    pub fn castling_rights(&self) -> u8 {
        self.castling
    }
    /// The en-passant target square after a double step (whether or not a
    /// capture is possible).
    #[inline(always)]
    pub fn ep_square(&self) -> Option<Square> {
        if self.ep == NO_SQUARE {
            None
        } else {
            Some(self.ep)
        }
    }
    /// Plies since the last capture or pawn move (the 50-move counter).
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }
    /// Full move number (FEN).
    #[inline(always)]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }
    /// Incremental Zobrist hash of placement, side to move and castling rights.
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// The king square of a colour, if it has a king.
    #[inline(always)]
    pub fn king(&self, c: Color) -> Option<Square> {
        let k = self.pieces(c, Role::King);
        if k.is_empty() {
            None
        } else {
            Some(k.first())
        }
    }

    // ----- mutation -----

    #[inline(always)]
    pub(crate) fn put(&mut self, sq: Square, p: Piece) {
        let b = Bitboard::from_square(sq);
        self.by_color[p.color as usize] |= b;
        self.by_role[p.role as usize] |= b;
        self.mailbox[sq as usize] = 1 + p.color as u8 * 6 + p.role as u8;
        self.hash ^= zobrist::piece(p.color, p.role, sq);
    }

    #[inline(always)]
    pub(crate) fn remove(&mut self, sq: Square) -> Option<Piece> {
        let p = self.piece_at(sq)?;
        let b = Bitboard::from_square(sq);
        self.by_color[p.color as usize] ^= b;
        self.by_role[p.role as usize] ^= b;
        self.mailbox[sq as usize] = 0;
        self.hash ^= zobrist::piece(p.color, p.role, sq);
        Some(p)
    }

    /// Places or clears a piece (setup; keeps the hash consistent).
    pub fn set_piece(&mut self, sq: Square, p: Option<Piece>) {
        self.remove(sq);
        if let Some(p) = p {
            self.put(sq, p);
        }
    }

    /// Changes the face of the (non-king) piece on `sq`, keeping its colour:
    /// a die roll or a Cubic rotation.
    pub fn set_role(&mut self, sq: Square, role: Role) {
        if let Some(p) = self.remove(sq) {
            self.put(sq, Piece::new(p.color, role));
        }
    }

    /// Sets the side to move (multi-move turns, setup). En passant is left
    /// alone: a variant that lets a side move twice clears it itself.
    pub fn set_turn(&mut self, c: Color) {
        if c != self.turn {
            self.hash ^= zobrist::black_to_move();
            self.turn = c;
        }
    }

    /// Clears the en-passant square.
    #[inline(always)]
    pub fn clear_ep(&mut self) {
        self.ep = NO_SQUARE;
    }

    pub(crate) fn set_castling(&mut self, rights: u8) {
        self.hash ^= zobrist::castling(self.castling) ^ zobrist::castling(rights);
        self.castling = rights;
    }

    pub(crate) fn set_ep_raw(&mut self, sq: Option<Square>) {
        self.ep = sq.unwrap_or(NO_SQUARE);
    }

    pub(crate) fn set_clocks(&mut self, halfmove: u32, fullmove: u32) {
        self.halfmove = halfmove;
        self.fullmove = fullmove;
    }

    /// Resets the 50-move counter (e.g. after a Cubic rotation).
    pub fn reset_halfmove_clock(&mut self) {
        self.halfmove = 0;
    }

    /// Passes the turn without moving (a pass or forfeit): the other side is
    /// to move, en passant lapses, the clocks do not change.
    pub fn play_null(&mut self) {
        self.ep = NO_SQUARE;
        if self.turn == Color::Black {
            self.fullmove += 1;
        }
        self.set_turn(self.turn.other());
    }

    /// Plays a move that the caller knows to be legal (or pseudo-legal where a
    /// variant allows it) and returns the captured piece's role, if any.
    /// The turn passes to the other side.
    #[inline]
    pub fn play(&mut self, mv: Move) -> Option<Role> {
        let from = mv.from();
        let to = mv.to();
        let us = self.turn;
        let piece = match self.piece_at(from) {
            Some(p) => p,
            None => {
                debug_assert!(false, "no piece on the from square of {mv:?}");
                return None;
            }
        };
        self.ep = NO_SQUARE;
        self.halfmove += 1;
        let mut captured = None;
        match mv.kind() {
            MoveKind::Normal | MoveKind::DoublePush => {
                if let Some(c) = self.remove(to) {
                    captured = Some(c.role);
                }
                self.remove(from);
                self.put(to, piece);
                if mv.kind() == MoveKind::DoublePush {
                    self.ep = (from + to) / 2;
                }
            }
            MoveKind::EnPassant => {
                let cap_sq = square(file_of(to), rank_of(from));
                self.remove(cap_sq);
                captured = Some(Role::Pawn);
                self.remove(from);
                self.put(to, piece);
            }
            MoveKind::Castle => {
                let rank = rank_of(from);
                let (rook_from, rook_to) = if to > from {
                    (square(7, rank), square(5, rank))
                } else {
                    (square(0, rank), square(3, rank))
                };
                self.remove(from);
                let rook = self.remove(rook_from);
                self.put(to, piece);
                if let Some(r) = rook {
                    self.put(rook_to, r);
                }
            }
            MoveKind::Promotion(r) => {
                if let Some(c) = self.remove(to) {
                    captured = Some(c.role);
                }
                self.remove(from);
                self.put(to, Piece::new(us, r));
            }
            MoveKind::Rotation(r) => {
                self.remove(from);
                self.put(from, Piece::new(us, r));
                self.halfmove = 0;
            }
        }
        if piece.role == Role::Pawn || captured.is_some() {
            self.halfmove = 0;
        }
        if self.castling != 0 {
            let lost = castle_loss(from) | castle_loss(to);
            if self.castling & lost != 0 {
                self.set_castling(self.castling & !lost);
            }
        }
        // Branch-free: Black's move ends a full move.
        self.fullmove += us as u32;
        self.turn = us.other();
        self.hash ^= zobrist::black_to_move();
        captured
    }

    // ----- attacks -----

    /// Pieces of colour `by` attacking `sq`, with occupancy `occ`.
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        let them = self.by_color[by as usize];
        let rq = self.by_role[Role::Rook as usize] | self.by_role[Role::Queen as usize];
        let bq = self.by_role[Role::Bishop as usize] | self.by_role[Role::Queen as usize];
        ((knight_attacks(sq) & self.by_role[Role::Knight as usize])
            | (king_attacks(sq) & self.by_role[Role::King as usize])
            | (pawn_attacks(by.other(), sq) & self.by_role[Role::Pawn as usize])
            | (rook_attacks(sq, occ) & rq)
            | (bishop_attacks(sq, occ) & bq))
            & them
    }

    /// Whether `sq` is attacked by colour `by` (branch-free: in random games
    /// an early exit mispredicts more often than it saves).
    #[inline(always)]
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        self.attackers_to(sq, by, self.occupied()).any()
    }

    /// Pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        match self.king(self.turn) {
            Some(k) => self.attackers_to(k, self.turn.other(), self.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// Whether the side to move is in check.
    #[inline(always)]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// Whether the king of colour `c` is attacked.
    #[inline(always)]
    pub fn king_attacked(&self, c: Color) -> bool {
        match self.king(c) {
            Some(k) => self.is_attacked(k, c.other()),
            None => false,
        }
    }

    /// Squares attacked by a piece of `role` and colour `c` standing on `sq`
    /// (masked to the board).
    #[inline(always)]
    pub fn role_attacks(&self, c: Color, role: Role, sq: Square, occ: Bitboard) -> Bitboard {
        let a = match role {
            Role::Pawn => pawn_attacks(c, sq),
            Role::Knight => knight_attacks(sq),
            Role::Bishop => bishop_attacks(sq, occ),
            Role::Rook => rook_attacks(sq, occ),
            Role::Queen => queen_attacks(sq, occ),
            Role::King => king_attacks(sq),
        };
        a & self.mask
    }

    // ----- hashing and draws -----

    /// Invariant check: the incremental hash equals the recomputed one.
    pub fn check_hash(&self) -> Result<(), String> {
        if self.hash != self.compute_hash() {
            return Err("incremental hash differs from recomputed hash".into());
        }
        Ok(())
    }

    /// Invariant check of orthodox legality: the side not to move is not in
    /// check (it would have made an illegal move).
    pub fn check_opponent_safe(&self) -> Result<(), String> {
        if self.king_attacked(self.turn.other()) {
            return Err("the side not to move is in check".into());
        }
        Ok(())
    }

    /// Recomputes the hash from scratch (tests compare it with [`hash`](Self::hash)).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for sq in self.occupied() {
            let p = self.piece_at(sq).expect("occupied square has a piece");
            h ^= zobrist::piece(p.color, p.role, sq);
        }
        if self.turn == Color::Black {
            h ^= zobrist::black_to_move();
        }
        h ^ zobrist::castling(self.castling)
    }

    /// The repetition key of docs/rules.md §0: placement, side to move, castling and
    /// the en-passant square only when an en-passant capture is legal.
    pub fn repetition_key(&self) -> u64 {
        let mut h = self.hash;
        if let Some(ep) = self.ep_square() {
            if self.has_legal_ep() {
                h ^= zobrist::ep_file(file_of(ep));
            }
        }
        h
    }

    /// Insufficient material as in docs/rules.md §1 (python-chess / shakmaty / lichess):
    /// no pawns, rooks or queens, and either K+N v K, or no knights and all
    /// bishops on one square colour.
    pub fn insufficient_material(&self) -> bool {
        if (self.by_role(Role::Pawn) | self.by_role(Role::Rook) | self.by_role(Role::Queen)).any() {
            return false;
        }
        let knights = self.by_role(Role::Knight);
        let bishops = self.by_role(Role::Bishop);
        if knights.any() {
            // K+N v K only: one knight and nothing else besides kings.
            return knights.count() == 1 && bishops.is_empty();
        }
        const DARK: u64 = 0xAA55_AA55_AA55_AA55;
        (bishops.0 & DARK) == 0 || (bishops.0 & !DARK) == 0
    }

    /// Plies since the last capture or pawn move reached 100.
    pub fn fifty_moves(&self) -> bool {
        self.halfmove >= 100
    }
}

/// Castling rights lost when a piece leaves or arrives on `sq` (8x8 corners and
/// king squares).
#[inline(always)]
fn castle_loss(sq: Square) -> u8 {
    match sq {
        0 => WHITE_QUEENSIDE,
        4 => WHITE_KINGSIDE | WHITE_QUEENSIDE,
        7 => WHITE_KINGSIDE,
        56 => BLACK_QUEENSIDE,
        60 => BLACK_KINGSIDE | BLACK_QUEENSIDE,
        63 => BLACK_KINGSIDE,
        _ => 0,
    }
}
