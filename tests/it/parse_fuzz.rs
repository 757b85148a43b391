//! Property-based fuzzing of the parsers (FEN, move text), so they are
//! fuzzed in every `cargo test` even without cargo-fuzz (see `fuzz/` and
//! `scripts/fuzz.sh` for the coverage-guided fuzzers).
//!
//! Inputs: random strings, FEN-alphabet strings, and random edits of valid
//! FENs and SANs. Properties: no panic; whatever parses writes back to a FEN
//! that parses to the same FEN; generated moves are legal; a parsed move is
//! one of the legal moves and its SAN parses back to it.

#[path = "../support/parse_checks.rs"]
mod parse_checks;

use dicechess::board::{MoveList, Position};
use dicechess::notation::fen::parse_fen;
use dicechess::notation::san::san;
use dicechess::variants::{api, chess::Chess, Game, Options};
use parse_checks::{check_fen, check_move_text, check_moves, RULES};
use proptest::prelude::*;

const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "2k2/ppppp/5/PPPPP/2K2 w - - 0 1",
    "2k2/pnbrp/5/PRBNP/2K2 b - - 3 7",
];

const ALPHABET: &[u8] = b"pnbrqkPNBRQK0123456789/ wb-KQkqacdefgh=x+#O";

/// An edit of a string: delete, insert or replace at a position.
#[derive(Debug, Clone)]
enum Edit {
    Delete(usize),
    Insert(usize, u8),
    Replace(usize, u8),
}

fn edit() -> impl Strategy<Value = Edit> {
    let ch = prop::sample::select(ALPHABET.to_vec());
    prop_oneof![
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), ch.clone()).prop_map(|(i, c)| Edit::Insert(i, c)),
        (any::<usize>(), ch).prop_map(|(i, c)| Edit::Replace(i, c)),
    ]
}

fn apply_edits(s: &str, edits: &[Edit]) -> String {
    let mut b = s.as_bytes().to_vec();
    for e in edits {
        match *e {
            Edit::Delete(i) if !b.is_empty() => {
                b.remove(i % b.len());
            }
            Edit::Insert(i, c) => b.insert(i % (b.len() + 1), c),
            Edit::Replace(i, c) if !b.is_empty() => {
                let n = b.len();
                b[i % n] = c;
            }
            _ => {}
        }
    }
    String::from_utf8(b).expect("ASCII edits of ASCII text")
}

fn position(i: usize) -> Position {
    let fen = FENS[i % FENS.len()];
    let rules = if fen.starts_with("2k2") {
        &RULES[1]
    } else {
        &RULES[0]
    };
    parse_fen(fen, rules).unwrap().0
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn fen_random_text(text in any::<String>()) {
        check_fen(&text);
    }

    #[test]
    fn fen_random_fen_alphabet(text in "[pnbrqkPNBRQK1-9/]{1,40} [wbx]( [KQkq-]{1,5}( [a-h1-8-]{1,3}( [0-9]{1,3}( [0-9]{1,3})?)?)?)?") {
        check_fen(&text);
    }

    #[test]
    fn fen_mutations(i in 0..FENS.len(), edits in prop::collection::vec(edit(), 1..6)) {
        check_fen(&apply_edits(FENS[i], &edits));
    }

    #[test]
    fn move_random_text(i in 0..FENS.len(), text in any::<String>()) {
        check_move_text(&position(i), &text);
    }

    #[test]
    fn move_san_alphabet(i in 0..FENS.len(), text in "[a-hKQRBNOPx0-9=+#!?@ é€🂡-]{0,9}") {
        check_move_text(&position(i), &text);
    }

    #[test]
    fn move_san_mutations(i in 0..FENS.len(), k in any::<usize>(), edits in prop::collection::vec(edit(), 1..4)) {
        let pos = position(i);
        let mut legal = MoveList::new();
        pos.legal_moves(&mut legal);
        let m = legal[k % legal.len()];
        for text in [san(&pos, m), m.uci(), dicechess::notation::san::long_algebraic(&pos, m)] {
            check_move_text(&pos, &apply_edits(&text, &edits));
        }
    }

    /// The Game API: bad text gives an error, never a panic, and the state
    /// is unchanged.
    #[test]
    fn game_api_random_text(text in "\\PC{0,12}") {
        let mut g = Chess::new(&Options::new()).unwrap();
        let before = g.fen();
        if let Ok(a) = api::string_to_action(&g, &text) {
            prop_assert!(api::legal_actions(&g).contains(&a));
            api::apply_action(&mut g, a).unwrap();
        } else {
            prop_assert_eq!(g.fen(), before);
        }
    }

    #[test]
    fn game_api_random_fen(i in 0..6usize, edits in prop::collection::vec(edit(), 0..4)) {
        let mut o = Options::new();
        o.insert("fen".into(), apply_edits(FENS[i], &edits).into());
        if let Ok(g) = Chess::new(&o) {
            check_moves(g.position(), true);
        }
    }
}
