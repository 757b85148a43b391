//! Cubic Chess: readable stocks and the explanations given when a move
//! text is not legal (rotations, two-step pawn moves).

use super::*;

/// Parses `e4` at the start of `b`.
pub(super) fn square_at(b: &[u8]) -> Option<Square> {
    if b.len() >= 2 && (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1]) {
        Some(square(b[0] - b'a', b[1] - b'1'))
    } else {
        None
    }
}

impl Cubic {
    pub(super) fn describe_stock(&self, c: Color) -> String {
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
    pub(super) fn explain_rotation(&self, sq: Square, letter: char) -> Option<String> {
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
    pub(super) fn explain_pawn_move(&self, from: Square, to: Square) -> Option<String> {
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

    /// The body of [`Game::describe_state`].
    pub(super) fn describe_text(&self) -> Vec<String> {
        vec![
            format!("white stock: {}", self.describe_stock(Color::White)),
            format!("black stock: {}", self.describe_stock(Color::Black)),
        ]
    }

    /// The body of [`Game::explain_unparsable`].
    pub(super) fn explain_text(&self, text: &str) -> Option<String> {
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
}
