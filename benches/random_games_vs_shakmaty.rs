//! Random orthodox-chess games, single thread, dicechess against a shakmaty
//! loop with the same draw rules (checkmate/stalemate, threefold repetition
//! with shakmaty's Zobrist keys, 50-move rule, insufficient material,
//! max_plies 1000), in one run, alternating, median of 7. Prints plies/s by
//! wall clock and by thread CPU time (the latter is robust to other
//! processes taking the core on a shared machine).
//!
//! Run with `cargo bench --bench random_games_vs_shakmaty` (`--quick`).
//! For profiling one side alone (e.g. under callgrind):
//! `--side dicechess|shakmaty --games N` plays N games once and prints plies.

use dicechess::sim::{game_rng, play_random_game};
use dicechess::variants::{chess::Chess, Options};
use rand::RngExt;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{EnPassantMode, Position};
use std::time::Instant;

/// One shakmaty random game; returns its plies. Moves are generated once per
/// ply (the empty list is checkmate/stalemate).
fn shakmaty_game(seed: u64, i: u64) -> u64 {
    let mut rng = game_rng(seed, i);
    let mut pos = shakmaty::Chess::default();
    let key = |p: &shakmaty::Chess| -> u64 {
        let z: Zobrist64 = p.zobrist_hash(EnPassantMode::Legal);
        z.0
    };
    let mut keys = vec![key(&pos)];
    let mut plies = 0u64;
    loop {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return plies;
        }
        let last = *keys.last().expect("recorded");
        if keys.iter().filter(|&&k| k == last).count() >= 3
            || pos.halfmoves() >= 100
            || pos.is_insufficient_material()
            || plies >= 1000
        {
            return plies;
        }
        let m = moves[rng.random_range(0..moves.len())];
        pos.play_unchecked(m);
        plies += 1;
        if pos.halfmoves() == 0 {
            keys.clear();
        }
        keys.push(key(&pos));
    }
}

#[path = "common/cpu_time.rs"]
mod cpu_time;
use cpu_time::thread_cpu_seconds;

/// Plies/s of `run` by wall time and by thread CPU time.
fn rates(run: impl FnOnce() -> u64) -> (f64, f64) {
    let (t, c) = (Instant::now(), thread_cpu_seconds());
    let plies = run() as f64;
    (
        plies / t.elapsed().as_secs_f64(),
        plies / (thread_cpu_seconds() - c),
    )
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn ours_game(proto: &Chess, seed: u64, i: u64) -> u64 {
    let mut g = proto.clone();
    let mut rng = game_rng(seed, i);
    play_random_game(&mut g, &mut rng).plies as u64
}

/// `--side S --games N`: one side only, no timing (for profilers).
fn profile_one_side(proto: &Chess) -> bool {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
    };
    let Some(side) = arg("--side") else {
        return false;
    };
    let games: u64 = arg("--games").map_or(100, |g| g.parse().expect("--games N"));
    let plies: u64 = match side.as_str() {
        "dicechess" => (0..games).map(|i| ours_game(proto, 0, i)).sum(),
        "shakmaty" => (0..games).map(|i| shakmaty_game(0, i)).sum(),
        _ => panic!("--side must be dicechess or shakmaty"),
    };
    println!("{side}: {games} games, {plies} plies");
    true
}

/// Alternating runs per side.
const REPS: u64 = 7;

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let games = if quick { 100 } else { 2000 };
    let proto = Chess::new(&Options::new()).expect("chess");
    if profile_one_side(&proto) {
        return;
    }
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for rep in 0..REPS {
        ours.push(rates(|| {
            (0..games).map(|i| ours_game(&proto, rep, i)).sum()
        }));
        theirs.push(rates(|| (0..games).map(|i| shakmaty_game(rep, i)).sum()));
    }
    let med = |v: &[(f64, f64)], cpu: bool| {
        median(v.iter().map(|r| if cpu { r.1 } else { r.0 }).collect())
    };
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let load = load.split_whitespace().next().unwrap_or("?").to_string();
    println!(
        "Random chess games, single thread, median of {REPS} alternating runs of {games} games \
         (load average {load})"
    );
    println!();
    println!("| timed by | dicechess plies/s | shakmaty loop plies/s | ratio |");
    println!("|---|---:|---:|---:|");
    for (name, cpu) in [("wall clock", false), ("thread CPU time", true)] {
        let (a, b) = (med(&ours, cpu), med(&theirs, cpu));
        println!("| {name} | {a:.0} | {b:.0} | {:.2} |", a / b);
    }
}
