//! The Cubic Checkers FEN-style string (docs/rules.md §7):
//!
//! `<board> <side> <rook-moved> <paused> <no-jump count> <move number> [<jump>]`
//!
//! * board: cubes by face, `R B N P` White, `r b n p` Black, dark squares only;
//! * side: `w` or `b`;
//! * rook-moved: `R` if White has moved an R-faced cube (so White must jump
//!   when it can), `r` for Black: `Rr`, `R`, `r` or `-`;
//! * paused: the squares of the paused cubes, White's first, joined by `,`
//!   (`d4,e5`), or `-`;
//! * the number of moves in a row without a jump, and the move number;
//! * only in the middle of a jump: the landings so far, start square first
//!   (`e1xg3`). The board then shows the jumping cube on its last landing and
//!   the jumped cubes still in place, not yet demoted.

use super::*;
use crate::board::attacks::bishop_attacks;
use crate::board::PawnStyle;
use crate::notation::fen::write_board_fen;

/// a1, c1, …: the squares cubes stand on.
pub const DARK_SQUARES: Bitboard = Bitboard(0xAA55_AA55_AA55_AA55);

/// Cubes a side starts with; no side can have more.
const MAX_CUBES: u32 = 8;

/// Writes the FEN-style string of a game.
pub fn write(g: &CubicCheckers) -> String {
    let p = &g.pos;
    let mut flags = String::new();
    if g.rook_moved[0] {
        flags.push('R');
    }
    if g.rook_moved[1] {
        flags.push('r');
    }
    if flags.is_empty() {
        flags.push('-');
    }
    let paused: Vec<String> = g.paused.iter().flatten().map(|&s| square_name(s)).collect();
    let mut s = format!(
        "{} {} {} {} {} {}",
        write_board_fen(p),
        if p.turn() == Color::White { 'w' } else { 'b' },
        flags,
        if paused.is_empty() {
            "-".into()
        } else {
            paused.join(",")
        },
        p.halfmove_clock(),
        p.fullmove_number()
    );
    if let Some(j) = &g.jump {
        s.push(' ');
        s.push_str(&j.text());
    }
    s
}

fn parse_board(text: &str) -> Result<Position, String> {
    let g = Geometry::STANDARD;
    let mut pos = Position::empty(g, PawnStyle::Cubic);
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != 8 {
        return Err(format!(
            "the board needs 8 ranks separated by '/', got {}",
            rows.len()
        ));
    }
    for (i, row) in rows.iter().enumerate() {
        let r = 7 - i as u8;
        let mut f = 0u32;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10).filter(|&d| d > 0) {
                f += d;
                continue;
            }
            let p = Piece::from_char(c)
                .filter(|p| !matches!(p.role, Role::King | Role::Queen))
                .ok_or_else(|| {
                    format!("unknown cube {c:?} (faces R, B, N, P; lower case for Black)")
                })?;
            if f >= 8 {
                return Err(format!("rank {} has more than 8 files", r + 1));
            }
            let sq = square(f as u8, r);
            if !DARK_SQUARES.contains(sq) {
                return Err(format!(
                    "a cube on the light square {} (cubes stand on dark squares only)",
                    square_name(sq)
                ));
            }
            pos.set_piece(sq, Some(p));
            f += 1;
        }
        if f != 8 {
            return Err(format!("rank {} has {f} files, not 8", r + 1));
        }
    }
    for c in Color::ALL {
        let n = pos.by_color(c).count();
        if n > MAX_CUBES {
            return Err(format!("{} has {n} cubes, at most {MAX_CUBES}", c.name()));
        }
    }
    Ok(pos)
}

fn number(field: Option<&&str>, what: &str, min: u32) -> Result<u32, String> {
    let s = field.ok_or_else(|| format!("the {what} field is missing"))?;
    s.parse::<u32>()
        .ok()
        .filter(|&n| n >= min)
        .ok_or_else(|| format!("the {what} must be a number >= {min}, got {s:?}"))
}

