//! Round trips of random games of every variant through PGN and JSON Lines.

use super::{jsonl, pgn, Record};
use crate::variants::{api, identity, AnyGame, Game, Node, Options, Outcomes, VARIANTS};
use crate::with_game;
use rand::{RngExt, SeedableRng};

fn random_record(variant: &str, seed: u64) -> (Record, AnyGame) {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut g = AnyGame::new(variant, &Options::new()).unwrap();
    let mut actions = Vec::new();
    for _ in 0..300 {
        let a = with_game!(&g, x => match x.node() {
            Node::Terminal => None,
            Node::Chance => {
                let mut o = Outcomes::new();
                x.chance_outcomes(&mut o);
                let v = o.as_slice();
                Some(v[rng.random_range(0..v.len())].0)
            }
            Node::Decision(_) => {
                let v = api::legal_actions(x);
                Some(v[rng.random_range(0..v.len())])
            }
        });
        let Some(a) = a else { break };
        super::apply(&mut g, a).unwrap();
        actions.push(a);
    }
    (Record::new(variant, Options::new(), actions), g)
}

#[test]
fn every_variant_round_trips_exactly() {
    for v in VARIANTS {
        for seed in 0..3 {
            let (rec, end) = random_record(v, seed);
            let text = pgn::write(&rec).unwrap();
            let back = pgn::read(&text).unwrap();
            assert_eq!(back.len(), 1, "{v}");
            assert_eq!(back[0].actions, rec.actions, "{v}: {text}");
            assert!(
                identity::same_state(&back[0].replay().unwrap(), &end),
                "{v}"
            );
            let line = jsonl::write_line(&rec).unwrap();
            let back = jsonl::read_line(&line, 1).unwrap();
            assert!(identity::same_state(&back.replay().unwrap(), &end), "{v}");
        }
    }
}

#[test]
fn errors_name_line_and_column() {
    let e = pgn::read("[Variant \"vegas\"]\n\n1. e4").unwrap_err();
    assert_eq!((e.line, e.column), (3, 4));
    assert!(e.message.contains("roll"), "{e}");
    for text in [
        "{",
        "(",
        ")",
        "[",
        "[A",
        "[A \"",
        "[A \"\\x\"]",
        "\u{0}",
        "1-0 1-0",
    ] {
        let _ = pgn::read(text); // errors or records, never a panic
    }
}
