//! Perft against the published counts in `tests/data/orthodox.perft`.
//! Depths with counts up to `FAST_LIMIT` run in `cargo test`; the rest run
//! with `--ignored` (`make perft`).

use dicechess::notation::fen::{parse_fen, FenRules};
use dicechess::perft::perft;

const FAST_LIMIT: u64 = 5_000_000;

struct Case {
    id: String,
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn cases() -> Vec<Case> {
    let text = include_str!("../data/orthodox.perft");
    let mut out: Vec<Case> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(id) = line.strip_prefix("id ") {
            out.push(Case {
                id: id.into(),
                fen: String::new(),
                counts: vec![],
            });
        } else if let Some(fen) = line.strip_prefix("epd ") {
            out.last_mut().unwrap().fen = fen.into();
        } else if let Some(p) = line.strip_prefix("perft ") {
            let mut it = p.split_whitespace();
            let d = it.next().unwrap().parse().unwrap();
            let n = it.next().unwrap().parse().unwrap();
            out.last_mut().unwrap().counts.push((d, n));
        }
    }
    out
}

fn run(slow: bool) {
    let cases = cases();
    assert!(cases.len() >= 7);
    let mut checked = 0;
    for c in cases {
        let (pos, _) = parse_fen(&c.fen, &FenRules::CHESS).unwrap();
        for &(d, n) in &c.counts {
            if (n <= FAST_LIMIT) != slow {
                assert_eq!(perft(&pos, d), n, "{} depth {d}", c.id);
                checked += 1;
            }
        }
    }
    assert!(checked > 0);
}

#[test]
fn perft_fast_depths() {
    run(false);
}

#[test]
#[ignore = "slow: run with `make perft`"]
fn perft_deep_depths() {
    run(true);
}
