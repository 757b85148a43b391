//! Differential tests against shakmaty (an independent, well-tested chess
//! library): legal move sets, game results with the automatic draw rules,
//! FEN and SAN, on positions from seeded random games.
//!
//! The default run compares move sets on 100,000 positions and plays 1,000
//! games (about 1 s and 6 s of CPU in release mode); 10,000 games (about a
//! minute) and 1,000,000 positions run with `cargo test --release -- --ignored`.

use dicechess::board::{Move, MoveList, Position};
use dicechess::notation::fen::{parse_fen, write_fen, FenRules};
use dicechess::notation::san::parse_move;
use dicechess::variants::{api, chess::Chess, Game, Node, Options, Termination};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, EnPassantMode, Position as _};
use std::collections::HashMap;

/// SplitMix64: a tiny seeded generator, so the games are reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The start position and the other positions of `tests/data/orthodox.perft`
/// (Kiwipete, positions 3 to 6).
fn start_fens() -> Vec<String> {
    include_str!("../data/orthodox.perft")
        .lines()
        .filter_map(|l| l.trim().strip_prefix("epd "))
        .map(|s| s.to_string())
        .collect()
}

fn sk_from_fen(fen: &str) -> shakmaty::Chess {
    let f: Fen = fen
        .parse()
        .unwrap_or_else(|e| panic!("shakmaty: {fen}: {e}"));
    f.into_position(CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("shakmaty: {fen}: {e}"))
}

fn sk_fen(pos: &shakmaty::Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// shakmaty's legal moves keyed by UCI.
fn sk_moves(pos: &shakmaty::Chess) -> HashMap<String, shakmaty::Move> {
    pos.legal_moves()
        .iter()
        .map(|&m| (UciMove::from_standard(m).to_string(), m))
        .collect()
}

/// Compares the legal move sets; returns shakmaty's moves keyed by UCI.
fn compare_moves(
    ours: &Position,
    theirs: &shakmaty::Chess,
    legal: &MoveList,
) -> HashMap<String, shakmaty::Move> {
    let sk = sk_moves(theirs);
    let mut a: Vec<String> = legal.iter().map(|m| m.uci()).collect();
    let mut b: Vec<String> = sk.keys().cloned().collect();
    a.sort();
    b.sort();
    assert_eq!(
        a,
        b,
        "legal moves differ in {}",
        write_fen(ours) // FEN of the position where they differ
    );
    assert_eq!(
        legal.len(),
        a.len(),
        "duplicate moves in {}",
        write_fen(ours)
    );
    sk
}

/// (a) Legal move sets on `n` positions from random games (no draw rules:
/// a game runs until mate, stalemate or 300 plies).
fn movegen_diff(n: usize, seed: u64) {
    let fens = start_fens();
    assert!(fens.len() >= 6);
    let mut rng = Rng(seed);
    let mut positions = 0;
    let mut game = 0;
    while positions < n {
        let fen = &fens[game % fens.len()];
        game += 1;
        let (mut pos, _) = parse_fen(fen, &FenRules::CHESS).unwrap();
        let mut sk = sk_from_fen(fen);
        let mut legal = MoveList::new();
        for _ in 0..300 {
            assert_eq!(write_fen(&pos), sk_fen(&sk));
            pos.legal_moves(&mut legal);
            let skm = compare_moves(&pos, &sk, &legal);
            assert_eq!(pos.count_legal(), legal.len() as u64);
            assert_eq!(pos.has_legal_move(), !legal.is_empty());
            assert_eq!(pos.is_check(), sk.is_check());
            positions += 1;
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.below(legal.len())];
            pos.play(m);
            sk.play_unchecked(skm[&m.uci()]);
        }
    }
}

/// shakmaty's side of a game: the same draw rules, implemented on
/// shakmaty's own position, Zobrist hashing and en-passant convention.
struct SkGame {
    pos: shakmaty::Chess,
    seen: HashMap<u64, u32>,
    plies: u32,
    max_plies: u32,
}

impl SkGame {
    fn new(fen: &str, max_plies: u32) -> SkGame {
        let mut g = SkGame {
            pos: sk_from_fen(fen),
            seen: HashMap::new(),
            plies: 0,
            max_plies,
        };
        g.record();
        g
    }
    fn key(&self) -> u64 {
        let z: Zobrist64 = self.pos.zobrist_hash(EnPassantMode::Legal);
        z.0
    }
    fn record(&mut self) -> u32 {
        let c = self.seen.entry(self.key()).or_insert(0);
        *c += 1;
        *c
    }
    fn play(&mut self, m: shakmaty::Move) {
        self.pos.play_unchecked(m);
        self.plies += 1;
        self.record();
    }
    /// Termination and winner (0 White, 1 Black), docs/rules.md §0 precedence.
    fn result(&self) -> Option<(Termination, Option<u8>)> {
        let p = &self.pos;
        if p.legal_moves().is_empty() {
            if p.is_check() {
                let winner = match p.turn() {
                    shakmaty::Color::White => 1,
                    shakmaty::Color::Black => 0,
                };
                Some((Termination::Checkmate, Some(winner)))
            } else {
                Some((Termination::Stalemate, None))
            }
        } else if self.seen[&self.key()] >= 3 {
            Some((Termination::ThreefoldRepetition, None))
        } else if p.halfmoves() >= 100 {
            Some((Termination::FiftyMoves, None))
        } else if p.is_insufficient_material() {
            Some((Termination::InsufficientMaterial, None))
        } else if self.plies >= self.max_plies {
            Some((Termination::MaxPlies, None))
        } else {
            None
        }
    }
}