/// Parses the FEN-style string (a game with `start_fen` still empty).
pub fn parse(text: &str, max_plies: u32) -> Result<CubicCheckers, String> {
    let f: Vec<&str> = text.split_whitespace().collect();
    if !(6..=7).contains(&f.len()) {
        return Err(format!(
            "expected 6 fields (board, side, rook-moved flags, paused squares, no-jump \
             count, move number) and in mid-jump a 7th (the landings so far), got {}",
            f.len()
        ));
    }
    let mut pos = parse_board(f[0])?;
    match f[1] {
        "w" => {}
        "b" => pos.set_turn(Color::Black),
        s => return Err(format!("the side to move must be 'w' or 'b', got {s:?}")),
    }
    let rook_moved = match f[2] {
        "-" => [false, false],
        "R" => [true, false],
        "r" => [false, true],
        "Rr" => [true, true],
        s => {
            return Err(format!(
                "the rook-moved field must be Rr, R, r or -, got {s:?}"
            ))
        }
    };
    let mut paused = [None, None];
    if f[3] != "-" {
        for s in f[3].split(',') {
            let sq = Geometry::STANDARD.parse_square(s).ok_or_else(|| {
                format!("paused squares must be squares joined by ',' or '-', got {s:?}")
            })?;
            let c = pos
                .piece_at(sq)
                .ok_or_else(|| format!("the paused square {s} has no cube"))?
                .color;
            if paused[c as usize].replace(sq).is_some() {
                return Err(format!("{} has two paused cubes (at most one)", c.name()));
            }
        }
    }
    let no_jump = number(f.get(4), "no-jump count", 0)?;
    if no_jump > NO_JUMP_LIMIT {
        return Err(format!(
            "the no-jump count must be at most {NO_JUMP_LIMIT}, got {no_jump}"
        ));
    }
    let fullmove = number(f.get(5), "move number", 1)?;
    pos.set_clocks(no_jump, fullmove);
    let mut g = CubicCheckers {
        pos,
        rook_moved,
        paused,
        jump: None,
        progress: Progress::new(max_plies),
        start_fen: "".into(),
        left: None,
        next: Default::default(),
    };
    if let Some(path) = f.get(6) {
        g.jump = Some(parse_jump(&g, path)?);
    }
    Ok(g)
}

/// The 7th field: landings of a jump in progress, checked against the board.
fn parse_jump(g: &CubicCheckers, text: &str) -> Result<Jump, String> {
    let us = g.pos.turn();
    let bad = |m: &str| format!("jump {text:?}: {m}");
    let squares: Vec<Square> = text
        .split('x')
        .map(|s| Geometry::STANDARD.parse_square(s))
        .collect::<Option<_>>()
        .ok_or_else(|| bad("write the landings as e1xg3"))?;
    if squares.len() < 2 || squares.len() > MAX_CUBES as usize + 1 {
        return Err(bad("needs 2 to 9 squares"));
    }
    if !g.jumps_enabled(us) {
        return Err(bad(
            "the side to move has not moved a rook-faced cube, so cannot jump",
        ));
    }
    let mut j = Jump {
        path: [squares[0]; 10],
        len: 1,
        jumped: Bitboard::EMPTY,
    };
    let current = squares[squares.len() - 1];
    if g.pos.piece_at(current).map(|p| p.color) != Some(us) || g.paused(us) == Some(current) {
        return Err(bad(
            "the side to move needs an active cube on the last landing",
        ));
    }
    // Before the jump the cube was not on its current square.
    let occ = g.pos.occupied().without(current);
    if occ.contains(squares[0]) {
        return Err(bad("the start square must be empty (its cube is jumping)"));
    }
    for w in squares.windows(2) {
        let (a, b) = (w[0], w[1]);
        let diagonal = bishop_attacks(a, Bitboard::EMPTY).contains(b);
        let x = (between(a, b) & occ).single().filter(|&x| {
            diagonal
                && !occ.contains(b)
                && g.pos.piece_at(x).map(|p| p.color) == Some(us.other())
                && !j.jumped.contains(x)
        });
        let Some(x) = x else {
            return Err(bad(&format!(
                "{}x{} is not a jump over one enemy cube",
                square_name(a),
                square_name(b)
            )));
        };
        j.path[j.len as usize] = b;
        j.len += 1;
        j.jumped = j.jumped.with(x);
    }
    if !g.jump_board(us, j.jumped).can_jump(current) {
        return Err(bad(
            "the jump is over (no further jump): write the position after it",
        ));
    }
    Ok(j)
}
