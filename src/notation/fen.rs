//! FEN reading and writing for any board geometry.
//!
//! The board, side, castling, en-passant and clock fields are the standard
//! ones; variants append their own fields (stocks, turn state) after them.

use crate::board::position::*;
use crate::board::types::*;

pub use crate::board::text::write_board_fen;

/// The castling field (`KQkq` or `-`).
pub fn write_castling(rights: u8) -> String {
    let mut s = String::new();
    for (bit, c) in [
        (WHITE_KINGSIDE, 'K'),
        (WHITE_QUEENSIDE, 'Q'),
        (BLACK_KINGSIDE, 'k'),
        (BLACK_QUEENSIDE, 'q'),
    ] {
        if rights & bit != 0 {
            s.push(c);
        }
    }
    if s.is_empty() {
        s.push('-');
    }
    s
}

/// The six standard FEN fields. The en-passant square is written only when
/// an en-passant capture is legal (as python-chess does by default).
pub fn write_fen(pos: &Position) -> String {
    let ep = match pos.ep_square() {
        Some(sq) if pos.has_legal_ep() => square_name(sq),
        _ => "-".to_string(),
    };
    format!(
        "{} {} {} {} {} {}",
        write_board_fen(pos),
        if pos.turn() == Color::White { 'w' } else { 'b' },
        write_castling(pos.castling_rights()),
        ep,
        pos.halfmove_clock(),
        pos.fullmove_number()
    )
}

/// What a variant accepts in a position read from a FEN.
#[derive(Clone, Copy, Debug)]
pub struct FenRules {
    /// The board the FEN describes.
    pub geometry: Geometry,
    /// How pawns move (decides where pawns may stand and whether en passant exists).
    pub pawns: PawnStyle,
    /// Roles that may appear on the board.
    pub roles: RoleSet,
    /// Whether the side not to move may be in check (Random Move Number
    /// Chess leaves checks standing after a forfeit).
    pub allow_opponent_in_check: bool,
    /// Whether a move never leaves the mover's own king attacked (every
    /// variant but three-dice DiceChess, which has no check). Then an
    /// en-passant square, which says that the side not to move has just
    /// made a double step, cannot come with that side's king attacked.
    pub moves_keep_king_safe: bool,
}

impl FenRules {
    /// Orthodox chess on 8x8.
    pub const CHESS: FenRules = FenRules {
        geometry: Geometry::STANDARD,
        pawns: PawnStyle::Orthodox,
        roles: RoleSet::ALL,
        allow_opponent_in_check: false,
        moves_keep_king_safe: true,
    };
}

