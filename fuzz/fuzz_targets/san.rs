//! Arbitrary text as a move in one of a few fixed positions: `parse_move`
//! must never panic, and a move it returns must be legal.
#![no_main]

#[path = "../../tests/support/parse_checks.rs"]
mod parse_checks;

use dicechess::board::{Geometry, PawnStyle, RoleSet};
use dicechess::notation::fen::{parse_fen, FenRules};
use libfuzzer_sys::fuzz_target;

const CHESS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1",
];

const SMALL: FenRules = FenRules {
    geometry: Geometry::SMALL,
    pawns: PawnStyle::Fluky,
    roles: RoleSet(0b10_1111),
    allow_opponent_in_check: false,
    moves_keep_king_safe: true,
};

const CUBIC: FenRules = FenRules {
    geometry: Geometry::STANDARD,
    pawns: PawnStyle::Cubic,
    roles: RoleSet::ALL,
    allow_opponent_in_check: true,
    moves_keep_king_safe: true,
};

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let n = CHESS.len() + 2;
    let (fen, rules) = match pick as usize % n {
        i if i < CHESS.len() => (CHESS[i], FenRules::CHESS),
        i if i == CHESS.len() => ("2k2/ppppp/5/PPPPP/2K2 w - - 0 1", SMALL),
        _ => (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            CUBIC,
        ),
    };
    let (pos, _) = parse_fen(fen, &rules).unwrap();
    parse_checks::check_move_text(&pos, &text);
});
