//! Two-dice Dice Chess (docs/rules.md §9): hand-checked positions for every clause,
//! plus random-game invariants.

use dicechess::variants::dice_chess::DiceChess;
use dicechess::variants::{api, Game, Node, Options, Outcomes, Termination};

use crate::dice_play;
use dice_play::{mv, random_games, roll, sans};

/// A game from `fen` with `extra` options (also the dice rule set's tests').
pub(crate) fn game_with(fen: &str, extra: &[(&str, serde_json::Value)]) -> DiceChess {
    let mut o = Options::new();
    o.insert("fen".into(), fen.into());
    for (k, v) in extra {
        o.insert((*k).into(), v.clone());
    }
    DiceChess::new(&o).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn game(fen: &str) -> DiceChess {
    game_with(fen, &[])
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const CASTLING: &str = "r3k2r/pppq1ppp/2npbn2/4p3/4P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 1";

#[test]
fn twenty_one_named_outcomes_with_exact_probabilities() {
    let g = game(START);
    let mut o = Outcomes::new();
    g.chance_outcomes(&mut o);
    assert_eq!(o.len(), 21);
    assert_eq!(g.max_chance_outcomes(), 21);
    let p = |name: &str| {
        let id = api::string_to_action(&g, name).unwrap();
        o.as_slice().iter().find(|x| x.0 == id).unwrap().1
    };
    assert_eq!(p("PN"), 2.0 / 36.0);
    assert_eq!(p("QQ"), 1.0 / 36.0);
    let names: Vec<String> = o.as_slice().iter().map(|x| g.outcome_name(x.0)).collect();
    assert!(names.contains(&"QQ".to_string()) && names.contains(&"NK".to_string()));
    // Custom faces: a die with three pawns.
    let g = game_with(START, &[("die_faces", "PPPNBR".into())]);
    g.chance_outcomes(&mut o);
    let p = |name: &str| {
        let id = api::string_to_action(&g, name).unwrap();
        o.as_slice().iter().find(|x| x.0 == id).unwrap().1
    };
    assert_eq!(p("PP"), 9.0 / 36.0);
    assert_eq!(p("PN"), 6.0 / 36.0);
    assert_eq!(o.len(), 10);
}

#[test]
fn a_rolled_type_moves_doubles_move_anything() {
    let mut g = game(START);
    roll(&mut g, "PN");
    assert_eq!(sans(&g).len(), 20);
    let mut g = game(START);
    roll(&mut g, "QQ");
    assert_eq!(sans(&g).len(), 20, "doubles allow any legal move");
    let mut g = game("4k3/8/8/8/8/8/8/R3K2B w - - 0 1");
    roll(&mut g, "BB");
    assert!(
        sans(&g).contains(&"Ra8+".to_string()),
        "doubles: a rook move with bishops"
    );
    let mut g = game("4k3/8/8/8/8/8/8/R3K2B w - - 0 1");
    roll(&mut g, "NB");
    assert!(sans(&g).iter().all(|s| s.starts_with('B')));
}

#[test]
fn a_roll_without_a_move_passes_without_a_decision() {
    let mut g = game(START);
    roll(&mut g, "BR"); // bishops and rooks are blocked at the start
    assert_eq!(g.node(), Node::Chance);
    assert!(g
        .fen()
        .starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"));
    assert_eq!(g.plies(), 0);
}

#[test]
fn castling_with_a_king_a_rook_or_doubles() {
    for (r, castles) in [
        ("NK", true),
        ("NR", true),
        ("BB", true),
        ("PN", false),
        ("BQ", false),
    ] {
        let mut g = game(CASTLING);
        roll(&mut g, r);
        let s = sans(&g);
        assert_eq!(s.contains(&"O-O".to_string()), castles, "{r}: {s:?}");
        assert_eq!(s.contains(&"O-O-O".to_string()), castles, "{r}: {s:?}");
    }
    // Through an attacked square: never (the rook die does not change that).
    let mut g = game("4kr2/8/8/8/8/8/8/4K2R w K - 0 1");
    roll(&mut g, "PR");
    assert!(!sans(&g).contains(&"O-O".to_string()));
}

#[test]
fn en_passant_with_a_pawn_or_doubles() {
    let ep = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
    for (r, ok) in [("PN", true), ("NN", true), ("NB", false)] {
        let mut g = game(ep);
        roll(&mut g, r);
        assert_eq!(sans(&g).contains(&"exf6".to_string()), ok, "{r}");
    }
}

#[test]
fn a_check_is_answered_with_a_rolled_piece_or_the_turn_passes() {
    // White in check from the rook on e8; only king moves answer it.
    let mut g = game("4r2k/8/8/8/8/8/8/N3K3 w - - 0 1");
    roll(&mut g, "PN"); // the knight cannot help: no legal move, pass in check
    assert_eq!(g.node(), Node::Chance);
    assert_eq!(g.position().turn(), dicechess::board::Color::Black);
    // Black may capture the king left in check with a rolled rook.
    roll(&mut g, "PR");
    assert!(sans(&g).contains(&"Rxe1".to_string()));
    mv(&mut g, "Rxe1");
    assert_eq!(g.termination(), Some(Termination::KingCaptured));
    assert_eq!(g.winner(), Some(1));
}

#[test]
fn king_capture_is_optional_and_needs_a_rolled_type() {
    let mut g = game("4r2k/8/8/8/8/8/8/N3K3 w - - 0 1");
    roll(&mut g, "PN");
    let mut b = g.clone();
    roll(&mut b, "NK"); // no rook rolled: the king moves, no capture
    assert!(!sans(&b).contains(&"Rxe1".to_string()));
    assert_eq!(sans(&b), ["Kg7+", "Kg8+", "Kh7+"]); // the check still stands
    roll(&mut g, "RR");
    let s = sans(&g);
    assert!(s.contains(&"Rxe1".to_string()) && s.contains(&"Re2+".to_string()));
    mv(&mut g, "Re2+"); // not compulsory
    assert_eq!(g.node(), Node::Chance);
}

#[test]
fn a_pinned_piece_may_capture_the_king() {
    // The black rook on g7 is pinned by the bishop on a1; White (in check
    // from it) passes; the rook may still take the king.
    let mut g = game("7k/6r1/8/8/8/8/8/B5K1 w - - 0 1");
    roll(&mut g, "PN");
    roll(&mut g, "PR");
    assert_eq!(sans(&g), ["Rxg1"]);
    mv(&mut g, "Rxg1");
    assert_eq!(g.termination(), Some(Termination::KingCaptured));
}

#[test]
fn checkmate_and_stalemate_whatever_the_dice() {
    let g = game("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    assert_eq!(g.termination(), Some(Termination::Checkmate));
    assert_eq!(g.winner(), Some(1));
    let mut g = game("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2");
    roll(&mut g, "NQ");
    mv(&mut g, "Qh4#");
    assert_eq!(g.termination(), Some(Termination::Checkmate));
    let g = game("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(g.termination(), Some(Termination::Stalemate));
}

/// A start position's endings follow docs/rules.md §0's order, as a
/// move's do: checkmate and stalemate before fifty moves and insufficient
/// material.
#[test]
fn a_start_position_ends_in_the_rule_book_order() {
    let g = game("7k/6Q1/6K1/8/8/8/8/8 b - - 100 80");
    assert_eq!(g.termination(), Some(Termination::Checkmate));
    assert_eq!(g.winner(), Some(0));
    let g = game("7k/5B2/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(g.termination(), Some(Termination::Stalemate));
}

#[test]
fn draws_as_in_chess() {
    let mut g = game("8/8/4k3/8/8/2K5/8/R7 w - - 99 80");
    roll(&mut g, "RK");
    mv(&mut g, "Ra2");
    assert_eq!(g.termination(), Some(Termination::FiftyMoves));
    // Knight takes the last pawn: K+N v K.
    let mut g = game("8/8/4k3/8/2p5/2KN4/8/8 w - - 0 1");
    roll(&mut g, "PK");
    mv(&mut g, "Kxc4");
    assert_eq!(g.termination(), Some(Termination::InsufficientMaterial));
    // Threefold: knights out and back.
    let mut g = game("4k1n1/8/8/8/8/8/8/4K1N1 w - - 0 1");
    for m in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"] {
        roll(&mut g, "NN");
        mv(&mut g, m);
    }
    assert_eq!(g.termination(), Some(Termination::ThreefoldRepetition));
}

#[test]
fn forced_passes_are_bounded_by_max_plies() {
    let mut g = game_with(
        "r3k3/8/8/8/8/8/8/R3K3 w - - 0 1",
        &[("max_plies", 4.into())],
    );
    for _ in 0..3 {
        roll(&mut g, "PN");
        assert_eq!(g.node(), Node::Chance);
    }
    roll(&mut g, "PN");
    assert_eq!(g.termination(), Some(Termination::MaxPlies));
}

#[test]
fn fen_carries_the_roll_and_round_trips() {
    let mut g = game(START);
    roll(&mut g, "PN");
    assert!(g.fen().ends_with(" PN"), "{}", g.fen());
    let h = game(&g.fen());
    assert_eq!(h.fen(), g.fen());
    assert_eq!(sans(&h), sans(&g));
    // A roll without a move in the FEN passes at once.
    let h = game(&format!("{START} BR"));
    assert_eq!(h.node(), Node::Chance);
    assert!(h.fen().contains(" b KQkq"));
    for bad in [" XX", " PNB", " PN x"] {
        let mut o = Options::new();
        o.insert("fen".into(), format!("{START}{bad}").into());
        assert!(DiceChess::new(&o).is_err(), "{bad}");
    }
    let mut o = Options::new();
    o.insert("die_faces".into(), "PNX".into());
    assert!(DiceChess::new(&o).is_err());
}

#[test]
fn random_games_keep_the_invariants_and_end() {
    let terms = random_games(&game(START), 11, 150, game);
    assert!(terms.contains_key(&Termination::Checkmate), "{terms:?}");
}
