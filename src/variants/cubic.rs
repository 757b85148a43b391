//! Cubic Chess (Vladimir Pribylinec, RULES §6): orthodox chess with capture
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

use super::*;
use crate::board::{file_of, rank_of, zobrist, Square};
use crate::board::{square, square_name, Geometry, MoveKind, PawnStyle, Piece, Role, RoleSet};
use crate::encode::observation::fill_plane;
use crate::notation::fen::{parse_fen, write_fen, FenRules};
use crate::notation::san;
use serde::{Deserialize, Serialize};

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
    start_fen: String,
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

/// Splits the stock bracket off a Cubic FEN: `(standard FEN, stock text)`.
fn split_stock(text: &str) -> Result<(String, Option<String>), GameError> {
    let mut fields: Vec<String> = text.split_whitespace().map(str::to_string).collect();
    let mut stock: Option<String> = None;
    let mut take = |s: &str| -> Result<(), GameError> {
        if stock.is_some() {
            return Err(GameError::new(format!(
                "cubic FEN {text:?} has more than one stock bracket"
            )));
        }
        stock = Some(s.to_string());
        Ok(())
    };
    if let Some(first) = fields.first_mut() {
        if let Some(i) = first.find('[') {
            let (board, bracket) = first.split_at(i);
            take(bracket)?;
            *first = board.to_string();
        }
    }
    let mut kept = Vec::with_capacity(fields.len());
    for (i, f) in fields.into_iter().enumerate() {
        if i > 0 && f.starts_with('[') {
            take(&f)?;
        } else {
            kept.push(f);
        }
    }
    let stock = match stock {
        None => None,
        Some(s) => {
            let inner = s
                .strip_prefix('[')
                .and_then(|s| s.strip_suffix(']'))
                .ok_or_else(|| {
                    GameError::new(format!(
                        "cubic FEN stock must be written in brackets like [NBrq], got {s:?}"
                    ))
                })?;
            if inner.contains(['[', ']']) {
                return Err(GameError::new(format!(
                    "cubic FEN {text:?} has more than one stock bracket"
                )));
            }
            Some(inner.to_string())
        }
    };
    Ok((kept.join(" "), stock))
}

fn parse_stock(text: &str) -> Result<[[u8; 4]; 2], GameError> {
    let mut stock = [[0u8; 4]; 2];
    if text == "-" {
        return Ok(stock);
    }
    for c in text.chars() {
        let p = Piece::from_char(c).ok_or_else(|| {
            GameError::new(format!(
                "cubic FEN stock has an unknown letter {c:?}; a stock holds N, B, R, Q \
                 (upper case: White's stock, lower case: Black's)"
            ))
        })?;
        match p.role {
            Role::Pawn => {
                return Err(GameError::new(
                    "cubic FEN stock has a pawn; captured pawns are gone, a stock holds only \
                     N, B, R, Q",
                ))
            }
            Role::King => {
                return Err(GameError::new(
                    "cubic FEN stock has a king; a stock holds only N, B, R, Q",
                ))
            }
            _ => {}
        }
        let n = &mut stock[p.color as usize][stock_index(p.role)];
        if *n >= MAX_FEN_STOCK {
            return Err(GameError::new(format!(
                "cubic FEN stock has more than {MAX_FEN_STOCK} {}s for {}",
                role_name(p.role),
                color_title(p.color)
            )));
        }
        *n += 1;
    }
    Ok(stock)
}

/// The stock bracket of a FEN, e.g. `[NBrq]`.
fn write_stock(stock: &[[u8; 4]; 2]) -> String {
    let mut s = String::from("[");
    for c in Color::ALL {
        for (i, r) in STOCK_ROLES.iter().enumerate() {
            for _ in 0..stock[c as usize][i] {
                s.push(Piece::new(c, *r).char());
            }
        }
    }
    s.push(']');
    s
}

