//! Hand-checked orthodox chess rules (docs/rules.md §0–1), played through the
//! action-level Game API (`variants::api`) on `variants::chess::Chess`.

use dicechess::board::{Color, Piece, Role};
use dicechess::variants::{api, chess::Chess, Game, GameError, Node, Options, Termination};

fn opts(fen: &str) -> Options {
    let mut o = Options::new();
    o.insert("fen".into(), fen.into());
    o
}

fn game(fen: &str) -> Chess {
    Chess::new(&opts(fen)).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn start() -> Chess {
    Chess::new(&Options::new()).unwrap()
}

/// Plays moves given as text (SAN, UCI or long algebraic) through
/// `string_to_action` and `apply_action`.
fn play(g: &mut Chess, moves: &[&str]) {
    for m in moves {
        let a = api::string_to_action(g, m)
            .unwrap_or_else(|e| panic!("{m} not accepted at {}: {e}", g.fen()));
        api::apply_action(g, a).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

/// SAN (with suffix) of every legal action, via `action_to_string`.
fn sans(g: &Chess) -> Vec<String> {
    api::legal_actions(g)
        .into_iter()
        .map(|a| api::action_to_string(g, a).unwrap())
        .collect()
}

fn has(g: &Chess, san: &str) -> bool {
    sans(g).iter().any(|s| s == san)
}

fn castling_field(g: &Chess) -> String {
    g.fen().split(' ').nth(2).unwrap().to_string()
}

fn piece(g: &Chess, sq: &str) -> Option<Piece> {
    let s = g.position().geometry().parse_square(sq).unwrap();
    g.position().piece_at(s)
}

/// A serialised snapshot, to check that failed calls leave the state as it was.
fn snapshot(g: &Chess) -> String {
    serde_json::to_string(g).unwrap()
}

// ----- castling -----

#[test]
fn castling_both_sides_when_free() {
    let g = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert!(has(&g, "O-O") && has(&g, "O-O-O"));
    let mut g2 = g.clone();
    play(&mut g2, &["O-O"]);
    assert_eq!(piece(&g2, "g1"), Some(Piece::new(Color::White, Role::King)));
    assert_eq!(piece(&g2, "f1"), Some(Piece::new(Color::White, Role::Rook)));
    assert_eq!(castling_field(&g2), "kq");
    play(&mut g2, &["O-O-O"]);
    assert_eq!(piece(&g2, "c8"), Some(Piece::new(Color::Black, Role::King)));
    assert_eq!(piece(&g2, "d8"), Some(Piece::new(Color::Black, Role::Rook)));
    assert_eq!(castling_field(&g2), "-");
    // UCI (king's two-square move) and 0-0 are accepted too.
    let mut g3 = g.clone();
    play(&mut g3, &["e1g1", "0-0-0"]);
    assert_eq!(g3.fen(), g2.fen());
}

#[test]
fn castling_through_into_and_out_of_check() {
    // f1 attacked: no O-O (through check); O-O-O fine.
    let g = game("5r1k/8/8/8/8/8/P6P/R3K2R w KQ - 0 1");
    assert!(!has(&g, "O-O") && has(&g, "O-O-O"));
    // g1 attacked: no O-O (into check).
    let g = game("6rk/8/8/8/8/8/P6P/R3K2R w KQ - 0 1");
    assert!(!has(&g, "O-O") && has(&g, "O-O-O"));
    // d1 attacked: no O-O-O (through check); c1 attacked: into check.
    let g = game("3r3k/8/8/8/8/8/P6P/R3K2R w KQ - 0 1");
    assert!(has(&g, "O-O") && !has(&g, "O-O-O"));
    let g = game("2r4k/8/8/8/8/8/P6P/R3K2R w KQ - 0 1");
    assert!(has(&g, "O-O") && !has(&g, "O-O-O"));
    // In check: no castling at all.
    let g = game("4r2k/8/8/8/8/8/P6P/R3K2R w KQ - 0 1");
    assert!(!has(&g, "O-O") && !has(&g, "O-O-O"));
    // b1 attacked does not matter (the king does not cross it) ...
    let g = game("1r5k/8/8/8/8/8/P6P/R3K2R w KQ - 0 1");
    assert!(has(&g, "O-O-O"));
    // ... but b1 occupied does.
    let g = game("7k/8/8/8/8/8/P6P/RN2K2R w KQ - 0 1");
    assert!(has(&g, "O-O") && !has(&g, "O-O-O"));
    // A rook attacked is no obstacle.
    let g = game("7k/8/8/8/8/8/7r/R3K2R w KQ - 0 1");
    assert!(has(&g, "O-O") && has(&g, "O-O-O"));
}

#[test]
fn castling_rights_lost_by_king_and_rook_moves() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let mut g = game(fen);
    play(&mut g, &["Ke2"]);
    assert_eq!(castling_field(&g), "kq");
    // Going back does not restore them.
    play(&mut g, &["Ke7", "Ke1", "Ke8"]);
    assert_eq!(castling_field(&g), "-");
    assert!(!has(&g, "O-O") && !has(&g, "O-O-O"));

    let mut g = game(fen);
    play(&mut g, &["Rh2"]);
    assert_eq!(castling_field(&g), "Qkq");
    play(&mut g, &["Ra7"]);
    assert_eq!(castling_field(&g), "Qk");
    assert!(!has(&g, "O-O") && has(&g, "O-O-O"));
}

#[test]
fn castling_rights_lost_by_rook_capture() {
    let mut g = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    // White's a1 rook leaves, Black's a8 rook is captured.
    play(&mut g, &["Rxa8+"]);
    assert_eq!(castling_field(&g), "Kk");
    // Black captures the h1 rook: White loses O-O too.
    let mut g = game("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    play(&mut g, &["Rxh1+"]);
    assert_eq!(castling_field(&g), "Qq");
}

// ----- en passant -----

#[test]
fn en_passant_only_immediately() {
    let mut g = game("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1");
    play(&mut g, &["e4"]);
    assert!(g.fen().contains(" e3 "), "{}", g.fen());
    assert!(has(&g, "dxe3"));
    let mut g2 = g.clone();
    play(&mut g2, &["dxe3"]);
    assert_eq!(piece(&g2, "e4"), None);
    assert_eq!(piece(&g2, "e3"), Some(Piece::new(Color::Black, Role::Pawn)));
    assert_eq!(g2.position().halfmove_clock(), 0);
    // One move later the chance is gone.
    play(&mut g, &["Ke7", "Ke2"]);
    assert!(!has(&g, "dxe3"));
}

#[test]
fn en_passant_horizontal_pin() {
    // After d2-d4, exd3 would clear the fourth rank between a4 and h4.
    let mut g = game("8/8/8/8/k3p2Q/8/3P4/3K4 w - - 0 1");
    play(&mut g, &["d4"]);
    assert!(!has(&g, "exd3"));
    assert!(has(&g, "e3"));
    // The en-passant square is not written when the capture is illegal.
    assert_eq!(g.fen(), "8/8/8/8/k2Pp2Q/8/8/3K4 b - - 0 1");
    // Without the queen the capture is legal.
    let mut g = game("8/8/8/8/k3p3/8/3P4/3K4 w - - 0 1");
    play(&mut g, &["d4"]);
    assert!(has(&g, "exd3"));
    assert_eq!(g.fen(), "8/8/8/8/k2Pp3/8/8/3K4 b - d3 0 1");
}

#[test]
fn en_passant_out_of_check() {
    // d2-d4 gives check; capturing the checking pawn en passant answers it.
    let mut g = game("8/8/8/2k5/4p3/8/3P4/4K3 w - - 0 1");
    assert!(has(&g, "d4+"));
    play(&mut g, &["d4+"]);
    assert!(g.position().is_check());
    assert!(has(&g, "exd3"));
    play(&mut g, &["exd3"]);
    assert_eq!(piece(&g, "d4"), None);
    // But en passant does not answer a discovered check by another piece.
    let mut g = game("8/8/7k/8/4p3/8/3P4/2B1K3 w - - 0 1");
    play(&mut g, &["d4+"]);
    assert!(g.position().is_check());
    assert!(!has(&g, "exd3"));
    assert!(has(&g, "e3"));
}

// ----- promotion -----

#[test]
fn promotion_to_all_four_pieces() {
    let g = game("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1");
    let mut s = sans(&g);
    s.retain(|m| m.starts_with('e'));
    s.sort();
    let mut want = vec![
        "e8=Q+", "e8=R+", "e8=B", "e8=N", "exd8=Q+", "exd8=R+", "exd8=B", "exd8=N",
    ];
    want.sort();
    assert_eq!(s, want);
    for (text, role) in [
        ("exd8=Q+", Role::Queen),
        ("exd8=R", Role::Rook),
        ("e7d8b", Role::Bishop),
        ("e7xd8N", Role::Knight),
    ] {
        let mut g2 = g.clone();
        play(&mut g2, &[text]);
        assert_eq!(piece(&g2, "d8"), Some(Piece::new(Color::White, role)));
        assert_eq!(piece(&g2, "e7"), None);
    }
    // A promotion must name the piece.
    assert!(api::string_to_action(&g, "exd8").is_err());
}

// ----- game ends -----

#[test]
fn fools_mate() {
    let mut g = start();
    play(&mut g, &["f3", "e5", "g4"]);
    assert!(has(&g, "Qh4#"));
    play(&mut g, &["Qh4#"]);
    assert_eq!(g.node(), Node::Terminal);
    assert_eq!(g.termination(), Some(Termination::Checkmate));
    assert_eq!(g.winner(), Some(1));
    assert_eq!(api::returns(&g), [-1.0, 1.0]);
    assert_eq!(api::current_player(&g), -4);
    assert!(api::legal_actions(&g).is_empty());
}

#[test]
fn stalemate() {
    let mut g = game("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1");
    assert!(has(&g, "Qf7"));
    play(&mut g, &["Qf7"]);
    assert_eq!(g.termination(), Some(Termination::Stalemate));
    assert_eq!(g.winner(), None);
    assert_eq!(api::returns(&g), [0.0, 0.0]);
    // A stalemate given in the FEN ends the game at once.
    let g = game("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(g.termination(), Some(Termination::Stalemate));
}

#[test]
fn threefold_repetition_knight_shuffle() {
    let mut g = start();
    let shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"];
    play(&mut g, &shuffle);
    assert_eq!(g.repetitions(), 1);
    play(&mut g, &shuffle[..3]);
    assert_eq!(g.termination(), None);
    play(&mut g, &shuffle[3..]);
    // The start position has now occurred three times.
    assert_eq!(g.termination(), Some(Termination::ThreefoldRepetition));
    assert_eq!(api::returns(&g), [0.0, 0.0]);
}

#[test]
fn threefold_repetition_ignores_impossible_en_passant() {
    // After 1. e4 no black pawn can capture en passant, so the position
    // equals the one after 1. e4 Nf6 2. Nf3 Ng8 3. Ng1.
    let mut g = start();
    play(&mut g, &["e4"]);
    assert!(g.fen().contains(" - 0 1"), "{}", g.fen());
    play(&mut g, &["Nf6", "Nf3", "Ng8", "Ng1"]);
    assert_eq!(g.repetitions(), 1);
    play(&mut g, &["Nf6", "Nf3", "Ng8"]);
    assert_eq!(g.termination(), None);
    play(&mut g, &["Ng1"]);
    assert_eq!(g.termination(), Some(Termination::ThreefoldRepetition));
}

#[test]
fn threefold_repetition_counts_possible_en_passant() {
    // After e2-e4 the d4 pawn can capture en passant: that position differs
    // from the later ones with the same placement.
    let mut g = game("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1");
    play(&mut g, &["e4"]);
    let tour = ["Ke7", "Ke2", "Ke8", "Ke1"];
    play(&mut g, &tour);
    assert_eq!(g.repetitions(), 0);
    play(&mut g, &tour);
    // Ignoring en passant, this placement would now stand for the third time.
    assert_eq!(g.repetitions(), 1);
    assert_eq!(g.termination(), None);
    // The position after Ke7 does occur for the third time.
    play(&mut g, &["Ke7"]);
    assert_eq!(g.termination(), Some(Termination::ThreefoldRepetition));
}

#[test]
fn fifty_move_rule() {
    let mut g = game("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    assert_eq!(g.termination(), None);
    play(&mut g, &["Ra2"]);
    assert_eq!(g.termination(), Some(Termination::FiftyMoves));
    assert_eq!(api::returns(&g), [0.0, 0.0]);
    // A pawn move or a capture on the 100th ply resets the clock instead.
    let mut g = game("4k3/8/8/8/8/8/P7/R3K3 w - - 99 80");
    play(&mut g, &["a3"]);
    assert_eq!(g.termination(), None);
    // Checkmate on that move takes precedence.
    let mut g = game("k7/8/1K6/8/8/8/8/7R w - - 99 80");
    play(&mut g, &["Rh8#"]);
    assert_eq!(g.termination(), Some(Termination::Checkmate));
    assert_eq!(g.winner(), Some(0));
    assert_eq!(api::returns(&g), [1.0, -1.0]);
    // A FEN with the clock already at 100 is drawn at once.
    let g = game("4k3/8/8/8/8/8/8/R3K3 w - - 100 80");
    assert_eq!(g.termination(), Some(Termination::FiftyMoves));
}

#[test]
fn insufficient_material() {
    for (fen, drawn) in [
        ("8/8/8/4k3/8/8/8/4K3 w - - 0 1", true),      // K v K
        ("8/8/8/4k3/8/8/8/4KN2 w - - 0 1", true),     // KN v K
        ("8/8/8/4k3/8/8/8/2B1K3 w - - 0 1", true),    // KB v K
        ("5b2/8/8/4k3/8/8/8/2B1K3 w - - 0 1", true),  // KB v KB, both dark
        ("2b5/8/8/4k3/8/8/8/2B1K3 w - - 0 1", false), // opposite colours
        ("8/8/8/4k3/8/8/8/1N2KN2 w - - 0 1", false),  // KNN v K
        ("8/8/8/4k3/8/8/8/2B1KN2 w - - 0 1", false),  // KBN v K
        ("8/8/8/4k3/8/8/8/4KR2 w - - 0 1", false),    // KR v K
        ("8/8/8/4k3/8/8/P7/4K3 w - - 0 1", false),    // KP v K
    ] {
        let g = game(fen);
        let t = g.termination();
        if drawn {
            assert_eq!(t, Some(Termination::InsufficientMaterial), "{fen}");
            assert_eq!(api::returns(&g), [0.0, 0.0]);
        } else {
            assert_eq!(t, None, "{fen}");
        }
    }
    // Reached by a capture.
    let mut g = game("8/8/8/8/8/8/r7/K6k w - - 0 1");
    play(&mut g, &["Kxa2"]);
    assert_eq!(g.termination(), Some(Termination::InsufficientMaterial));
}

#[test]
fn max_plies_truncates() {
    let mut o = Options::new();
    o.insert("max_plies".into(), 4.into());
    let mut g = Chess::new(&o).unwrap();
    play(&mut g, &["e4", "e5", "Nf3"]);
    assert_eq!(g.termination(), None);
    play(&mut g, &["Nc6"]);
    assert_eq!(g.termination(), Some(Termination::MaxPlies));
    assert_eq!(g.winner(), None);
    assert_eq!(api::returns(&g), [0.0, 0.0]);
    assert_eq!(g.plies(), 4);
    // Checkmate on the last allowed ply takes precedence.
    let mut g = Chess::new(&o).unwrap();
    play(&mut g, &["f3", "e5", "g4", "Qh4#"]);
    assert_eq!(g.termination(), Some(Termination::Checkmate));
}

// ----- bad input -----

fn new_err(o: &Options) -> GameError {
    match Chess::new(o) {
        Ok(g) => panic!("accepted, fen {}", g.fen()),
        Err(e) => e,
    }
}

#[test]
fn bad_options() {
    let mut o = Options::new();
    o.insert("colour".into(), "white".into());
    let e = new_err(&o);
    assert!(e.0.contains("unknown option \"colour\""), "{e}");
    assert!(e.0.contains("fen") && e.0.contains("max_plies"), "{e}");
    for bad in [
        serde_json::json!(0),
        serde_json::json!("many"),
        serde_json::json!(-5),
    ] {
        let mut o = Options::new();
        o.insert("max_plies".into(), bad);
        let e = new_err(&o);
        assert!(e.0.contains("max_plies"), "{e}");
    }
    let mut o = Options::new();
    o.insert("fen".into(), 5.into());
    assert!(new_err(&o).0.contains("must be a string"));
}

#[test]
fn bad_fens() {
    for (fen, needle) in [
        ("", "at least the board"),
        ("8/8/8/8/8/8/8 w - - 0 1", "ranks"),
        ("8/8/8/8/8/8/8/8/8 w - - 0 1", "ranks"),
        (
            "rnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "unknown piece letter",
        ),
        (
            "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "more than 8 files",
        ),
        (
            "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "has 7 files",
        ),
        (
            "rnbqkbnr/pppp0ppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "0 count",
        ),
        ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "exactly one king"),
        ("8/8/8/8/8/8/8/4K3 w - - 0 1", "exactly one king"),
        (
            "4k3/8/8/8/8/8/8/4RK2 w - - 0 1",
            "not to move (black) is in check",
        ),
        ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "pawn on a1"),
        ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "pawn on a8"),
        ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side to move"),
        ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "original squares"),
        ("4k3/8/8/8/8/8/8/4K2R w KX - 0 1", "castling field"),
        ("4k3/8/8/8/8/8/8/4K2R w KK - 0 1", "repeats"),
        ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", "en-passant square e6"),
        ("4k3/8/8/8/8/8/8/4K3 w - z9 0 1", "en-passant field"),
        ("4k3/8/8/4p3/8/8/8/4K3 w - e3 0 1", "en-passant square e3"),
        ("4k3/8/8/8/8/8/8/4K3 w - - x 1", "halfmove"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 0", "fullmove"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", "extra fields"),
    ] {
        let e = new_err(&opts(fen));
        assert!(
            e.0.contains(needle),
            "FEN {fen:?}: message {:?} should mention {needle:?}",
            e.0
        );
    }
}

#[test]
fn bad_actions_leave_state_unchanged() {
    let mut g = start();
    play(&mut g, &["e4"]);
    let before = snapshot(&g);
    let legal = api::legal_actions(&g);
    // Out of range.
    let e = api::apply_action(&mut g, 1_000_000).unwrap_err();
    assert!(e.0.contains("out of range"), "{e}");
    assert_eq!(snapshot(&g), before);
    // In range but illegal.
    let n = api::mask_len(&g) as u32;
    let illegal = (0..n).find(|a| !legal.contains(a)).unwrap();
    let e = api::apply_action(&mut g, illegal).unwrap_err();
    assert!(e.0.contains("not legal"), "{e}");
    assert_eq!(snapshot(&g), before);
    assert!(api::action_to_string(&g, illegal).is_err());
    // Unparsable or illegal move text.
    for (text, needle) in [
        ("", "empty"),
        ("e4", "not a legal move"), // White's move, Black to play
        ("Ke2", "not a legal move"),
        ("xyz", "not a legal move"),
        ("e7e8q", "not a legal move"),
        ("pass", "passing is not allowed"),
        ("0000", "passing is not allowed"),
        ("\u{1F600}", "not a legal move"),
    ] {
        let e = api::string_to_action(&g, text).unwrap_err();
        assert!(e.0.contains(needle), "{text:?}: {e}");
    }
    assert_eq!(snapshot(&g), before);
    // The same move in every accepted notation.
    let a = api::string_to_action(&g, "e5").unwrap();
    for t in ["e7e5", "e7-e5", " e5 ", "e5!?"] {
        assert_eq!(api::string_to_action(&g, t).unwrap(), a, "{t}");
    }
    assert_eq!(api::action_to_string(&g, a).unwrap(), "e5");
}

#[test]
fn ambiguous_move_text() {
    let g = game("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
    let e = api::string_to_action(&g, "Nd2").unwrap_err();
    assert!(e.0.contains("ambiguous"), "{e}");
    assert!(has(&g, "Nbd2") && has(&g, "Nfd2"));
    let mut g2 = g.clone();
    play(&mut g2, &["Nbd2"]);
    assert_eq!(
        piece(&g2, "d2"),
        Some(Piece::new(Color::White, Role::Knight))
    );
    assert_eq!(piece(&g2, "b1"), None);
}

#[test]
fn actions_after_the_end_are_errors() {
    let mut g = start();
    play(&mut g, &["f3", "e5", "g4", "Qh4#"]);
    let before = snapshot(&g);
    let e = api::apply_action(&mut g, 0).unwrap_err();
    assert!(e.0.contains("game is over"), "{e}");
    assert!(api::string_to_action(&g, "e4").is_err());
    assert!(api::action_to_string(&g, 0).is_err());
    assert_eq!(snapshot(&g), before);
}

#[test]
fn hash_is_consistent_after_setup_and_moves() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "4k3/8/8/8/8/8/8/R3K3 b Q - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1",
    ] {
        let mut g = game(fen);
        g.check_invariants().unwrap();
        let a = api::legal_actions(&g)[0];
        api::apply_action(&mut g, a).unwrap();
        g.check_invariants().unwrap();
    }
}

