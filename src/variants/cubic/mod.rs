//! Cubic Chess (Vladimir Pribylinec, docs/rules.md §6): orthodox chess with capture
//! stocks, pawn rotations and two-step pawns without promotion. No dice: the
//! second zero-luck control beside orthodox chess.
//!
//! * **Stocks.** A captured knight, bishop, rook or queen goes to the
//!   capturer's stock; captured pawns are gone.
//! * **Rotations.** A turn may instead turn one of the mover's pawns, on its
//!   square, into a piece type from the mover's stock
//!   ([`MoveKind::Rotation`], SAN `h7(N)`, UCI `h7h7n`). Illegal in check.
//!   Action ids: the 4672 AlphaZero move ids, then `4672 + square * 4 + role`
//!   (N, B, R, Q; square from the mover's view): 4928 actions.
//! * **Pawns** ([`PawnStyle::Cubic`]): one or two steps straight, two steps
//!   diagonally, from any rank, onto empty squares without jumping; capture
//!   one step diagonally; no promotion, no en passant. Two-step moves are
//!   written in long form (`e2-e4`, `c7-e5`).
//! * **Draws**: stalemate (no move and no rotation), threefold repetition
//!   (both stocks are part of the key), the 50-move rule (a rotation resets
//!   the count too), insufficient material (only without pawns: the core
//!   rule).
//!
//! There are no chance nodes.
//!
//! **FEN.** The standard six fields, with both stocks in brackets right after
//! the board field, as crazyhouse pockets are written: upper-case letters
//! are White's stock, lower-case Black's, written in the order N B R Q, e.g.
//! `r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR[Nn] w KQkq - 0 1`. The
//! bracket is always written (`[]` for empty stocks). On input it may also
//! be a separate field (`... [Nn] w KQkq - 0 1` or at the end), in any
//! order, or be left out (empty stocks). At most 15 of one type per stock
//! and 16 pieces per side on the board.

mod fen;
mod text;

pub use fen::cubic_fen;

use super::*;
use crate::board::{file_of, rank_of, zobrist, Square};
use crate::board::{square, square_name, Geometry, MoveKind, PawnStyle, Piece, Role, RoleSet};
use crate::encode::observation::fill_plane;
use crate::notation::fen::{parse_fen, write_fen, FenRules};
use crate::notation::san;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The standard starting position (empty stocks).
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";

/// The roles a stock holds, in stock index order.
pub const STOCK_ROLES: [Role; 4] = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen];

/// The most pieces of one type a FEN may put in a stock.
pub const MAX_FEN_STOCK: u8 = 15;

const FEN_RULES: FenRules = FenRules {
    geometry: Geometry::STANDARD,
    pawns: PawnStyle::Cubic,
    roles: RoleSet::ALL,
    allow_opponent_in_check: false,
    moves_keep_king_safe: true,
};

const LAYOUT: ActionLayout = ActionLayout {
    geometry: Geometry::STANDARD,
    pass: false,
    rotations: true,
};

const EXTRA_PLANES: [&str; 8] = [
    "own_stock_knight_count/8",
    "own_stock_bishop_count/8",
    "own_stock_rook_count/8",
    "own_stock_queen_count/8",
    "opponent_stock_knight_count/8",
    "opponent_stock_bishop_count/8",
    "opponent_stock_rook_count/8",
    "opponent_stock_queen_count/8",
];

/// A Cubic Chess game.
///
/// ```
/// use dicechess::variants::{cubic::Cubic, Game, Node, Options};
/// let g = Cubic::new(&Options::new()).unwrap();
/// assert_eq!(g.node(), Node::Decision(0));
/// // 8 pawns x x 2 straight + 12 diagonal two-steps + 4 knight moves.
/// assert_eq!(g.position().count_legal(), 8 * 2 + 12 + 4);
/// ```
#[derive(Clone, Serialize, Deserialize)]
pub struct Cubic {
    pos: Position,
    /// `stock[colour][i]`: how many of `STOCK_ROLES[i]` the colour holds.
    stock: [[u8; 4]; 2],
    start_fen: Arc<str>,
    progress: Progress,
}

