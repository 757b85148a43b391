//! Vegas Fun Chess (docs/rules.md §4): hand-checked positions, one test per clause,
//! both colours, plus random-game invariants and FEN round trips.

use dicechess::board::{Color, MoveList, Role};
use dicechess::sim::{game_rng, random_move, sample_outcome};
use dicechess::variants::vegas::Vegas;
use dicechess::variants::{api, Game, Node, Options, Outcomes, Termination};

fn opts(fen: &str) -> Options {
    let mut o = Options::new();
    o.insert("fen".into(), fen.into());
    o
}

fn game(fen: &str) -> Vegas {
    Vegas::new(&opts(fen)).unwrap()
}

/// Applies the chance outcome named `name`.
fn roll(g: &mut Vegas, name: &str) {
    assert_eq!(g.node(), Node::Chance, "not a chance node: {}", g.fen());
    let a = api::string_to_action(g, name).unwrap();
    api::apply_action(g, a).unwrap();
}

fn mv(g: &mut Vegas, text: &str) {
    let a = api::string_to_action(g, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    api::apply_action(g, a).unwrap();
}

fn sans(g: &Vegas) -> Vec<String> {
    let mut ml = MoveList::new();
    g.legal_moves(&mut ml);
    let mut v: Vec<String> = ml.iter().map(|&m| g.san(m)).collect();
    v.sort();
    v
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn err(r: Result<u32, dicechess::variants::GameError>) -> String {
    r.expect_err("expected an error").0
}

// ------------------------------------------------------------ chance outcomes

#[test]
fn outcomes_are_the_30_named_pairs_with_exact_probabilities() {
    let g = Vegas::new(&Options::new()).unwrap();
    assert_eq!(g.node(), Node::Chance);
    assert_eq!(g.max_chance_outcomes(), 49);
    let mut o = Outcomes::new();
    g.chance_outcomes(&mut o);
    assert_eq!(o.len(), 30);
    let total: f64 = o.as_slice().iter().map(|x| x.1).sum();
    assert!((total - 1.0).abs() < 1e-12);
    for &(id, p) in o.as_slice() {
        let name = g.outcome_name(id);
        let expect = if name.starts_with('P') { 2.0 } else { 1.0 } / 36.0;
        assert_eq!(p, expect, "{name}");
    }
    // Fixed ids: a_index * 7 + b_index, P N B R Q K * = 0..6.
    assert_eq!(g.outcome_name(1), "PN");
    assert_eq!(g.outcome_name(5 * 7 + 4), "KQ");
    assert_eq!(g.outcome_name(2 * 7 + 6), "B*");
    assert_eq!(api::string_to_action(&g, "KQ").unwrap(), 39);
    assert_eq!(api::string_to_action(&g, "b*").unwrap(), 20);
    // Die A has no queen and die B no king.
    assert!(api::string_to_action(&g, "QP").is_err());
    assert!(api::string_to_action(&g, "PK").is_err());
    assert_eq!(g.layout().num_actions(), 4673);
    assert_eq!(g.layout().pass_action(), Some(4672));
}

#[test]
fn custom_dice_and_their_validation() {
    let mut o = Options::new();
    o.insert("die_a".into(), "KKQQ".into());
    o.insert("die_b".into(), "PPN*".into());
    let g = Vegas::new(&o).unwrap();
    let mut out = Outcomes::new();
    g.chance_outcomes(&mut out);
    let mut v: Vec<(String, f64)> = out
        .as_slice()
        .iter()
        .map(|&(id, p)| (g.outcome_name(id), p))
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        v,
        vec![
            ("K*".into(), 0.125),
            ("KN".into(), 0.125),
            ("KP".into(), 0.25),
            ("Q*".into(), 0.125),
            ("QN".into(), 0.125),
            ("QP".into(), 0.25),
        ]
    );
    for bad in ["", "PX", "pnbrkp", "PNB RQ"] {
        let mut o = Options::new();
        o.insert("die_b".into(), bad.into());
        let e = Vegas::new(&o).err().unwrap().0;
        assert!(e.contains("die_b") && e.contains("P N B R Q K *"), "{e}");
    }
    let mut o = Options::new();
    o.insert("die_c".into(), "P".into());
    assert!(Vegas::new(&o).err().unwrap().0.contains("unknown option"));
    let opts = Vegas::new(&Options::new()).unwrap().options();
    assert_eq!(opts["die_a"], "PNBRKP");
    assert_eq!(opts["die_b"], "PNBRQ*");
    assert_eq!(opts["max_plies"], 1000);
}

// ------------------------------------------------------------ die type restriction

#[test]
fn each_die_type_restricts_the_moves_white() {
    // White: Qa1, Bc1, Ke1, Ng1, Rh1, Pe2.
    let fen = "4k3/8/8/8/8/8/4P3/Q1B1K1NR w - - 0 1";
    let cases: &[(&str, &[&str])] = &[
        ("PP", &["e3", "e4"]),
        ("PN", &["e3", "e4", "Nf3", "Nh3"]),
        ("NP", &["e3", "e4", "Nf3", "Nh3"]),
        (
            "BR",
            &[
                "Bd2", "Bf4", "Bg5", "Bh6", "Bb2", "Ba3", "Be3", "Rh2", "Rh3", "Rh4", "Rh5", "Rh6",
                "Rh7", "Rh8+",
            ],
        ),
        (
            "KQ",
            &[
                "Kd1", "Kd2", "Kf1", "Kf2", "Qa2", "Qa3", "Qa4+", "Qa5", "Qa6", "Qa7", "Qa8+",
                "Qb1", "Qb2", "Qc3", "Qd4", "Qe5+", "Qf6", "Qg7", "Qh8+",
            ],
        ),
    ];
    for &(dice, expect) in cases {
        let mut g = game(fen);
        roll(&mut g, dice);
        assert_eq!(g.dice().as_deref(), Some(dice));
        assert_eq!(sans(&g), sorted(expect), "dice {dice}");
    }
}

#[test]
fn each_die_type_restricts_the_moves_black() {
    // The mirror image, Black to move.
    let fen = "q1b1k1nr/4p3/8/8/8/8/8/4K3 b - - 0 1";
    let cases: &[(&str, &[&str])] = &[
        ("PN", &["e6", "e5", "Nf6", "Nh6"]),
        (
            "RB",
            &[
                "Bd7", "Bf5", "Bg4", "Bh3", "Bb7", "Ba6", "Be6", "Rh7", "Rh6", "Rh5", "Rh4", "Rh3",
                "Rh2", "Rh1+",
            ],
        ),
        (
            "KQ",
            &[
                "Kd7", "Kd8", "Kf7", "Kf8", "Qa1+", "Qa2", "Qa3", "Qa4", "Qa5+", "Qa6", "Qa7",
                "Qb7", "Qb8", "Qc6", "Qd5", "Qe4+", "Qf3", "Qg2", "Qh1+",
            ],
        ),
    ];
    for &(dice, expect) in cases {
        let mut g = game(fen);
        roll(&mut g, dice);
        assert_eq!(g.node(), Node::Decision(1));
        assert_eq!(sans(&g), sorted(expect), "dice {dice}");
    }
}

#[test]
fn castling_is_a_king_move() {
    for (fen, player) in [
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 0),
        ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", 1),
    ] {
        let mut g = game(fen);
        roll(&mut g, "KN");
        assert_eq!(g.node(), Node::Decision(player));
        let s = sans(&g);
        assert!(
            s.contains(&"O-O".to_string()) && s.contains(&"O-O-O".to_string()),
            "{s:?}"
        );
        assert!(
            s.iter().all(|m| m.starts_with('K') || m.starts_with('O')),
            "{s:?}"
        );
        assert_eq!(s.len(), 7); // 5 king steps and 2 castlings
        let mut g = game(fen);
        roll(&mut g, "RR");
        let s = sans(&g);
        assert!(s.iter().all(|m| m.starts_with('R')), "{s:?}");
        assert!(!s.iter().any(|m| m.starts_with('O')));
        let e = err(api::string_to_action(&g, "O-O"));
        assert!(
            e.contains("castling is a king move") && e.contains("RR"),
            "{e}"
        );
    }
}

