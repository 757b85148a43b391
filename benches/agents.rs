//! Agent speed per variant: expectimax nodes/s and MCTS simulations/s on
//! positions after 10 and 30 random decisions, printed as a table
//! (`cargo bench --bench agents`).

use dicechess::agents::{Agent, AgentSpec};
use dicechess::sim::{game_rng, play_random_decisions};
use dicechess::variants::{AnyGame, Game, Node, Options, VARIANTS};
use dicechess::with_game;
use std::time::Instant;

fn position(variant: &str, seed: u64, plies: u32) -> AnyGame {
    let mut g = AnyGame::new(variant, &Options::new()).unwrap();
    let mut rng = game_rng(seed, 0);
    with_game!(&mut g, x => { play_random_decisions(x, &mut rng, plies); });
    g
}

fn main() {
    let exp = AgentSpec::parse("expectimax:depth=2").unwrap();
    let mcts = AgentSpec::parse("mcts:sims=200").unwrap();
    println!("| variant | expectimax:depth=2 nodes/s | mcts:sims=200 simulations/s |");
    println!("|---|---:|---:|");
    for v in VARIANTS {
        let positions: Vec<AnyGame> = (0..6).map(|i| position(v, i, 10 + 4 * i as u32)).collect();
        let mut a = Agent::new(exp.clone());
        let mut rng = game_rng(1, 1);
        let t = Instant::now();
        for p in &positions {
            with_game!(p, x => { if matches!(x.node(), Node::Decision(_)) { a.select(x, &mut rng); } });
        }
        let nps = a.nodes() as f64 / t.elapsed().as_secs_f64();
        let mut b = Agent::new(mcts.clone());
        let t = Instant::now();
        for p in &positions {
            with_game!(p, x => { if matches!(x.node(), Node::Decision(_)) { b.select(x, &mut rng); } });
        }
        let sps = b.simulations() as f64 / t.elapsed().as_secs_f64();
        println!("| {v} | {nps:.0} | {sps:.0} |");
    }
}
