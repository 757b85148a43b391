//! Random playouts per variant, single thread: games/s and plies/s; thread
//! scaling of batched playouts (1 vs 2 threads, side by side); and VecEnv
//! steps/s with observations and masks.
//! Run with `make bench` (or `cargo bench --bench playouts`, `--quick`).
//! `--scaling-only [GAMES]` runs only the thread-scaling comparison;
//! `--variants-only` only the per-variant table;
//! `--only V1,V2 [GAMES]` only the playout rows of those variants.
//! `--vecenv-only N [--envs E] [--threads T]` runs N VecEnv steps of E
//! (default 256) chess envs on T threads (default 1, 0 = all) and nothing
//! else (for profilers such as callgrind).

use dicechess::sim::playouts::random_playouts;
use dicechess::sim::vecenv::{Buffers, VecEnv};
use dicechess::sim::{game_rng, play_random_game};
use dicechess::variants::{AnyGame, Options};
use dicechess::with_game;
use rand::RngExt;
use std::time::Instant;

#[path = "common/cpu_time.rs"]
mod cpu_time;
use cpu_time::thread_cpu_seconds;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// One row of the per-variant playout table (medians of 5 runs).
struct PlayoutRow {
    name: &'static str,
    games_per_s: f64,
    plies_per_s: f64,
    /// Plies per second of this thread's CPU time (robust to other
    /// processes on a shared machine, unlike the wall-clock rates).
    cpu_plies_per_s: f64,
    plies_per_game: f64,
    chance_per_game: f64,
}

fn bench_variant(name: &'static str, games: u64) -> PlayoutRow {
    let proto = AnyGame::new(name, &Options::new()).expect("variant exists");
    let (mut wall, mut cpu) = (Vec::new(), Vec::new());
    let (mut plies_per_game, mut chance_per_game) = (0.0, 0.0);
    for rep in 0..5 {
        let (start, cpu0) = (Instant::now(), thread_cpu_seconds());
        let (mut plies, mut chance) = (0u64, 0u64);
        for i in 0..games {
            let mut g = proto.clone();
            let mut rng = game_rng(rep, i);
            let s = with_game!(&mut g, x => play_random_game(x, &mut rng));
            plies += s.plies as u64;
            chance += s.chance_events as u64;
        }
        let (t, c) = (start.elapsed().as_secs_f64(), thread_cpu_seconds() - cpu0);
        wall.push(plies as f64 / t);
        cpu.push(plies as f64 / c);
        plies_per_game += plies as f64 / games as f64 / 5.0;
        chance_per_game += chance as f64 / games as f64 / 5.0;
    }
    let plies_per_s = median(wall);
    PlayoutRow {
        name,
        games_per_s: plies_per_s / plies_per_game,
        plies_per_s,
        cpu_plies_per_s: median(cpu),
        plies_per_game,
        chance_per_game,
    }
}

/// Plays chess games `start .. start + count` of run `seed` one after the
/// other on this thread; returns the seconds taken.
fn solo_games(seed: u64, start: u64, count: u64) -> f64 {
    let proto = AnyGame::new("chess", &Options::new()).expect("chess");
    let t = Instant::now();
    for i in start..start + count {
        let mut g = proto.clone();
        let mut rng = game_rng(seed, i);
        with_game!(&mut g, x => play_random_game(x, &mut rng));
    }
    t.elapsed().as_secs_f64()
}

/// Runs `solo_games` in child processes of this benchmark, all at once, and
/// returns the longest child's own timing (process start-up not counted).
fn solo_processes(seed: u64, parts: &[(u64, u64)]) -> f64 {
    let exe = std::env::current_exe().expect("benchmark path");
    let children: Vec<_> = parts
        .iter()
        .map(|(start, count)| {
            std::process::Command::new(&exe)
                .args(["--solo", &seed.to_string(), &start.to_string()])
                .arg(count.to_string())
                .stdout(std::process::Stdio::piped())
                .spawn()
                .expect("spawn benchmark child")
        })
        .collect();
    children
        .into_iter()
        .map(|c| {
            let out = c.wait_with_output().expect("benchmark child");
            assert!(out.status.success(), "benchmark child failed");
            let text = String::from_utf8(out.stdout).expect("utf-8");
            text.trim()
                .parse::<f64>()
                .expect("child prints its seconds")
        })
        .fold(0.0, f64::max)
}

