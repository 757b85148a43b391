//! Properties of the parsers, shared by the proptest fuzzing in
//! `tests/parse_fuzz.rs` and the cargo-fuzz targets in `fuzz/` (included
//! with `#[path]`), so both check exactly the same things.

// Each includer uses only some of the checks.
#![allow(dead_code)]

use dicechess::board::{Geometry, MoveList, PawnStyle, Position, RoleSet};
use dicechess::notation::fen::{parse_fen, write_fen, FenRules};
use dicechess::notation::san::{parse_move, san, san_body};

/// The FEN dialects: orthodox 8x8, Fluky 5x5 (no queens), Cubic 8x8 (the
/// opponent may be in check).
pub const RULES: [FenRules; 3] = [
    FenRules::CHESS,
    FenRules {
        geometry: Geometry::SMALL,
        pawns: PawnStyle::Fluky,
        roles: RoleSet(0b10_1111), // no queens
        allow_opponent_in_check: false,
        moves_keep_king_safe: true,
    },
    FenRules {
        geometry: Geometry::STANDARD,
        pawns: PawnStyle::Cubic,
        roles: RoleSet::ALL,
        allow_opponent_in_check: true,
        moves_keep_king_safe: true,
    },
];

/// Parses `text` under every dialect; whatever parses must write back to a
/// FEN that parses to the same FEN, and its moves must pass [`check_moves`].
pub fn check_fen(text: &str) {
    for rules in &RULES {
        let Ok((pos, _rest)) = parse_fen(text, rules) else {
            continue;
        };
        let fen = write_fen(&pos);
        let (again, rest) = parse_fen(&fen, rules)
            .unwrap_or_else(|e| panic!("written FEN {fen:?} (from {text:?}) does not parse: {e}"));
        assert!(rest.is_empty());
        assert_eq!(write_fen(&again), fen, "FEN round trip of {text:?}");
        check_moves(&pos, rules.pawns == PawnStyle::Orthodox);
    }
}

/// Generation never panics, agrees with counting and the any-move test,
/// every move leaves the mover's king safe with a consistent hash, and (on
/// orthodox boards) every move's SAN parses back to it.
pub fn check_moves(pos: &Position, orthodox: bool) {
    let fen = write_fen(pos);
    assert_eq!(pos.hash(), pos.compute_hash(), "{fen}: hash");
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    assert_eq!(moves.len() as u64, pos.count_legal(), "{fen}: count");
    assert_eq!(!moves.is_empty(), pos.has_legal_move(), "{fen}: any move");
    for &m in moves.iter() {
        let mut p = pos.clone();
        p.play(m);
        assert!(
            !p.king_attacked(pos.turn()),
            "{fen}: {m:?} leaves the king in check"
        );
        assert_eq!(p.hash(), p.compute_hash(), "{fen}: {m:?} hash");
        if orthodox {
            let s = san(pos, m);
            assert_eq!(parse_move(pos, &moves, &s), Ok(m), "{fen}: SAN {s}");
        }
    }
}

/// A move parsed from arbitrary text is legal, and its own SAN denotes it.
pub fn check_move_text(pos: &Position, text: &str) {
    let mut legal = MoveList::new();
    pos.legal_moves(&mut legal);
    if let Ok(m) = parse_move(pos, &legal, text) {
        assert!(legal.contains(m), "{text:?} gave an illegal move {m:?}");
        let body = san_body(pos, m);
        assert_eq!(parse_move(pos, &legal, &body), Ok(m), "{body}");
    }
}
