//! SAN writing and move parsing (SAN, UCI and long algebraic).

use crate::board::moves::{Move, MoveKind, MoveList};
use crate::board::position::{PawnStyle, Position};
use crate::board::types::*;

/// SAN of a legal move without the check suffix: `Nf3`, `exd8=Q`, `O-O`,
/// Cubic `e2-e4` (two-step pawn moves in long form) and `h7(N)` (rotations).
pub fn san_body(pos: &Position, mv: Move) -> String {
    let mut others = MoveList::new();
    if let Some(role) = pos.role_at(mv.from()) {
        if role != Role::Pawn && mv.kind() == MoveKind::Normal {
            pos.legal_moves_of(role.bit(), &mut others);
        }
    }
    san_body_among(pos, mv, &others)
}

/// [`san_body`] disambiguated against `legal`, a variant's own legal moves
/// (which may differ from the orthodox ones: king captures, no check).
pub fn san_body_among(pos: &Position, mv: Move, legal: &[Move]) -> String {
    let from = mv.from();
    let to = mv.to();
    let Some(role) = pos.role_at(from) else {
        return mv.uci();
    };
    match mv.kind() {
        MoveKind::Castle => {
            return if to > from {
                "O-O".into()
            } else {
                "O-O-O".into()
            };
        }
        MoveKind::Rotation(r) => return format!("{}({})", square_name(from), r.char()),
        _ => {}
    }
    let capture = pos.piece_at(to).is_some() || mv.kind() == MoveKind::EnPassant;
    let mut s = String::with_capacity(8);
    if role == Role::Pawn {
        let two_step = (rank_of(from) as i8 - rank_of(to) as i8).abs() == 2;
        if pos.pawn_style() == PawnStyle::Cubic && two_step {
            s.push_str(&square_name(from));
            s.push('-');
            s.push_str(&square_name(to));
            return s;
        }
        if capture {
            s.push((b'a' + file_of(from)) as char);
            s.push('x');
        }
        s.push_str(&square_name(to));
        if let Some(r) = mv.promotion() {
            s.push('=');
            s.push(r.char());
        }
        return s;
    }
    s.push(role.char());
    // Disambiguation among other legal moves of the same role to `to`.
    let rivals: Vec<Square> = legal
        .iter()
        .filter(|m| m.to() == to && m.from() != from && pos.role_at(m.from()) == Some(role))
        .map(|m| m.from())
        .collect();
    push_disambiguation(&mut s, from, rivals);
    if capture {
        s.push('x');
    }
    s.push_str(&square_name(to));
    s
}

/// Appends SAN's disambiguation of a move from `from` when other pieces of
/// the same role (`rivals`) could reach the same square: the file if it
/// tells them apart, else the rank, else the square.
pub fn push_disambiguation(s: &mut String, from: Square, rivals: impl IntoIterator<Item = Square>) {
    let rivals: Vec<Square> = rivals.into_iter().collect();
    if rivals.is_empty() {
        return;
    }
    if !rivals.iter().any(|&o| file_of(o) == file_of(from)) {
        s.push((b'a' + file_of(from)) as char);
    } else if !rivals.iter().any(|&o| rank_of(o) == rank_of(from)) {
        s.push((b'1' + rank_of(from)) as char);
    } else {
        s.push_str(&square_name(from));
    }
}

/// The orthodox check suffix of a legal move: `#` if the opponent is then
/// checkmated, `+` if in check, else empty.
pub fn orthodox_suffix(pos: &Position, mv: Move) -> &'static str {
    let mut after = pos.clone();
    after.play(mv);
    if after.is_check() {
        if after.has_legal_move() {
            "+"
        } else {
            "#"
        }
    } else {
        ""
    }
}

/// Full orthodox SAN (body and suffix).
pub fn san(pos: &Position, mv: Move) -> String {
    let mut s = san_body(pos, mv);
    s.push_str(orthodox_suffix(pos, mv));
    s
}

/// Long algebraic with a hyphen or `x`: `e2-e4`, `e5xf4`, `e7-e8Q`.
pub fn long_algebraic(pos: &Position, mv: Move) -> String {
    let capture = pos.piece_at(mv.to()).is_some() || mv.kind() == MoveKind::EnPassant;
    let mut s = square_name(mv.from());
    s.push(if capture { 'x' } else { '-' });
    s.push_str(&square_name(mv.to()));
    if let Some(r) = mv.promotion() {
        s.push(r.char());
    }
    s
}