#[inline(always)]
fn stock_index(role: Role) -> usize {
    role as usize - 1
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

fn color_title(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

impl Cubic {
    /// A game starting from `pos` with the given stocks
    /// (`stock[colour][i]` counts `STOCK_ROLES[i]`).
    pub fn from_position(pos: Position, stock: [[u8; 4]; 2], max_plies: u32) -> Cubic {
        let start_fen = cubic_fen(&pos, &stock);
        let mut g = Cubic {
            pos,
            stock,
            start_fen: start_fen.into(),
            progress: Progress::new(max_plies),
        };
        let key = g.repetition_key();
        let (pos, stock) = (&g.pos, &g.stock);
        g.progress.result = g
            .progress
            .start(pos, key, Endings::CHESS, || has_move(pos, stock))
            .map(by_color_index);
        g
    }

    /// How many pieces of `role` (N, B, R or Q) `color` holds in its stock.
    pub fn stock_count(&self, color: Color, role: Role) -> u8 {
        match role {
            Role::Knight | Role::Bishop | Role::Rook | Role::Queen => {
                self.stock[color as usize][stock_index(role)]
            }
            _ => 0,
        }
    }

    /// A colour's stock as counts of N, B, R, Q.
    pub fn stock(&self, color: Color) -> [u8; 4] {
        self.stock[color as usize]
    }

    /// A colour's stock as letters (`"NNQ"`, empty if none), N B R Q order.
    pub fn stock_letters(&self, color: Color) -> String {
        let mut s = String::new();
        for (i, r) in STOCK_ROLES.iter().enumerate() {
            for _ in 0..self.stock[color as usize][i] {
                s.push(r.char());
            }
        }
        s
    }

    /// The repetition key: the position's key and both stocks.
    pub fn repetition_key(&self) -> u64 {
        self.pos.repetition_key() ^ self.stock_key()
    }

    #[inline]
    fn stock_key(&self) -> u64 {
        let mut h = 0;
        for c in 0..2 {
            for r in 0..4 {
                let n = self.stock[c][r] as usize;
                if n > 0 {
                    // 2 colours x 4 roles x 32 counts = the 256 spare keys.
                    h ^= zobrist::extra(c * 128 + r * 32 + (n & 31));
                }
            }
        }
        h
    }

    /// Whether the side to move holds anything to rotate into and has a pawn.
    #[inline(always)]
    fn can_rotate(&self) -> bool {
        can_rotate(&self.pos, &self.stock)
    }
}

/// Whether the side to move holds anything to rotate into and has a pawn.
#[inline(always)]
fn can_rotate(pos: &Position, stock: &[[u8; 4]; 2]) -> bool {
    let us = pos.turn();
    stock[us as usize] != [0; 4] && pos.pieces(us, Role::Pawn).any()
}

/// Whether the side to move has a decision: a side that can only rotate is
/// not stalemated (a ruling); a rotation cannot answer a check.
#[inline(always)]
fn has_move(pos: &Position, stock: &[[u8; 4]; 2]) -> bool {
    pos.has_legal_move() || (!pos.is_check() && can_rotate(pos, stock))
}

const NO_PROMOTION: &str = "Cubic Chess has no promotion: a pawn on the last rank stays a pawn \
                            until it is rotated into a piece from the stock (written like e8(Q))";

impl Game for Cubic {
    game_accessors!();
    fn search_key(&self) -> u64 {
        self.pos.hash() ^ self.stock_key()
    }
    fn variant(&self) -> &'static str {
        "cubic"
    }
    fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        if self.progress.result.is_some() {
            return;
        }
        self.pos.legal_moves(out);
        if self.can_rotate() && !self.pos.is_check() {
            let us = self.pos.turn();
            let stock = self.stock[us as usize];
            for sq in self.pos.pieces(us, Role::Pawn) {
                for (i, r) in STOCK_ROLES.iter().enumerate() {
                    if stock[i] > 0 {
                        out.push(Move::new(sq, sq, MoveKind::Rotation(*r)));
                    }
                }
            }
        }
    }
    fn play(&mut self, mv: Move) {
        let us = self.pos.turn() as usize;
        if let MoveKind::Rotation(r) = mv.kind() {
            let n = &mut self.stock[us][stock_index(r)];
            debug_assert!(*n > 0, "rotation without stock");
            *n = n.saturating_sub(1);
        }
        if let Some(r @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen)) =
            self.pos.play(mv)
        {
            let n = &mut self.stock[us][stock_index(r)];
            *n = n.saturating_add(1);
        }
        self.progress.decided(PassBound::InAll);
        // Captures, pawn moves and rotations (halfmove clock 0) can never be undone.
        let irreversible = self.pos.halfmove_clock() == 0;
        let key = self.repetition_key();
        let (pos, stock) = (&self.pos, &self.stock);
        self.progress.result = self
            .progress
            .after_move(pos, key, irreversible, Endings::CHESS, || {
                has_move(pos, stock)
            })
            .map(by_color_index);
    }
    fn san(&self, mv: Move) -> String {
        // Rotations are illegal in check, so `#` = no board move after a check.
        san::san(&self.pos, mv)
    }
    fn fen(&self) -> String {
        cubic_fen(&self.pos, &self.stock)
    }
    fn extra_planes(&self) -> &'static [&'static str] {
        &EXTRA_PLANES
    }
    fn write_extra_planes(&self, view: Color, out: &mut [f32]) {
        for (k, c) in [view, view.other()].into_iter().enumerate() {
            for i in 0..4 {
                let v = self.stock[c as usize][i] as f32 / 8.0;
                fill_plane(&self.pos, out, k * 4 + i, v);
            }
        }
    }
    fn describe_state(&self) -> Vec<String> {
        self.describe_text()
    }
    fn explain_unparsable(&self, text: &str) -> Option<String> {
        self.explain_text(text)
    }
    fn check_invariants(&self) -> Result<(), String> {
        let p = &self.pos;
        p.check_hash()?;
        p.check_opponent_safe()?;
        if p.ep_square().is_some() {
            return Err("an en-passant square is set in Cubic Chess".into());
        }
        if self.stock.iter().flatten().any(|&n| n > 31) {
            return Err("a stock count exceeds 31".into());
        }
        if self.progress.reps.last() != Some(self.repetition_key()) {
            return Err("the last recorded repetition key is not the current one".into());
        }
        Ok(())
    }
    fn options(&self) -> Options {
        let mut o = Options::new();
        o.insert("fen".into(), (*self.start_fen).into());
        o.insert("max_plies".into(), self.progress.max_plies.into());
        o
    }
}
