//! dicechess: exact, fast dice-chess variants with explicit chance nodes.
//!
//! The pure rules core ([`board`], [`notation`], [`variants`]) knows nothing
//! of Python; the optional `python` feature adds the pyo3 bindings.

pub mod agents;
pub mod board;
pub mod encode;
pub mod interrupt;
pub mod notation;
pub mod perft;
pub mod play;
pub mod record;
pub mod rng;
pub mod sim;
pub mod variants;

#[cfg(feature = "python")]
mod python;
