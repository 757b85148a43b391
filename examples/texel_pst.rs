//! Samples for fitting chess's per-square corrections
//! (`scripts/texel_pst.py`, which runs this and fits them) or its
//! structure and base weights (`scripts/texel_chess.py`):
//!
//! `cargo run --release --example texel_pst -- GAMES NODES OPENING SEED OUT [structure|base]`
//!
//! plays `GAMES` chess games of `search:nodes=NODES,pst=0` against itself,
//! each opening with `OPENING` random decisions of its own seeded stream
//! (game `i` uses `game_rng(SEED, i)`, so the file depends only on the
//! arguments, not on the thread count). Every decision node after the
//! opening whose side to move is not in check and whose previous move was
//! neither a capture nor a check is a sample, written as one line: White's
//! result (1, 0.5, 0), the middlegame share of the taper, the search's
//! static value for White without the corrections, then one index per
//! piece: `role * 64 + square` for a White piece and `384 + role * 64 +
//! (square ^ 56)` for a Black one (so the square is seen from the piece's
//! own side).
//!
//! With `structure`, the games are of `search:nodes=NODES,sweights=hand`
//! (the chess defaults with the hand-set structure weights, corrections
//! included), the static value is the search's own, and the piece
//! indices give way to the non-zero coefficients of the structure weights
//! (`eval::structure::structure_features`, every term on), each as
//! `index:value`; a first line `# name=weight ...` lists the weights'
//! names and hand-set values in the indices' order.
//!
//! With `base`, the same games and static value, and the coefficients of
//! the evaluation's 50 base weights (`eval::features::eval_features`:
//! material, centrality, advance, mobility, bishop pair, tempo) in the
//! same `index:value` form under the same kind of header.

use std::io::Write;

use dicechess::agents::search::eval::features::{eval_features, feature_names};
use dicechess::agents::search::eval::structure::{structure_features, Terms};
use dicechess::agents::search::eval::structure_weights::{StructureWeights, HAND};
use dicechess::agents::search::eval::tuned::WeightSet;
use dicechess::agents::search::eval::{mg_share, pst, Evaluator, WEIGHTS};
use dicechess::agents::{Agent, AgentSpec};
use dicechess::board::{Color, MoveKind, MoveList, Role};
use dicechess::play::play_out;
use dicechess::sim::{game_rng, random_move};
use dicechess::variants::{chess::Chess, Game, Options};
use rayon::prelude::*;

/// What a sample lists beside its static value.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// The pieces' squares, static value without the corrections.
    Pst,
    /// The structure weights' coefficients.
    Structure,
    /// The base weights' coefficients.
    Base,
}

fn game_lines(index: u64, nodes: u64, opening: u32, seed: u64, mode: Mode) -> Vec<String> {
    let structure = mode != Mode::Pst;
    let spec = if structure {
        // The hand-set structure weights, as when the committed fits were made.
        format!("search:nodes={nodes},sweights=hand")
    } else {
        format!("search:nodes={nodes},pst=0")
    };
    let mut agent = Agent::new(AgentSpec::parse(&spec).unwrap());
    let mut eval = Evaluator::with_set(WeightSet::Default);
    eval.set_structure(true);
    eval.set_pst(structure);
    if structure {
        eval.set_terms(Terms::ALL_HAND);
    }
    let mut g = Chess::new(&Options::new()).unwrap();
    let mut rng = game_rng(seed, index);
    let mut ml = MoveList::new();
    let (mut made, mut quiet) = (0u32, false);
    let mut samples: Vec<String> = Vec::new();
    play_out(
        &mut g,
        &mut rng,
        |g: &Chess, _, rng| {
            let p = g.position();
            if made >= opening && quiet && !p.is_check() {
                let mut line = format!("{:.4} {:.2}", mg_share(p), eval.static_value(g, 0));
                let coefficients = match mode {
                    Mode::Pst => Vec::new(),
                    Mode::Structure => structure_features(p, Terms::ALL_HAND),
                    Mode::Base => eval_features(g).0.to_vec(),
                };
                for (j, x) in coefficients.into_iter().enumerate() {
                    if x != 0.0 {
                        line.push_str(&format!(" {j}:{x}"));
                    }
                }
                if mode == Mode::Pst {
                    for c in Color::ALL {
                        for r in Role::ALL {
                            for s in p.pieces(c, r) {
                                let i = 384 * c as usize
                                    + r.index() * 64
                                    + pst::own_square(c, s) as usize;
                                line.push_str(&format!(" {i}"));
                            }
                        }
                    }
                }
                samples.push(line);
            }
            let m = if made < opening {
                random_move(g, rng, &mut ml)
            } else {
                agent.select(g, rng)
            };
            let capture = p.piece_at(m.to()).is_some() || m.kind() == MoveKind::EnPassant;
            let mut after = p.clone();
            after.play(m);
            quiet = !capture && !after.is_check();
            made += 1;
            m
        },
        |_, _, _, _| {},
    );
    let y = match g.winner() {
        Some(0) => "1",
        Some(_) => "0",
        None => "0.5",
    };
    samples.into_iter().map(|s| format!("{y} {s}")).collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "GAMES NODES OPENING SEED OUT [structure|base]";
    let arg = |i: usize| -> u64 { args[i].parse().expect(usage) };
    let (games, nodes, opening, seed) = (arg(0), arg(1), arg(2) as u32, arg(3));
    let mode = match args.get(5).map(String::as_str) {
        None => Mode::Pst,
        Some("structure") => Mode::Structure,
        Some("base") => Mode::Base,
        Some(other) => panic!("{usage}: unknown mode {other:?}"),
    };
    let lines: Vec<Vec<String>> = (0..games)
        .into_par_iter()
        .map(|i| game_lines(i, nodes, opening, seed, mode))
        .collect();
    let mut out = std::io::BufWriter::new(std::fs::File::create(&args[4]).unwrap());
    let header = match mode {
        Mode::Pst => None,
        Mode::Structure => Some((StructureWeights::names(), HAND.to_vec())),
        Mode::Base => Some((feature_names(), WEIGHTS.to_vec())),
    };
    if let Some((names, weights)) = header {
        let pairs: Vec<String> = names
            .iter()
            .zip(weights)
            .map(|(n, w)| format!("{n}={w}"))
            .collect();
        writeln!(out, "# {}", pairs.join(" ")).unwrap();
    }
    let mut n = 0;
    for l in lines.iter().flatten() {
        writeln!(out, "{l}").unwrap();
        n += 1;
    }
    eprintln!("{games} games, {n} samples");
}
