//! Regression tests of issue 19 (hardening): games always end, long loops
//! stop when interrupted, outcome lists cannot overflow, saved states are
//! replayed.

use dicechess::interrupt::{self, Token};
use dicechess::sim::{game_rng, play_random_game};
use dicechess::variants::{
    api, vegas::Vegas, AnyGame, Game, Node, Options, Termination, MAX_OUTCOMES, VARIANTS,
};
use dicechess::with_game;

fn opts(pairs: &[(&str, serde_json::Value)]) -> Options {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

/// Dice no piece can use from the start (only kings, boxed in): every turn
/// is a forced pass. The game ends, truncated, after `max_plies` of them.
#[test]
fn vegas_with_dice_nobody_can_use_ends_truncated() {
    for max_plies in [1u32, 7, 1000] {
        let o = opts(&[
            ("die_a", "K".into()),
            ("die_b", "K".into()),
            ("max_plies", max_plies.into()),
        ]);
        let mut g = Vegas::new(&o).unwrap();
        let s = play_random_game(&mut g, &mut game_rng(1, 0));
        assert_eq!(g.termination(), Some(Termination::MaxPlies));
        assert_eq!((s.plies, s.chance_events), (0, max_plies));
        assert!(api::returns(&g) == [0.0, 0.0]);
    }
}

/// A decision resets the count of turns without one: with the default dice
/// forced passes happen, and games still run to their usual ends.
#[test]
fn forced_passes_in_a_row_only_count_between_decisions() {
    let o = opts(&[("max_plies", 3.into())]);
    let mut g = Vegas::new(&o).unwrap();
    // "KQ" for both sides: no king or queen can move at the start, so two
    // forced passes in a row.
    g.apply_outcome(5 * 7 + 4);
    g.apply_outcome(5 * 7 + 4);
    assert_eq!(g.node(), Node::Chance);
    assert_eq!(g.progress().idle_turns, 2);
    g.apply_outcome(7 + 1); // "NN": White's knights can move
    assert!(matches!(g.node(), Node::Decision(0)));
    let a = api::legal_actions(&g)[0];
    api::apply_action(&mut g, a).unwrap();
    assert_eq!(g.progress().idle_turns, 0);
    assert_eq!(g.termination(), None);
}

/// Every variant's chance outcome ids fit an `Outcomes` list.
#[test]
fn every_variant_fits_the_outcome_list() {
    for v in VARIANTS {
        let g = AnyGame::new(v, &Options::new()).unwrap();
        let n = with_game!(&g, x => x.max_chance_outcomes());
        assert!(n <= MAX_OUTCOMES, "{v}: {n} outcome ids > {MAX_OUTCOMES}");
    }
}

/// With the interrupt token cancelled, perft, searches and playouts return
/// at once (the test would hang otherwise); without one nothing changes.
#[test]
fn long_loops_stop_when_interrupted() {
    let g = AnyGame::new("chess", &Options::new()).unwrap();
    let pos = with_game!(&g, x => x.position().clone());
    assert_eq!(dicechess::perft::perft(&pos, 3), 8902);
    let t = Token::new();
    t.cancel();
    interrupt::run(&t, None, || {
        assert_eq!(dicechess::perft::perft(&pos, 12), 0);
        let v = AnyGame::new("vegas", &Options::new()).unwrap();
        assert_eq!(with_game!(&v, x => api::game_perft(x, 40)), 0);
        let mut agent = dicechess::agents::Agent::new(
            dicechess::agents::AgentSpec::parse("expectimax:depth=8").unwrap(),
        );
        with_game!(&v, x => agent.value(x, Some(8)));
        // Interrupted before it starts: no game is played (issue 72).
        let recs = dicechess::sim::playouts::random_playouts(&g, 0, 0, 1 << 16, None);
        assert!(recs.is_empty());
    });
}

fn parse(fen: &str, text: &str) -> Result<String, String> {
    let o = opts(&[("fen", fen.into())]);
    let g = AnyGame::new("chess", &o).unwrap();
    with_game!(&g, x => api::string_to_action(x, text).map(|a| api::action_to_string(x, a).unwrap()))
        .map_err(|e| e.0)
}

/// A lower-case letter is a file, never a piece; a move written with its two
/// squares wins over a loosely written SAN.
#[test]
fn coordinates_win_and_lower_case_letters_are_files() {
    let fen = "4k3/8/8/8/8/1QB5/8/2B1K3 w - - 0 1";
    assert_eq!(parse(fen, "b3b2").as_deref(), Ok("Qb2"));
    assert_eq!(parse(fen, "B3b2").as_deref(), Ok("B3b2"));
    assert_eq!(parse(fen, "c3-b2").as_deref(), Ok("B3b2"));
    // bxc3 is the pawn's capture, Bxc3 the bishop's.
    let fen = "4k3/8/8/8/8/2n5/1P1B4/4K3 w - - 0 1";
    assert_eq!(parse(fen, "bxc3").as_deref(), Ok("bxc3"));
    assert_eq!(parse(fen, "Bxc3").as_deref(), Ok("Bxc3"));
    assert_eq!(parse(fen, "b2c3").as_deref(), Ok("bxc3"));
}

/// An MCTS tree stops growing at its node budget (memory stays bounded
/// whatever `sims`); the search still returns visit counts for every move.
#[test]
fn mcts_trees_stop_growing_at_their_budget() {
    use dicechess::agents::mcts::{Params, Tree};
    use dicechess::agents::Rollout;
    let g = AnyGame::new("chess", &Options::new()).unwrap();
    let params = Params {
        rollout: Rollout::Random,
        rollout_plies: 4,
        ..Params::with_sims(3000)
    };
    let mut tree = Tree::with_max_nodes(300);
    let visits = with_game!(&g, x => tree.search(x, &params, &mut game_rng(0, 0)));
    assert_eq!(visits.len(), 20);
    assert_eq!(visits.iter().map(|v| v.1).sum::<u32>(), 3000);
    assert!(tree.len() <= 300 + 218, "{} nodes", tree.len());
    let mut free = Tree::new();
    with_game!(&g, x => free.search(x, &params, &mut game_rng(0, 0)));
    assert!(
        free.len() > 2 * (300 + 218),
        "{} nodes without a budget",
        free.len()
    );
}