/// Strips annotation and check suffixes (`+`, `#`, `!`, `?`).
pub fn strip_suffix(text: &str) -> &str {
    text.trim().trim_end_matches(['+', '#', '!', '?'])
}

/// Finds the move among `legal` that `text` denotes, in SAN (with or without
/// suffix, `0-0` accepted), UCI (`e2e4`, `e7e8q`) or long algebraic
/// (`e2-e4`, `e5xf4`, `Ng1-f3`, `e7-e8=Q`). Errors say why nothing matched or
/// which moves an ambiguous text matched.
///
/// Precedence: exact SAN; then a move written with its two squares (UCI or
/// long algebraic), which wins over a loosely written SAN (`b3b2` is the
/// move from b3 to b2, never a bishop's `B3b2`); then loose SAN, in which a
/// piece letter must be upper case (a lower-case letter is a file: `bxc3`
/// is a pawn capture, `Bxc3` a bishop's).
pub fn parse_move(pos: &Position, legal: &[Move], text: &str) -> Result<Move, String> {
    let t = strip_suffix(text)
        .replace("0-0-0", "O-O-O")
        .replace("0-0", "O-O");
    if t.is_empty() {
        return Err("empty move text".into());
    }
    // Loose comparison: `=` optional, case-insensitive, `-` and `x` alike
    // (long algebraic input need not mark captures).
    let norm = |s: &str| s.replace('=', "").to_ascii_lowercase().replace('x', "-");
    let t_norm = norm(&t);
    let first = t.chars().next().unwrap_or(' ');
    let mut matches: Vec<Move> = Vec::new();
    let mut coordinate: Vec<Move> = Vec::new();
    for &m in legal {
        let body = san_body_among(pos, m, legal);
        let exact = body == t;
        let lan = long_algebraic(pos, m);
        let role_prefix = pos.role_at(m.from()).map(|r| r.char()).unwrap_or('?');
        if m.uci() == t.to_ascii_lowercase()
            || norm(&lan) == t_norm
            || role_prefix != 'P'
                && first == role_prefix
                && norm(&format!("{role_prefix}{lan}")) == t_norm
        {
            coordinate.push(m);
        }
        // Loose SAN: a piece letter (upper case in `body`) must be given
        // in upper case; castling may be written in either case.
        let letter_ok = body.starts_with('O')
            || body.chars().next().is_some_and(|b| {
                if b.is_ascii_uppercase() {
                    first == b
                } else {
                    !first.is_ascii_uppercase()
                }
            });
        let loose = norm(&body) == t_norm && letter_ok;
        // SAN without its disambiguation (`Nd2` for `Nbd2`): ambiguous if
        // more than one move matches.
        let undisambiguated = role_prefix != 'P' && m.kind() == MoveKind::Normal && {
            let capture = pos.piece_at(m.to()).is_some();
            let plain = format!(
                "{role_prefix}{}{}",
                if capture { "x" } else { "" },
                square_name(m.to())
            );
            plain == t || plain.replace('x', "") == t
        };
        if exact {
            return Ok(m);
        }
        if loose || undisambiguated {
            matches.push(m);
        }
    }
    coordinate.dedup();
    if coordinate.len() == 1 {
        return Ok(coordinate[0]);
    }
    matches.extend(coordinate);
    // Cubic: accept the short SAN `e4` for a two-step pawn move when unique.
    if matches.is_empty() && pos.pawn_style() == PawnStyle::Cubic {
        for &m in legal {
            if pos.role_at(m.from()) == Some(Role::Pawn)
                && pos.piece_at(m.to()).is_none()
                && square_name(m.to()) == t
            {
                matches.push(m);
            }
        }
    }
    matches.sort_unstable_by_key(|m| m.0);
    matches.dedup();
    match matches.len() {
        1 => Ok(matches[0]),
        0 => Err(format!("{text:?} is not a legal move here")),
        _ => Err(format!(
            "{text:?} is ambiguous: it matches {}",
            matches
                .iter()
                .map(|m| san_body_among(pos, *m, legal))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}
