//! Arbitrary bytes as a pickled state (`dicechess.State`'s pickle payload):
//! restoring either fails with an error or gives a state that its own
//! history replays to, with every invariant; saving it again gives bytes
//! that restore to the same state.
#![no_main]

use dicechess::variants::{snapshot, Game};
use dicechess::with_game;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Half the inputs get the format's magic, so the fuzzer explores the body.
    let mut bytes = Vec::new();
    if data.first().is_some_and(|b| b & 1 == 1) {
        bytes.extend_from_slice(snapshot::MAGIC);
        bytes.extend_from_slice(&data[1..]);
    } else {
        bytes.extend_from_slice(data);
    }
    let Ok((g, opts, history)) = snapshot::restore(&bytes) else {
        return;
    };
    with_game!(&g, x => x.check_invariants().unwrap());
    let saved = snapshot::save(g.variant(), &opts, &history);
    let (again, _, h2) = snapshot::restore(&saved).expect("a saved state restores");
    assert_eq!(h2, history);
    assert_eq!(with_game!(&g, x => x.fen()), with_game!(&again, x => x.fen()));
});
