//! Arbitrary JSON as variant options (fen, max_plies, rule options): every
//! variant either refuses them with an error or starts a game that keeps its
//! invariants and whose reported options start the same game again.
#![no_main]

use dicechess::variants::{snapshot, AnyGame, Game, Options, VARIANTS};
use dicechess::with_game;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(serde_json::Value::Object(opts)) = serde_json::from_slice::<serde_json::Value>(data)
    else {
        return;
    };
    let opts: Options = opts;
    for v in VARIANTS {
        let Ok(g) = AnyGame::new(v, &opts) else {
            continue;
        };
        with_game!(&g, x => x.check_invariants().unwrap());
        let again = AnyGame::new(v, &snapshot::complete_options(&g, &opts))
            .expect("a game's own options are accepted");
        assert_eq!(
            with_game!(&g, x => x.fen()),
            with_game!(&again, x => x.fen()),
            "{v}: options() starts a different game"
        );
    }
});
