//! Notation: FEN, SAN, UCI and long algebraic.
//!
//! Parse a FEN, list the legal moves in SAN, and find a move from text:
//!
//! ```
//! use dicechess::board::MoveList;
//! use dicechess::notation::fen::{parse_fen, write_fen, FenRules};
//! use dicechess::notation::san::{parse_move, san};
//!
//! let (pos, _rest) = parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", &FenRules::CHESS).unwrap();
//! let mut moves = MoveList::new();
//! pos.legal_moves(&mut moves);
//! let sans: Vec<String> = moves.iter().map(|&m| san(&pos, m)).collect();
//! assert!(sans.iter().any(|s| s == "O-O"));
//! assert!(sans.iter().any(|s| s == "Rxa8+"));
//!
//! // SAN, UCI and long algebraic all denote the same move.
//! let m = parse_move(&pos, &moves, "e1g1").unwrap();
//! assert_eq!(parse_move(&pos, &moves, "O-O"), Ok(m));
//! assert_eq!(san(&pos, m), "O-O");
//!
//! let mut after = pos.clone();
//! after.play(m);
//! assert_eq!(write_fen(&after), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
//! ```

pub mod fen;
pub mod san;