/// Parses the standard FEN fields; returns the position and the fields that
/// follow them (for variant extensions). Halfmove and fullmove fields are
/// optional (default `0 1`).
pub fn parse_fen<'a>(text: &'a str, rules: &FenRules) -> Result<(Position, Vec<&'a str>), String> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() < 2 {
        return Err(format!(
            "FEN needs at least the board and the side to move, got {text:?}"
        ));
    }
    let g = rules.geometry;
    let mut pos = Position::empty(g, rules.pawns);
    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len() != g.ranks as usize {
        return Err(format!(
            "FEN board has {} ranks, this variant's board has {} (files a-{}, ranks 1-{})",
            rows.len(),
            g.ranks,
            (b'a' + g.files - 1) as char,
            g.ranks
        ));
    }
    for (i, row) in rows.iter().enumerate() {
        let r = g.ranks - 1 - i as u8;
        let mut f: u32 = 0;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 {
                    return Err(format!("FEN rank {} has a 0 count", r + 1));
                }
                f += d;
            } else {
                let p = Piece::from_char(c)
                    .ok_or_else(|| format!("FEN has an unknown piece letter {c:?}"))?;
                if !rules.roles.contains(p.role) {
                    return Err(format!(
                        "FEN has a piece {c:?} that this variant does not use"
                    ));
                }
                if f >= g.files as u32 {
                    return Err(format!(
                        "FEN rank {} has more than {} files",
                        r + 1,
                        g.files
                    ));
                }
                pos.put(square(f as u8, r), p);
                f += 1;
            }
            if f > g.files as u32 {
                return Err(format!(
                    "FEN rank {} has more than {} files",
                    r + 1,
                    g.files
                ));
            }
        }
        if f != g.files as u32 {
            return Err(format!(
                "FEN rank {} has {} files, the board has {}",
                r + 1,
                f,
                g.files
            ));
        }
    }
    match fields[1] {
        "w" => {}
        "b" => pos.set_turn(Color::Black),
        s => return Err(format!("FEN side to move must be 'w' or 'b', got {s:?}")),
    }
    let castling = fields.get(2).copied().unwrap_or("-");
    let mut rights = 0u8;
    if castling != "-" {
        for c in castling.chars() {
            let bit = match c {
                'K' => WHITE_KINGSIDE,
                'Q' => WHITE_QUEENSIDE,
                'k' => BLACK_KINGSIDE,
                'q' => BLACK_QUEENSIDE,
                _ => {
                    return Err(format!(
                        "FEN castling field must be '-' or a subset of 'KQkq', got {castling:?}"
                    ))
                }
            };
            if rights & bit != 0 {
                return Err(format!("FEN castling field repeats {c:?}"));
            }
            rights |= bit;
        }
    }
    if rights != 0 {
        if g != Geometry::STANDARD {
            return Err("castling rights are only possible on the 8x8 board".into());
        }
        for (bit, color, rook_file) in [
            (WHITE_KINGSIDE, Color::White, 7),
            (WHITE_QUEENSIDE, Color::White, 0),
            (BLACK_KINGSIDE, Color::Black, 7),
            (BLACK_QUEENSIDE, Color::Black, 0),
        ] {
            if rights & bit != 0 {
                let rank = g.back_rank(color);
                if pos.piece_at(square(4, rank)) != Some(Piece::new(color, Role::King))
                    || pos.piece_at(square(rook_file, rank)) != Some(Piece::new(color, Role::Rook))
                {
                    return Err(format!(
                        "FEN castling right {:?} needs the king and rook on their original squares",
                        write_castling(bit)
                    ));
                }
            }
        }
        pos.set_castling(rights);
    }
    let ep = fields.get(3).copied().unwrap_or("-");
    if ep != "-" {
        let sq = g
            .parse_square(ep)
            .ok_or_else(|| format!("FEN en-passant field must be '-' or a square, got {ep:?}"))?;
        if rules.pawns != PawnStyle::Orthodox {
            return Err(
                "this variant has no en passant; the FEN en-passant field must be '-'".into(),
            );
        }
        let us = pos.turn();
        let (ep_rank, pawn_sq, origin) = match us {
            Color::White => (g.ranks - 3, sq.wrapping_sub(8), sq + 8),
            Color::Black => (2, sq + 8, sq.wrapping_sub(8)),
        };
        if rank_of(sq) != ep_rank
            || pos.piece_at(sq).is_some()
            || pos.piece_at(origin).is_some()
            || pos.piece_at(pawn_sq) != Some(Piece::new(us.other(), Role::Pawn))
        {
            return Err(format!(
                "FEN en-passant square {ep} does not follow a double step of the side that just moved"
            ));
        }
        pos.set_ep_raw(Some(sq));
    }
    let halfmove = match fields.get(4) {
        Some(s) => s
            .parse::<u32>()
            .map_err(|_| format!("FEN halfmove clock must be a number, got {s:?}"))?,
        None => 0,
    };
    let fullmove = match fields.get(5) {
        Some(s) => s
            .parse::<u32>()
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| format!("FEN fullmove number must be a number >= 1, got {s:?}"))?,
        None => 1,
    };
    pos.set_clocks(halfmove, fullmove);
    validate(&pos, rules)?;
    let rest = if fields.len() > 6 {
        fields[6..].to_vec()
    } else {
        vec![]
    };
    Ok((pos, rest))
}

/// Checks the rules every variant shares: one king each, pawns on allowed
/// ranks, the side not to move not in check (unless allowed).
pub fn validate(pos: &Position, rules: &FenRules) -> Result<(), String> {
    let g = pos.geometry();
    for c in Color::ALL {
        let n = pos.pieces(c, Role::King).count();
        if n != 1 {
            return Err(format!(
                "{} must have exactly one king, the FEN has {n}",
                c.name()
            ));
        }
        let pawns = pos.pieces(c, Role::Pawn);
        let last = Bitboard::rank(g.last_rank(c));
        let back = Bitboard::rank(g.back_rank(c));
        let bad = match rules.pawns {
            PawnStyle::Orthodox | PawnStyle::Minichess => pawns & (last | back),
            PawnStyle::Fluky => pawns & last,
            PawnStyle::Cubic => Bitboard::EMPTY,
        };
        if bad.any() {
            return Err(format!(
                "{} has a pawn on {}, where pawns cannot stand in this variant",
                c.name(),
                square_name(bad.first())
            ));
        }
    }
    if !rules.allow_opponent_in_check && pos.king_attacked(pos.turn().other()) {
        return Err(format!(
            "the side not to move ({}) is in check, which cannot happen in a legal game",
            pos.turn().other().name()
        ));
    }
    // (Variants that leave checks standing, or have no check, accept any.)
    // But a check left standing (Random Move Number Chess, Dice Chess)
    // follows a turn without a move, when a double step's right has lapsed:
    // where moves keep the king safe, the double step an en-passant square
    // speaks of cannot have left its mover's king in check.
    if let (true, Some(ep)) = (rules.moves_keep_king_safe, pos.ep_square()) {
        if pos.king_attacked(pos.turn().other()) {
            return Err(format!(
                "FEN en-passant square {} says {} just made a double step, but its king is \
                 in check, which that move cannot have left",
                square_name(ep),
                pos.turn().other().name()
            ));
        }
    }
    if !rules.allow_opponent_in_check && pos.checkers().count() > 2 {
        return Err("the side to move is in check by more than two pieces".into());
    }
    Ok(())
}
