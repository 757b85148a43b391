//! Three-dice DiceChess (docs/rules.md §10): hand-checked positions for every
//! clause, plus random-game invariants.

use dicechess::board::Color;
use dicechess::variants::dice_chess3::DiceChess3;
use dicechess::variants::{api, Game, Node, Options, Outcomes, Termination};

use crate::dice_play;
use dice_play::{mv, random_games, roll, sans};

fn game_with(fen: &str, max_plies: Option<u32>) -> DiceChess3 {
    let mut o = Options::new();
    o.insert("fen".into(), fen.into());
    if let Some(m) = max_plies {
        o.insert("max_plies".into(), m.into());
    }
    DiceChess3::new(&o).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn game(fen: &str) -> DiceChess3 {
    game_with(fen, None)
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn fifty_six_named_outcomes_with_exact_probabilities() {
    let g = game(START);
    let mut o = Outcomes::new();
    g.chance_outcomes(&mut o);
    assert_eq!(o.len(), 56);
    assert_eq!(g.max_chance_outcomes(), 56);
    let p = |name: &str| {
        let id = api::string_to_action(&g, name).unwrap();
        o.as_slice().iter().find(|x| x.0 == id).unwrap().1
    };
    assert_eq!(p("PNK"), 6.0 / 216.0);
    assert_eq!(p("PPK"), 3.0 / 216.0);
    assert_eq!(p("QQQ"), 1.0 / 216.0);
    let sum: f64 = o.as_slice().iter().map(|x| x.1).sum();
    assert!((sum - 1.0).abs() < 1e-12);
}

#[test]
fn three_moves_one_per_die_the_same_piece_may_move_again() {
    let mut g = game(START);
    roll(&mut g, "PNN");
    assert_eq!(g.dice_left().as_deref(), Some("PNN"));
    mv(&mut g, "Nf3");
    assert_eq!(g.node(), Node::Decision(0), "the same player acts again");
    assert_eq!(g.dice_left().as_deref(), Some("PN"));
    mv(&mut g, "Ng5"); // the same knight again
    assert_eq!(sans(&g).len(), 16, "only pawn moves are left");
    mv(&mut g, "e4");
    assert_eq!(g.node(), Node::Chance);
    assert_eq!(g.position().turn(), Color::Black);
    assert_eq!(g.plies(), 3);
    assert!(
        g.fen()
            .starts_with("rnbqkbnr/pppppppp/8/6N1/4P3/8/PPPP1PPP/RNBQKB1R b KQkq - 0 1 - -"),
        "{}",
        g.fen()
    );
}

#[test]
fn the_most_dice_must_be_used_where_the_order_matters() {
    // The bishop on c1 is shut in by b2 and the knight on d2; the queen die
    // cannot be used. N then B uses two dice: the knight on d2 must move first,
    // and the knight on a3 may not move at all (the bishop would stay shut in).
    let fen = "7k/8/8/8/8/N7/1P1N4/2B4K w - - 0 1";
    let mut g = game(fen);
    roll(&mut g, "NBQ");
    assert_eq!(sans(&g), ["Nb1", "Nb3", "Nc4", "Ne4", "Nf1", "Nf3"]);
    mv(&mut g, "Nf3");
    assert_eq!(sans(&g), ["Bd2", "Be3", "Bf4", "Bg5", "Bh6"]);
    mv(&mut g, "Bh6");
    assert_eq!(g.node(), Node::Chance, "the queen die is skipped");
    // Only one die usable (no knight move frees the bishop when the b2 pawn
    // and a knight on d2 stay): every single move of a rolled type is legal.
    let mut g = game("7k/8/8/8/8/8/1P1P4/2B1N2K w - - 0 1");
    roll(&mut g, "NBQ");
    assert_eq!(sans(&g), ["Nc2", "Nd3", "Nf3", "Ng2"]);
}

#[test]
fn a_move_that_would_strand_the_remaining_dice_is_refused() {
    // Dice B, R (Q unusable): the bishop on a1 leaves only through b2, so
    // the rook may not go there first; c3 is fine (Bb2 stays possible).
    let mut g = game("6k1/8/8/8/8/8/2R5/B6K w - - 0 1");
    roll(&mut g, "BRQ");
    let s = sans(&g);
    assert!(!s.contains(&"Rb2".to_string()), "{s:?}");
    assert!(
        s.contains(&"Rc3".to_string()) && s.contains(&"Bh8".to_string()),
        "{s:?}"
    );
    // Three dice, all usable only as N, B, B: the knight on d2 first.
    let mut g = game("7k/8/8/8/8/N7/1P1N4/2B4K w - - 0 1");
    roll(&mut g, "NBB");
    assert_eq!(sans(&g), ["Nb1", "Nb3", "Nc4", "Ne4", "Nf1", "Nf3"]);
    mv(&mut g, "Nf1");
    // Both bishop dice must be used: Bd2 then on, never a dead end.
    assert_eq!(sans(&g), ["Bd2", "Be3", "Bf4", "Bg5", "Bh6"]);
    mv(&mut g, "Bh6");
    assert_eq!(g.node(), Node::Decision(0));
    mv(&mut g, "Bg7+");
    assert_eq!(g.node(), Node::Chance);
}

#[test]
fn king_capture_ends_the_game_mid_turn() {
    let mut g = game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    roll(&mut g, "NRR");
    mv(&mut g, "Ra8");
    assert_eq!(g.node(), Node::Decision(0));
    assert_eq!(g.dice_left().as_deref(), Some("NR"));
    assert!(sans(&g).contains(&"Rxe8".to_string()));
    mv(&mut g, "Rxe8");
    assert_eq!(g.termination(), Some(Termination::KingCaptured));
    assert_eq!(g.winner(), Some(0));
    assert_eq!(g.plies(), 2);
}

#[test]
fn no_check_kings_may_stand_and_move_on_attacked_squares() {
    // White's king is attacked by the rook on e8 and may ignore it.
    let mut g = game("4r2k/8/8/8/8/8/P7/4K3 w - - 0 1");
    roll(&mut g, "PPK");
    let s = sans(&g);
    assert!(
        s.contains(&"a3".to_string()) && s.contains(&"Ke2".to_string()),
        "{s:?}"
    );
    mv(&mut g, "Ke2"); // onto the e-file, still attacked
    mv(&mut g, "a3");
    mv(&mut g, "a4");
    roll(&mut g, "PNR");
    mv(&mut g, "Rxe2");
    assert_eq!(g.termination(), Some(Termination::KingCaptured));
    assert_eq!(g.winner(), Some(1));
}

#[test]
fn castling_keeps_its_attack_conditions() {
    // f1 attacked: no O-O, but the king may step onto f1.
    let mut g = game("5r1k/8/8/8/8/8/8/4K2R w K - 0 1");
    roll(&mut g, "NBK");
    let s = sans(&g);
    assert!(
        !s.contains(&"O-O".to_string()) && s.contains(&"Kf1".to_string()),
        "{s:?}"
    );
    // In check: no castling either; landing square attacked: none.
    let mut g = game("4r2k/8/8/8/8/8/8/4K2R w K - 0 1");
    roll(&mut g, "NBK");
    assert!(!sans(&g).contains(&"O-O".to_string()));
    let mut g = game("6rk/8/8/8/8/8/8/4K2R w K - 0 1");
    roll(&mut g, "NBK");
    assert!(!sans(&g).contains(&"O-O".to_string()));
    // Free: castling is a king move (not with a rook die alone).
    let mut g = game("7k/8/8/8/8/8/8/4K2R w K - 0 1");
    roll(&mut g, "NBK");
    assert!(sans(&g).contains(&"O-O".to_string()));
    let mut g = game("7k/8/8/8/8/8/8/4K2R w K - 0 1");
    roll(&mut g, "NBR");
    assert!(!sans(&g).contains(&"O-O".to_string()));
}

#[test]
fn castling_can_free_a_piece_for_a_later_die() {
    // Dice N, K, K: the knight on f2 is shut in by its own pieces, the rook
    // on h1 among them. Castling (a king die) moves that rook, so all three
    // dice can be used (O-O, Nh1, a king move), and castling is the only
    // first move that keeps them all (after Kd2 or Kf1 the knight stays
    // shut in).
    let mut g = game("4k3/8/8/8/4P1P1/3P3P/4PN2/3QK2R w K - 0 1");
    roll(&mut g, "NKK");
    assert_eq!(sans(&g), ["O-O"]);
    mv(&mut g, "O-O");
    // Kh1 would shut the knight in again.
    let s = sans(&g);
    assert!(
        s.contains(&"Nh1".to_string()) && s.contains(&"Kg2".to_string()),
        "{s:?}"
    );
    assert!(!s.contains(&"Kh1".to_string()), "{s:?}");
    assert_eq!(g.check_invariants(), Ok(()));
}

#[test]
fn en_passant_only_first_and_only_against_the_last_move() {
    let ep = "4k3/8/8/3pP3/8/8/8/4K1N1 w - d6 0 1";
    let mut g = game(ep);
    roll(&mut g, "PNB");
    assert!(sans(&g).contains(&"exd6".to_string()));
    mv(&mut g, "Nf3");
    assert!(
        !sans(&g).contains(&"exd6".to_string()),
        "not after the first move"
    );
    // Black's double step followed by another move: no en passant.
    let mut g = game("4k1n1/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    roll(&mut g, "PNB");
    mv(&mut g, "d5");
    mv(&mut g, "Nf6");
    roll(&mut g, "PNB");
    assert!(!sans(&g).contains(&"exd6".to_string()));
    let mut g = game("4k1n1/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    roll(&mut g, "PNB");
    mv(&mut g, "Nf6");
    mv(&mut g, "d5");
    assert!(g.fen().contains(" d6 "), "{}", g.fen());
    roll(&mut g, "PNB");
    assert!(sans(&g).contains(&"exd6".to_string()));
}

#[test]
fn a_double_step_that_leaves_the_king_attacked_keeps_its_en_passant_square() {
    // No check here: White's c2-c4 leaves the king on e1 to the rook on e5,
    // and Black may take en passant or take the king. The FEN of that state
    // reads back (a parser check that holds where moves keep the king safe,
    // an en-passant square beside an attacked mover's king, must not apply).
    let mut g = game("4k3/8/8/4r3/3p4/8/2P5/4K3 w - - 0 1 - -");
    roll(&mut g, "PQQ");
    mv(&mut g, "c4");
    roll(&mut g, "PRR");
    let fen = g.fen();
    assert!(fen.contains(" c3 "), "{fen}");
    assert!(sans(&g).contains(&"dxc3".to_string()));
    assert!(sans(&g).contains(&"Rxe1".to_string()));
    let again = game(&fen);
    assert_eq!(again.fen(), fen);
    assert_eq!(sans(&again), sans(&g));
}

#[test]
fn promotion_choice() {
    let fen = "7k/P7/8/8/8/8/8/K7 w - - 0 1";
    let mut g = game(fen);
    roll(&mut g, "PKK");
    assert_eq!(
        sans(&g),
        ["Ka2", "Kb1", "Kb2", "a8=B", "a8=N", "a8=Q", "a8=R"]
    );
    // The maximum-dice rule picks the promotion: only a queen uses both
    // queen dice, only a knight or a bishop uses one of N and B.
    let mut g = game(fen);
    roll(&mut g, "PQQ");
    assert_eq!(sans(&g), ["a8=Q"]);
    mv(&mut g, "a8=Q");
    assert!(sans(&g).contains(&"Qxh8".to_string()));
    let mut g = game(fen);
    roll(&mut g, "PNB");
    assert_eq!(sans(&g), ["a8=B", "a8=N"]);
}

#[test]
fn repetition_keys_after_whole_turns() {
    let mut g = game("6nk/8/8/8/8/8/8/6NK w - - 0 1");
    for (i, side) in ["Nf3 Ng1", "Nf6 Ng8", "Nf3 Ng1", "Nf6 Ng8"]
        .iter()
        .enumerate()
    {
        roll(&mut g, "NNQ");
        for m in side.split(' ') {
            mv(&mut g, m);
        }
        if i < 3 {
            assert_eq!(g.node(), Node::Chance, "turn {i}");
        }
    }
    assert_eq!(g.termination(), Some(Termination::ThreefoldRepetition));
    assert_eq!(g.plies(), 8);
}

#[test]
fn fifty_moves_counted_in_turns() {
    let mut g = game("6nk/8/8/8/8/8/8/6NK w - - 98 80");
    roll(&mut g, "NNQ");
    mv(&mut g, "Nf3");
    assert!(g.fen().contains(" 99 80 NNQ NQ"), "{}", g.fen());
    mv(&mut g, "Ng5");
    assert_eq!(g.node(), Node::Chance);
    roll(&mut g, "NNQ");
    mv(&mut g, "Nf6");
    mv(&mut g, "Ng4");
    assert_eq!(g.termination(), Some(Termination::FiftyMoves));
    // A turn in which no die can be used counts too.
    let mut g = game("6nk/8/8/8/8/8/8/6NK w - - 99 80");
    roll(&mut g, "BBQ");
    assert_eq!(g.termination(), Some(Termination::FiftyMoves));
}

#[test]
fn a_turn_without_a_usable_die_passes() {
    let mut g = game("6nk/8/8/8/8/8/8/6NK w - - 3 10");
    roll(&mut g, "BBQ");
    assert_eq!(g.node(), Node::Chance);
    assert_eq!(g.plies(), 0);
    assert!(
        g.fen().starts_with("6nk/8/8/8/8/8/8/6NK b - - 4 10 - -"),
        "{}",
        g.fen()
    );
}

#[test]
fn fen_round_trips_mid_turn_and_rejects_bad_fields() {
    let mut g = game(START);
    roll(&mut g, "PNK");
    mv(&mut g, "e4");
    assert!(g.fen().ends_with(" PNK NK"), "{}", g.fen());
    let h = game(&g.fen());
    assert_eq!(h.fen(), g.fen());
    assert_eq!(sans(&h), sans(&g));
    // Three attackers on a king are fine in a game without check.
    let h = game("4k3/8/8/8/8/2n1r3/3p4/4K3 w - - 0 1");
    assert_eq!(h.node(), Node::Chance);
    for bad in [" PNX NK", " PNK QQ", " PNK", " PNK NK x", " - PN"] {
        let mut o = Options::new();
        o.insert("fen".into(), format!("{START}{bad}").into());
        assert!(DiceChess3::new(&o).is_err(), "{bad}");
    }
}

#[test]
fn random_games_keep_the_invariants_and_end() {
    let terms = random_games(&game(START), 12, 150, game);
    assert!(terms.contains_key(&Termination::KingCaptured), "{terms:?}");
}
