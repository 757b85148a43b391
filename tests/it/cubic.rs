//! Cubic Chess (docs/rules.md §6): hand-checked positions for every clause, both
//! colours, and random-game invariants.

use dicechess::board::{Color, MoveList, Role};
use dicechess::sim::{game_rng, random_move};
use dicechess::variants::cubic::Cubic;
use dicechess::variants::{api, Game, Node, Options, Termination};
use std::collections::BTreeSet;

fn game(fen: &str) -> Cubic {
    let mut o = Options::new();
    o.insert("fen".into(), fen.into());
    Cubic::new(&o).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sans(g: &Cubic) -> BTreeSet<String> {
    let mut ml = MoveList::new();
    g.legal_moves(&mut ml);
    ml.iter().map(|&m| g.san(m)).collect()
}

fn set(v: &[&str]) -> BTreeSet<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// Legal SANs of the pieces on the given squares (moves starting there).
fn sans_from(g: &Cubic, squares: &[&str]) -> BTreeSet<String> {
    let mut ml = MoveList::new();
    g.legal_moves(&mut ml);
    ml.iter()
        .filter(|m| {
            let from = dicechess::board::square_name(m.from());
            squares.contains(&from.as_str())
        })
        .map(|&m| g.san(m))
        .collect()
}

fn play(g: &mut Cubic, text: &str) {
    let a = api::string_to_action(g, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    api::apply_action(g, a).unwrap();
    g.check_invariants().unwrap();
}

fn err(g: &Cubic, text: &str) -> String {
    let before = g.fen();
    let e = api::string_to_action(g, text).unwrap_err().0;
    assert_eq!(g.fen(), before);
    e
}

// ----- pawns (§6.3) -----

#[test]
fn start_position_pawn_moves() {
    let g = Cubic::new(&Options::new()).unwrap();
    assert_eq!(g.node(), Node::Decision(0));
    assert_eq!(
        sans_from(&g, &["e2"]),
        set(&["e3", "e2-e4", "e2-c4", "e2-g4"])
    );
    assert_eq!(sans_from(&g, &["a2"]), set(&["a3", "a2-a4", "a2-c4"]));
    assert_eq!(sans(&g).len(), 32);
    assert_eq!(
        g.fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"
    );
    let mut g = g;
    play(&mut g, "e2-e4");
    assert_eq!(
        sans_from(&g, &["c7"]),
        set(&["c6", "c7-c5", "c7-a5", "c7-e5"])
    );
    // No en passant square after a two-step.
    assert_eq!(
        g.fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[] b KQkq - 0 1"
    );
    play(&mut g, "c7-e5");
    assert_eq!(
        g.fen(),
        "rnbqkbnr/pp1ppppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR[] w KQkq - 0 2"
    );
}

#[test]
fn pawn_two_steps_from_any_rank_both_colours() {
    // White pawn on d4, Black pawn on e5 facing the other way... both mid-board.
    let g = game("4k3/8/8/8/3P4/8/8/4K3 w - - 0 1");
    assert_eq!(
        sans_from(&g, &["d4"]),
        set(&["d5", "d4-d6", "d4-b6", "d4-f6"])
    );
    let g = game("4k3/8/8/4p3/8/8/8/4K3 b - - 0 1");
    assert_eq!(
        sans_from(&g, &["e5"]),
        set(&["e4", "e5-e3", "e5-c3", "e5-g3"])
    );
    // On the 7th (2nd for Black) rank: one step only, onto the last rank, no promotion.
    let g = game("4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1");
    assert_eq!(sans_from(&g, &["b7"]), set(&["b8"]));
    let mut g2 = g.clone();
    play(&mut g2, "b8");
    assert!(g2.fen().starts_with("1P2k3/"));
    let g = game("4k3/8/8/8/8/8/6p1/4K3 b - - 0 1");
    assert_eq!(sans_from(&g, &["g2"]), set(&["g1"]));
}

#[test]
fn pawn_straight_two_step_blocked() {
    // Piece on e3: nothing straight; piece on e4: the one step only.
    let g = game("4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1");
    assert_eq!(sans_from(&g, &["e2"]), set(&["e2-c4", "e2-g4"]));
    let g = game("4k3/8/8/8/4N3/8/4P3/4K3 w - - 0 1");
    assert_eq!(sans_from(&g, &["e2"]), set(&["e3", "e2-c4", "e2-g4"]));
    // Black: blocked on d6 / d5.
    let g = game("4k3/3p4/3B4/8/8/8/8/4K3 b - - 0 1");
    assert_eq!(sans_from(&g, &["d7"]), set(&["d7-b5", "d7-f5"]));
    let g = game("4k3/3p4/8/3b4/8/8/8/4K3 b - - 0 1");
    assert_eq!(sans_from(&g, &["d7"]), set(&["d6", "d7-b5", "d7-f5"]));
}

#[test]
fn pawn_diagonal_two_step_blocked() {
    // Own piece on d3 blocks e2-c4; an enemy piece on d3 is captured instead.
    let g = game("4k3/8/8/8/8/3N4/4P3/4K3 w - - 0 1");
    assert_eq!(sans_from(&g, &["e2"]), set(&["e3", "e2-e4", "e2-g4"]));
    let g = game("4k3/8/8/8/8/3b4/4P3/4K3 w - - 0 1");
    assert_eq!(
        sans_from(&g, &["e2"]),
        set(&["e3", "e2-e4", "exd3", "e2-g4"])
    );
    // Landing square occupied (enemy or own): no diagonal two-step, no capture there.
    let g = game("4k3/8/8/8/2n3N1/8/4P3/4K3 w - - 0 1");
    assert_eq!(sans_from(&g, &["e2"]), set(&["e3", "e2-e4"]));
    // Black: f6 occupied blocks e7-g5; c5 occupied blocks e7-c5.
    let g = game("8/4p3/5N2/2R5/8/8/8/k3K3 b - - 0 1");
    assert_eq!(sans_from(&g, &["e7"]), set(&["e6", "e7-e5", "exf6"]));
}

#[test]
fn pawn_captures_one_step_diagonally_only() {
    // Enemy on e3 (straight ahead) cannot be captured; d3 and f3 can.
    let g = game("4k3/8/8/8/8/3bpr2/4P3/4K3 w - - 0 1");
    assert_eq!(sans_from(&g, &["e2"]), set(&["exd3", "exf3"]));
    let g = game("4k3/3p4/2NBN3/8/8/8/8/4K3 b - - 0 1");
    assert_eq!(sans_from(&g, &["d7"]), set(&["dxc6", "dxe6"]));
}

#[test]
fn pawn_on_last_rank_cannot_move_but_can_rotate() {
    let g = game("P3k3/8/8/8/8/8/8/4K3[] w - - 0 1");
    assert!(sans_from(&g, &["a8"]).is_empty());
    let g = game("P3k3/8/8/8/8/8/8/4K3[RQ] w - - 0 1");
    assert_eq!(sans_from(&g, &["a8"]), set(&["a8(R)+", "a8(Q)+"]));
    let g = game("4k3/8/8/8/8/8/8/4K2p[n] b - - 0 1");
    assert_eq!(sans_from(&g, &["h1"]), set(&["h1(N)"]));
}

// ----- stocks (§6.1) -----

#[test]
fn captures_fill_the_stock_but_pawns_do_not() {
    let mut g = game("4k3/8/8/3n1p2/4P3/8/8/4K3 w - - 0 1");
    play(&mut g, "exd5");
    assert_eq!(g.stock(Color::White), [1, 0, 0, 0]);
    assert_eq!(g.stock(Color::Black), [0, 0, 0, 0]);
    assert!(g.fen().contains("[N]"));
    let mut g = game("4k3/8/8/3n1p2/4P3/8/8/4K3 w - - 0 1");
    play(&mut g, "exf5");
    assert_eq!(g.stock(Color::White), [0; 4]);
    assert!(g.fen().contains("[]"));
    // Black captures a rook, a bishop, a queen: they go to Black's stock.
    let mut g = game("7k/8/8/8/3p4/2R1Q3/8/B6K[N] b - - 0 1");
    play(&mut g, "dxe3");
    assert_eq!(g.stock(Color::Black), [0, 0, 0, 1]);
    assert_eq!(g.stock(Color::White), [1, 0, 0, 0]);
    assert!(g.fen().contains("[Nq]"));
    assert_eq!(g.stock_count(Color::Black, Role::Queen), 1);
}

// ----- rotations (§6.2) -----

#[test]
fn rotation_from_stock_decrements_it() {
    let mut g = game("4k3/8/8/8/8/8/P6P/4K3[NNb] w - - 17 30");
    let s = sans(&g);
    for r in ["a2(N)", "h2(N)"] {
        assert!(s.contains(r), "{r} missing from {s:?}");
    }
    assert!(!s.iter().any(|m| m.contains("(B)")), "B is Black's: {s:?}");
    play(&mut g, "h2(N)");
    assert_eq!(g.stock(Color::White), [1, 0, 0, 0]);
    assert_eq!(g.position().role_at(15), Some(Role::Knight));
    assert_eq!(g.position().halfmove_clock(), 0);
    assert_eq!(g.fen(), "4k3/8/8/8/8/8/P6N/4K3[Nb] b - - 0 30");
    // Black rotates its bishop in.
    let mut g = game("4k3/7p/8/8/8/8/8/4K3[b] b - - 0 1");
    assert_eq!(
        sans_from(&g, &["h7"]),
        set(&["h6", "h7-h5", "h7-f5", "h7(B)"])
    );
    play(&mut g, "h7(B)");
    assert_eq!(g.stock(Color::Black), [0; 4]);
    assert_eq!(g.fen(), "4k3/7b/8/8/8/8/8/4K3[] w - - 0 2");
    // UCI form of a rotation.
    let mut g = game("4k3/8/8/8/8/8/P7/4K3[R] w - - 0 1");
    play(&mut g, "a2a2r");
    assert_eq!(g.fen(), "4k3/8/8/8/8/8/R7/4K3[] b - - 0 1");
}

#[test]
fn rotation_can_give_check() {
    let mut g = game("4k3/8/3P4/8/8/8/8/4K3[NQ] w - - 0 1");
    let s = sans_from(&g, &["d6"]);
    assert_eq!(
        s,
        set(&["d7+", "d6-d8", "d6-b8", "d6-f8", "d6(N)+", "d6(Q)"])
    );
    play(&mut g, "d6(N)+");
    assert!(g.position().is_check());
    // Black: rotation with check.
    let g = game("4k3/8/8/8/8/5p2/8/4K3[r] b - - 0 1");
    assert!(sans(&g).contains("f3(R)"));
    let g = game("4k3/8/8/8/8/4p3/8/4K3[r] b - - 0 1");
    assert!(sans(&g).contains("e3(R)+"));
}

#[test]
fn rotation_refused_in_check() {
    let g = game("4r1k1/8/8/8/8/8/P7/4K3[NQ] w - - 0 1");
    assert!(g.position().is_check());
    let s = sans(&g);
    assert!(!s.iter().any(|m| m.contains('(')), "{s:?}");
    let e = err(&g, "a2(N)");
    assert!(e.contains("illegal while in check"), "{e}");
    // Black in check, rotations refused.
    let g = game("4k3/p7/8/8/8/8/8/K3R3[q] b - - 0 1");
    assert!(!sans(&g).iter().any(|m| m.contains('(')));
    assert!(err(&g, "a7(Q)").contains("in check"));
}

#[test]
fn rotation_to_type_not_in_stock_refused() {
    let g = game("4k3/8/8/8/8/8/P7/4K3[Nq] w - - 0 1");
    let e = err(&g, "a2(Q)");
    assert!(e.contains("no queen in White's stock"), "{e}");
    assert!(e.contains("1 knight"), "{e}");
    let e = err(&g, "a2a2b");
    assert!(e.contains("no bishop in White's stock"), "{e}");
    let g = game("4k3/p7/8/8/8/8/8/4K3[Nq] b - - 0 1");
    assert!(err(&g, "a7(N)").contains("no knight in Black's stock"));
    assert!(sans(&g).contains("a7(Q)"));
}

#[test]
fn rotation_of_non_pawn_or_foreign_piece_refused() {
    let g = game("4k3/p7/8/8/8/8/P7/R3K3[N] w - - 0 1");
    assert!(err(&g, "a1(N)").contains("only pawns can be rotated; a1 holds a rook"));
    assert!(err(&g, "e1(N)").contains("e1 holds a king"));
    assert!(err(&g, "a7(N)").contains("Black's"));
    assert!(err(&g, "d4(N)").contains("d4 is empty"));
    assert!(err(&g, "a2(K)").contains("N, B, R or Q"));
    assert!(err(&g, "a2(P)").contains("N, B, R or Q"));
}

// ----- bad pawn input -----

#[test]
fn pawn_jumps_and_promotions_are_explained() {
    let g = game("4k3/P7/8/8/8/3b4/4P3/4K3 w - - 0 1");
    let e = err(&g, "e2-c4");
    assert!(e.contains("cannot jump over the bishop on d3"), "{e}");
    let g = game("4k3/P7/8/8/8/4n3/4P3/4K3 w - - 0 1");
    let e = err(&g, "e2-e4");
    assert!(e.contains("cannot jump over the knight on e3"), "{e}");
    assert!(err(&g, "e2e4").contains("jump"));
    assert!(err(&g, "e2-e3").contains("cannot capture straight ahead"));
    assert!(err(&g, "e2-e5").contains("not a pawn move"));
    for t in ["a7a8q", "a8=Q", "a8Q", "a7-a8=Q", "a8=N"] {
        let e = err(&g, t);
        assert!(e.contains("no promotion"), "{t}: {e}");
    }
    let g = game("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    assert!(err(&g, "axb8=Q").contains("no promotion"));
    assert!(sans(&g).contains("axb8"));
    let g = game("P3k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert!(err(&g, "a8-a9").contains("not a legal move"));
    assert!(err(&g, "a8-b8").contains("last rank"));
    // Black jumping.
    let g = game("4k3/4p3/4N3/8/8/8/8/4K3 b - - 0 1");
    assert!(err(&g, "e7-e5").contains("jump over the knight on e6"));
    assert!(err(&g, "e2e1q").contains("no promotion"));
}

// ----- castling -----

#[test]
fn castling_as_in_chess() {
    let g = game("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
    let s = sans_from(&g, &["e1"]);
    assert_eq!(s, set(&["Kd1", "Kf1", "O-O", "O-O-O"]));
    let mut g2 = g.clone();
    play(&mut g2, "O-O");
    assert_eq!(
        g2.fen(),
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1[] b kq - 1 1"
    );
    play(&mut g2, "O-O-O");
    assert_eq!(
        g2.fen(),
        "2kr3r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1[] w - - 2 2"
    );
    // Through an attacked square: refused (bishop on b5 sees f1 via e2? no: use a4-e8 diag).
    let g = game("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    assert_eq!(
        sans_from(&g, &["e8"]),
        set(&["Kd7", "Kd8", "Ke7", "Kf7", "Kf8", "O-O", "O-O-O"])
    );
    let g = game("r3k2r/8/8/8/8/8/8/R3KB1R w KQkq - 0 1");
    assert!(!sans(&g).contains("O-O"));
    let g = game("r3k2r/8/8/8/8/8/5p2/R3K2R w KQkq - 0 1");
    // The f2 pawn checks e1: no castling, and no rotation either.
    assert!(!sans(&g).iter().any(|m| m.starts_with("O-O")));
}

// ----- endings and draws -----

#[test]
fn checkmate_even_with_stock() {
    let mut g = game("6k1/5ppp/8/8/8/8/8/4R1K1[q] w - - 0 1");
    assert!(sans(&g).contains("Re8#"));
    play(&mut g, "Re8#");
    assert_eq!(g.termination(), Some(Termination::Checkmate));
    assert_eq!(g.winner(), Some(0));
    assert_eq!(api::returns(&g), [1.0, -1.0]);
    // Black mates.
    let mut g = game("4r1k1/8/8/8/8/8/5PPP/6K1[N] b - - 0 1");
    play(&mut g, "Re1#");
    assert_eq!(g.termination(), Some(Termination::Checkmate));
    assert_eq!(g.winner(), Some(1));
}

#[test]
fn stalemate_only_without_rotations() {
    // a2 blocked by a3, its diagonal two-step lands on c4; king boxed in by the queen.
    let fen = "k7/8/8/8/2p5/p7/P4q2/7K w - - 0 1";
    let g = game(fen);
    assert_eq!(g.termination(), Some(Termination::Stalemate));
    assert_eq!(g.node(), Node::Terminal);
    let g = game("k7/8/8/8/2p5/p7/P4q2/7K[N] w - - 0 1");
    assert_eq!(g.node(), Node::Decision(0));
    assert_eq!(sans(&g), set(&["a2(N)"]));
    // Reached by a move: Black stalemates White.
    let mut g = game("k7/8/8/8/2p5/p7/P3q3/7K b - - 0 1");
    play(&mut g, "Qf2");
    assert_eq!(g.termination(), Some(Termination::Stalemate));
    assert_eq!(api::returns(&g), [0.0, 0.0]);
    // A stalemated Black side.
    let g = game("k7/P7/1K6/8/8/8/8/8 b - - 0 1");
    assert_eq!(g.termination(), Some(Termination::Stalemate));
}

#[test]
fn threefold_repetition_with_stocks_in_the_key() {
    let mut g = game("4k3/p7/8/8/8/8/P7/1N2K3[Nq] w - - 0 1");
    let k0 = g.repetition_key();
    for _ in 0..2 {
        play(&mut g, "Nc3");
        play(&mut g, "Kd7");
        play(&mut g, "Nb1");
        assert_eq!(g.node(), Node::Decision(1));
        play(&mut g, "Ke8");
    }
    assert_eq!(g.repetition_key(), k0);
    assert_eq!(g.termination(), Some(Termination::ThreefoldRepetition));
    // Same placement, different stocks: different keys.
    let a = game("4k3/p7/8/8/8/8/P7/1N2K3[Nq] w - - 0 1");
    let b = game("4k3/p7/8/8/8/8/P7/1N2K3[N] w - - 0 1");
    let c = game("4k3/p7/8/8/8/8/P7/1N2K3[n] w - - 0 1");
    let d = game("4k3/p7/8/8/8/8/P7/1N2K3[NNq] w - - 0 1");
    let keys: BTreeSet<u64> = [&a, &b, &c, &d]
        .iter()
        .map(|g| g.repetition_key())
        .collect();
    assert_eq!(keys.len(), 4);
    assert_eq!(a.position().hash(), b.position().hash());
}

#[test]
fn fifty_moves_and_rotation_resets_the_count() {
    let mut g = game("4k3/p7/8/8/8/8/P7/1N2K3[N] w - - 99 80");
    play(&mut g, "Nc3");
    assert_eq!(g.termination(), Some(Termination::FiftyMoves));
    let mut g = game("4k3/p7/8/8/8/8/P7/1N2K3[N] w - - 99 80");
    play(&mut g, "a2(N)");
    assert_eq!(g.position().halfmove_clock(), 0);
    assert_eq!(g.node(), Node::Decision(1));
    // Checkmate on the 100th ply beats the fifty-move rule.
    let mut g = game("6k1/5ppp/8/8/8/8/8/4R1K1 w - - 99 80");
    play(&mut g, "Re8#");
    assert_eq!(g.termination(), Some(Termination::Checkmate));
}

#[test]
fn insufficient_material_only_without_pawns() {
    let g = game("4k3/8/8/8/8/8/8/4K3[QQ] w - - 0 1");
    assert_eq!(g.termination(), Some(Termination::InsufficientMaterial));
    let g = game("4k3/8/8/8/8/8/8/2N1K3 w - - 0 1");
    assert_eq!(g.termination(), Some(Termination::InsufficientMaterial));
    // A blocked pawn pair keeps the game going.
    let mut g = game("4k3/8/8/8/8/p7/P7/4K3 w - - 0 1");
    assert_eq!(g.node(), Node::Decision(0));
    // Capturing the last pawn with the king: K v K.
    let mut g2 = game("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1");
    play(&mut g2, "Kxd2");
    assert_eq!(g2.termination(), Some(Termination::InsufficientMaterial));
    play(&mut g, "a2-c4");
    assert_eq!(g.node(), Node::Decision(1));
}

#[test]
fn max_plies_truncates() {
    let mut o = Options::new();
    o.insert("max_plies".into(), 2.into());
    let mut g = Cubic::new(&o).unwrap();
    play(&mut g, "Nf3");
    play(&mut g, "Nf6");
    assert_eq!(g.termination(), Some(Termination::MaxPlies));
    assert_eq!(api::returns(&g), [0.0, 0.0]);
}

// ----- FEN, options, actions -----

#[test]
fn fen_forms_and_errors() {
    let canonical = "4k3/p7/8/8/8/8/P7/1N2K3[NNBRQnbrq] w - - 0 1";
    for f in [
        canonical,
        "4k3/p7/8/8/8/8/P7/1N2K3 [qrbnQRBNN] w - - 0 1",
        "4k3/p7/8/8/8/8/P7/1N2K3 w - - 0 1 [NNBRQnbrq]",
    ] {
        assert_eq!(game(f).fen(), canonical, "{f}");
    }
    assert_eq!(
        game("4k3/8/8/8/8/8/8/4K3 b - - 3 9").fen(),
        "4k3/8/8/8/8/8/8/4K3[] b - - 3 9"
    );
    for (bad, why) in [
        ("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", "pawn"),
        ("4k3/8/8/8/8/8/8/4K3[K] w - - 0 1", "king"),
        ("4k3/8/8/8/8/8/8/4K3[X] w - - 0 1", "unknown letter"),
        ("4k3/8/8/8/8/8/8/4K3[N w - - 0 1", "brackets"),
        ("4k3/8/8/8/8/8/8/4K3[N][n] w - - 0 1", "more than one"),
        (
            "4k3/8/8/8/8/8/8/4K3[QQQQQQQQQQQQQQQQ] w - - 0 1",
            "more than 15",
        ),
        ("4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "en passant"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", "extra"),
        ("NNNNNNNN/NNNNNNNN/N7/8/8/8/8/k3K3 w - - 0 1", "at most 16"),
    ] {
        let mut o = Options::new();
        o.insert("fen".into(), bad.into());
        let e = Cubic::new(&o)
            .err()
            .unwrap_or_else(|| panic!("{bad} accepted"));
        assert!(e.0.contains(why), "{bad}: {e}");
    }
    let mut o = Options::new();
    o.insert("dice".into(), 1.into());
    assert!(Cubic::new(&o).is_err());
}

#[test]
fn options_recreate_the_state() {
    let g = game("4k3/p7/8/8/8/8/P7/1N2K3[Nq] w - - 0 1");
    let o = g.options();
    assert_eq!(o["max_plies"], 1000);
    let g2 = Cubic::new(&o).unwrap();
    assert_eq!(g2.fen(), g.fen());
}

#[test]
fn action_ids_of_rotations() {
    let g = game("4k3/p7/8/8/8/8/P7/4K3[Nq] w - - 0 1");
    assert_eq!(g.layout().num_actions(), 4928);
    let a = api::string_to_action(&g, "a2(N)").unwrap();
    assert_eq!(a, 4672 + 8 * 4);
    assert_eq!(api::action_to_string(&g, a).unwrap(), "a2(N)");
    // Black's a7 is a2 from Black's view: same id for the same rotation type.
    let g = game("4k3/p7/8/8/8/8/P7/4K3[Nq] b - - 0 1");
    let a = api::string_to_action(&g, "a7(Q)").unwrap();
    assert_eq!(a, 4672 + 8 * 4 + 3);
    let legal = api::legal_actions(&g);
    assert!(legal.contains(&a));
    assert!(!legal.contains(&(4672 + 8 * 4)));
    let mut obs = vec![0f32; api::observation_shape(&g).iter().product()];
    api::write_observation(&g, 1, &mut obs);
    let planes = api::observation_planes(&g);
    let own_q = planes
        .iter()
        .position(|&p| p == "own_stock_queen_count/8")
        .unwrap();
    let opp_n = planes
        .iter()
        .position(|&p| p == "opponent_stock_knight_count/8")
        .unwrap();
    assert_eq!(obs[own_q * 64], 0.125);
    assert_eq!(obs[opp_n * 64 + 63], 0.125);
    api::write_observation(&g, 0, &mut obs);
    assert_eq!(obs[own_q * 64], 0.0);
}

#[test]
fn san_input_forms() {
    let g = Cubic::new(&Options::new()).unwrap();
    let e2e4 = api::string_to_action(&g, "e2-e4").unwrap();
    assert_eq!(api::string_to_action(&g, "e2e4").unwrap(), e2e4);
    // The short form is accepted when it is unambiguous.
    let e = err(&g, "e4");
    assert!(e.contains("ambiguous") && e.contains("c2-e4"), "{e}");
    let g1 = game("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    assert_eq!(
        api::action_to_string(&g1, api::string_to_action(&g1, "e4").unwrap()).unwrap(),
        "e2-e4"
    );
    assert_eq!(api::action_to_string(&g, e2e4).unwrap(), "e2-e4");
    let pretty = api::pretty(&g);
    assert!(pretty.contains("white stock: empty"), "{pretty}");
}

// ----- random games -----

fn random_games(n: u64, seed: u64) {
    let mut terminations = std::collections::HashMap::new();
    let mut rotations = 0u64;
    for i in 0..n {
        let mut g = Cubic::new(&Options::new()).unwrap();
        let mut rng = game_rng(seed, i);
        let mut ml = MoveList::new();
        loop {
            g.check_invariants().unwrap();
            match g.node() {
                Node::Terminal => break,
                Node::Chance => panic!("cubic has no chance nodes"),
                Node::Decision(p) => {
                    assert_eq!(p as usize, g.position().turn() as usize);
                    g.legal_moves(&mut ml);
                    assert!(!ml.is_empty());
                    let mut ids = BTreeSet::new();
                    for &m in ml.iter() {
                        let a = g.layout().encode(m, g.position().turn());
                        assert!((a as usize) < 4928);
                        assert!(ids.insert(a), "duplicate id");
                        let mut c = g.clone();
                        c.play(m);
                        assert!(!c.position().king_attacked(g.position().turn()));
                        if i < 3 {
                            let s = g.san(m);
                            assert_eq!(api::string_to_action(&g, &s).unwrap(), a, "{s}");
                        }
                    }
                    let m = random_move(&g, &mut rng, &mut ml);
                    if m.from() == m.to() {
                        rotations += 1;
                    }
                    g.play(m);
                    if g.plies() % 37 == 0 {
                        let mut o = Options::new();
                        o.insert("fen".into(), g.fen().into());
                        let r = Cubic::new(&o).unwrap();
                        assert_eq!(r.fen(), g.fen());
                        assert_eq!(r.repetition_key(), g.repetition_key());
                    }
                }
            }
        }
        *terminations.entry(g.termination().unwrap()).or_insert(0u64) += 1;
    }
    assert!(rotations > 0);
    eprintln!("terminations: {terminations:?}, rotations {rotations}");
}

#[test]
fn random_games_quick() {
    random_games(60, 1);
}

#[test]
#[ignore]
fn random_games_many() {
    random_games(5000, 2);
}