#[test]
fn promotion_is_a_pawn_move() {
    let mut g = game("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    roll(&mut g, "PR");
    assert_eq!(sans(&g), sorted(&["b8=Q+", "b8=R+", "b8=B", "b8=N"]));
    mv(&mut g, "b8=N");
    assert_eq!(g.position().role_at(57), Some(Role::Knight));
    let mut g = game("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    roll(&mut g, "KB");
    assert!(sans(&g).iter().all(|m| m.starts_with('K')));
    let e = err(api::string_to_action(&g, "b8=Q"));
    assert!(e.contains("pawn move") && e.contains("KB"), "{e}");
    // Black promotes on rank 1.
    let mut g = game("4k3/8/8/8/8/8/6p1/4K3 b - - 0 1");
    roll(&mut g, "PN");
    assert_eq!(sans(&g), sorted(&["g1=Q+", "g1=R+", "g1=B", "g1=N"]));
}

// ------------------------------------------------------------ passes

#[test]
fn forced_pass_when_no_rolled_type_can_move() {
    let mut g = game("4k3/8/8/8/8/8/4P3/4K1N1 w - - 7 1");
    roll(&mut g, "BR");
    // No decision: Black's chance node, no ply counted, clocks unchanged.
    assert_eq!(g.node(), Node::Chance);
    assert_eq!(g.position().turn(), Color::Black);
    assert_eq!(g.plies(), 0);
    assert_eq!(g.position().halfmove_clock(), 7);
    assert_eq!(g.dice(), None);
    assert_eq!(g.fen(), "4k3/8/8/8/8/8/4P3/4K1N1 b - - 7 1 - -");
    // Black: only a king; a queen and a knight rolled.
    roll(&mut g, "NQ");
    assert_eq!(g.node(), Node::Chance);
    assert_eq!(g.position().turn(), Color::White);
    assert_eq!(g.fen(), "4k3/8/8/8/8/8/4P3/4K1N1 w - - 7 2 - -");
}

#[test]
fn forced_pass_also_loses_en_passant() {
    let mut g = game("4k3/8/8/8/4p3/8/3P4/4K3 w - - 0 1");
    roll(&mut g, "PN");
    mv(&mut g, "d4");
    assert_eq!(g.position().ep_square(), Some(19));
    roll(&mut g, "NQ"); // Black cannot move a knight or queen: pass
    roll(&mut g, "NQ"); // White neither
    roll(&mut g, "PN");
    assert_eq!(sans(&g), sorted(&["e3"]));
}

#[test]
fn optional_face_allows_any_move_or_a_pass() {
    for (fen, player) in [
        ("4k3/8/8/8/8/8/4P3/4K1N1 w - - 0 1", 0),
        ("4k1n1/4p3/8/8/8/8/8/4K3 b - - 0 1", 1),
    ] {
        let mut g = game(fen);
        roll(&mut g, "B*");
        assert_eq!(g.node(), Node::Decision(player));
        let s = sans(&g);
        assert!(s.contains(&"pass".to_string()));
        assert_eq!(s.len(), 9); // 2 pawn, 2 knight, 4 king moves and the pass
        let a = api::string_to_action(&g, "pass").unwrap();
        assert_eq!(a, 4672);
        assert_eq!(api::string_to_action(&g, "0000").unwrap(), 4672);
        api::apply_action(&mut g, a).unwrap();
        assert_eq!(g.plies(), 1);
        assert_eq!(g.node(), Node::Chance);
        assert_ne!(g.position().turn() as u8, player);
    }
}

#[test]
fn pass_is_not_allowed_without_the_optional_face() {
    let mut g = game("4k3/8/8/8/8/8/4P3/4K1N1 w - - 0 1");
    roll(&mut g, "PN");
    let e = err(api::string_to_action(&g, "pass"));
    assert!(
        e.contains("PN") && e.contains("passing is not allowed"),
        "{e}"
    );
    let before = g.fen();
    let e = api::apply_action(&mut g, 4672).unwrap_err().0;
    assert!(e.contains("PN") && e.contains("not allowed"), "{e}");
    let e = err(api::string_to_action(&g, "Kd1"));
    assert!(e.contains("king move") && e.contains("PN"), "{e}");
    assert_eq!(g.fen(), before);
}

// ------------------------------------------------------------ check

#[test]
fn in_check_no_roll_evasions_only_no_pass() {
    for (fen, player, expect) in [
        ("4k3/8/8/8/8/8/8/r3K3 w - - 0 1", 0, ["Kd2", "Ke2", "Kf2"]),
        ("R3k3/8/8/8/8/8/8/4K3 b - - 0 1", 1, ["Kd7", "Ke7", "Kf7"]),
    ] {
        let g = game(fen);
        assert_eq!(g.node(), Node::Decision(player));
        assert_eq!(g.dice(), None);
        assert_eq!(sans(&g), sorted(&expect));
        let e = err(api::string_to_action(&g, "pass"));
        assert!(e.contains("in check"), "{e}");
    }
}

#[test]
fn free_move_after_giving_check() {
    // White gives check, Black evades, White moves freely or passes.
    let mut g = game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    roll(&mut g, "PR");
    mv(&mut g, "Ra8+");
    assert_eq!(g.node(), Node::Decision(1));
    assert_eq!(sans(&g), sorted(&["Kd7", "Ke7", "Kf7"]));
    mv(&mut g, "Ke7");
    assert_eq!(g.node(), Node::Decision(0));
    assert_eq!(g.dice(), None);
    assert!(g.is_free_move());
    assert_eq!(g.fen(), "R7/4k3/8/8/8/8/8/4K3 w - - 2 2 - free");
    let s = sans(&g);
    assert!(s.contains(&"pass".to_string()));
    assert!(s.contains(&"Kd1".to_string()) && s.contains(&"Rb8".to_string()));
    assert_eq!(s.len(), 5 + 14 + 1);
    // A pass: Black rolls next (its previous move gave no check).
    let mut p = g.clone();
    mv(&mut p, "pass");
    assert_eq!(p.node(), Node::Chance);
    assert_eq!(p.position().turn(), Color::Black);
    // A free move that gives check again: Black evades, White is free again.
    mv(&mut g, "Ra7+");
    assert_eq!(g.node(), Node::Decision(1));
    mv(&mut g, "Kf6");
    assert!(g.is_free_move());
    // A quiet free move: Black rolls.
    mv(&mut g, "Kd2");
    assert_eq!(g.node(), Node::Chance);
    assert_eq!(g.position().turn(), Color::Black);
}

#[test]
fn free_move_black() {
    let mut g = game("r3k3/8/8/8/8/8/8/4K3 b - - 0 1");
    roll(&mut g, "RP");
    mv(&mut g, "Ra1+");
    mv(&mut g, "Kd2");
    assert_eq!(g.node(), Node::Decision(1));
    assert!(g.is_free_move());
    assert!(sans(&g).contains(&"pass".to_string()));
}

#[test]
fn in_check_rule_beats_the_free_move() {
    // White checks on a8; Black blocks with Rd8, uncovering Bb4 on e1.
    let mut g = game("7k/8/8/8/1b6/8/3r4/R3K3 w - - 0 1");
    roll(&mut g, "R*");
    mv(&mut g, "Ra8+");
    assert_eq!(sans(&g), sorted(&["Kg7", "Kh7", "Rd8+", "Bf8"]));
    mv(&mut g, "Rd8+");
    // White's previous move gave check, but White is in check: evasions only.
    assert_eq!(g.node(), Node::Decision(0));
    assert!(!g.is_free_move());
    assert_eq!(g.dice(), None);
    assert_eq!(sans(&g), sorted(&["Ke2", "Kf1", "Kf2"]));
    mv(&mut g, "Kf2");
    // Black's previous move (Rd8+) gave check: a free move.
    assert_eq!(g.node(), Node::Decision(1));
    assert!(g.is_free_move());
    assert!(sans(&g).contains(&"pass".to_string()));
}

#[test]
fn free_move_without_legal_moves_passes_by_itself() {
    // Built from a FEN with the free flag: Black (Ka8) is stalemated by
    // Ka6 and Pa7 on a free move, so its only choice would be a pass.
    let g = game("k7/P7/K7/8/8/8/8/8 b - - 0 1 - free");
    // Black is stalemated on a free move: only a pass, so it passes.
    assert_eq!(g.node(), Node::Chance);
    assert_eq!(g.position().turn(), Color::White);
    assert_eq!(g.plies(), 0);
}

#[test]
fn fen_start_in_check_gives_the_checker_a_free_move() {
    let mut g = game("4k3/8/8/8/8/8/8/r3K3 w - - 0 1");
    mv(&mut g, "Ke2");
    assert_eq!(g.node(), Node::Decision(1));
    assert!(g.is_free_move());
}

// ------------------------------------------------------------ endings

#[test]
fn checkmate() {
    let mut g = game("6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1");
    roll(&mut g, "R*");
    mv(&mut g, "Ra8#");
    assert_eq!(g.termination(), Some(Termination::Checkmate));
    assert_eq!(g.winner(), Some(0));
    assert_eq!(api::returns(&g), [1.0, -1.0]);
    let mut g = game("r3k3/8/8/8/8/8/5PPP/6K1 b - - 0 1");
    roll(&mut g, "RP");
    mv(&mut g, "Ra1#");
    assert_eq!(g.termination(), Some(Termination::Checkmate));
    assert_eq!(g.winner(), Some(1));
    // A mated FEN is terminal at once.
    let g = game("R5k1/5ppp/8/8/8/8/8/4K3 b - - 0 1");
    assert_eq!(g.termination(), Some(Termination::Checkmate));
}

#[test]
fn stalemate_with_and_without_a_king_rolled() {
    for (fen, side) in [
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", Color::Black),
        ("8/8/8/8/8/6k1/5q2/7K w - - 0 1", Color::White),
    ] {
        // Still rolls.
        let g = game(fen);
        assert_eq!(g.node(), Node::Chance);
        for dice in ["KP", "KQ", "K*"] {
            let mut s = g.clone();
            roll(&mut s, dice);
            assert_eq!(s.termination(), Some(Termination::Stalemate), "{dice}");
            assert_eq!(s.winner(), None);
            assert_eq!(s.dice().as_deref(), Some(dice));
            // The terminal state round-trips through its FEN.
            let t = game(&s.fen());
            assert_eq!(t.termination(), Some(Termination::Stalemate));
            assert_eq!(t.fen(), s.fen());
        }
        for dice in ["PN", "R*", "BQ"] {
            let mut s = g.clone();
            roll(&mut s, dice);
            assert_eq!(s.termination(), None, "{dice}");
            assert_eq!(s.node(), Node::Chance);
            assert_eq!(s.position().turn(), side.other());
        }
    }
}

#[test]
fn threefold_repetition_and_passes_do_not_count() {
    let mut g = Vegas::new(&Options::new()).unwrap();
    // Passes create no occurrence: six passes in a row end nothing.
    for _ in 0..6 {
        roll(&mut g, "P*");
        mv(&mut g, "pass");
    }
    assert_eq!(g.termination(), None);
    for i in 0..2 {
        for m in ["Nf3", "Nf6", "Ng1", "Ng8"] {
            roll(&mut g, "NN");
            mv(&mut g, m);
        }
        if i == 0 {
            assert_eq!(g.termination(), None);
            assert_eq!(g.repetitions(), 1);
        }
    }
    assert_eq!(g.termination(), Some(Termination::ThreefoldRepetition));
    assert_eq!(api::returns(&g), [0.0, 0.0]);
}

#[test]
fn fifty_move_rule_and_passes_do_not_count() {
    let mut g = game("8/8/4k3/8/8/2K5/8/R7 w - - 99 80");
    roll(&mut g, "R*");
    mv(&mut g, "pass");
    roll(&mut g, "K*");
    mv(&mut g, "pass");
    assert_eq!(g.position().halfmove_clock(), 99);
    assert_eq!(g.termination(), None);
    roll(&mut g, "RN");
    mv(&mut g, "Ra2");
    assert_eq!(g.termination(), Some(Termination::FiftyMoves));
}

#[test]
fn insufficient_material() {
    let mut g = game("4k3/8/8/8/8/8/1r6/K7 w - - 0 1");
    roll(&mut g, "KN");
    mv(&mut g, "Kxb2");
    assert_eq!(g.termination(), Some(Termination::InsufficientMaterial));
    let g = game("4k3/8/8/8/8/8/8/K1B5 w - - 0 1");
    assert_eq!(g.termination(), Some(Termination::InsufficientMaterial));
}

#[test]
fn max_plies_counts_moves_and_voluntary_passes_only() {
    let mut o = opts("4k3/8/8/8/8/8/4P3/4K1N1 w - - 0 1");
    o.insert("max_plies".into(), 2.into());
    let mut g = Vegas::new(&o).unwrap();
    roll(&mut g, "BR"); // forced pass: no ply
    roll(&mut g, "K*");
    mv(&mut g, "pass");
    assert_eq!(g.plies(), 1);
    roll(&mut g, "PN");
    mv(&mut g, "e4");
    assert_eq!(g.termination(), Some(Termination::MaxPlies));
    assert_eq!(api::returns(&g), [0.0, 0.0]);
}

// ------------------------------------------------------------ errors, state

#[test]
fn bad_input_leaves_the_state_unchanged() {
    let mut g = Vegas::new(&Options::new()).unwrap();
    let e = err(api::string_to_action(&g, "XY"));
    assert!(e.contains("not an outcome") && e.contains("PN"), "{e}");
    assert!(api::apply_action(&mut g, 48).is_err());
    roll(&mut g, "BQ");
    let before = g.fen();
    // Bishops and the queen are blocked: a forced pass; White can't be here.
    assert_ne!(before.split(' ').nth(1), Some("w"));
    roll(&mut g, "NB");
    let before = g.fen();
    let e = err(api::string_to_action(&g, "e5"));
    assert!(e.contains("pawn move") && e.contains("NB"), "{e}");
    let a = dicechess::encode::ActionLayout {
        geometry: dicechess::board::Geometry::STANDARD,
        pass: true,
        rotations: false,
    };
    let mut all = MoveList::new();
    g.position().legal_moves(&mut all);
    let e5 = all.iter().find(|m| m.uci() == "e7e5").copied().unwrap();
    let e = api::apply_action(&mut g, a.encode(e5, Color::Black))
        .unwrap_err()
        .0;
    assert!(e.contains("pawn move") && e.contains("NB"), "{e}");
    assert_eq!(g.fen(), before);
    // FEN errors.
    for bad in [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 XX -",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 QP -",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 - yes",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 - - x",
        "4k3/8/8/8/8/8/8/r3K3 w - - 0 1 PN -",
    ] {
        assert!(Vegas::new(&opts(bad)).is_err(), "{bad}");
    }
}

#[test]
fn fen_extension_and_description() {
    let g = Vegas::new(&Options::new()).unwrap();
    assert_eq!(
        g.fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 - -"
    );
    let g = game("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 NR -");
    assert_eq!(g.node(), Node::Decision(0));
    assert_eq!(g.dice().as_deref(), Some("NR"));
    assert_eq!(sans(&g), sorted(&["Na3", "Nc3", "Nf3", "Nh3"]));
    let text = api::pretty(&g);
    assert!(text.contains("dice: NR"), "{text}");
    let planes = api::observation_planes(&g);
    assert_eq!(planes.len(), 22 + 15);
    let mut obs = vec![0f32; planes.len() * 64];
    api::write_observation(&g, 0, &mut obs);
    let plane = |name: &str| {
        let i = planes.iter().position(|p| *p == name).unwrap();
        obs[i * 64]
    };
    assert_eq!(plane("die_a_knight"), 1.0);
    assert_eq!(plane("die_b_rook"), 1.0);
    assert_eq!(plane("die_a_rook"), 0.0);
    assert_eq!(plane("free_move"), 0.0);
}

// ------------------------------------------------------------ random games

/// Plays random games checking invariants and FEN round trips at every node.
fn random_games(n: u64, seed: u64, fen_every: usize) -> [u64; 9] {
    let mut ends = [0u64; 9];
    let mut moves = MoveList::new();
    let mut outs = Outcomes::new();
    for i in 0..n {
        let mut o = Options::new();
        if i % 3 == 1 {
            o.insert("max_plies".into(), 150.into());
        }
        if i % 5 == 2 {
            o.insert("die_a".into(), "PNBRKQ".into());
            o.insert("die_b".into(), "PNBRK*".into());
        }
        let mut g = Vegas::new(&o).unwrap();
        let mut rng = game_rng(seed, i);
        let mut step = 0usize;
        loop {
            g.check_invariants()
                .unwrap_or_else(|e| panic!("game {i} step {step}: {e}: {}", g.fen()));
            if fen_every > 0 && step % fen_every == 0 {
                let mut oo = o.clone();
                oo.insert("fen".into(), g.fen().into());
                let h = Vegas::new(&oo).unwrap_or_else(|e| panic!("{}: {e}", g.fen()));
                assert_eq!(h.fen(), g.fen());
                if g.termination() != Some(Termination::ThreefoldRepetition)
                    && g.termination() != Some(Termination::MaxPlies)
                {
                    assert_eq!(h.node(), g.node(), "{}", g.fen());
                    assert_eq!(
                        api::legal_actions(&h),
                        api::legal_actions(&g),
                        "{}",
                        g.fen()
                    );
                }
            }
            step += 1;
            match g.node() {
                Node::Terminal => break,
                Node::Chance => {
                    let a = sample_outcome(&g, &mut rng, &mut outs);
                    g.apply_outcome(a);
                }
                Node::Decision(p) => {
                    assert_eq!(p, g.position().turn() as u8);
                    let m = random_move(&g, &mut rng, &mut moves);
                    if !m.is_null() {
                        // Every move is legal on the board.
                        let mut all = MoveList::new();
                        g.position().legal_moves(&mut all);
                        assert!(all.contains(m));
                    }
                    g.play(m);
                }
            }
        }
        let t = g.termination().expect("terminal has a reason");
        ends[t.code() as usize] += 1;
    }
    ends
}

#[test]
fn random_games_quick() {
    let ends = random_games(150, 1, 1);
    assert_eq!(ends.iter().sum::<u64>(), 150);
}

#[test]
#[ignore]
fn random_games_many() {
    let ends = random_games(5000, 7, 7);
    println!("{ends:?}");
    assert!(ends[Termination::Checkmate.code() as usize] > 0);
    assert!(ends[Termination::ThreefoldRepetition.code() as usize] > 0);
    assert!(ends[Termination::InsufficientMaterial.code() as usize] > 0);
}
