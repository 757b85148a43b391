//! Single-thread perft, dicechess against shakmaty, in one run: start
//! position depth 6 and Kiwipete depth 5, alternating the two libraries,
//! median of 5 repetitions each. Prints a markdown table.
//!
//! Run with `cargo bench --bench perft_vs_shakmaty` (`--quick` for the
//! shallower depths 5 and 4).

use dicechess::notation::fen::{parse_fen, FenRules};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};
use std::hint::black_box;
use std::time::Instant;

const CASES: [(&str, &str, u32, u64, u32, u64); 2] = [
    // name, FEN, depth, nodes (chessprogramming.org), quick depth, nodes
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        6,
        119_060_324,
        5,
        4_865_609,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        5,
        193_690_690,
        4,
        4_085_603,
    ),
];

const REPS: usize = 5;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    println!(
        "Perft, single thread, median of {REPS} alternating runs (bulk counting at the last ply)"
    );
    println!();
    println!("| position | depth | nodes | dicechess Mnps | shakmaty Mnps | ratio |");
    println!("|---|---:|---:|---:|---:|---:|");
    for (name, fen, depth, nodes, qdepth, qnodes) in CASES {
        let (depth, nodes) = if quick {
            (qdepth, qnodes)
        } else {
            (depth, nodes)
        };
        let (ours, _) = parse_fen(fen, &FenRules::CHESS).expect("valid FEN");
        let theirs: Chess = fen
            .parse::<Fen>()
            .expect("valid FEN")
            .into_position(CastlingMode::Standard)
            .expect("legal position");
        let (mut t_ours, mut t_theirs) = (Vec::new(), Vec::new());
        for _ in 0..REPS {
            let t = Instant::now();
            let n = dicechess::perft::perft(black_box(&ours), depth);
            t_ours.push(t.elapsed().as_secs_f64());
            assert_eq!(n, nodes, "dicechess perft {name} depth {depth}");

            let t = Instant::now();
            let n = shakmaty::perft(black_box(&theirs), depth);
            t_theirs.push(t.elapsed().as_secs_f64());
            assert_eq!(n, nodes, "shakmaty perft {name} depth {depth}");
        }
        let (a, b) = (median(t_ours), median(t_theirs));
        let (mnps_a, mnps_b) = (nodes as f64 / a / 1e6, nodes as f64 / b / 1e6);
        println!(
            "| {name} | {depth} | {nodes} | {mnps_a:.1} | {mnps_b:.1} | {:.2} |",
            mnps_a / mnps_b
        );
    }
}