/// The Cubic FEN of a position and stocks.
pub fn cubic_fen(pos: &Position, stock: &[[u8; 4]; 2]) -> String {
    let f = write_fen(pos);
    let (board, rest) = f.split_once(' ').unwrap_or((&f, ""));
    format!("{board}{} {rest}", write_stock(stock))
}

impl Cubic {
    /// Options: `fen` (default the start position; stocks as in the module
    /// doc), `max_plies` (default 1000).
    pub fn new(options: &Options) -> Result<Cubic, GameError> {
        let mut r = OptionReader::new("cubic", options);
        let fen = r.string("fen")?;
        let max_plies = r.int("max_plies", 1000, 1, 1_000_000)? as u32;
        r.finish()?;
        let fen = fen.as_deref().unwrap_or(START_FEN);
        let (pos, stock) = Cubic::parse_fen(fen)?;
        Ok(Cubic::from_position(pos, stock, max_plies))
    }

    /// Parses a Cubic FEN into the position and both stocks.
    pub fn parse_fen(fen: &str) -> Result<(Position, [[u8; 4]; 2]), GameError> {
        let (std_fen, stock_text) = split_stock(fen)?;
        let (pos, rest) = parse_fen(&std_fen, &FEN_RULES).map_err(GameError::new)?;
        if !rest.is_empty() {
            return Err(GameError::new(format!(
                "cubic FEN has unexpected extra fields {rest:?}; the stocks go in brackets \
                 after the board, e.g. rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Nq] w KQkq - 0 1"
            )));
        }
        for c in Color::ALL {
            let n = pos.by_color(c).count();
            if n > 16 {
                return Err(GameError::new(format!(
                    "{} has {n} pieces on the board; a side has at most 16 in Cubic Chess",
                    color_title(c)
                )));
            }
        }
        let stock = match stock_text {
            Some(s) => parse_stock(&s)?,
            None => [[0; 4]; 2],
        };
        Ok((pos, stock))
    }

    /// A game starting from `pos` with the given stocks
    /// (`stock[colour][i]` counts `STOCK_ROLES[i]`).
    pub fn from_position(pos: Position, stock: [[u8; 4]; 2], max_plies: u32) -> Cubic {
        let start_fen = cubic_fen(&pos, &stock);
        let mut g = Cubic {
            pos,
            stock,
            start_fen,
            progress: Progress::new(max_plies),
        };
        g.progress.record(g.repetition_key(), true);
        g.update_result();
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
        let us = self.pos.turn();
        self.stock[us as usize] != [0; 4] && self.pos.pieces(us, Role::Pawn).any()
    }

    fn update_result(&mut self) {
        let pos = &self.pos;
        let check = pos.is_check();
        self.progress.result = if !(pos.has_legal_move() || (!check && self.can_rotate())) {
            if check {
                Some((Termination::Checkmate, Some(pos.turn().other() as Player)))
            } else {
                Some((Termination::Stalemate, None))
            }
        } else if self.progress.rep_count >= 3 {
            Some((Termination::ThreefoldRepetition, None))
        } else if pos.fifty_moves() {
            Some((Termination::FiftyMoves, None))
        } else if pos.insufficient_material() {
            Some((Termination::InsufficientMaterial, None))
        } else if self.progress.plies >= self.progress.max_plies {
            Some((Termination::MaxPlies, None))
        } else {
            None
        };
    }

    fn describe_stock(&self, c: Color) -> String {
        let parts: Vec<String> = STOCK_ROLES
            .iter()
            .enumerate()
            .filter(|(i, _)| self.stock[c as usize][*i] > 0)
            .map(|(i, r)| {
                let n = self.stock[c as usize][i];
                format!("{n} {}{}", role_name(*r), if n == 1 { "" } else { "s" })
            })
            .collect();
        if parts.is_empty() {
            "empty".into()
        } else {
            parts.join(", ")
        }
    }

