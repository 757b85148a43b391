//! Perft: counting leaf nodes of the legal move tree (orthodox positions).

use crate::board::{MoveList, Position};

/// Number of leaf nodes at `depth`, with bulk counting at the last ply.
///
/// ```
/// use dicechess::notation::fen::{parse_fen, FenRules};
/// let (pos, _) = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &FenRules::CHESS).unwrap();
/// assert_eq!(dicechess::perft::perft(&pos, 3), 8902);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(),
        _ => {
            if crate::interrupt::requested() {
                return 0; // discarded by the interrupted caller
            }
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            let mut n = 0;
            for &m in moves.iter() {
                let mut p = pos.clone();
                p.play(m);
                n += perft(&p, depth - 1);
            }
            n
        }
    }
}
