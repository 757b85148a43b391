//! Cubic Checkers (docs/rules.md §7): a hand-checked position for every clause, the
//! FEN-style string and random-game invariants. The differential test against
//! a plain-Python implementation is tests/rules/test_diff_cubic_checkers.py.

use dicechess::board::MoveList;
use dicechess::sim::{game_rng, random_move};
use dicechess::variants::{api, cubic_checkers::CubicCheckers, Game, Node, Options, Termination};

fn game(fen: &str) -> CubicCheckers {
    let mut o = Options::new();
    o.insert("fen".into(), fen.into());
    CubicCheckers::new(&o).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn moves(g: &CubicCheckers) -> Vec<String> {
    let mut v: Vec<String> = api::legal_actions(g)
        .into_iter()
        .map(|a| api::action_to_string(g, a).unwrap())
        .collect();
    v.sort();
    v
}

fn play(g: &mut CubicCheckers, text: &str) {
    let a = api::string_to_action(g, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    api::apply_action(g, a).unwrap();
    g.check_invariants().unwrap();
}

/// A bishop-faced cube on c3 facing one on d4, far from everything else.
const FACING: &str = "3p1p1p/8/8/8/3b4/2B5/8/P1P1P3 w - - 0 1";

#[test]
fn setup_moves_are_plain_flying_diagonals() {
    let g = CubicCheckers::new(&Options::new()).unwrap();
    assert_eq!(
        g.fen(),
        "1n1r1r1n/b1b1b1b1/8/8/8/8/1B1B1B1B/N1R1R1N1 w - - 0 1"
    );
    let m = moves(&g);
    // b2 flies to a3 and c3..h8 is cut at g7 (occupied): c3 d4 e5 f6.
    for want in ["b2-a3", "b2-c3", "b2-f6", "h2-g3", "h2-b8"] {
        assert_eq!(m.contains(&want.to_string()), want != "h2-b8", "{want}");
    }
    assert_eq!(g.layout().num_actions(), 4672);
}

#[test]
fn no_jump_before_a_rook_faced_cube_has_moved() {
    let g = game(FACING);
    let m = moves(&g);
    assert!(m.iter().all(|s| s.contains('-')), "{m:?}");
    assert!(m.contains(&"c3-b4".to_string()));
    assert!(api::string_to_action(&g, "c3xe5").is_err());
}

#[test]
fn jumping_is_compulsory_once_a_rook_faced_cube_has_moved() {
    let g = game(&FACING.replace(" w - ", " w R "));
    // Flying landings behind d4 up to the next cube (h8).
    assert_eq!(moves(&g), ["c3xe5", "c3xf6", "c3xg7"]);
}

#[test]
fn the_rook_move_enables_jumps_from_the_following_turn() {
    let mut g = game("3p1p1p/8/8/8/3b4/2B5/8/R1P1P3 w - - 0 1");
    // A bishop-faced move does not count.
    play(&mut g, "c3-b4");
    assert!(!g.jumps_enabled(dicechess::board::Color::White));
    let mut g = game("3p1p1p/8/8/8/3b4/2B5/8/R1P1P3 w - - 0 1");
    assert!(moves(&g).iter().all(|s| s.contains('-')));
    play(&mut g, "a1-b2");
    assert_eq!(g.fen(), "3p1p1p/8/8/8/3b4/2B5/1R6/2P1P3 b R b2 1 1");
    // Black has not moved a rook-faced cube: no jump for Black (d4 over c3).
    assert!(moves(&g).iter().all(|s| s.contains('-')));
    // (d8-e7 would open a double jump c3xf6xd8.) g7 cuts the landings short.
    play(&mut g, "f8-g7");
    assert_eq!(moves(&g), ["c3xe5", "c3xf6"]);
}

/// White can jump once with a1 (over b2) or twice with c1 (over b2, then d6).
const TWO_JUMPERS: &str = "1b5n/8/3r3n/8/3B4/8/1p6/P1R3P1 w R - 0 1";

#[test]
fn the_maximum_capture_is_forced_and_continued_by_the_same_player() {
    let mut g = game(TWO_JUMPERS);
    assert_eq!(moves(&g), ["c1xa3"]);
    assert!(api::string_to_action(&g, "a1xc3").is_err());
    play(&mut g, "c1xa3");
    // Still White: the jump goes on, and only its landings are legal.
    assert_eq!(g.node(), Node::Decision(0));
    assert_eq!(g.fen(), "1b5n/8/3r3n/8/3B4/R7/1p6/P5P1 w R - 0 1 c1xa3");
    assert_eq!(moves(&g), ["a3xe7", "a3xf8"]);
    let again = game(&g.fen());
    assert_eq!(moves(&again), ["a3xe7", "a3xf8"]);
    // A whole path is refused with a hint (one landing per action).
    let err = api::string_to_action(&g, "a3xe7xg5").unwrap_err();
    assert!(err.0.contains("one landing per action"), "{err}");
}

#[test]
fn jumped_cubes_are_demoted_when_the_move_ends() {
    let mut g = game(TWO_JUMPERS);
    play(&mut g, "c1xa3");
    play(&mut g, "a3xe7");
    // b2 (pawn face) is removed, d6 (rook face) becomes a bishop; e7 is
    // paused for White, the no-jump count restarts.
    assert_eq!(g.fen(), "1b5n/4R3/3b3n/8/3B4/8/8/P5P1 b R e7 0 1");
    assert_eq!(g.node(), Node::Decision(1));
}

#[test]
fn jumped_cubes_block_the_rest_of_the_jump() {
    // After c1xa3 the jumped b2 still stands: a3 cannot fly back over it.
    let mut g = game(TWO_JUMPERS);
    play(&mut g, "c1xa3");
    assert!(api::string_to_action(&g, "a3-b2").is_err());
    assert!(api::string_to_action(&g, "a3xc1").is_err());
}

#[test]
fn three_cubes_left_lose() {
    // Without b8, Black keeps three cubes after the jump.
    let mut g = game("7n/8/3r3n/8/3B4/8/1p6/P1R3P1 w R - 0 1");
    play(&mut g, "c1xa3");
    play(&mut g, "a3xf8");
    assert_eq!(g.termination(), Some(Termination::CubesLeft));
    assert_eq!(g.winner(), Some(0));
    assert_eq!(api::returns(&g), [1.0, -1.0]);
}

#[test]
fn the_moved_cube_pauses_for_exactly_one_turn() {
    let mut g = game("1p1p1p1p/8/8/8/8/2B5/8/P1P1P3 w - - 0 1");
    play(&mut g, "c3-d4");
    play(&mut g, "d8-c7");
    assert!(moves(&g).iter().all(|s| !s.starts_with("d4")));
    assert!(moves(&g).iter().any(|s| s.starts_with("a1")));
    play(&mut g, "a1-b2");
    // Black's c7 is paused now; White's d4 is active again, b2 paused.
    assert!(moves(&g).iter().all(|s| !s.starts_with("c7")));
    play(&mut g, "b8-a7");
    assert!(moves(&g).iter().any(|s| s.starts_with("d4")));
    assert!(moves(&g).iter().all(|s| !s.starts_with("b2")));
    assert_eq!(g.fen(), "5p1p/p1p5/8/8/3B4/8/1P6/2P1P3 w - b2,a7 4 3");
}

#[test]
fn twenty_moves_without_a_jump_draw() {
    let mut g = game("1p1p1p1p/8/8/8/8/2B5/8/P1P1P3 w - - 19 10");
    play(&mut g, "c3-d4");
    assert_eq!(g.termination(), Some(Termination::NoJumps));
    assert_eq!(g.winner(), None);
    // A jump restarts the count.
    let mut g = game(&FACING.replace(" w - - 0 1", " w R - 19 10"));
    play(&mut g, "c3xe5");
    assert_eq!(g.termination(), None);
    assert_eq!(g.no_jump_count(), 0);
}

#[test]
fn a_player_without_a_legal_move_loses() {
    let mut g = game("5P1p/6p1/5P1P/8/3P4/P7/1p6/p1P5 w - - 0 1");
    play(&mut g, "d4-c3");
    assert_eq!(g.termination(), Some(Termination::NoMoves));
    assert_eq!(g.winner(), Some(0));
}

#[test]
fn fen_rejects_what_cannot_be() {
    let bad = [
        "1n1r1r1n/b1b1b1b1/8/8/8/8/1B1B1B1B/N1R1R1N1 w", // fields missing
        "n1r1r1n1/b1b1b1b1/8/8/8/8/1B1B1B1B/N1R1R1N1 w - - 0 1", // light squares
        "1n1r1r1n/b1b1b1b1/8/8/8/8/1B1B1B1B/N1R1R1K1 w - - 0 1", // a king
        "1n1r1r1n/b1b1b1b1/8/8/8/8/1B1B1B1B/N1R1R1N1 w X - 0 1", // flags
        "1n1r1r1n/b1b1b1b1/8/8/8/8/1B1B1B1B/N1R1R1N1 w - c1,e1 0 1", // two paused
        "1n1r1r1n/b1b1b1b1/8/8/8/8/1B1B1B1B/N1R1R1N1 w - d4 0 1", // empty square
        "1n1r1r1n/b1b1b1b1/8/8/8/8/1B1B1B1B/N1R1R1N1 w - - 21 1", // count
        "1n1r1r1n/b1b1b1b1/8/8/8/8/1B1B1B1B/N1R1R1N1 w R - 0 1 c1xe3", // no jump there
    ];
    for fen in bad {
        let mut o = Options::new();
        o.insert("fen".into(), fen.into());
        assert!(CubicCheckers::new(&o).is_err(), "{fen}");
    }
}

#[test]
fn random_games_keep_invariants_and_round_trip() {
    let mut jumps = 0;
    let mut ends = std::collections::BTreeSet::new();
    for i in 0..300 {
        let mut g = CubicCheckers::new(&Options::new()).unwrap();
        let mut rng = game_rng(11, i);
        let mut buf = MoveList::new();
        while g.node() != Node::Terminal {
            let mv = random_move(&g, &mut rng, &mut buf);
            g.play(mv);
            g.check_invariants().unwrap();
            assert_eq!(game(&g.fen()).fen(), g.fen());
            jumps += g.jump().is_some() as u32;
        }
        ends.insert(g.termination().unwrap().name());
    }
    assert!(jumps > 0, "no multi-jump in 300 random games");
    assert!(
        ends.contains("no_jumps") && ends.contains("cubes_left"),
        "{ends:?}"
    );
}

/// The moves `play` works out for the next decision (and the cubes it keeps
/// as left to jump) equal those worked out from scratch: a copy without
/// them (serde skips them) lists the same moves in the same order at every
/// decision, multi-jumps included, and plays on to the same game.
#[test]
fn moves_kept_by_play_equal_moves_worked_out_from_scratch() {
    let both_jump = CubicCheckers::new(&Options::new())
        .unwrap()
        .fen()
        .replace(" w - ", " w Rr ");
    let mut multi = 0;
    for i in 0..200 {
        let mut g = if i % 2 == 0 {
            CubicCheckers::new(&Options::new()).unwrap()
        } else {
            game(&both_jump)
        };
        let mut rng = game_rng(12, i);
        let (mut kept, mut fresh) = (MoveList::new(), MoveList::new());
        while g.node() != Node::Terminal {
            let json = serde_json::to_string(&g).unwrap();
            let mut copy: CubicCheckers = serde_json::from_str(&json).unwrap();
            g.legal_moves(&mut kept);
            copy.legal_moves(&mut fresh);
            assert_eq!(kept.as_slice(), fresh.as_slice(), "{}", g.fen());
            multi += g.jump().is_some() as u32;
            let mv = random_move(&g, &mut rng, &mut kept);
            g.play(mv);
            copy.play(mv);
            assert_eq!(copy.fen(), g.fen());
            assert_eq!(copy.node(), g.node());
        }
    }
    assert!(multi > 100, "only {multi} multi-jump decisions");
}