/// Thread scaling of batched chess playouts, next to this machine's own
/// ceiling for the same work: per round, `random_playouts` on 1 and on 2
/// threads, then one child process playing all the games alone and two
/// child processes playing half each at the same time. Two independent
/// processes share nothing but the hardware, so their ratio is what a second
/// core is worth here; medians of `reps` rounds.
fn thread_scaling(games: u64, reps: u64) {
    let proto = AnyGame::new("chess", &Options::new()).expect("chess");
    let (mut one, mut two, mut solo, mut pair) = (vec![], vec![], vec![], vec![]);
    for rep in 0..reps {
        for (threads, out) in [(1, &mut one), (2, &mut two)] {
            let t = Instant::now();
            let r = random_playouts(&proto, rep, 0, games, Some(threads));
            assert_eq!(r.len() as u64, games);
            out.push(games as f64 / t.elapsed().as_secs_f64());
        }
        solo.push(games as f64 / solo_processes(rep, &[(0, games)]));
        let half = games / 2;
        pair.push(games as f64 / solo_processes(rep, &[(0, half), (half, games - half)]));
    }
    let ratios = |a: &[f64], b: &[f64]| median(a.iter().zip(b).map(|(x, y)| y / x).collect());
    let (r_threads, r_procs) = (ratios(&one, &two), ratios(&solo, &pair));
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let load = load.split_whitespace().next().unwrap_or("?");
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    println!();
    println!(
        "Chess playouts, 1 vs 2 threads and 1 vs 2 independent processes, {reps} alternating \
         rounds of {games} games (load average {load} on {cores} cores); ratio = median of \
         the rounds' ratios"
    );
    println!();
    println!("| run | alone games/s | two at once games/s | ratio |");
    println!("|---|---:|---:|---:|");
    let (a, b) = (median(one), median(two));
    println!("| dicechess, 1 vs 2 threads | {a:.0} | {b:.0} | {r_threads:.2} |");
    let (a, b) = (median(solo), median(pair));
    println!("| 1 vs 2 single-threaded processes (ceiling) | {a:.0} | {b:.0} | {r_procs:.2} |");
    println!();
    println!(
        "2 threads reach {:.0}% of what two independent processes reach",
        100.0 * r_threads / r_procs
    );
}

