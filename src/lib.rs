//! dicechess: exact, fast dice-chess variants with explicit chance nodes.

#[cfg(feature = "python")]
mod python;
