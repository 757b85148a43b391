//! Arbitrary text as a PGN or JSON Lines record: reading must never panic,
//! and a record it returns must replay and write back.
#![no_main]

use dicechess::record::{jsonl, pgn};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(recs) = pgn::read(text) {
        for r in recs {
            assert!(r.replay().is_ok());
            assert!(pgn::write(&r).is_ok());
        }
    }
    if let Ok(recs) = jsonl::read(text) {
        for r in recs {
            assert!(r.replay().is_ok());
        }
    }
});
