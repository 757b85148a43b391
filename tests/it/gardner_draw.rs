//! Gardner minichess is a draw with perfect play (Mhalla and Prost, 2013;
//! docs/rules.md §8): the search's value of the start position at growing
//! depth, and self-play of the search agent at growing node budgets. Slow
//! (minutes), so ignored by default; the table in docs/search-measurements.md comes from
//! `cargo test --release --test it gardner_draw -- --ignored --nocapture`.

use dicechess::agents::search::Engine;
use dicechess::agents::AgentSpec;
use dicechess::sim::game_rng;
use dicechess::sim::playouts::{playouts, DRAW, TRUNCATED};
use dicechess::variants::{gardner::Gardner, AnyGame, Game, Options};

/// Depths of the value trend; the last one is the one the test checks.
const DEPTHS: [u32; 6] = [2, 4, 6, 8, 10, 12];
/// How far from 0 (a draw) the deepest value may be, in centipawns: about a
/// third of a pawn, well below any material edge.
const DRAW_MARGIN_CP: f64 = 35.0;

fn search_spec() -> dicechess::agents::search::Params {
    let AgentSpec::Search(p) = AgentSpec::parse("search").unwrap() else {
        panic!("`search` is a search spec")
    };
    p
}

#[test]
#[ignore = "slow: deep searches of the Gardner start position"]
fn gardner_start_value_approaches_the_draw() {
    let g = Gardner::new(&Options::new()).unwrap();
    let mut engine = Engine::new(search_spec());
    println!("| depth | value (cp, White) | nodes | principal variation |");
    println!("|---:|---:|---:|---|");
    let mut last = f64::NAN;
    for depth in DEPTHS {
        let r = engine.search(&g, &mut game_rng(0, 0), (None, None, Some(depth)), None);
        assert!(
            !r.stopped && r.depth == depth,
            "depth {depth} not completed"
        );
        let pv: Vec<String> = {
            let mut line = g.clone();
            r.pv.iter()
                .map(|&m| {
                    let s = line.san(m);
                    line.play(m);
                    s
                })
                .collect()
        };
        println!(
            "| {depth} | {:+.0} | {} | {} |",
            r.value,
            r.nodes,
            pv.join(" ")
        );
        last = r.value;
    }
    assert!(
        last.abs() <= DRAW_MARGIN_CP,
        "the depth-{} value {last:+.0} cp is not within {DRAW_MARGIN_CP} cp of the draw",
        DEPTHS[DEPTHS.len() - 1]
    );
}

#[test]
#[ignore = "slow: self-play of the search agent on Gardner"]
fn gardner_self_play_draw_rate() {
    let proto = AnyGame::new("gardner", &Options::new()).unwrap();
    println!("| search budget | games | White wins | Black wins | draws | truncated | draw rate |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for nodes in [1_000, 10_000, 100_000] {
        let spec = AgentSpec::parse(&format!("search:nodes={nodes}")).unwrap();
        let games = 20;
        let recs = playouts(&proto, &[spec.clone(), spec], 7, 0, games, None);
        let count = |w: i8| recs.iter().filter(|r| r.winner == w).count();
        // Player 0 plays White in every game of `playouts`.
        let (white, black) = (count(0), count(1));
        let (draws, truncated) = (count(DRAW), count(TRUNCATED));
        assert_eq!(white + black + draws + truncated, games as usize);
        println!(
            "| nodes={nodes} | {games} | {white} | {black} | {draws} | {truncated} | {:.2} |",
            draws as f64 / games as f64
        );
    }
}
