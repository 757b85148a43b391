//! Arbitrary text as a FEN under three rule sets (orthodox 8x8, Fluky 5x5,
//! Cubic 8x8 allowing the opponent in check). Whatever parses must write
//! back to a FEN that parses to the same FEN, and move generation on it must
//! not panic and must only produce moves that leave the mover's king safe.
#![no_main]

use dicechess::board::{Geometry, MoveList, PawnStyle, RoleSet};
use dicechess::notation::fen::{parse_fen, write_fen, FenRules};
use dicechess::notation::san::{parse_move, san};
use libfuzzer_sys::fuzz_target;

const RULES: [FenRules; 3] = [
    FenRules::CHESS,
    FenRules {
        geometry: Geometry::SMALL,
        pawns: PawnStyle::Fluky,
        roles: RoleSet(0b10_1111), // no queens
        allow_opponent_in_check: false,
    },
    FenRules {
        geometry: Geometry::STANDARD,
        pawns: PawnStyle::Cubic,
        roles: RoleSet::ALL,
        allow_opponent_in_check: true,
    },
];

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for rules in &RULES {
        let Ok((pos, _rest)) = parse_fen(&text, rules) else {
            continue;
        };
        let fen = write_fen(&pos);
        let (again, rest) = parse_fen(&fen, rules)
            .unwrap_or_else(|e| panic!("written FEN {fen:?} does not parse: {e}"));
        assert!(rest.is_empty());
        assert_eq!(write_fen(&again), fen, "FEN round trip");
        assert_eq!(pos.hash(), pos.compute_hash());
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        assert_eq!(moves.len() as u64, pos.count_legal());
        assert_eq!(!moves.is_empty(), pos.has_legal_move());
        for &m in moves.iter() {
            let mut p = pos.clone();
            p.play(m);
            assert!(
                !p.king_attacked(pos.turn()),
                "{fen}: {m:?} leaves the king in check"
            );
            assert_eq!(p.hash(), p.compute_hash(), "{fen}: {m:?} hash");
            if rules.pawns == PawnStyle::Orthodox {
                let s = san(&pos, m);
                assert_eq!(parse_move(&pos, &moves, &s), Ok(m), "{fen}: SAN {s}");
            }
        }
    }
});
