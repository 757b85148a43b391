//! Random Move Number Chess (docs/rules.md §5): hand-checked positions, one test per
//! row of the throw table and per clause, plus random-game invariants.

use dicechess::board::Color;
use dicechess::sim::{game_rng, play_random_game};
use dicechess::variants::random_move_number::{throw_effect, RandomMoveNumber, ThrowEffect};
use dicechess::variants::{api, Game, Node, Options, Outcomes, Termination};
use rand::RngExt;

fn game(fen: &str) -> RandomMoveNumber {
    RandomMoveNumber::from_fen(fen, 1000).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn throw(g: &mut RandomMoveNumber, d: u32) {
    assert_eq!(g.node(), Node::Chance, "throw {d} at a non-chance node");
    api::apply_action(g, d - 1).unwrap();
}

fn mv(g: &mut RandomMoveNumber, san: &str) {
    let a = api::string_to_action(g, san).unwrap_or_else(|e| panic!("{san}: {e}"));
    api::apply_action(g, a).unwrap();
}

fn sans(g: &RandomMoveNumber) -> Vec<String> {
    let mut v: Vec<String> = api::legal_actions(g)
        .into_iter()
        .map(|a| api::action_to_string(g, a).unwrap())
        .collect();
    v.sort();
    v
}

fn records(g: &RandomMoveNumber) -> [Vec<u8>; 2] {
    g.throw_records()
}

/// White (player 0) to throw in a quiet position, with player 0's record.
fn table_game(rec0: &str) -> RandomMoveNumber {
    game(&format!(
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 throw 0 0 wb {rec0} 2"
    ))
}

fn after_throw(rec0: &str, d: u32) -> RandomMoveNumber {
    let mut g = table_game(rec0);
    throw(&mut g, d);
    g
}

// ---------------------------------------------------------------- chance

#[test]
fn throws_are_six_equal_named_outcomes() {
    let g = RandomMoveNumber::new(&Options::new()).unwrap();
    assert_eq!(g.node(), Node::Chance);
    assert_eq!(g.max_chance_outcomes(), 6);
    let mut o = Outcomes::new();
    g.chance_outcomes(&mut o);
    let ids: Vec<u32> = o.as_slice().iter().map(|x| x.0).collect();
    assert_eq!(ids, vec![0, 1, 2, 3, 4, 5]);
    let total: f64 = o.as_slice().iter().map(|x| x.1).sum();
    assert!((total - 1.0).abs() < 1e-12);
    for (id, p) in o.as_slice() {
        assert!((p - 1.0 / 6.0).abs() < 1e-15);
        assert_eq!(g.outcome_name(*id), (id + 1).to_string());
    }
}

// ---------------------------------------------------------------- colours

#[test]
fn colour_choice_with_a_tie_and_first_moves_without_throws() {
    let mut g = RandomMoveNumber::new(&Options::new()).unwrap();
    assert_eq!(g.colors(), None);
    throw(&mut g, 4); // player 0
    throw(&mut g, 4); // player 1: tie, again
    assert_eq!(g.node(), Node::Chance);
    assert_eq!(g.colors(), None);
    throw(&mut g, 2); // player 0
    throw(&mut g, 5); // player 1: higher, plays White
    assert_eq!(g.colors(), Some([Color::Black, Color::White]));
    assert_eq!(records(&g), [vec![4, 2], vec![4, 5]]);
    // White's first move, no throw.
    assert_eq!(g.node(), Node::Decision(1));
    assert_eq!(g.moves_left(), 1);
    assert_eq!(sans(&g).len(), 20);
    mv(&mut g, "e4");
    // Black's first move, no throw.
    assert_eq!(g.node(), Node::Decision(0));
    assert_eq!(g.moves_left(), 1);
    mv(&mut g, "e5");
    // Now the player commanding White throws.
    assert_eq!(g.node(), Node::Chance);
    assert_eq!(g.thrower(), 1);
}

#[test]
fn colour_choice_throws_count_towards_the_first_runs() {
    // Player 1 threw 4 then 5 for colours; a 5 now is a run of two: 2 moves.
    let mut g = RandomMoveNumber::new(&Options::new()).unwrap();
    for d in [4, 4, 2, 5] {
        throw(&mut g, d);
    }
    mv(&mut g, "e4");
    mv(&mut g, "e5");
    throw(&mut g, 5);
    assert_eq!(records(&g), [vec![4, 2], vec![4, 5, 5]]);
    assert_eq!(g.node(), Node::Decision(1));
    assert_eq!(g.moves_left(), 2);
    mv(&mut g, "Nf3");
    assert_eq!(g.node(), Node::Decision(1));
    assert_eq!(g.moves_left(), 1);
    mv(&mut g, "Nc3");
    assert_eq!(g.node(), Node::Chance);
    assert_eq!(g.thrower(), 0);
    // Player 0's colour throws 4, 2: a 2 now is a run of two: 2 moves.
    throw(&mut g, 2);
    assert_eq!(g.moves_left(), 2);

    // Tied 6s while choosing colours: three 6s already, a 6 now is the
    // fourth (5 moves), not a switch.
    let mut g = RandomMoveNumber::new(&Options::new()).unwrap();
    for d in [6, 6, 6, 6, 6, 1] {
        throw(&mut g, d);
    }
    assert_eq!(g.colors(), Some([Color::White, Color::Black]));
    mv(&mut g, "e4");
    mv(&mut g, "e5");
    throw(&mut g, 6);
    assert_eq!(records(&g)[0], vec![6, 6, 6, 6]);
    assert_eq!(g.moves_left(), 5);
}

#[test]
fn first_mover_is_the_side_to_move_of_the_fen() {
    let mut g = game("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    throw(&mut g, 3);
    throw(&mut g, 1); // player 0 White, player 1 Black
    assert_eq!(g.node(), Node::Decision(1));
    mv(&mut g, "e5");
    assert_eq!(g.node(), Node::Decision(0));
    mv(&mut g, "Nf3");
    assert_eq!(g.node(), Node::Chance);
    assert_eq!(g.thrower(), 1);
}

// ---------------------------------------------------------------- table

#[test]
fn table_function() {
    use ThrowEffect::*;
    for d in 2..=5 {
        assert_eq!(throw_effect(d, 1), Moves(1));
        for n in 2..=9 {
            assert_eq!(throw_effect(d, n), Moves(n));
        }
    }
    for n in 1..=7 {
        assert_eq!(throw_effect(1, n), Moves(n - 1));
    }
    let six: Vec<ThrowEffect> = (1..=7).map(|n| throw_effect(6, n)).collect();
    assert_eq!(
        six,
        vec![Moves(2), Moves(3), Switch, Moves(5), Moves(6), Lose, Lose]
    );
}

#[test]
fn row_2_to_5_single_gives_one_move() {
    for d in 2..=5 {
        let g = after_throw("1", d);
        assert_eq!(g.node(), Node::Decision(0));
        assert_eq!(g.moves_left(), 1);
    }
}

#[test]
fn row_2_to_5_run_gives_run_length_moves() {
    assert_eq!(after_throw("4", 4).moves_left(), 2);
    assert_eq!(after_throw("344", 4).moves_left(), 3);
    assert_eq!(after_throw("2222", 2).moves_left(), 5);
    assert_eq!(after_throw("55555", 5).moves_left(), 6);
    // A different throw breaks the run.
    assert_eq!(after_throw("55", 3).moves_left(), 1);
    assert_eq!(records(&after_throw("344", 4))[0], vec![3, 4, 4, 4]);
}

#[test]
fn row_single_1_forfeits_the_turn() {
    let g = after_throw("3", 1);
    // The turn passes: Black (player 1) throws next.
    assert_eq!(g.node(), Node::Chance);
    assert_eq!(g.position().turn(), Color::Black);
    assert_eq!(g.thrower(), 1);
    assert_eq!(records(&g), [vec![3, 1], vec![2]]);
}

#[test]
fn row_run_of_1s_gives_one_less() {
    assert_eq!(after_throw("1", 1).moves_left(), 1);
    assert_eq!(after_throw("211", 1).moves_left(), 2);
    assert_eq!(after_throw("111", 1).moves_left(), 3);
}

#[test]
fn row_6_runs_of_length_1_to_6() {
    // n = 1: 2 moves, n = 2: 3 moves.
    assert_eq!(after_throw("3", 6).moves_left(), 2);
    assert_eq!(after_throw("36", 6).moves_left(), 3);
    // n = 3: switch (below), n = 4: 5 moves, n = 5: 6 moves.
    let g = after_throw("66", 6);
    assert_eq!(g.node(), Node::Chance);
    assert_eq!(g.colors(), Some([Color::Black, Color::White]));
    assert_eq!(after_throw("666", 6).moves_left(), 5);
    assert_eq!(after_throw("6666", 6).moves_left(), 6);
    // n = 6: the thrower loses.
    let g = after_throw("66666", 6);
    assert_eq!(g.node(), Node::Terminal);
    assert_eq!(g.termination(), Some(Termination::SixSixes));
    assert_eq!(g.winner(), Some(1));
    assert_eq!(api::returns(&g), [-1.0, 1.0]);
}

// ---------------------------------------------------------------- switch

#[test]
fn switch_exchanges_colours_and_the_opponent_throws() {
    let mut g =
        game("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 throw 0 0 wb 566 2");
    throw(&mut g, 6); // player 0's third 6: switch
    assert_eq!(g.colors(), Some([Color::Black, Color::White]));
    assert_eq!(g.color_of(1), Color::White);
    // White is still to move, now commanded by player 1, who throws.
    assert_eq!(g.position().turn(), Color::White);
    assert_eq!(g.node(), Node::Chance);
    assert_eq!(g.thrower(), 1);
    assert_eq!(g.position().castling_rights(), 15);
    throw(&mut g, 3);
    assert_eq!(records(&g), [vec![5, 6, 6, 6], vec![2, 3]]);
    assert_eq!(g.node(), Node::Decision(1));
    assert!(sans(&g).contains(&"Nf3".to_string()));
    mv(&mut g, "Nf3");
    // Player 0 commands Black now; its run of 6s goes on: the fourth is 5 moves.
    assert_eq!(g.thrower(), 0);
    throw(&mut g, 6);
    assert_eq!(g.node(), Node::Decision(0));
    assert_eq!(g.position().turn(), Color::Black);
    assert_eq!(g.moves_left(), 5);
}

#[test]
fn results_are_per_player_after_a_switch() {
    // Player 0 (White) switches; player 1 now commands White and mates.
    let mut g = game("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 throw 0 0 wb 566 2");
    throw(&mut g, 6);
    throw(&mut g, 4);
    assert_eq!(g.node(), Node::Decision(1));
    assert!(sans(&g).contains(&"Ra8#".to_string()));
    mv(&mut g, "Ra8#");
    assert_eq!(g.termination(), Some(Termination::Checkmate));
    assert_eq!(g.winner(), Some(1));
    assert_eq!(api::returns(&g), [-1.0, 1.0]);

    // Without the switch, player 0 mates and wins.
    let mut g = game("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 throw 0 0 wb 56 2");
    throw(&mut g, 6);
    mv(&mut g, "Ra8#");
    assert_eq!(api::returns(&g), [1.0, -1.0]);

    // Six sixes after a switch: the player who now commands Black loses.
    let mut g = game("6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1 throw 0 0 bw 66666 2");
    assert_eq!(g.thrower(), 0);
    throw(&mut g, 6);
    assert_eq!(g.termination(), Some(Termination::SixSixes));
    assert_eq!(api::returns(&g), [-1.0, 1.0]);
}

// ---------------------------------------------------------------- moves

#[test]
fn multi_move_turn_keeps_the_same_player() {
    let mut g = game("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 move 3 0 wb 444 2");
    mv(&mut g, "e4");
    assert_eq!(g.node(), Node::Decision(0));
    assert_eq!(g.position().turn(), Color::White);
    assert_eq!(g.moves_left(), 2);
    mv(&mut g, "e5");
    mv(&mut g, "Kd2");
    assert_eq!(g.node(), Node::Chance);
    assert_eq!(g.position().turn(), Color::Black);
    assert_eq!(g.plies(), 3);
}

#[test]
fn check_ends_the_turn_early() {
    let mut g = game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 move 3 0 wb 444 2");
    mv(&mut g, "Ra8+");
    assert_eq!(g.node(), Node::Chance);
    assert_eq!(g.position().turn(), Color::Black);
    assert_eq!(g.moves_left(), 0);
    // In check at the start of a turn: Black still throws, then must evade.
    throw(&mut g, 3);
    assert_eq!(g.node(), Node::Decision(1));
    assert_eq!(sans(&g), vec!["Kd7", "Ke7", "Kf7"]);
}

#[test]
fn in_check_at_the_start_of_a_turn_the_player_still_throws() {
    let mut g = game("4k3/8/8/8/8/8/8/r3K3 w - - 0 1 throw 0 0 wb 3 2");
    assert_eq!(g.node(), Node::Chance);
    throw(&mut g, 3);
    assert_eq!(g.moves_left(), 2);
    assert_eq!(sans(&g), vec!["Kd2", "Ke2", "Kf2"]);
}

#[test]
fn checkmate_ends_the_game_at_once() {
    let mut g = game("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 move 3 0 wb 444 2");
    mv(&mut g, "Ra8#");
    assert_eq!(g.node(), Node::Terminal);
    assert_eq!(g.termination(), Some(Termination::Checkmate));
    assert_eq!(g.winner(), Some(0));
    assert_eq!(records(&g), [vec![4, 4, 4], vec![2]]);
}

#[test]
fn en_passant_only_right_after_the_double_step() {
    // One move: Black may take en passant on its next move (after its throw).
    let mut g = game("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1 move 1 0 wb 5 2");
    mv(&mut g, "e4");
    throw(&mut g, 3);
    assert!(sans(&g).contains(&"dxe3".to_string()));
    // Black with two moves: only on the first.
    let mut g2 = g.clone();
    let mut g3 = game("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1 move 1 0 wb 5 3");
    mv(&mut g3, "e4");
    throw(&mut g3, 3);
    assert_eq!(g3.moves_left(), 2);
    assert!(sans(&g3).contains(&"dxe3".to_string()));
    mv(&mut g3, "Ke7");
    assert!(!sans(&g3).contains(&"dxe3".to_string()));
    // Taking en passant.
    mv(&mut g2, "dxe3");
    assert_eq!(g2.position().piece_at(20).map(|p| p.char()), Some('p'));

    // Two moves: the double-stepper moves again, the right is gone.
    let mut g = game("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1 move 2 0 wb 56 2");
    mv(&mut g, "e4");
    assert_eq!(g.position().ep_square(), None);
    mv(&mut g, "Kf2");
    throw(&mut g, 3);
    assert_eq!(g.node(), Node::Decision(1));
    assert!(!sans(&g).contains(&"dxe3".to_string()));
}

#[test]
fn king_capture_after_a_forfeit_in_check() {
    // White is in double check (rook e8, pinned knight d3) and throws a 1.
    let mut g = game("3kr3/8/8/8/8/3n4/8/3RK3 w - - 0 1 throw 0 0 wb 3 5");
    throw(&mut g, 1);
    assert_eq!(g.position().turn(), Color::Black);
    assert_eq!(g.thrower(), 1);
    throw(&mut g, 2);
    let s = sans(&g);
    // Both attackers may capture the king, even the pinned knight; no suffix.
    assert!(s.contains(&"Rxe1".to_string()), "{s:?}");
    assert!(s.contains(&"Nxe1".to_string()), "{s:?}");
    // Other moves keep normal legality: the pinned knight cannot move.
    assert!(
        !s.iter().any(|m| m.starts_with('N') && m != "Nxe1"),
        "{s:?}"
    );
    let mut g2 = g.clone();
    mv(&mut g, "Nxe1");
    assert_eq!(g.termination(), Some(Termination::KingCaptured));
    assert_eq!(g.winner(), Some(1));
    assert_eq!(api::returns(&g), [-1.0, 1.0]);
    // Declining the capture is allowed; a move keeping the check ends the turn.
    mv(&mut g2, "Kc7");
    assert_eq!(g2.node(), Node::Chance);
    assert_eq!(g2.position().turn(), Color::White);
}

#[test]
fn king_capture_by_a_pawn_on_the_last_rank_is_a_promotion() {
    // Black is in check by the e7 pawn and to throw.
    let mut g = game("3k4/4P3/8/8/8/8/8/4K3 b - - 0 1 throw 0 0 wb 3 5");
    throw(&mut g, 1); // Black (player 1) forfeits in check
    throw(&mut g, 4);
    let s = sans(&g);
    for m in ["exd8=Q", "exd8=R", "exd8=B", "exd8=N"] {
        assert!(s.contains(&m.to_string()), "{s:?}");
    }
    mv(&mut g, "exd8=N");
    assert_eq!(g.termination(), Some(Termination::KingCaptured));
    assert_eq!(g.winner(), Some(0));
}

#[test]
fn stalemate_in_the_middle_of_a_turn() {
    let mut g = game("1r5k/8/6p1/8/2b3P1/8/8/K7 w - - 0 1 move 2 0 wb 46 3");
    assert_eq!(sans(&g), vec!["g5"]);
    mv(&mut g, "g5");
    assert_eq!(g.termination(), Some(Termination::Stalemate));
    assert_eq!(api::returns(&g), [0.0, 0.0]);
}

#[test]
fn stalemate_before_throwing() {
    // After a move: no throw is made.
    let mut g = game("7k/5Q2/8/6K1/8/8/8/8 w - - 0 1 move 1 0 wb 4 3");
    mv(&mut g, "Kg6");
    assert_eq!(g.termination(), Some(Termination::Stalemate));
    assert_eq!(records(&g), [vec![4], vec![3]]);
    // After a forfeit.
    let mut g = game("7k/5Q2/6K1/8/8/8/8/8 w - - 0 1 throw 0 0 wb 3 5");
    throw(&mut g, 1);
    assert_eq!(g.termination(), Some(Termination::Stalemate));
    assert_eq!(records(&g), [vec![3, 1], vec![5]]);
    // A FEN whose side to move is stalemated before its throw.
    let g = game("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1 throw 0 0 wb 3 5");
    assert_eq!(g.termination(), Some(Termination::Stalemate));
}

#[test]
fn draws_are_automatic() {
    // Insufficient material after a capture.
    let mut g = game("8/8/4k3/8/8/2K5/3p4/8 w - - 0 1 move 1 0 wb 4 3");
    mv(&mut g, "Kxd2");
    assert_eq!(g.termination(), Some(Termination::InsufficientMaterial));
    // Fifty moves.
    let mut g = game("8/8/4k3/8/8/2K5/8/R7 w - - 99 80 move 1 0 wb 4 3");
    mv(&mut g, "Rb1");
    assert_eq!(g.termination(), Some(Termination::FiftyMoves));
    // Threefold: the same colour to move counts as the same position only
    // with the same side to move.
    let mut g = game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 move 5 0 wb 33333 2");
    mv(&mut g, "Rb1");
    mv(&mut g, "Ra1"); // key of the start, second time
    mv(&mut g, "Rb1");
    assert_eq!(g.termination(), None);
    mv(&mut g, "Ra1"); // third time
    assert_eq!(g.termination(), Some(Termination::ThreefoldRepetition));
}

// ---------------------------------------------------------------- FEN, API

#[test]
fn fen_of_the_start_and_bad_fens() {
    let g = RandomMoveNumber::new(&Options::new()).unwrap();
    assert_eq!(
        g.fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 choose0 0 2 - - -"
    );
    for bad in [
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 move 0 0 wb 4 2",
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 throw 1 0 wb 4 2",
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 throw 0 0 - 4 2",
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 choose1 0 2 - 4 2",
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 choose0 0 2 - 4 2",
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 throw 0 0 wb 47 2",
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 over 0 0 wb 4 2",
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 throw 0 0 xx 4 2",
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 throw 0",
        "3k4/8/8/8/8/8/8/3RK2r w - - 0 1 throw 0 0 wb 4 2",
    ] {
        assert!(RandomMoveNumber::from_fen(bad, 100).is_err(), "{bad}");
    }
}

#[test]
fn a_check_left_standing_comes_without_an_en_passant_square() {
    // White's king is in check from f2 with Black to move: a check left
    // standing, as after White forfeited its turn.
    let standing = "4k3/8/8/8/2Pp4/8/5b2/4K3 b - - 0 23 move 1 0 bw 14 22";
    assert!(game(standing).fen().contains(" b - - "));
    // With c3 as the en-passant square White would just have played c2-c4,
    // a move that cannot leave its own king in check: no game reaches it
    // (the parser took it, and the game's invariants then failed; found by
    // tests/it/options_fuzz.rs at FUZZ_SEED=30).
    let with_ep = "4k3/8/8/8/2Pp4/8/5b2/4K3 b - c3 0 23 move 1 0 bw 14 22";
    match RandomMoveNumber::from_fen(with_ep, 1000) {
        Ok(_) => panic!("{with_ep} was accepted"),
        Err(e) => assert!(e.to_string().contains("en-passant square c3"), "{e}"),
    }
}

#[test]
fn bad_actions_leave_the_state_unchanged() {
    let mut g = game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 throw 0 0 wb 3 2");
    let before = g.fen();
    // A move when no moves are left (a throw is due).
    assert!(api::string_to_action(&g, "Ra8").is_err());
    assert!(api::apply_action(&mut g, 100).is_err());
    // An unknown outcome.
    assert!(api::apply_action(&mut g, 6).is_err());
    assert!(api::string_to_action(&g, "7").is_err());
    assert_eq!(g.fen(), before);
    throw(&mut g, 4);
    let before = g.fen();
    // A throw outcome at a decision node.
    assert!(api::string_to_action(&g, "3").is_err());
    assert_eq!(g.fen(), before);
}

#[test]
fn observation_has_the_turn_state_planes() {
    let g = game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 move 3 0 bw 444 2");
    let planes = api::observation_planes(&g);
    let shape = api::observation_shape(&g);
    assert_eq!(shape, [planes.len(), 8, 8]);
    let mut out = vec![0f32; shape.iter().product()];
    // Player 1 commands White and is to move with 3 moves left; their record
    // is "2" (run 1), player 0's is "444".
    api::write_observation(&g, 1, &mut out);
    let at = |name: &str| out[planes.iter().position(|p| *p == name).unwrap() * 64];
    assert_eq!(at("plays_black"), 0.0);
    assert_eq!(at("to_move"), 1.0);
    assert_eq!(at("moves_left_div8_capped"), 3.0 / 8.0);
    assert_eq!(at("own_run_length_div6_capped"), 1.0 / 6.0);
    assert_eq!(at("own_last_throw_div6"), 2.0 / 6.0);
    assert_eq!(at("opponent_run_length_div6_capped"), 3.0 / 6.0);
    assert_eq!(at("opponent_last_throw_div6"), 4.0 / 6.0);
    api::write_observation(&g, 0, &mut out);
    let at = |name: &str| out[planes.iter().position(|p| *p == name).unwrap() * 64];
    assert_eq!(at("plays_black"), 1.0);
    assert_eq!(at("to_move"), 0.0);
    assert_eq!(at("own_last_throw_div6"), 4.0 / 6.0);
    assert!(api::pretty(&g).contains("moves left this turn: 3"));
}

// ---------------------------------------------------------------- random games

/// Plays random games; at every node checks invariants and the FEN
/// round trip (same FEN, node, actions and outcomes).
fn random_games(n: u64, max_plies: u32) {
    use dicechess::board::MoveList;
    use dicechess::sim::{random_move, sample_outcome};
    let mut terminations = std::collections::HashMap::new();
    let mut ml = MoveList::new();
    let mut o = Outcomes::new();
    for i in 0..n {
        let mut opts = Options::new();
        opts.insert("max_plies".into(), max_plies.into());
        let mut g = RandomMoveNumber::new(&opts).unwrap();
        let mut rng = game_rng(7, i);
        loop {
            g.check_invariants()
                .unwrap_or_else(|e| panic!("game {i}: {e} at {}", g.fen()));
            if g.node() != Node::Terminal {
                let r = RandomMoveNumber::from_fen(&g.fen(), max_plies)
                    .unwrap_or_else(|e| panic!("game {i}: {e} for {}", g.fen()));
                assert_eq!(r.fen(), g.fen());
                assert_eq!(r.node(), g.node());
                assert_eq!(api::legal_actions(&r), api::legal_actions(&g));
            }
            match g.node() {
                Node::Terminal => break,
                Node::Chance => {
                    // Bias towards repeating the thrower's last throw.
                    let rec = &g.throw_records()[g.thrower() as usize];
                    let a = match rec.last() {
                        Some(&d) if rng.random_bool(0.3) => (d - 1) as u32,
                        _ => sample_outcome(&g, &mut rng, &mut o),
                    };
                    g.apply_outcome(a);
                }
                Node::Decision(p) => {
                    assert_eq!(g.color_of(p), g.position().turn());
                    let m = random_move(&g, &mut rng, &mut ml);
                    g.play(m);
                }
            }
        }
        assert!(g.termination().is_some());
        *terminations.entry(g.termination().unwrap()).or_insert(0) += 1;
    }
    assert!(terminations.len() >= 3, "{terminations:?}");
}

#[test]
fn random_games_quick() {
    random_games(40, 300);
}

#[test]
#[ignore]
fn random_games_many() {
    random_games(3000, 1000);
}

#[test]
fn playouts_end() {
    let proto = RandomMoveNumber::new(&Options::new()).unwrap();
    for i in 0..50 {
        let mut g = proto.clone();
        let s = play_random_game(&mut g, &mut game_rng(1, i));
        assert!(g.termination().is_some());
        assert!(s.plies <= 1000);
    }
}

#[test]
fn endless_colour_ties_end_the_game_as_truncated() {
    // Dictated ties never choose colours; max_plies turns without a decision
    // in a row end the game (the bound of docs/rules.md §0 for turns without
    // a decision), as in Vegas.
    let mut o = Options::new();
    o.insert("max_plies".into(), 3.into());
    let mut g = RandomMoveNumber::new(&o).unwrap();
    for tie in 1..=3 {
        assert_eq!(g.node(), Node::Chance, "tie {tie}");
        throw(&mut g, 4);
        throw(&mut g, 4);
    }
    assert_eq!(g.termination(), Some(Termination::MaxPlies));
    assert_eq!(api::returns(&g), [0.0, 0.0]);
    // Two ties and then colours: the game goes on.
    let mut g = RandomMoveNumber::new(&o).unwrap();
    for d in [4, 4, 4, 4, 5, 2] {
        throw(&mut g, d);
    }
    assert_eq!(g.termination(), None);
    assert_eq!(g.node(), Node::Decision(0));
}
