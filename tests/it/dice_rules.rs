//! The dice rule set's options on Dice Chess (docs/rules.md §9, "Options"):
//! one die deciding the piece type (`dice=1`), doubles of their type only
//! (`doubles=rolled`), a roll without a move rolled again
//! (`no_move=reroll`). Hand-checked positions; the conformance suite plays
//! the relatives in `RELATIVES` too.

use dicechess::variants::dice_chess::{DiceChess, DiceRules};
use dicechess::variants::{api, AnyGame, Game, Node, Options, Outcomes, Termination};
use dicechess::with_game;

use crate::dice_chess::game_with;
use crate::dice_play::{mv, roll, sans};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn one_die(fen: &str) -> DiceChess {
    game_with(fen, &[("dice", 1.into())])
}

fn error(extra: &[(&str, serde_json::Value)]) -> String {
    let mut o = Options::new();
    for (k, v) in extra {
        o.insert((*k).into(), v.clone());
    }
    match DiceChess::new(&o) {
        Ok(_) => panic!("{extra:?} accepted"),
        Err(e) => e.0,
    }
}

#[test]
fn one_die_has_six_faces_each_one_sixth() {
    let g = one_die(START);
    assert_eq!(g.max_chance_outcomes(), 6);
    let mut o = Outcomes::new();
    g.chance_outcomes(&mut o);
    let names: Vec<(String, f64)> = o
        .as_slice()
        .iter()
        .map(|&(id, p)| (g.outcome_name(id), p))
        .collect();
    let want: Vec<(String, f64)> = ["P", "N", "B", "R", "Q", "K"]
        .iter()
        .map(|s| (s.to_string(), 1.0 / 6.0))
        .collect();
    assert_eq!(names, want);
}

#[test]
fn one_die_decides_the_piece_type() {
    let mut g = one_die(START);
    roll(&mut g, "N");
    assert_eq!(sans(&g), ["Na3", "Nc3", "Nf3", "Nh3"]);
    let mut g = one_die(START);
    roll(&mut g, "P");
    assert_eq!(sans(&g).len(), 16);
    // A rook and a bishop: the die picks one of them, never both.
    let mut g = one_die("4k3/8/8/8/8/8/8/R3K2B w - - 0 1");
    roll(&mut g, "B");
    assert!(
        sans(&g).iter().all(|s| s.starts_with('B')),
        "{:?}",
        sans(&g)
    );
    // A disallowed move names the one face shown.
    let ra8 = api::string_to_action(&g, "Ra8+").unwrap_err();
    assert!(
        ra8.0
            .contains("the die shows B (only bishop moves are allowed)"),
        "{ra8}"
    );
    // In check, no rook answers it: the turn passes, the check stands, and
    // a rook die lets Black take the king.
    let mut g = one_die("4k3/8/8/8/8/8/4r3/R3K3 w - - 0 1");
    roll(&mut g, "R");
    assert_eq!(g.node(), Node::Chance);
    roll(&mut g, "R");
    assert!(sans(&g).contains(&"Rxe1".to_string()), "{:?}", sans(&g));
    mv(&mut g, "Rxe1");
    assert_eq!(g.termination(), Some(Termination::KingCaptured));
    assert_eq!(g.winner(), Some(1));
}

#[test]
fn one_die_passes_when_the_rolled_type_cannot_move() {
    let mut g = one_die(START);
    roll(&mut g, "B"); // bishops are blocked at the start
    assert_eq!(g.node(), Node::Chance);
    assert!(
        g.fen().starts_with(&START.replace(" w ", " b ")),
        "{}",
        g.fen()
    );
    assert_eq!((g.plies(), g.progress().idle_turns), (0, 1));
    // With `no_move=reroll` the same player rolls again: same board, same side.
    let mut g = game_with(START, &[("dice", 1.into()), ("no_move", "reroll".into())]);
    roll(&mut g, "B");
    assert_eq!(g.node(), Node::Chance);
    assert_eq!(g.fen(), format!("{START} -"));
    roll(&mut g, "N");
    assert_eq!(g.node(), Node::Decision(0));
    mv(&mut g, "Nf3");
    assert_eq!(g.plies(), 1);
}

#[test]
fn rerolls_are_bounded_like_passes() {
    // Only the king's face, doubles of their type, and a king that cannot
    // move: every roll is rolled again.
    let mut g = game_with(
        "k7/8/8/8/8/8/PP6/KR6 w - - 0 1",
        &[
            ("die_faces", "K".into()),
            ("doubles", "rolled".into()),
            ("no_move", "reroll".into()),
            ("max_plies", 3.into()),
        ],
    );
    roll(&mut g, "KK");
    roll(&mut g, "KK");
    assert_eq!(g.node(), Node::Chance);
    roll(&mut g, "KK");
    assert_eq!(g.termination(), Some(Termination::MaxPlies));
}

#[test]
fn doubles_of_their_type_only() {
    let rolled = [("doubles", "rolled".into())];
    let mut g = game_with(START, &rolled);
    roll(&mut g, "NN");
    assert_eq!(sans(&g), ["Na3", "Nc3", "Nf3", "Nh3"]);
    let mut g = game_with(START, &rolled);
    roll(&mut g, "BB");
    assert_eq!(g.node(), Node::Chance, "bishop doubles pass at the start");
    // The default: doubles allow any legal move.
    let mut g = game_with(START, &[]);
    roll(&mut g, "NN");
    assert_eq!(sans(&g).len(), 20);
}

#[test]
fn the_options_are_checked_and_name_the_allowed_values() {
    let e = error(&[("dice", 3.into())]);
    assert!(e.contains("dice") && e.contains("from 1 to 2"), "{e}");
    let e = error(&[("doubles", "some".into())]);
    assert!(e.contains(r#""any", "rolled""#), "{e}");
    let e = error(&[("no_move", "skip".into())]);
    assert!(e.contains(r#""pass", "reroll""#), "{e}");
    let e = error(&[("dice", 1.into()), ("fen", format!("{START} PN").into())]);
    assert!(e.contains("one face of the die"), "{e}");
    let e = error(&[
        ("dice", 1.into()),
        ("die_faces", "PN".into()),
        ("fen", format!("{START} B").into()),
    ]);
    assert!(e.contains("roll field"), "{e}");
}

#[test]
fn the_fen_the_options_and_the_spec_round_trip() {
    let mut g = one_die(START);
    roll(&mut g, "N");
    assert!(g.fen().ends_with(" N"), "{}", g.fen());
    let mut o = g.options();
    assert_eq!(o["dice"], 1);
    assert_eq!(
        (o["doubles"].as_str(), o["no_move"].as_str()),
        (Some("any"), Some("pass"))
    );
    o.insert("fen".into(), g.fen().into());
    let h = DiceChess::new(&o).unwrap();
    assert_eq!((h.fen(), sans(&h)), (g.fen(), sans(&g)));
    assert_eq!(h.rules(), g.rules());
    // The spec form, as the CLI, the study and records take it.
    let a = AnyGame::new("dice_chess:dice=1,no_move=reroll", &Options::new()).unwrap();
    with_game!(&a, a => {
        let o = a.options();
        assert_eq!((o["dice"].as_u64(), o["no_move"].as_str()), (Some(1), Some("reroll")));
        assert_eq!(a.max_chance_outcomes(), 6);
        assert!(api::pretty(a).contains("dice rules: dice=1"), "{}", api::pretty(a));
    });
    // The defaults are the classic game's.
    let d = DiceChess::new(&Options::new()).unwrap();
    assert_eq!(d.rules(), DiceRules::CLASSIC);
    assert!(!api::pretty(&d).contains("dice rules"));
}