/// VecEnv of `n` chess envs, one thread, random legal actions picked from
/// the mask: steps/s of `step` alone (observation and mask writing
/// included) and of the whole loop with the picking.
fn vecenv_rate(n: usize, steps: usize, threads: Option<usize>) -> (f64, f64) {
    let proto = AnyGame::new("chess", &Options::new()).expect("chess");
    let mut env = VecEnv::new(proto, n, 1, None, threads).expect("vecenv");
    let (ol, na) = (env.obs_len(), env.num_actions());
    let mut obs = vec![0f32; n * ol];
    let mut mask = vec![false; n * na];
    let mut rewards = vec![0f32; n * env.reward_width()];
    let (mut term, mut trunc, mut player) = (vec![false; n], vec![false; n], vec![0i8; n]);
    let mut termination = vec![0i8; n];
    macro_rules! bufs {
        () => {
            Buffers {
                obs: &mut obs,
                mask: &mut mask,
                rewards: &mut rewards,
                terminated: &mut term,
                truncated: &mut trunc,
                player: &mut player,
                termination: &mut termination,
                final_obs: &mut [],
            }
        };
    }
    env.reset(None, bufs!()).expect("reset");
    let mut rng = game_rng(9, 0);
    let mut actions = vec![0i64; n];
    let mut legal = Vec::with_capacity(256);
    let mut in_step = 0.0;
    let t = Instant::now();
    for _ in 0..steps {
        for (i, a) in actions.iter_mut().enumerate() {
            legal.clear();
            let m = &mask[i * na..(i + 1) * na];
            legal.extend(m.iter().enumerate().filter(|x| *x.1).map(|x| x.0 as i64));
            *a = if legal.is_empty() {
                0
            } else {
                legal[rng.random_range(0..legal.len())]
            };
        }
        let s = Instant::now();
        env.step(&actions, bufs!()).expect("step");
        in_step += s.elapsed().as_secs_f64();
    }
    let total = (n * steps) as f64;
    (total / in_step, total / t.elapsed().as_secs_f64())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--vecenv-only") {
        let steps = args.get(i + 1).and_then(|s| s.parse().ok()).unwrap_or(20);
        // `--envs N` (default 256) and `--threads T` (default 1; 0 = all).
        let flag = |name: &str, default: usize| {
            args.iter()
                .position(|a| a == name)
                .and_then(|j| args.get(j + 1))
                .and_then(|s| s.parse().ok())
                .unwrap_or(default)
        };
        let (n, t) = (flag("--envs", 256), flag("--threads", 1));
        let (env, all) = vecenv_rate(n, steps, (t > 0).then_some(t));
        println!("VecEnv chess x{n}, threads {t}: {env:.0} steps/s in step, {all:.0} with picking");
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--solo") {
        // A child of `thread_scaling`: `--solo SEED START COUNT`.
        let num = |k: usize| -> u64 {
            let v = args.get(i + k).and_then(|s| s.parse().ok());
            v.expect("--solo SEED START COUNT")
        };
        println!("{}", solo_games(num(1), num(2), num(3)));
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--scaling-only") {
        let games = args
            .get(i + 1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(20_000);
        thread_scaling(games, 7);
        return;
    }
    let quick = args.iter().any(|a| a == "--quick");
    let games = if quick { 50 } else { 2000 };
    // `--only a,b [GAMES]`: only the playout rows of these variants.
    let only = args.iter().position(|a| a == "--only");
    let only = only.map(|i| {
        (
            args.get(i + 1).cloned().unwrap_or_default(),
            args.get(i + 2),
        )
    });
    let games = only
        .as_ref()
        .and_then(|o| o.1.and_then(|g| g.parse().ok()))
        .unwrap_or(games);
    println!("Random playouts, single thread, median of 5 runs of {games} games");
    println!(
        "(plies/s by wall time; CPU plies/s by this thread's CPU time, the rate to compare on a \
         shared machine; x Vegas: CPU plies/s over Vegas's)"
    );
    println!(
        "| variant              |    games/s |      plies/s |  CPU plies/s | plies/game | \
         chance/game | x Vegas |"
    );
    println!("|----------------------|------------|--------------|--------------|----------|----------|---------|");
    let rows: Vec<PlayoutRow> = dicechess::variants::VARIANTS
        .iter()
        .filter(|v| {
            only.as_ref()
                .is_none_or(|o| o.0.split(',').any(|x| x == **v))
        })
        .map(|v| bench_variant(v, games))
        .collect();
    let vegas = rows
        .iter()
        .find(|r| r.name == "vegas")
        .map(|r| r.cpu_plies_per_s);
    for r in &rows {
        let ratio = vegas.map_or(String::from("-"), |v| {
            format!("{:.2}", r.cpu_plies_per_s / v)
        });
        println!(
            "| {:<20} | {:>10.0} | {:>12.0} | {:>12.0} | {:>8.1} | {:>8.1} | {:>7} |",
            r.name,
            r.games_per_s,
            r.plies_per_s,
            r.cpu_plies_per_s,
            r.plies_per_game,
            r.chance_per_game,
            ratio
        );
    }
    if only.is_some() {
        return;
    }
    if args.iter().any(|a| a == "--variants-only") {
        return;
    }
    thread_scaling(if quick { 400 } else { 20_000 }, if quick { 3 } else { 7 });
    let steps = if quick { 20 } else { 200 };
    let runs: Vec<(f64, f64)> = (0..3).map(|_| vecenv_rate(256, steps, Some(1))).collect();
    let env = median(runs.iter().map(|r| r.0).collect());
    let all = median(runs.iter().map(|r| r.1).collect());
    println!();
    println!(
        "VecEnv chess, 256 envs, 1 thread, random legal actions picked from the mask, median of 3"
    );
    println!();
    println!("| step only steps/s | with picking steps/s |");
    println!("|---:|---:|");
    println!("| {env:.0} | {all:.0} |");
}
