//! Quick Rust-side probes of the `search` agent (no Python build needed):
//!
//! `cargo run --release --example search_match -- nodes VARIANT SPEC [POSITIONS]`
//! prints nodes per completed depth on random positions;
//! `cargo run --release --example search_match -- cost VARIANT SPEC [POSITIONS]`
//! prints what one decision of any agent costs on random positions (nodes
//! of `expectimax`/`greedy`, simulations and evaluated states of `mcts`);
//! `cargo run --release --example search_match -- trees SPEC` prints what
//! the search found (move, value, depth, nodes, principal variation) on
//! six random positions of every variant: two builds whose outputs are
//! byte-identical searched the same trees (for speed work);
//! `cargo run --release --example search_match -- match VARIANT SPEC_A SPEC_B GAMES SEED`
//! plays `GAMES` games with colours alternated and prints A's score
//! (each game's points for A and how it ended on stderr).

use dicechess::agents::search::SearchResult;
use dicechess::agents::{play_game, Agent, AgentSpec};
use dicechess::sim::{game_rng, play_random_decisions};
use dicechess::variants::{AnyGame, Game, Node, Options, VARIANTS};
use dicechess::with_game;

fn position(variant: &str, seed: u64, plies: u32) -> AnyGame {
    let mut g = AnyGame::new(variant, &Options::new()).unwrap();
    let mut rng = game_rng(seed, 0);
    with_game!(&mut g, x => { play_random_decisions(x, &mut rng, plies); });
    g
}

/// What the search agent `spec` finds on random position `i` of `variant`
/// (after `10 + 4 * i` random decisions), if that is a decision.
fn search_position(variant: &str, spec: &str, i: u64) -> Option<SearchResult> {
    let g = position(variant, i, 10 + 4 * i as u32);
    let mut a = Agent::new(AgentSpec::parse(spec).unwrap());
    with_game!(&g, x => {
        if !matches!(x.node(), Node::Decision(_)) {
            return None;
        }
        Some(a.search_info(x, &mut game_rng(i, 0), (None, None, None), None, None).unwrap())
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args[0].as_str() {
        "nodes" => {
            let n: u64 = args.get(3).map_or(6, |s| s.parse().unwrap());
            for i in 0..n {
                let Some(r) = search_position(&args[1], &args[2], i) else {
                    continue;
                };
                println!(
                    "pos {i}: depth {} nodes {} value {:.0}",
                    r.depth, r.nodes, r.value
                );
            }
        }
        "cost" => {
            let n: u64 = args.get(3).map_or(20, |s| s.parse().unwrap());
            let mut costs = Vec::new();
            for i in 0..n {
                let g = position(&args[1], i, 10 + 3 * i as u32);
                let mut a = Agent::new(AgentSpec::parse(&args[2]).unwrap());
                let decided = with_game!(&g, x => {
                    if !matches!(x.node(), Node::Decision(_)) { continue; }
                    a.select(x, &mut game_rng(i, 0));
                    true
                });
                let cost = [a.nodes(), a.simulations(), a.evaluated()];
                // A lone legal move is played without a search.
                if decided && cost != [0; 3] {
                    costs.push(cost);
                }
            }
            for (i, name) in ["nodes", "simulations", "evaluated states"]
                .iter()
                .enumerate()
            {
                let mut v: Vec<u64> = costs.iter().map(|c| c[i]).collect();
                v.sort_unstable();
                if let (Some(lo), Some(hi)) = (v.first(), v.last()) {
                    println!(
                        "{}: {} positions, {name} per decision: median {}, min {lo}, max {hi}",
                        args[1],
                        v.len(),
                        v[v.len() / 2]
                    );
                }
            }
        }
        "match" => {
            let games: u64 = args[4].parse().unwrap();
            let seed: u64 = args[5].parse().unwrap();
            let mut points = 0.0;
            for i in 0..games {
                let a = Agent::new(AgentSpec::parse(&args[2]).unwrap());
                let b = Agent::new(AgentSpec::parse(&args[3]).unwrap());
                let a_first = i % 2 == 0;
                let mut agents = if a_first { [a, b] } else { [b, a] };
                let mut g = AnyGame::new(&args[1], &Options::new()).unwrap();
                let mut rng = game_rng(seed, i / 2);
                let (w, why) = with_game!(&mut g, x => {
                    play_game(x, &mut agents, &mut rng);
                    (x.winner(), x.termination())
                });
                let p = match w {
                    Some(p) => ((p == 0) == a_first) as u32 as f64,
                    None => 0.5,
                };
                points += p;
                eprintln!("game {i}: {p} {why:?} (total {points}/{})", i + 1);
            }
            println!("{} {} vs {}: {points}/{games}", args[1], args[2], args[3]);
        }
        "trees" => {
            for v in VARIANTS {
                for i in 0..6 {
                    let Some(r) = search_position(v, &args[1], i) else {
                        continue;
                    };
                    println!(
                        "{v} {i}: {:?} {:.4} depth {} nodes {} pv {:?}",
                        r.best, r.value, r.depth, r.nodes, r.pv
                    );
                }
            }
        }
        _ => panic!("mode: nodes | cost | trees | match"),
    }
}
