//! Text views of a position that need no notation rules: the FEN piece
//! placement (also `Position`'s debug view) and a readable diagram.

use super::position::Position;
use super::types::square;

/// The board field of a FEN (`rnbqkbnr/pppppppp/...`).
pub fn write_board_fen(pos: &Position) -> String {
    let g = pos.geometry();
    let mut s = String::new();
    for r in (0..g.ranks).rev() {
        let mut empty = 0;
        for f in 0..g.files {
            match pos.piece_at(square(f, r)) {
                Some(p) => {
                    if empty > 0 {
                        s.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    s.push(p.char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push((b'0' + empty) as char);
        }
        if r > 0 {
            s.push('/');
        }
    }
    s
}

/// A readable board: ranks top to bottom from White's side, `.` for empty.
pub fn board_diagram(pos: &Position) -> String {
    let g = pos.geometry();
    let mut s = String::new();
    for r in (0..g.ranks).rev() {
        s.push_str(&format!("{} ", r + 1));
        for f in 0..g.files {
            s.push(' ');
            s.push(pos.piece_at(square(f, r)).map(|p| p.char()).unwrap_or('.'));
        }
        s.push('\n');
    }
    s.push_str("  ");
    for f in 0..g.files {
        s.push(' ');
        s.push((b'a' + f) as char);
    }
    s
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", write_board_fen(self))
    }
}
