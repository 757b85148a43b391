//! Arbitrary action ids applied to a game of any variant (a mix of legal
//! actions picked by the input and raw ids): a refused action leaves the
//! state unchanged, an applied one keeps the invariants, and a game that is
//! not over always has an action (no state where nothing can happen).
#![no_main]

use dicechess::variants::{api, AnyGame, Game, Node, Options, VARIANTS};
use dicechess::with_game;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let v = VARIANTS[pick as usize % VARIANTS.len()];
    let mut o = Options::new();
    // Short games reach their ends (and the max_plies bounds) often.
    o.insert("max_plies".into(), (1 + (pick as u64 >> 4)).into());
    let mut g = AnyGame::new(v, &o).unwrap();
    for chunk in rest.chunks(2) {
        let raw = u16::from_le_bytes([chunk[0], *chunk.get(1).unwrap_or(&0)]);
        with_game!(&mut g, x => {
            if x.node() == Node::Terminal {
                return;
            }
            let legal = api::legal_actions(x);
            assert!(!legal.is_empty(), "{v}: no action in a game not over: {}", x.fen());
            let a = if raw & 1 == 0 {
                legal[(raw as usize >> 1) % legal.len()]
            } else {
                (raw >> 1) as u32
            };
            let before = x.fen();
            match api::apply_action(x, a) {
                Ok(()) => x.check_invariants().unwrap(),
                Err(_) => assert_eq!(x.fen(), before, "{v}: a refused action changed the state"),
            }
        });
    }
});
