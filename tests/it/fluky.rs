//! Fluky Chess and Metamorph Chess (docs/rules.md §2–3): hand-checked positions, one
//! test per rule clause, each run for White and (mirrored) for Black, plus
//! random-game invariants.

use dicechess::sim::{game_rng, random_move, sample_outcome};
use dicechess::variants::{api, fluky::Fluky, Game, Node, Options, Outcomes, Termination};
use std::collections::BTreeSet;

// ------------------------------------------------------------------ helpers

fn opts(pairs: &[(&str, &str)]) -> Options {
    let mut o = Options::new();
    for (k, v) in pairs {
        o.insert((*k).into(), (*v).into());
    }
    o
}

fn game(variant: &str, fen: &str) -> Fluky {
    Fluky::new(variant, &opts(&[("fen", fen)])).unwrap()
}

/// Mirrors a FEN top to bottom with colours swapped (White's test becomes
/// Black's). A pending-roll square is mirrored too.
fn mirror_fen(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let board: Vec<String> = f[0]
        .split('/')
        .rev()
        .map(|row| {
            row.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        })
        .collect();
    let side = if f[1] == "w" { "b" } else { "w" };
    let mut out = format!("{} {} {}", board.join("/"), side, f[2..6].join(" "));
    if let Some(sq) = f.get(6) {
        out.push(' ');
        out.push_str(&mirror_san(sq));
    }
    out
}

/// Mirrors the ranks in a SAN (or square) string.
fn mirror_san(san: &str) -> String {
    san.chars()
        .map(|c| match c {
            '1'..='5' => (b'6' - (c as u8 - b'0')) as char,
            _ => c,
        })
        .collect()
}

/// Both colours: the position as given, and mirrored.
/// Maps a White-side SAN to the SAN of the same move in the tested colour.
type SanMap = fn(&str) -> String;

fn both(fen: &str) -> [(String, SanMap); 2] {
    [
        (fen.to_string(), |s| s.to_string()),
        (mirror_fen(fen), |s| mirror_san(s)),
    ]
}

fn sans(g: &Fluky) -> BTreeSet<String> {
    api::legal_actions(g)
        .into_iter()
        .map(|a| api::action_to_string(g, a).unwrap())
        .collect()
}

fn set(m: SanMap, items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| m(s)).collect()
}