    /// Why a rotation of the piece on `sq` into `letter` is illegal.
    fn explain_rotation(&self, sq: Square, letter: char) -> Option<String> {
        let us = self.pos.turn();
        let name = square_name(sq);
        let role = match Role::from_char(letter) {
            Some(r @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen)) => r,
            _ => {
                return Some(format!(
                    "a pawn can only be rotated into a piece type from the stock: \
                     N, B, R or Q, not {letter:?}"
                ))
            }
        };
        match self.pos.piece_at(sq) {
            None => {
                return Some(format!(
                    "{name} is empty; a rotation turns one of your own pawns into a piece \
                     from your stock"
                ))
            }
            Some(p) if p.color != us => {
                return Some(format!(
                    "the {} on {name} is {}'s; {} can only rotate its own pawns",
                    role_name(p.role),
                    color_title(p.color),
                    color_title(us)
                ))
            }
            Some(p) if p.role != Role::Pawn => {
                return Some(format!(
                    "only pawns can be rotated; {name} holds a {}",
                    role_name(p.role)
                ))
            }
            _ => {}
        }
        if self.pos.is_check() {
            return Some(format!(
                "a rotation is illegal while in check ({} is in check, and a rotation \
                 moves nothing)",
                color_title(us)
            ));
        }
        if self.stock_count(us, role) == 0 {
            return Some(format!(
                "no {} in {}'s stock ({}'s stock: {})",
                role_name(role),
                color_title(us),
                color_title(us),
                self.describe_stock(us)
            ));
        }
        None
    }

    /// Why a move of our pawn from `from` to `to` is illegal.
    fn explain_pawn_move(&self, from: Square, to: Square) -> Option<String> {
        let us = self.pos.turn();
        let dir: i8 = if us == Color::White { 1 } else { -1 };
        let (ff, fr) = (file_of(from) as i8, rank_of(from) as i8);
        let (df, dr) = (file_of(to) as i8 - ff, (rank_of(to) as i8 - fr) * dir);
        let (fname, tname) = (square_name(from), square_name(to));
        let occupant = |sq: Square| self.pos.piece_at(sq);
        const SHAPES: &str = "a pawn moves one or two steps straight forward or two steps \
                              diagonally forward onto empty squares, and captures one step \
                              diagonally forward";
        let last = self.pos.geometry().last_rank(us);
        if rank_of(from) == last {
            return Some(format!(
                "the pawn on {fname} stands on the last rank: it cannot move any more, only \
                 be rotated into a piece from the stock"
            ));
        }
        match (df.abs(), dr) {
            (0, 1) => {
                if let Some(p) = occupant(to) {
                    return Some(format!(
                        "{tname} is occupied (by a {}); a pawn cannot capture straight ahead",
                        role_name(p.role)
                    ));
                }
            }
            (0, 2) | (2, 2) => {
                let mid = square((ff + df / 2) as u8, (fr + dir) as u8);
                if let Some(p) = occupant(mid) {
                    return Some(format!(
                        "the pawn on {fname} cannot jump over the {} on {}; a two-step pawn \
                         move needs both squares empty",
                        role_name(p.role),
                        square_name(mid)
                    ));
                }
                if let Some(p) = occupant(to) {
                    return Some(format!(
                        "{tname} is occupied (by a {}); a two-step pawn move must land on an \
                         empty square (pawns capture only one step diagonally)",
                        role_name(p.role)
                    ));
                }
            }
            (1, 1) => match occupant(to) {
                None => {
                    return Some(format!(
                        "{tname} is empty; a pawn moves one step diagonally only to capture"
                    ))
                }
                Some(p) if p.color == us => {
                    return Some(format!(
                        "{tname} holds {}'s own {}",
                        color_title(us),
                        role_name(p.role)
                    ))
                }
                _ => {}
            },
            _ => return Some(format!("{fname}-{tname} is not a pawn move: {SHAPES}")),
        }
        let mut after = self.pos.clone();
        after.play(Move::new(from, to, MoveKind::Normal));
        if after.king_attacked(us) {
            return Some(format!(
                "it would leave {}'s king in check",
                color_title(us)
            ));
        }
        None
    }
}

