//! dicechess: exact, fast dice-chess variants with explicit chance nodes.
//!
//! The pure rules core ([`board`], [`notation`], [`variants`]) knows nothing
//! of Python; the optional `python` feature adds the pyo3 bindings.

pub mod board;
pub mod notation;
pub mod perft;

#[cfg(feature = "python")]
mod python;
