//! Gardner minichess (docs/rules.md §8): hand-checked positions for every clause and
//! random-game invariants. Perft against an independent generator is in
//! tests/rules/test_diff_gardner.py (tests/reference/gardner.py).

use dicechess::board::MoveList;
use dicechess::sim::{game_rng, random_move};
use dicechess::variants::{api, gardner::Gardner, Game, Node, Options, Termination};

fn game(fen: &str) -> Gardner {
    let mut o = Options::new();
    o.insert("fen".into(), fen.into());
    Gardner::new(&o).unwrap()
}

fn sans(g: &Gardner) -> Vec<String> {
    let mut v: Vec<String> = api::legal_actions(g)
        .into_iter()
        .map(|a| api::action_to_string(g, a).unwrap())
        .collect();
    v.sort();
    v
}

fn play(g: &mut Gardner, san: &str) {
    let a = api::string_to_action(g, san).unwrap();
    api::apply_action(g, a).unwrap();
}

#[test]
fn setup_and_first_moves() {
    let g = Gardner::new(&Options::new()).unwrap();
    assert_eq!(g.fen(), "rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1");
    assert_eq!(g.max_plies(), 400);
    // Five single pawn steps (no double step) and two knight moves.
    assert_eq!(sans(&g), ["Na3", "Nc3", "a3", "b3", "c3", "d3", "e3"]);
    assert_eq!(g.layout().num_actions(), 25 * 49);
}

#[test]
fn pawns_step_once_and_capture_diagonally_without_en_passant() {
    // A black pawn beside the white one: no en passant; one step only.
    let g = game("4k/5/5/2Pp1/K4 w - - 0 1");
    assert_eq!(sans(&g), ["Ka2", "Kb1", "Kb2", "c3"]);
    let g = game("4k/5/2p2/1P3/K4 w - - 0 1");
    assert!(sans(&g).contains(&"bxc3".to_string()));
    assert!(sans(&g).contains(&"b3".to_string()));
    assert!(!sans(&g).iter().any(|s| s == "b4"));
}

#[test]
fn promotion_to_queen_rook_bishop_or_knight() {
    let g = game("4k/P4/5/5/K4 w - - 0 1");
    let promos: Vec<String> = sans(&g)
        .into_iter()
        .filter(|s| s.starts_with("a5"))
        .collect();
    assert_eq!(promos, ["a5=B", "a5=N", "a5=Q+", "a5=R+"]);
    let mut g = game("4k/P4/5/5/K4 w - - 0 1");
    play(&mut g, "a5=Q");
    assert_eq!(g.fen(), "Q3k/5/5/5/K4 b - - 0 1");
    // Black promotes on rank 1.
    let g = game("k4/5/5/4p/K4 b - - 0 1");
    assert!(sans(&g).contains(&"e1=N".to_string()));
}

#[test]
fn no_castling() {
    let mut o = Options::new();
    o.insert("fen".into(), "rnbqk/ppppp/5/PPPPP/RNBQK w K - 0 1".into());
    assert!(Gardner::new(&o).is_err());
}

#[test]
fn checkmate_wins_and_stalemate_draws() {
    let mut g = game("k4/5/1K3/5/4R w - - 0 1");
    play(&mut g, "Re5#");
    assert_eq!(g.termination(), Some(Termination::Checkmate));
    assert_eq!(g.winner(), Some(0));
    assert_eq!(api::returns(&g), [1.0, -1.0]);
    let mut g = game("k4/5/2K2/5/1R3 w - - 0 1");
    play(&mut g, "Rb4");
    assert_eq!(g.termination(), Some(Termination::Stalemate));
    assert_eq!(g.winner(), None);
}

#[test]
fn threefold_repetition_draws_but_not_fifty_moves_or_material() {
    let mut g = game("k4/5/5/5/K4 w - - 0 1");
    // K v K is no draw by material here.
    assert_eq!(g.node(), Node::Decision(0));
    for _ in 0..2 {
        for m in ["Kb1", "Kb5", "Ka1", "Ka5"] {
            assert_eq!(g.termination(), None);
            play(&mut g, m);
        }
    }
    assert_eq!(g.termination(), Some(Termination::ThreefoldRepetition));
    // A halfmove clock far above 100 does not end the game.
    let g = game("k4/5/5/5/K1R2 w - - 150 90");
    assert_eq!(g.termination(), None);
}

#[test]
fn max_plies_truncates() {
    let mut o = Options::new();
    o.insert("max_plies".into(), 2.into());
    let mut g = Gardner::new(&o).unwrap();
    play(&mut g, "a3");
    play(&mut g, "b3");
    assert_eq!(g.termination(), Some(Termination::MaxPlies));
}

#[test]
fn random_games_keep_invariants_and_end() {
    for i in 0..200 {
        let mut g = Gardner::new(&Options::new()).unwrap();
        let mut rng = game_rng(7, i);
        let mut buf = MoveList::new();
        while g.node() != Node::Terminal {
            let mv = random_move(&g, &mut rng, &mut buf);
            g.play(mv);
            g.check_invariants().unwrap();
            let again = game(&g.fen());
            assert_eq!(again.fen(), g.fen());
        }
        assert!(g.plies() <= 400);
    }
}