#[derive(Default, Debug)]
struct Stats {
    games: usize,
    plies: usize,
    by_reason: HashMap<&'static str, usize>,
}

/// (b) Whole random games of our `Chess` against shakmaty with the same draw
/// rules, checking invariants, FEN and SAN on every ply.
fn game_diff(n_games: usize, seed: u64) -> Stats {
    let fens = start_fens();
    let mut rng = Rng(seed);
    let mut stats = Stats::default();
    let mut legal = MoveList::new();
    let mut legal_pos = MoveList::new();
    for game in 0..n_games {
        // Four games in five from the start position, the rest from the
        // other perft positions.
        let fen = if game % 5 == 4 {
            fens[1 + rng.below(fens.len() - 1)].clone()
        } else {
            fens[0].clone()
        };
        let mut opts = Options::new();
        opts.insert("fen".into(), fen.clone().into());
        opts.insert("max_plies".into(), 1000.into());
        let mut g = Chess::new(&opts).unwrap();
        let mut sk = SkGame::new(&fen, 1000);
        loop {
            g.check_invariants()
                .unwrap_or_else(|e| panic!("{e} in {}", g.fen()));
            let fen = g.fen();
            assert_eq!(fen, sk_fen(&sk.pos), "FEN differs");
            let (reparsed, rest) = parse_fen(&fen, &FenRules::CHESS).unwrap();
            assert!(rest.is_empty());
            assert_eq!(write_fen(&reparsed), fen, "FEN round trip");
            assert_eq!(reparsed.repetition_key(), g.position().repetition_key());

            let ours = g.termination().map(|t| (t, g.winner()));
            assert_eq!(ours, sk.result(), "result differs at {fen}");
            if let Some((t, _)) = ours {
                assert_eq!(g.node(), Node::Terminal);
                let r = api::returns(&g);
                match g.winner() {
                    Some(0) => assert_eq!(r, [1.0, -1.0]),
                    Some(_) => assert_eq!(r, [-1.0, 1.0]),
                    None => assert_eq!(r, [0.0, 0.0]),
                }
                *stats.by_reason.entry(t.name()).or_default() += 1;
                break;
            }

            g.legal_moves(&mut legal);
            g.position().legal_moves(&mut legal_pos);
            assert_eq!(legal.as_slice(), legal_pos.as_slice());
            let skm = compare_moves(g.position(), &sk.pos, &legal);
            let m: Move = legal[rng.below(legal.len())];
            let sk_move = skm[&m.uci()];

            let san = g.san(m);
            let sk_san = SanPlus::from_move(sk.pos.clone(), sk_move).to_string();
            assert_eq!(san, sk_san, "SAN differs at {fen} for {}", m.uci());
            assert_eq!(
                parse_move(g.position(), &legal, &san),
                Ok(m),
                "SAN {san} does not parse back at {fen}"
            );

            g.play(m);
            sk.play(sk_move);
            stats.plies += 1;
        }
        stats.games += 1;
    }
    stats
}

#[test]
fn movegen_matches_shakmaty_100k_positions() {
    movegen_diff(100_000, 2);
}

#[test]
#[ignore = "more positions: run with `cargo test --release -- --ignored`"]
fn movegen_matches_shakmaty_1m_positions() {
    movegen_diff(1_000_000, 5);
}

#[test]
fn games_match_shakmaty_1k_games() {
    let s = game_diff(1_000, 3);
    assert_eq!(s.games, 1_000);
    eprintln!("{s:?}");
}

#[test]
#[ignore = "full count: run with `cargo test --release -- --ignored`"]
fn games_match_shakmaty_10k_games() {
    let s = game_diff(10_000, 4);
    assert_eq!(s.games, 10_000);
    eprintln!("{s:?}");
    // Random games reach every draw rule.
    for reason in [
        "checkmate",
        "stalemate",
        "threefold_repetition",
        "fifty_moves",
        "insufficient_material",
    ] {
        assert!(
            s.by_reason.contains_key(reason),
            "no game ended by {reason}"
        );
    }
}

/// Positions where the en-passant square is set but the capture is illegal
/// (pinned pawn): FEN and repetition keys must ignore it, as shakmaty's
/// `EnPassantMode::Legal` does.
#[test]
fn illegal_ep_square_is_not_written() {
    for (fen, moves) in [
        // After ...c5 the b5 pawn would expose the king on a5 to the h5 rook.
        ("8/2p5/8/KP5r/8/8/8/7k b - - 0 1", &["c7c5"][..]),
        // A legal capture: the ep square stays.
        ("8/2p5/8/1P5r/8/8/8/K6k b - - 0 1", &["c7c5"][..]),
    ] {
        let (mut pos, _) = parse_fen(fen, &FenRules::CHESS).unwrap();
        let mut sk = sk_from_fen(fen);
        for u in moves {
            let ml = {
                let mut l = MoveList::new();
                pos.legal_moves(&mut l);
                l
            };
            let m = *ml.iter().find(|m| m.uci() == *u).unwrap();
            let skm = sk_moves(&sk);
            pos.play(m);
            sk.play_unchecked(skm[*u]);
        }
        assert_eq!(write_fen(&pos), sk_fen(&sk));
    }
}
