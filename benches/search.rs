//! `search` speed: nodes/s per variant (single thread) on positions after
//! 10 to 30 random decisions, and on chess middlegames, printed as a table
//! (`cargo bench --bench search`), timed by the thread's CPU time.
//! `-- --only ROW1,ROW2` runs only those rows (`middlegames` or variant
//! names), e.g. for a profiler; `-- --params hcap=0` sets engine options.
//!
//! Nodes per second depend on the machine as much as on the code (the
//! middlegames row read 3.1M on 2026-12-01's VM and 1.0-1.5M on later
//! ones with about the same instructions per node). So when Stockfish is
//! installed (`$STOCKFISH`, else `stockfish` on the `PATH`, else
//! `/usr/games/stockfish`), the middlegames row is timed three times,
//! alternating with Stockfish's own single-thread `bench 16 1 12` on the
//! same machine, and both medians are printed with their ratio. The ratio
//! follows the machine too, less than the absolute figure (1.36-1.46 and
//! 1.74-1.87 on two VMs of 2026-12-07); instruction counts (callgrind) are
//! what does not (`make bench-instructions`, `benches/instructions.py`,
//! counts them per node). `STOCKFISH=none` leaves Stockfish out (for
//! profilers); the rows then print the nodes they searched on stderr.

use dicechess::agents::search::{Engine, Params};
use dicechess::agents::Evaluate;
use dicechess::sim::{game_rng, play_random_decisions};
use dicechess::variants::{chess::Chess, AnyGame, Node, Options, VARIANTS};
use dicechess::with_game;

/// Nodes per searched position.
const NODES: u64 = 200_000;

/// Middlegame positions (from master games).
const MIDDLEGAMES: &[&str] = &[
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
    "r2q1rk1/1p1nbppp/p2pbn2/4p3/4P3/1NN1BP2/PPPQ2PP/R3KB1R w KQ - 1 10",
    "r1bqr1k1/pp1n1pbp/2pp1np1/4p3/2PPP3/2N2NP1/PP3PBP/R1BQR1K1 w - - 0 10",
    "2rq1rk1/pb1nbppp/1p2pn2/2pp4/2PP4/1PN1PN2/PB2BPPP/2RQ1RK1 w - - 0 11",
    "r3k2r/pp1bbppp/2nqpn2/3p4/3P4/2PBPN2/PP1N1PPP/R2QK2R w KQkq - 3 10",
];

fn position(variant: &str, seed: u64, plies: u32) -> AnyGame {
    let mut g = AnyGame::new(variant, &Options::new()).unwrap();
    let mut rng = game_rng(seed, 0);
    with_game!(&mut g, x => { play_random_decisions(x, &mut rng, plies); });
    g
}

#[path = "common/cpu_time.rs"]
mod cpu_time;
use cpu_time::thread_cpu_seconds;

/// The engine's options from `--params k=v,k=v` (default: none), e.g.
/// `hcap=0` to time an ablation side by side with the default.
fn params() -> Params {
    let args: Vec<String> = std::env::args().collect();
    let spec = args
        .iter()
        .position(|a| a == "--params")
        .and_then(|i| args.get(i + 1))
        .cloned()
        .unwrap_or_default();
    let kv: Vec<(&str, &str)> = spec
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|s| s.split_once('=').expect("--params wants k=v,k=v"))
        .collect();
    Params::parse(&kv).expect("bad --params")
}

/// (nodes, thread CPU seconds, mean depth) over `states`. Never inlined:
/// `benches/instructions.py` counts instructions inside it by its name.
#[inline(never)]
fn measure<G: Evaluate>(states: &[G]) -> (u64, f64, f64) {
    let mut e = Engine::new(params());
    let (mut nodes, mut depth, mut n) = (0u64, 0.0f64, 0.0f64);
    let t = thread_cpu_seconds();
    for (i, g) in states.iter().enumerate() {
        if !matches!(g.node(), Node::Decision(_)) {
            continue;
        }
        let r = e.search(
            g,
            &mut game_rng(i as u64, 0),
            (Some(NODES), None, None),
            None,
        );
        nodes += r.nodes;
        depth += r.depth as f64;
        n += 1.0;
    }
    (nodes, thread_cpu_seconds() - t, depth / n.max(1.0))
}

