//! Arbitrary text as a FEN under three rule sets (orthodox 8x8, Fluky 5x5,
//! Cubic 8x8 allowing the opponent in check). Whatever parses must write
//! back to a FEN that parses to the same FEN, and move generation on it must
//! not panic and must only produce moves that leave the mover's king safe.
#![no_main]

#[path = "../../tests/support/parse_checks.rs"]
mod parse_checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    parse_checks::check_fen(&String::from_utf8_lossy(data));
});
