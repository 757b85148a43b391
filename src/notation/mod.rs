//! Notation: FEN, SAN, UCI and long algebraic.

pub mod fen;
pub mod san;
