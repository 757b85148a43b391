//! The board model: one u64 bitboard per set on an 8x8 grid, with smaller
//! boards as a mask in the same representation; attack tables; the position;
//! legal move generation.
//!
//! Moves can be generated for all pieces or only for some roles (a die's
//! faces), listed or just counted:
//!
//! ```
//! use dicechess::board::{MoveList, Role};
//! use dicechess::notation::fen::{parse_fen, FenRules};
//!
//! let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
//! let (pos, _) = parse_fen(start, &FenRules::CHESS).unwrap();
//! assert_eq!(pos.count_legal(), 20);
//!
//! let mut knight_moves = MoveList::new();
//! pos.legal_moves_of(Role::Knight.bit(), &mut knight_moves);
//! let uci: Vec<String> = knight_moves.iter().map(|m| m.uci()).collect();
//! assert_eq!(uci, ["b1a3", "b1c3", "g1f3", "g1h3"]);
//! ```

pub mod attacks;
pub mod movegen;
pub mod moves;
pub mod position;
pub mod pseudo;
pub mod text;
pub mod types;
pub mod zobrist;

pub use movegen::{MoveCounter, MoveSink};
pub use moves::{Move, MoveKind, MoveList, MAX_MOVES};
pub use position::{PawnStyle, Position};
pub use types::*;