/// The Stockfish binary to compare with, if one runs (none when
/// `STOCKFISH` is `none`).
fn stockfish() -> Option<String> {
    let chosen = std::env::var("STOCKFISH").ok();
    if chosen.as_deref() == Some("none") {
        return None;
    }
    let candidates = [
        chosen,
        Some("stockfish".to_owned()),
        Some("/usr/games/stockfish".to_owned()),
    ];
    candidates.into_iter().flatten().find(|c| {
        std::process::Command::new(c)
            .arg("quit")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// Stockfish's name line and the nodes/s of its single-thread
/// `bench 16 1 12` (16 MB hash, one thread, depth 12).
fn stockfish_bench(binary: &str) -> Option<(String, f64)> {
    let out = std::process::Command::new(binary)
        .args(["bench", "16", "1", "12"])
        .output()
        .ok()?;
    let name = String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()?
        .split(" by ")
        .next()?
        .to_owned();
    let nps = String::from_utf8_lossy(&out.stderr).lines().find_map(|l| {
        l.strip_prefix("Nodes/second")?
            .trim_start_matches([' ', ':'])
            .trim()
            .parse()
            .ok()
    })?;
    Some((name, nps))
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// The middlegames row; beside Stockfish's bench when it is installed
/// (three alternating runs each, medians, and their ratio).
fn middlegames_row(mids: &[Chess]) {
    let Some(sf) = stockfish() else {
        let (nodes, secs, depth) = measure(mids);
        eprintln!("nodes searched: middlegames {nodes}");
        println!(
            "| chess middlegames | {:.0} | {depth:.1} |",
            nodes as f64 / secs
        );
        return;
    };
    let (mut ours, mut theirs, mut depth, mut name) = (vec![], vec![], 0.0, String::new());
    for _ in 0..3 {
        if let Some((n, nps)) = stockfish_bench(&sf) {
            theirs.push(nps);
            name = n;
        }
        let (nodes, secs, d) = measure(mids);
        ours.push(nodes as f64 / secs);
        depth = d;
    }
    let ours = median(ours);
    println!("| chess middlegames (median of 3) | {ours:.0} | {depth:.1} |");
    if !theirs.is_empty() {
        let runs = theirs.len();
        let theirs = median(theirs);
        println!(
            "| {name} `bench 16 1 12`, alternated with the row above (median of {runs}) | {theirs:.0} | |"
        );
        println!(
            "| ratio: chess middlegames / {name} | {:.2} | |",
            ours / theirs
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let only: Option<Vec<String>> = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1))
        .map(|list| list.split(',').map(str::to_owned).collect());
    let wanted = |row: &str| only.as_ref().is_none_or(|o| o.iter().any(|r| r == row));
    println!("| positions | nodes/s | mean depth at {NODES} nodes |");
    println!("|---|---:|---:|");
    let mids: Vec<Chess> = MIDDLEGAMES
        .iter()
        .map(|f| {
            let mut o = Options::new();
            o.insert("fen".into(), (*f).into());
            Chess::new(&o).unwrap()
        })
        .collect();
    // A new engine's table is faulted in and zeroed by the kernel (about a
    // tenth of the middlegames row on 2026-12-04's machine, `perf`), a
    // one-time cost that a game of many moves spreads out and the rows'
    // few searches do not. One untimed search of one node pays it here;
    // its dropped table then serves every timed engine, emptied in place
    // (the kept storage of `tt.rs`: the same trees as a new table).
    Engine::new(params()).search(&mids[0], &mut game_rng(0, 0), (Some(1), None, None), None);
    if wanted("middlegames") {
        middlegames_row(&mids);
    }
    for v in VARIANTS.iter().filter(|v| wanted(v)) {
        let states: Vec<AnyGame> = (0..6).map(|i| position(v, i, 10 + 4 * i as u32)).collect();
        let (mut nodes, mut secs, mut depth) = (0, 0.0, 0.0);
        for s in &states {
            let (n, t, d) = with_game!(s, x => measure(std::slice::from_ref(x)));
            nodes += n;
            secs += t;
            depth += d / states.len() as f64;
        }
        eprintln!("nodes searched: {v} {nodes}");
        println!(
            "| {v} (10-30 random plies) | {:.0} | {depth:.1} |",
            nodes as f64 / secs
        );
    }
}
