//! Three-dice DiceChess's random decisions (`Game::random_legal_move`, the
//! draw of random playouts): rejection sampling over the pseudo-legal moves
//! of the dice left must give exactly the uniform distribution over
//! `legal_moves`, also where the maximum-dice rule or a king capture makes
//! some candidates illegal.

use dicechess::board::{Move, MoveList, Role, RoleSet};
use dicechess::sim::{game_rng, random_move, sample_outcome, GameRng};
use dicechess::variants::dice_chess3::DiceChess3;
use dicechess::variants::{Game, Node, Options, Outcomes};
use std::collections::HashMap;

fn game(fen: &str) -> DiceChess3 {
    let mut o = Options::new();
    o.insert("fen".into(), fen.into());
    DiceChess3::new(&o).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The pseudo-legal moves of the dice left: the candidates the sampler
/// draws from.
fn candidates(g: &DiceChess3) -> Vec<Move> {
    let left = g.dice_left().expect("a decision node");
    let roles = left.chars().fold(RoleSet::EMPTY, |s, c| {
        s.with(match c {
            'P' => Role::Pawn,
            'N' => Role::Knight,
            'B' => Role::Bishop,
            'R' => Role::Rook,
            'Q' => Role::Queen,
            _ => Role::King,
        })
    });
    let mut ml = MoveList::new();
    g.position().pseudo_moves_of(roles, &mut ml);
    ml.to_vec()
}

fn legal(g: &DiceChess3) -> Vec<Move> {
    let mut ml = MoveList::new();
    g.legal_moves(&mut ml);
    ml.to_vec()
}

/// Pearson's statistic of `counts` against equal expected counts.
fn chi_square(counts: &[u64]) -> f64 {
    let n: u64 = counts.iter().sum();
    let e = n as f64 / counts.len() as f64;
    counts.iter().map(|&o| (o as f64 - e).powi(2) / e).sum()
}

/// The upper 0.1% point of the chi-square distribution with `df` degrees of
/// freedom (Wilson-Hilferty; within 1% of the tables from df = 3 on).
fn chi_square_limit(df: usize) -> f64 {
    let (k, z) = (df as f64, 3.090_232);
    let h = 2.0 / (9.0 * k);
    k * (1.0 - h + z * h.sqrt()).powi(3)
}

/// Draws `per_move` times the number of legal moves with `draw`; checks
/// that every draw is legal and every legal move is drawn; returns the
/// chi-square statistic of the counts and its 0.1% limit.
fn draw_counts(
    g: &DiceChess3,
    per_move: usize,
    mut draw: impl FnMut(&DiceChess3, &mut GameRng) -> Move,
) -> (f64, f64) {
    let legal = legal(g);
    let mut counts: HashMap<Move, u64> = legal.iter().map(|&m| (m, 0)).collect();
    let mut rng = game_rng(23, 0);
    for _ in 0..per_move * legal.len() {
        let m = draw(g, &mut rng);
        *counts
            .get_mut(&m)
            .unwrap_or_else(|| panic!("{} drawn, not legal at {}", m.uci(), g.fen())) += 1;
    }
    let never: Vec<String> = (counts.iter().filter(|x| *x.1 == 0))
        .map(|x| x.0.uci())
        .collect();
    assert!(never.is_empty(), "never drawn at {}: {never:?}", g.fen());
    let counts: Vec<u64> = legal.iter().map(|m| counts[m]).collect();
    (chi_square(&counts), chi_square_limit(legal.len() - 1))
}

/// Decision nodes where some candidates are illegal, each with a candidate
/// that must not be legal and, where there is one, a king capture that
/// must be (although it leaves dice unused).
const POSITIONS: &[(&str, &str, Option<&str>)] = &[
    // N then B uses two dice (Q unusable): the knight on a3 may not move.
    ("7k/8/8/8/8/N7/1P1N4/2B4K w - - 0 1 NBQ NBQ", "a3b5", None),
    // Three dice N, B, B: only the knight on d2 may move first.
    ("7k/8/8/8/8/N7/1P1N4/2B4K w - - 0 1 NBB NBB", "a3c4", None),
    // B and R (Q unusable): Rb2 would shut the bishop in.
    ("6k1/8/8/8/8/8/2R5/B6K w - - 0 1 BRQ BRQ", "c2b2", None),
    // As the second position, with Black's king on b5: Nxb5 takes it and
    // is legal, the knight's other moves are not.
    (
        "8/8/8/1k6/8/N7/1P1N4/2B4K w - - 0 1 NBB NBB",
        "a3c4",
        Some("a3b5"),
    ),
    // Mid-turn, two dice left (B, R) of the roll B, R, Q.
    ("6k1/8/8/8/8/8/2R5/B6K w - - 0 1 BRQ BR", "c2b2", None),
];

#[test]
fn the_test_positions_have_illegal_candidates_and_king_captures() {
    for &(fen, illegal, capture) in POSITIONS {
        let g = game(fen);
        assert!(matches!(g.node(), Node::Decision(_)), "{fen}");
        let (cands, legal) = (candidates(&g), legal(&g));
        let uci = |v: &[Move]| v.iter().map(|m| m.uci()).collect::<Vec<_>>();
        assert!(uci(&cands).contains(&illegal.to_string()), "{fen}");
        assert!(!uci(&legal).contains(&illegal.to_string()), "{fen}");
        assert!(legal.iter().all(|m| cands.contains(m)), "{fen}");
        assert!(legal.len() >= 4, "{fen}: {:?}", uci(&legal));
        if let Some(c) = capture {
            assert!(uci(&legal).contains(&c.to_string()), "{fen}");
        }
    }
}

#[test]
fn random_legal_move_is_uniform_over_the_legal_moves() {
    let mut buf = MoveList::new();
    for &(fen, _, _) in POSITIONS {
        let g = game(fen);
        let (stat, limit) = draw_counts(&g, 400, |g, rng| g.random_legal_move(rng, &mut buf));
        assert!(stat < limit, "{fen}: chi-square {stat:.1} >= {limit:.1}");
        // `random_move` (the playouts' draw) is the same hook.
        let (stat, limit) = draw_counts(&g, 400, |g, rng| random_move(g, rng, &mut buf));
        assert!(stat < limit, "{fen}: chi-square {stat:.1} >= {limit:.1}");
    }
}

/// The statistic does catch a sampler that is legal but not uniform: a
/// random candidate, and if it is illegal the next legal one in list order
/// (wrapping) — legal moves after a run of illegal ones come up more often.
#[test]
fn the_uniformity_check_rejects_a_biased_sampler() {
    let mut caught = 0;
    for &(fen, _, _) in POSITIONS {
        let g = game(fen);
        let (cands, legal) = (candidates(&g), legal(&g));
        let (stat, limit) = draw_counts(&g, 400, |_, rng| {
            use rand::RngExt;
            let start = rng.random_range(0..cands.len());
            (0..cands.len())
                .map(|k| cands[(start + k) % cands.len()])
                .find(|m| legal.contains(m))
                .unwrap()
        });
        caught += (stat >= limit) as u32;
    }
    assert!(
        caught >= 3,
        "the biased sampler passed in {} positions",
        POSITIONS.len() as u32 - caught
    );
    // And the statistic itself: uniform counts give 0, one extra draw of a
    // move (n = 4, e = 10.25) gives 3 * 0.25^2 / 10.25 + 0.75^2 / 10.25.
    assert_eq!(chi_square(&[10, 10, 10, 10]), 0.0);
    let s = chi_square(&[10, 10, 10, 11]);
    assert!((s - (3.0 * 0.0625 + 0.5625) / 10.25).abs() < 1e-12, "{s}");
    assert!((chi_square_limit(10) - 29.588).abs() < 0.3);
}

/// Hundreds of random games: every move the hook returns is among
/// `legal_moves` (the first games also check the game's invariants, which
/// compare the legal moves with an exact search of the maximum-dice rule).
#[test]
fn random_games_draw_only_legal_moves() {
    let proto = game("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 - -");
    let (mut outcomes, mut buf) = (Outcomes::new(), MoveList::new());
    let (mut decisions, mut narrowed) = (0u64, 0u64);
    for i in 0..300 {
        let mut g = proto.clone();
        let mut rng = game_rng(2323, i);
        while g.node() != Node::Terminal {
            if i < 20 {
                assert_eq!(g.check_invariants(), Ok(()), "{}", g.fen());
            }
            match g.node() {
                Node::Chance => {
                    let o = sample_outcome(&g, &mut rng, &mut outcomes);
                    g.apply_outcome(o);
                }
                _ => {
                    let legal = legal(&g);
                    let m = g.random_legal_move(&mut rng, &mut buf);
                    assert!(legal.contains(&m), "{} drawn at {}", m.uci(), g.fen());
                    decisions += 1;
                    narrowed += (legal.len() < candidates(&g).len()) as u64;
                    g.play(m);
                }
            }
        }
    }
    assert!(decisions > 20_000, "{decisions}");
    // The maximum-dice rule removed candidates at many decisions.
    assert!(narrowed > 1_000, "{narrowed} of {decisions}");
}
