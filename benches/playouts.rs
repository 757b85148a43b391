//! Random playouts per variant, single thread: games/s and plies/s.
//! Run with `make bench` (or `cargo bench --bench playouts`).

use dicechess::sim::{game_rng, play_random_game};
use dicechess::variants::{AnyGame, Options};
use dicechess::with_game;
use std::time::Instant;

fn bench_variant(name: &str, games: u64) {
    let proto = AnyGame::new(name, &Options::new()).expect("variant exists");
    let mut samples = Vec::new();
    for rep in 0..5 {
        let start = Instant::now();
        let (mut plies, mut chance) = (0u64, 0u64);
        for i in 0..games {
            let mut g = proto.clone();
            let mut rng = game_rng(rep, i);
            let s = with_game!(&mut g, x => play_random_game(x, &mut rng));
            plies += s.plies as u64;
            chance += s.chance_events as u64;
        }
        let t = start.elapsed().as_secs_f64();
        samples.push((
            games as f64 / t,
            plies as f64 / t,
            plies as f64 / games as f64,
            chance as f64 / games as f64,
        ));
    }
    samples.sort_by(|a, b| a.1.partial_cmp(&b.1).unwrap());
    let (gps, pps, ppg, cpg) = samples[samples.len() / 2];
    println!("| {name:<20} | {gps:>10.0} | {pps:>12.0} | {ppg:>8.1} | {cpg:>8.1} |");
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let games = if quick { 50 } else { 2000 };
    println!("Random playouts, single thread, median of 5 runs of {games} games");
    println!("| variant              |    games/s |      plies/s | plies/game | chance/game |");
    println!("|----------------------|------------|--------------|----------|----------|");
    for v in dicechess::variants::VARIANTS {
        bench_variant(v, games);
    }
}
