//! Regression tests of what issue 72 (hardening, third round) left open:
//! PGN read a game at a time from any source (never the whole text), with
//! a bound on one game; an env's MCTS opponent bounded by construction.

use dicechess::agents::mcts::{tree_bytes, MAX_CHILDREN};
use dicechess::agents::AgentSpec;
use dicechess::record::pgn::{self, Reader, MAX_GAME_CHARS};
use dicechess::sim::episode::{episode_opponent, opponent_bytes, EPISODE_TREE_NODES};
use dicechess::sim::game_rng;
use dicechess::variants::{AnyGame, Options};
use dicechess::with_game;

/// An endless source: a reader that held the text, or read it whole
/// before the first game, would never return.
#[test]
fn pgn_games_stream_from_an_endless_source() {
    let mut r = Reader::new("* ".chars().cycle(), 1_000_000);
    for _ in 0..3 {
        let rec = r.next_record().unwrap().expect("a game");
        assert_eq!(rec.variant, "chess");
        assert!(rec.actions.is_empty());
    }
    // Games that follow the one returned are not read: the third is
    // illegal, and reading two is fine.
    let text = "1. e4 *\n1. d4 *\n1. e4 e5 2. Ke3 *\n";
    let mut r = Reader::new(text.chars(), 0);
    assert_eq!(r.next_record().unwrap().unwrap().actions.len(), 1);
    assert_eq!(r.next_record().unwrap().unwrap().actions.len(), 1);
    let e = r.next_record().unwrap_err();
    assert!(e.message.contains("Ke3"), "{e}");
    assert_eq!(r.next_record().unwrap(), None, "nothing after an error");
    // read_range is the reader's first games.
    assert_eq!(pgn::read_range(text, 1, Some(1)).unwrap().len(), 1);
}

/// One game is bounded: an endless comment, token or game is an error at
/// the bound (naming it), never an endless read into memory.
#[test]
fn one_pgn_game_is_bounded() {
    assert_eq!(MAX_GAME_CHARS, 1 << 26);
    let endless = [
        format!("{{{}", "x".repeat(30_000)),
        "x".repeat(30_000),
        format!("1. e4 {}", "{ a } ".repeat(3_000)),
    ];
    for text in &endless {
        let mut r = Reader::with_limit(text.chars().take(30_000), 0, 10_000);
        let e = r.next_record().unwrap_err();
        assert!(e.message.contains("longer than 10000 characters"), "{e}");
    }
    let mut r = Reader::with_limit("{".chars().chain(std::iter::repeat('x')), 0, 10_000);
    assert!(r.next_record().is_err());
    // The bound is per game: many games, each short, read on.
    let many = "1. e4 *\n".repeat(10_000);
    let mut r = Reader::with_limit(many.chars(), 0, 100);
    let mut n = 0;
    while r.next_record().unwrap().is_some() {
        n += 1;
    }
    assert_eq!(n, 10_000);
    // Games skipped count too: a skipped game longer than the bound is refused.
    let long = format!("{{{}}} * *", "x".repeat(500));
    assert!(Reader::with_limit(long.chars(), 1, 100)
        .next_record()
        .is_err());
}

/// An env's MCTS opponent never grows its tree beyond
/// EPISODE_TREE_NODES (plus one expansion), whatever its budget, so its
/// memory is within opponent_bytes, which the VecEnv check uses.
#[test]
fn an_episode_mcts_opponent_is_bounded_by_construction() {
    let spec = AgentSpec::parse("mcts:sims=12000").unwrap();
    let mut agent = episode_opponent(spec.clone());
    let g = AnyGame::new("chess", &Options::new()).unwrap();
    with_game!(&g, x => agent.select(x, &mut game_rng(0, 0)));
    assert_eq!(agent.simulations(), 12_000);
    let n = agent.tree_len();
    assert!(n <= EPISODE_TREE_NODES + MAX_CHILDREN, "{n} nodes");
    assert!(n >= EPISODE_TREE_NODES, "the cap was reached: {n} nodes");
    // The bound the VecEnv's memory check uses covers the tree.
    let bytes = opponent_bytes(&spec);
    assert!(bytes >= tree_bytes(EPISODE_TREE_NODES));
    assert!(bytes < 4 << 20, "{bytes} bytes an env");
    // A plain agent (playouts, arenas) keeps the global cap: more nodes.
    let mut free = dicechess::agents::Agent::new(spec);
    with_game!(&g, x => free.select(x, &mut game_rng(0, 0)));
    assert!(free.tree_len() > 2 * (EPISODE_TREE_NODES + MAX_CHILDREN));
}