const NO_PROMOTION: &str = "Cubic Chess has no promotion: a pawn on the last rank stays a pawn \
                            until it is rotated into a piece from the stock (written like e8(Q))";

/// Parses `e4` at the start of `b`.
fn square_at(b: &[u8]) -> Option<Square> {
    if b.len() >= 2 && (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1]) {
        Some(square(b[0] - b'a', b[1] - b'1'))
    } else {
        None
    }
}

impl Game for Cubic {
    fn search_key(&self) -> u64 {
        self.pos.hash() ^ self.stock_key()
    }
    fn variant(&self) -> &'static str {
        "cubic"
    }
    fn progress(&self) -> &Progress {
        &self.progress
    }
    fn node(&self) -> Node {
        match self.progress.result {
            Some(_) => Node::Terminal,
            None => Node::Decision(self.pos.turn() as Player),
        }
    }
    fn position(&self) -> &Position {
        &self.pos
    }
    fn layout(&self) -> ActionLayout {
        LAYOUT
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
        self.progress.plies += 1;
        // Captures, pawn moves and rotations (halfmove clock 0) can never be undone.
        let irreversible = self.pos.halfmove_clock() == 0;
        self.progress.record(self.repetition_key(), irreversible);
        self.update_result();
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
        vec![
            format!("white stock: {}", self.describe_stock(Color::White)),
            format!("black stock: {}", self.describe_stock(Color::Black)),
        ]
    }
    fn explain_unparsable(&self, text: &str) -> Option<String> {
        if self.progress.result.is_some() {
            return None;
        }
        let t = san::strip_suffix(text).trim();
        let promo_suffix = |s: &str| {
            let s = s.strip_prefix('=').unwrap_or(s);
            s.len() == 1 && s.chars().all(|c| "nbrqNBRQ".contains(c))
        };
        let lower = t.to_ascii_lowercase();
        let b = lower.as_bytes();
        // SAN promotion: `e8=Q`, `e8Q`, `exd8=Q`.
        let skip = if b.len() > 2 && (b'a'..=b'h').contains(&b[0]) && b[1] == b'x' {
            2
        } else {
            0
        };
        if square_at(&b[skip..]).is_some() && promo_suffix(&t[skip + 2..]) {
            return Some(NO_PROMOTION.into());
        }
        let from = square_at(b)?;
        let rest = &t[2..];
        // Rotation: `h7(N)`.
        if let Some(inner) = rest.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
            let mut cs = inner.chars();
            return match (cs.next(), cs.next()) {
                (Some(c), None) => self.explain_rotation(from, c),
                _ => Some(
                    "a rotation is written as the square and one piece letter in brackets, \
                     like h7(N)"
                        .into(),
                ),
            };
        }
        // Long algebraic / UCI: `e2-e4`, `e2xd3`, `e2e4`, `h7h7n`, `e7e8q`.
        let mut i = 2;
        if matches!(b.get(2), Some(b'-') | Some(b'x')) {
            i = 3;
        }
        let to = square_at(&b[i..])?;
        let suffix = &t[i + 2..];
        if !suffix.is_empty() {
            if from == to {
                let mut cs = suffix.chars();
                return match (cs.next(), cs.next()) {
                    (Some(c), None) => self.explain_rotation(from, c),
                    _ => None,
                };
            }
            if promo_suffix(suffix) {
                return Some(NO_PROMOTION.into());
            }
            return None;
        }
        let us = self.pos.turn();
        match self.pos.piece_at(from) {
            Some(p) if p.color == us && p.role == Role::Pawn => self.explain_pawn_move(from, to),
            _ => None,
        }
    }
    fn check_invariants(&self) -> Result<(), String> {
        let p = &self.pos;
        if p.hash() != p.compute_hash() {
            return Err("incremental hash differs from recomputed hash".into());
        }
        if p.king_attacked(p.turn().other()) {
            return Err("the side not to move is in check".into());
        }
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
        o.insert("fen".into(), self.start_fen.clone().into());
        o.insert("max_plies".into(), self.progress.max_plies.into());
        o
    }
}
