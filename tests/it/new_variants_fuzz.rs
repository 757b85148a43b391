//! Property-based fuzzing of the Gardner and Cubic Checkers FEN parsers and
//! move text: no panic; a FEN that parses writes back to itself; text that
//! parses names a legal action; bad text leaves the state unchanged.

use super::common::byte_edits;
use dicechess::variants::{api, AnyGame, Game, Options};
use dicechess::with_game;
use proptest::prelude::*;

const FENS: &[(&str, &str)] = &[
    ("gardner", "rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1"),
    ("gardner", "4k/1P3/5/2p2/K4 w - - 0 1"),
    (
        "cubic_checkers",
        "1n1r1r1n/b1b1b1b1/8/8/8/8/1B1B1B1B/N1R1R1N1 w - - 0 1",
    ),
    (
        "cubic_checkers",
        "1b5n/8/3r3n/8/3B4/R7/1p6/P5P1 w R - 0 1 c1xa3",
    ),
    (
        "cubic_checkers",
        "5p1p/p1p5/8/8/3B4/8/1P6/2P1P3 w Rr b2,a7 4 3",
    ),
];

/// Bytes the edits insert, non-ASCII ones too: the edits are read back
/// lossily, so they become wide characters (U+FFFD, or whole ones when
/// they happen to pair up).
const ALPHABET: &[u8] = b"pnbrqkPNBRQK0123456789/ wbx-,Rracdefgh\xe2\x82\xac\xc3";

fn mutate(s: &str, edits: &[(usize, u8, u8)]) -> String {
    byte_edits(s, edits, ALPHABET)
}

fn game(variant: &str, fen: &str) -> Result<AnyGame, String> {
    let mut o = Options::new();
    o.insert("fen".into(), fen.into());
    AnyGame::new(variant, &o).map_err(|e| e.0)
}

proptest! {
    #[test]
    fn fen_mutations(i in 0..FENS.len(), edits in prop::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..5)) {
        let (variant, fen) = FENS[i];
        let text = mutate(fen, &edits);
        if let Ok(g) = game(variant, &text) {
            let written = with_game!(&g, x => x.fen());
            let again = game(variant, &written).expect("a written FEN parses");
            prop_assert_eq!(with_game!(&again, x => x.fen()), written);
            with_game!(&g, x => x.check_invariants()).unwrap();
        }
    }

    #[test]
    fn move_text(i in 0..FENS.len(), text in "[a-hx1-8 é€🂡-]{0,10}") {
        let (variant, fen) = FENS[i];
        let mut g = game(variant, fen).unwrap();
        let before = with_game!(&g, x => x.fen());
        match with_game!(&g, x => api::string_to_action(x, &text)) {
            Ok(a) => {
                prop_assert!(with_game!(&g, x => api::legal_actions(x)).contains(&a));
                with_game!(&mut g, x => api::apply_action(x, a)).unwrap();
            }
            Err(_) => prop_assert_eq!(with_game!(&g, x => x.fen()), before),
        }
    }
}