/// `Chess` keeps the legal moves its result update generated; what it hands
/// out must always be the position's own legal moves, in the same order: in
/// ordinary positions, in one with more moves than the cache holds (218, so
/// not cached), after moves, and after a serde round trip (cache not
/// serialized).
#[test]
fn cached_legal_moves_equal_generated_ones() {
    use dicechess::board::MoveList;
    use dicechess::sim::{game_rng, random_move};
    let check = |g: &Chess| {
        let (mut cached, mut fresh) = (MoveList::new(), MoveList::new());
        g.legal_moves(&mut cached);
        if g.node() != Node::Terminal {
            g.position().legal_moves(&mut fresh);
        }
        assert_eq!(cached.as_slice(), fresh.as_slice(), "{}", g.fen());
        cached.len()
    };
    let many = game("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1");
    assert_eq!(check(&many), 218);
    let mut rng = game_rng(5, 0);
    let mut ml = MoveList::new();
    for mut g in [start(), many] {
        while g.node() != Node::Terminal {
            check(&g);
            let copy: Chess = serde_json::from_str(&serde_json::to_string(&g).unwrap()).unwrap();
            check(&copy);
            let m = random_move(&g, &mut rng, &mut ml);
            g.play(m);
        }
        assert_eq!(check(&g), 0);
    }
}
