//! The board model: one u64 bitboard per set on an 8x8 grid, with smaller
//! boards as a mask in the same representation; attack tables; the position;
//! legal move generation.

pub mod attacks;
pub mod movegen;
pub mod moves;
pub mod position;
pub mod types;
pub mod zobrist;

pub use movegen::{MoveCounter, MoveSink};
pub use moves::{Move, MoveKind, MoveList, MAX_MOVES};
pub use position::{PawnStyle, Position};
pub use types::*;