fn play(g: &mut Fluky, text: &str) {
    let a = api::string_to_action(g, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    api::apply_action(g, a).unwrap();
}

fn outcomes(g: &Fluky) -> Vec<(String, f64)> {
    let mut o = Outcomes::new();
    g.chance_outcomes(&mut o);
    o.as_slice()
        .iter()
        .map(|&(id, p)| (g.outcome_name(id), p))
        .collect()
}

const DEFAULT_DIST: [(&str, f64); 4] = [
    ("P", 0.5),
    ("N", 1.0 / 6.0),
    ("B", 1.0 / 6.0),
    ("R", 1.0 / 6.0),
];

fn assert_dist(g: &Fluky, want: &[(&str, f64)]) {
    let got = outcomes(g);
    assert_eq!(got.len(), want.len(), "{got:?}");
    for ((n, p), (wn, wp)) in got.iter().zip(want) {
        assert_eq!(n, wn);
        assert!((p - wp).abs() < 1e-15, "{n}: {p} vs {wp}");
    }
    let total: f64 = got.iter().map(|x| x.1).sum();
    assert!((total - 1.0).abs() < 1e-12);
}

fn player(mirrored: bool) -> u8 {
    mirrored as u8
}

// ------------------------------------------------------------------ setup

#[test]
fn setup_and_first_moves() {
    for v in ["fluky", "metamorph"] {
        let g = Fluky::new(v, &Options::new()).unwrap();
        assert_eq!(g.fen(), "2k2/ppppp/5/PPPPP/2K2 w - - 0 1");
        assert_eq!(g.variant(), v);
        assert_eq!(g.node(), Node::Decision(0));
        assert_eq!(g.layout().num_actions(), 1225);
        assert_eq!(g.max_chance_outcomes(), 4);
        let m = |s: &str| s.to_string();
        assert_eq!(
            sans(&g),
            set(m, &["a3", "b3", "c3", "d3", "e3", "Kb1", "Kd1"])
        );
    }
    // Black's first moves, from the same setup with Black to move.
    let g = game("fluky", "2k2/ppppp/5/PPPPP/2K2 b - - 0 1");
    let m = |s: &str| s.to_string();
    assert_eq!(
        sans(&g),
        set(m, &["a3", "b3", "c3", "d3", "e3", "Kb5", "Kd5"])
    );
    assert_eq!(g.node(), Node::Decision(1));
}

#[test]
fn first_move_is_rolled_with_default_distribution() {
    let mut g = Fluky::new("fluky", &Options::new()).unwrap();
    play(&mut g, "c3");
    assert_eq!(g.node(), Node::Chance);
    assert_eq!(g.fen(), "2k2/ppppp/2P2/PP1PP/2K2 b - - 0 1 c3");
    assert_dist(&g, &DEFAULT_DIST);
    assert_eq!(api::legal_actions(&g), vec![0, 1, 2, 3]);
    play(&mut g, "B");
    assert_eq!(g.node(), Node::Decision(1));
    assert_eq!(g.fen(), "2k2/ppppp/2B2/PP1PP/2K2 b - - 0 1");
    assert!(sans(&g).contains("bxc3"));
}

// ------------------------------------------------------------------ piece moves

#[test]
fn king_moves() {
    // The black knight on c3 covers b1, d1, a2, e2; the king on c1 may go
    // to b2, c2, d2 only (b2 and d2 are not covered: c3 knight hits a2, a4,
    // b1, b5, d1, d5, e2, e4).
    for (fen, m) in both("k4/5/2n2/5/2K2 w - - 0 1") {
        let g = game("fluky", &fen);
        assert_eq!(sans(&g), set(m, &["Kb2", "Kc2", "Kd2"]), "{fen}");
    }
    // No castling notion at all: a FEN with castling rights is rejected.
    assert!(Fluky::new("fluky", &opts(&[("fen", "k4/5/5/5/2K2 w K - 0 1")])).is_err());
}

#[test]
fn knight_moves() {
    for (fen, m) in both("4k/5/2N2/5/K4 w - - 0 1") {
        let g = game("fluky", &fen);
        assert_eq!(
            sans(&g),
            set(
                m,
                &["Na2", "Na4", "Nb1", "Nb5", "Nd1", "Nd5", "Ne2", "Ne4", "Ka2", "Kb1", "Kb2"]
            ),
            "{fen}"
        );
    }
}

#[test]
fn bishop_moves() {
    for (fen, m) in both("5/5/K1B1k/5/5 w - - 0 1") {
        let g = game("fluky", &fen);
        assert_eq!(
            sans(&g),
            set(
                m,
                &[
                    "Ba1", "Bb2", "Bd2+", "Be1", "Bb4", "Ba5", "Bd4+", "Be5", "Ka2", "Ka4", "Kb2",
                    "Kb3", "Kb4"
                ]
            ),
            "{fen}"
        );
    }
}

#[test]
fn rook_moves() {
    for (fen, m) in both("k4/5/2R2/5/4K w - - 0 1") {
        let g = game("fluky", &fen);
        assert_eq!(
            sans(&g),
            set(
                m,
                &["Rc4", "Rc5+", "Rc2", "Rc1", "Rb3", "Ra3+", "Rd3", "Re3", "Kd1", "Kd2", "Ke2"]
            ),
            "{fen}"
        );
    }
}

#[test]
fn pawn_moves_single_step_captures_promotion_back_rank() {
    // Pawn a1 stands on its own back rank and steps to a2; b2 steps or
    // takes c3; e4 promotes to N/B/R only, also by capture. No double steps.
    for (fen, m) in both("k2r1/4P/2p2/1P3/P3K w - - 0 1") {
        let g = game("fluky", &fen);
        assert_eq!(
            sans(&g),
            set(
                m,
                &[
                    "Ke2", "a2", "b3", "bxc3", "e5=N", "e5=B", "e5=R", "exd5=N", "exd5=B",
                    "exd5=R+"
                ]
            ),
            "{fen}"
        );
    }
}

// ------------------------------------------------------------------ the roll

#[test]
fn ordinary_die_move_is_rolled_and_face_changes() {
    for (fen, m) in both("k4/5/2R2/5/4K w - - 0 1") {
        let mirrored = m("1") != "1";
        let mut g = game("fluky", &fen);
        play(&mut g, &m("Rd3"));
        assert_eq!(g.node(), Node::Chance);
        assert!(g.fen().ends_with(&m(" d3")), "{}", g.fen());
        play(&mut g, "P");
        assert_eq!(g.node(), Node::Decision(1 - player(mirrored)));
        let sq = g.pending_roll();
        assert_eq!(sq, None);
        assert!(g.fen().starts_with(&mirror_if(mirrored, "k4/5/3P1/5/4K")));
    }
}

fn mirror_if(mirrored: bool, board: &str) -> String {
    if mirrored {
        mirror_fen(&format!("{board} w - - 0 1"))
            .split(' ')
            .next()
            .unwrap()
            .to_string()
    } else {
        board.to_string()
    }
}

#[test]
fn king_moves_are_never_rolled() {
    for (fen, m) in both("k4/5/2R2/5/4K w - - 0 1") {
        let mut g = game("fluky", &fen);
        play(&mut g, &m("Kd2"));
        assert!(matches!(g.node(), Node::Decision(_)));
    }
}

#[test]
fn skip_1_moved_piece_gives_check() {
    for v in ["fluky", "metamorph"] {
        for (fen, m) in both("k4/5/2R2/5/4K w - - 0 1") {
            let mut g = game(v, &fen);
            play(&mut g, &m("Ra3+"));
            assert!(matches!(g.node(), Node::Decision(_)), "{v} {fen}");
            assert!(g.position().is_check());
            // The die keeps its face.
            assert!(g
                .fen()
                .starts_with(&mirror_if(m("1") != "1", "k4/5/R4/5/4K")));
        }
    }
}

#[test]
fn skip_1_discovered_check_fluky_rolls_metamorph_does_not() {
    for (fen, m) in both("k4/5/N4/5/R3K w - - 0 1") {
        let mut g = game("fluky", &fen);
        assert!(sans(&g).contains(&m("Nc2+")));
        play(&mut g, &m("Nc2+"));
        assert_eq!(
            g.node(),
            Node::Chance,
            "fluky rolls after a discovered check"
        );
        let mut g = game("metamorph", &fen);
        play(&mut g, &m("Nc2+"));
        assert!(
            matches!(g.node(), Node::Decision(_)),
            "metamorph skips the roll after a discovered check"
        );
        // The option switches the rule in either variant.
        let mut g = Fluky::new(
            "fluky",
            &opts(&[("fen", &fen), ("roll_skip_on_check", "any")]),
        )
        .unwrap();
        play(&mut g, &m("Nc2+"));
        assert!(matches!(g.node(), Node::Decision(_)));
        let mut g = Fluky::new(
            "metamorph",
            &opts(&[("fen", &fen), ("roll_skip_on_check", "moved_piece")]),
        )
        .unwrap();
        play(&mut g, &m("Nc2+"));
        assert_eq!(g.node(), Node::Chance);
    }
}

#[test]
fn skip_2_die_reaching_last_rank_keeps_face() {
    for v in ["fluky", "metamorph"] {
        for (fen, m) in both("4k/5/2N2/5/K4 w - - 0 1") {
            let mirrored = m("1") != "1";
            let mut g = game(v, &fen);
            play(&mut g, &m("Nd5"));
            assert_eq!(g.node(), Node::Decision(1 - player(mirrored)));
            assert!(g.fen().starts_with(&mirror_if(mirrored, "3Nk/5/5/5/K4")));
            // Moving to the first rank is rolled.
            let mut g = game(v, &fen);
            play(&mut g, &m("Nd1"));
            assert_eq!(g.node(), Node::Chance);
        }
    }
}

#[test]
fn skip_3_promotion_is_chosen_not_rolled() {
    for (fen, m) in both("k2r1/4P/2p2/1P3/P3K w - - 0 1") {
        let mirrored = m("1") != "1";
        for (mv, board) in [
            ("e5=N", "k2rN/5/2p2/1P3/P3K"),
            ("e5=B", "k2rB/5/2p2/1P3/P3K"),
            ("exd5=R+", "k2R1/5/2p2/1P3/P3K"),
        ] {
            let mut g = game("fluky", &fen);
            play(&mut g, &m(mv));
            assert_eq!(g.node(), Node::Decision(1 - player(mirrored)), "{mv}");
            assert!(
                g.fen().starts_with(&mirror_if(mirrored, board)),
                "{}",
                g.fen()
            );
        }
        // A pawn step that is not a promotion is rolled.
        let mut g = game("fluky", &fen);
        play(&mut g, &m("b3"));
        assert_eq!(g.node(), Node::Chance);
    }
}

#[test]
fn roll_that_gives_check_must_be_answered() {
    for (fen, m) in both("k4/5/2R2/5/4K w - - 0 1") {
        let mirrored = m("1") != "1";
        let mut g = game("fluky", &fen);
        play(&mut g, &m("Rb3"));
        assert_eq!(g.node(), Node::Chance);
        play(&mut g, "N");
        assert_eq!(g.node(), Node::Decision(1 - player(mirrored)));
        assert!(g.position().is_check());
        assert_eq!(sans(&g), set(m, &["Ka4", "Kb4", "Kb5"]));
    }
}

#[test]
fn roll_that_mates_and_roll_that_stalemates() {
    for (fen, m) in both("k4/4R/3B1/1P3/4K w - - 0 1") {
        let mirrored = m("1") != "1";
        let mut g = game("fluky", &fen);
        assert!(
            sans(&g).contains(&m("b3")),
            "no check suffix: a roll follows"
        );
        play(&mut g, &m("b3"));
        let at_chance = g.clone();
        play(&mut g, "N");
        assert_eq!(g.node(), Node::Terminal);
        assert_eq!(g.termination(), Some(Termination::Checkmate));
        assert_eq!(g.winner(), Some(player(mirrored)));
        assert_eq!(
            api::returns(&g),
            if mirrored { [-1.0, 1.0] } else { [1.0, -1.0] }
        );
        for face in ["P", "B", "R"] {
            let mut g = at_chance.clone();
            play(&mut g, face);
            assert_eq!(g.termination(), Some(Termination::Stalemate), "{face}");
            assert_eq!(g.winner(), None);
        }
    }
}

#[test]
fn san_mate_suffix_only_without_roll() {
    // Moved-piece mate: no roll, `#` in both variants.
    for v in ["fluky", "metamorph"] {
        for (fen, m) in both("k4/4R/3B1/3N1/4K w - - 0 1") {
            let mirrored = m("1") != "1";
            let mut g = game(v, &fen);
            let s = sans(&g);
            assert!(s.contains(&m("Nb3#")), "{s:?}");
            assert!(s.contains(&m("Nc4+")), "{s:?}");
            play(&mut g, &m("Nb3#"));
            assert_eq!(g.termination(), Some(Termination::Checkmate));
            assert_eq!(g.winner(), Some(player(mirrored)));
        }
    }
    // Discovered mate: Fluky rolls, so `+`; the roll decides.
    for (fen, m) in both("k4/5/N2B1/5/R3K w - - 0 1") {
        let mirrored = m("1") != "1";
        let mut g = game("fluky", &fen);
        assert!(sans(&g).contains(&m("Nc2+")));
        assert!(sans(&g).contains(&m("Nc4+")));
        play(&mut g, &m("Nc2+"));
        let chance = g.clone();
        play(&mut g, "N");
        assert_eq!(g.termination(), Some(Termination::Checkmate));
        assert_eq!(g.winner(), Some(player(mirrored)));
        let mut g = chance.clone();
        play(&mut g, "P");
        assert_eq!(sans(&g), set(m, &["Kb4"]));
        // Metamorph: no roll, so `#` and mate at once.
        let mut g = game("metamorph", &fen);
        assert!(sans(&g).contains(&m("Nc2#")));
        play(&mut g, &m("Nc2#"));
        assert_eq!(g.termination(), Some(Termination::Checkmate));
    }
}

// ------------------------------------------------------------------ endings

#[test]
fn king_reaching_enemy_start_square_wins_at_once() {
    for (fen, m) in both("5/1K3/5/4k/5 w - - 0 1") {
        let mirrored = m("1") != "1";
        let mut g = game("fluky", &fen);
        assert!(sans(&g).contains(&m("Kc5")));
        play(&mut g, &m("Kc5"));
        assert_eq!(g.node(), Node::Terminal);
        assert_eq!(g.termination(), Some(Termination::KingReachedStart));
        assert_eq!(g.winner(), Some(player(mirrored)));
    }
    // Only when the square is not attacked (the knight on a4 covers c5).
    for (fen, m) in both("5/nK3/5/4k/5 w - - 0 1") {
        let g = game("fluky", &fen);
        assert!(!sans(&g).contains(&m("Kc5")));
        assert!(sans(&g).contains(&m("Kxa4")));
    }
    // Another square is not a goal.
    for (fen, m) in both("5/1K3/5/4k/5 w - - 0 1") {
        let mut g = game("fluky", &fen);
        play(&mut g, &m("Kb5"));
        assert!(matches!(g.node(), Node::Decision(_)));
    }
    // Custom goals.
    for (fen, m) in both("5/1K3/5/4k/5 w - - 0 1") {
        let mirrored = m("1") != "1";
        let o = opts(&[
            ("fen", &fen),
            ("goal_white", if mirrored { "c5" } else { "a5" }),
            ("goal_black", if mirrored { "a1" } else { "c1" }),
        ]);
        let mut g = Fluky::new("fluky", &o).unwrap();
        play(&mut g, &m("Kc5"));
        assert!(matches!(g.node(), Node::Decision(_)));
        let mut g = Fluky::new("fluky", &o).unwrap();
        play(&mut g, &m("Ka5"));
        assert_eq!(g.termination(), Some(Termination::KingReachedStart));
    }
}

#[test]
fn stalemate_by_a_move() {
    for (fen, m) in both("k4/4R/3B1/1P3/4K w - - 0 1") {
        let mut g = game("fluky", &fen);
        play(&mut g, &m("Kd1"));
        assert_eq!(g.termination(), Some(Termination::Stalemate));
        assert_eq!(api::returns(&g), [0.0, 0.0]);
    }
}

#[test]
fn threefold_repetition_counts_faces() {
    for (fen, m) in both("4k/5/5/5/KR3 w - - 0 1") {
        // Same faces: the start position recurs a third time.
        let mut g = game("fluky", &fen);
        for _ in 0..2 {
            assert_eq!(g.termination(), None);
            play(&mut g, &m("Rb2"));
            play(&mut g, "R");
            play(&mut g, &m("Ke4"));
            play(&mut g, &m("Rb1"));
            play(&mut g, "R");
            play(&mut g, &m("Ke5"));
        }
        assert_eq!(g.termination(), Some(Termination::ThreefoldRepetition));
        // The die showing another face breaks the repetition.
        let mut g = game("fluky", &fen);
        for face in ["R", "N"] {
            play(&mut g, &m("Rb2"));
            play(&mut g, "R");
            play(&mut g, &m("Ke4"));
            play(&mut g, &m("Rb1"));
            play(&mut g, face);
            play(&mut g, &m("Ke5"));
            if face == "N" {
                break;
            }
        }
        assert_eq!(g.termination(), None);
        assert_eq!(g.repetitions(), 0);
    }
}

#[test]
fn max_plies_counts_decisions() {
    let mut g = Fluky::new("fluky", &opts(&[])).unwrap();
    let mut o = Options::new();
    o.insert("max_plies".into(), 2.into());
    let mut h = Fluky::new("metamorph", &o).unwrap();
    play(&mut g, "a3");
    play(&mut h, "a3");
    assert_eq!(
        h.node(),
        Node::Chance,
        "the roll of the last move still happens"
    );
    play(&mut h, "P");
    play(&mut h, "e3");
    assert_eq!(h.node(), Node::Chance);
    play(&mut h, "P");
    assert_eq!(h.termination(), Some(Termination::MaxPlies));
    assert_eq!(h.winner(), None);
    assert_eq!(g.plies(), 1);
}

// ------------------------------------------------------------------ options

#[test]
fn die_faces_option_changes_the_distribution() {
    let mk = |faces: &str| {
        let mut g = Fluky::new(
            "fluky",
            &opts(&[("fen", "k4/5/2R2/5/4K w - - 0 1"), ("die_faces", faces)]),
        )
        .unwrap();
        play(&mut g, "Rd3");
        g
    };
    assert_dist(&mk("PPPNBR"), &DEFAULT_DIST);
    assert_dist(
        &mk("NBR"),
        &[("N", 1.0 / 3.0), ("B", 1.0 / 3.0), ("R", 1.0 / 3.0)],
    );
    let g = mk("PPPPPR");
    assert_dist(&g, &[("P", 5.0 / 6.0), ("R", 1.0 / 6.0)]);
    assert_eq!(api::legal_actions(&g), vec![0, 3]);
    assert_dist(&mk("RPRP"), &[("P", 0.5), ("R", 0.5)]);
    for bad in ["", "PPQ", "K", "pnbr"] {
        let e = Fluky::new("fluky", &opts(&[("die_faces", bad)]));
        assert!(e.is_err(), "{bad:?}");
    }
}

#[test]
fn options_are_complete_and_recreate_the_game() {
    let g = Fluky::new("metamorph", &Options::new()).unwrap();
    let o = g.options();
    for k in [
        "fen",
        "max_plies",
        "roll_skip_on_check",
        "die_faces",
        "goal_white",
        "goal_black",
    ] {
        assert!(o.contains_key(k), "{k}");
    }
    assert_eq!(o["roll_skip_on_check"], "any");
    assert_eq!(o["max_plies"], 400);
    let h = Fluky::new("metamorph", &o).unwrap();
    assert_eq!(h.fen(), g.fen());
    assert_eq!(
        Fluky::new("fluky", &Options::new()).unwrap().options()["roll_skip_on_check"],
        "moved_piece"
    );
    assert!(Fluky::new("fluky", &opts(&[("colour", "x")])).is_err());
    assert!(Fluky::new("fluky", &opts(&[("roll_skip_on_check", "never")])).is_err());
    assert!(Fluky::new("fluky", &opts(&[("goal_white", "f6")])).is_err());
}

// ------------------------------------------------------------------ FEN

#[test]
fn fen_round_trips_at_chance_nodes() {
    let mut g = Fluky::new("fluky", &Options::new()).unwrap();
    play(&mut g, "b3");
    let fen = g.fen();
    assert_eq!(fen, "2k2/ppppp/1P3/P1PPP/2K2 b - - 0 1 b3");
    let h = game("fluky", &fen);
    assert_eq!(h.node(), Node::Chance);
    assert_eq!(h.fen(), fen);
    assert_eq!(h.pending_roll(), g.pending_roll());
    // Bad pending squares.
    for bad in [
        "2k2/ppppp/1P3/P1PPP/2K2 b - - 0 1 c4", // a black die
        "2k2/ppppp/1P3/P1PPP/2K2 b - - 0 1 c3", // empty
        "2k2/ppppp/1P3/P1PPP/2K2 b - - 0 1 c1", // the king
        "2k2/ppppp/1P3/P1PPP/2K2 b - - 0 1 z9",
        "2k2/ppppp/1P3/P1PPP/2K2 b - - 0 1 b3 b3",
    ] {
        assert!(
            Fluky::new("fluky", &opts(&[("fen", bad)])).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn bad_fens_are_rejected_with_clear_messages() {
    let err = |fen: &str| {
        Fluky::new("fluky", &opts(&[("fen", fen)]))
            .err()
            .unwrap_or_else(|| panic!("{fen} accepted"))
            .0
    };
    assert!(err("2k2/ppppp/5/PPQPP/2K2 w - - 0 1").contains("queen"));
    assert!(err("k7/8/8/8/8/8/8/7K w - - 0 1").contains("ranks"));
    assert!(err("2k2/ppppp/5/PPPPPP/2K2 w - - 0 1").contains("files"));
    assert!(err("2kP1/pppp1/5/PPPP1/2K2 w - - 0 1").contains("pawn"));
    assert!(err("2k2/ppppp/5/PPPPP/5 w - - 0 1").contains("king"));
    assert!(err("2k2/ppppp/5/PPPPP/2K2 w - c3 0 1").contains("en passant"));
}

#[test]
fn bad_actions_leave_the_state_unchanged() {
    let mut g = Fluky::new("fluky", &opts(&[("fen", "k4/4P/5/5/4K w - - 0 1")])).unwrap();
    let before = g.fen();
    assert!(api::string_to_action(&g, "e5=Q").is_err());
    assert!(api::string_to_action(&g, "e5=K").is_err());
    assert!(api::string_to_action(&g, "N").is_err());
    assert_eq!(g.fen(), before);
    let mut g2 = Fluky::new("fluky", &Options::new()).unwrap();
    play(&mut g2, "a3");
    let before = g2.fen();
    assert!(
        api::string_to_action(&g2, "b3").is_err(),
        "a move at a chance node"
    );
    assert!(api::string_to_action(&g2, "Q").is_err());
    assert!(api::string_to_action(&g2, "X").is_err());
    assert!(api::apply_action(&mut g2, 4).is_err());
    assert!(api::apply_action(&mut g2, 100).is_err());
    assert_eq!(g2.fen(), before);
    assert!(api::apply_action(&mut g, 5000).is_err());
}

#[test]
fn describe_state_and_pretty_show_faces_and_roll() {
    let mut g = Fluky::new("fluky", &Options::new()).unwrap();
    play(&mut g, "d3");
    let s = api::pretty(&g);
    assert!(s.contains("roll pending"), "{s}");
    assert!(s.contains("d3"), "{s}");
    assert!(s.contains("chance node"), "{s}");
    play(&mut g, "R");
    let s = api::pretty(&g);
    assert!(s.contains(" R "), "{s}");
    assert_eq!(
        api::observation_planes(&g).len(),
        api::observation_shape(&g)[0]
    );
}

// ------------------------------------------------------------------ random games

/// Plays random games, checking invariants at every node and the repetition
/// count against an independent list of keys.
fn random_games(n: u64, seed: u64) {
    let configs: [(&str, &[(&str, &str)]); 4] = [
        ("fluky", &[]),
        ("metamorph", &[]),
        ("fluky", &[("die_faces", "NBR")]),
        ("metamorph", &[("die_faces", "PPPPPR")]),
    ];
    let mut moves = dicechess::board::MoveList::new();
    let mut outs = Outcomes::new();
    let mut reasons = std::collections::HashMap::new();
    for i in 0..n {
        let (v, o) = configs[(i % 4) as usize];
        let mut g = Fluky::new(v, &opts(o)).unwrap();
        let mut rng = game_rng(seed, i);
        let mut keys = vec![g.position().repetition_key()];
        let mut pieces = g.position().occupied().count();
        loop {
            g.check_invariants()
                .unwrap_or_else(|e| panic!("game {i}: {e}: {}", g.fen()));
            let recorded = match g.node() {
                Node::Terminal => {
                    let t = g.termination().expect("a terminal state has a reason");
                    *reasons.entry(t).or_insert(0u64) += 1;
                    break;
                }
                Node::Chance => {
                    let a = sample_outcome(&g, &mut rng, &mut outs);
                    g.apply_outcome(a);
                    true
                }
                Node::Decision(_) => {
                    let m = random_move(&g, &mut rng, &mut moves);
                    g.play(m);
                    g.node() != Node::Chance
                }
            };
            if recorded && g.termination() != Some(Termination::KingReachedStart) {
                let n = g.position().occupied().count();
                if n < pieces {
                    keys.clear();
                    pieces = n;
                }
                let k = g.position().repetition_key();
                keys.push(k);
                let count = keys.iter().filter(|&&x| x == k).count() as u32;
                assert_eq!(g.repetitions(), count - 1, "game {i}");
                let t = g.termination();
                if count >= 3 {
                    assert!(
                        matches!(
                            t,
                            Some(
                                Termination::Checkmate
                                    | Termination::Stalemate
                                    | Termination::ThreefoldRepetition
                            )
                        ),
                        "game {i}: {t:?}"
                    );
                } else {
                    assert_ne!(t, Some(Termination::ThreefoldRepetition), "game {i}");
                }
            }
        }
    }
    assert_eq!(reasons.values().sum::<u64>(), n);
    if n >= 2000 {
        for t in [
            Termination::Checkmate,
            Termination::KingReachedStart,
            Termination::Stalemate,
            Termination::ThreefoldRepetition,
        ] {
            assert!(
                reasons.contains_key(&t),
                "{t:?} never happened: {reasons:?}"
            );
        }
    }
}

#[test]
fn random_games_invariants_quick() {
    random_games(2000, 1);
}

#[test]
#[ignore = "slow: run with `make test-slow` (cargo test --release -- --ignored)"]
fn random_games_invariants_100k() {
    random_games(100_000, 2);
}
