//! The structure terms on hand-made positions, counted by hand.

use super::*;
use crate::notation::fen::{parse_fen, FenRules};

fn cp(fen: &str) -> f64 {
    structure_cp(
        &parse_fen(fen, &FenRules::CHESS).unwrap().0,
        Terms::default(),
    )
}

/// The optional terms `on` alone: `structure_cp` with them less without.
fn alone(fen: &str, on: Terms) -> f64 {
    let p = parse_fen(fen, &FenRules::CHESS).unwrap().0;
    structure_cp(&p, on) - structure_cp(&p, Terms::default())
}

fn with_threats(fen: &str) -> f64 {
    let on = Terms {
        threats: true,
        ..Terms::default()
    };
    alone(fen, on)
}

#[test]
fn threats_count_pieces_attacked_by_lesser_ones_or_undefended() {
    // Nothing attacked: no threat terms.
    assert_eq!(
        with_threats("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        0.0
    );
    // A White pawn attacks a defended Black knight.
    let pawn = with_threats("4k3/8/3p4/4n3/3P4/8/8/4K3 w - - 0 1");
    // Undefended: also hanging.
    let hanging = with_threats("4k3/8/8/4n3/3P4/8/8/4K3 w - - 0 1");
    assert!(pawn > 0.0, "{pawn}");
    assert!(hanging > pawn, "{hanging} {pawn}");
    // Mirrored colours: the opposite value.
    let black = with_threats("4k3/8/8/3p4/4N3/8/8/4K3 w - - 0 1");
    assert_eq!(black, -hanging);
    // A knight attacking a defended rook; a rook attacking a defended queen.
    assert!(with_threats("4k3/8/3p4/2r5/8/1N6/8/4K3 w - - 0 1") > 0.0);
    assert!(with_threats("4k3/8/4p3/3q4/8/8/3R4/4K3 w - - 0 1") > 0.0);
    // A defended rook attacked by a rook: no threat.
    assert_eq!(with_threats("4k3/8/4p3/3r4/8/8/3R4/4K3 w - - 0 1"), 0.0);
}

#[test]
fn symmetric_positions_score_zero() {
    assert_eq!(
        cp("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        0.0
    );
    assert_eq!(
        cp("r1bq1rk1/pp2bppp/2n1pn2/3p4/3P4/2N1PN2/PP2BPPP/R2Q1RK1 w - - 0 1"),
        0.0
    );
}

#[test]
fn passed_pawns_count_more_as_they_advance() {
    // Kings and a white pawn only (endgame taper; the pawn is isolated
    // in both).
    let far = cp("4k3/8/8/8/8/8/P7/4K3 w - - 0 1");
    let near = cp("4k3/8/P7/8/8/8/8/4K3 w - - 0 1");
    assert!(near > far + 50.0, "{far} {near}");
    // A black pawn in front or beside: neither is passed.
    assert_eq!(cp("4k3/p7/8/8/8/8/P7/4K3 w - - 0 1"), 0.0);
    assert_eq!(cp("4k3/1p6/8/8/8/8/P7/4K3 w - - 0 1"), 0.0);
}

#[test]
fn doubled_and_isolated_pawns_cost() {
    let healthy = cp("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1");
    let doubled = cp("4k3/pp6/8/8/8/P7/P7/4K3 w - - 0 1");
    let isolated = cp("4k3/pp6/8/8/8/8/P1P5/4K3 w - - 0 1");
    assert_eq!(healthy, 0.0);
    assert!(doubled < 0.0, "{doubled}");
    assert!(isolated < 0.0, "{isolated}");
}

#[test]
fn rooks_like_open_files_and_kings_like_shelter() {
    let open = cp("4k3/p7/8/8/8/8/P7/2R1K3 w - - 0 1");
    let closed = cp("4k3/p7/8/8/8/8/P7/R3K3 w - - 0 1");
    assert!(open > closed, "{open} {closed}");
    // The same material, White's king behind its pawns or in the open.
    let sheltered = cp("r5k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1");
    let exposed = cp("r5k1/5ppp/8/8/8/8/PPP5/R5K1 w - - 0 1");
    assert_eq!(sheltered, 0.0);
    assert!(exposed < 0.0, "{exposed}");
}

#[test]
fn pieces_around_the_king_are_danger() {
    // Queen and knight bear on Black's king zone.
    let attacked = cp("6k1/5ppp/8/6N1/8/3Q4/5PPP/6K1 w - - 0 1");
    let quiet = cp("6k1/5ppp/8/8/8/N7/5PPP/2Q3K1 w - - 0 1");
    assert_eq!(quiet, 0.0);
    assert!(attacked > 10.0, "{attacked}");
}

/// The passer terms alone.
fn passers(fen: &str) -> f64 {
    let on = Terms {
        passers: true,
        ..Terms::default()
    };
    alone(fen, on)
}

#[test]
fn passers_count_the_kings_and_the_path_by_hand() {
    // No pieces: the endgame value alone. White's e6 pawn (rank weight
    // 12), both kings 5+ from e7: 12 * (10 * 5 - 4 * 5) quarters for the
    // kings, 12 * 30 for a path no enemy attacks: 180 cp.
    assert_eq!(passers("8/8/4P3/8/8/8/8/K6k w - - 0 1"), 180.0);
    // Black's mirror image.
    assert_eq!(passers("k6K/8/8/8/8/4p3/8/8 w - - 0 1"), -180.0);
    // Black's king on e8, next to e7: 12 * (10 - 20) quarters, and
    // no path term since it attacks the square in front: -30 cp.
    assert_eq!(passers("4k3/8/4P3/8/8/8/8/K7 w - - 0 1"), -30.0);
    // With a rook (2 phase units of 24) the taper weighs the
    // middlegame by 1/12. A rook on h8 attacks e8, not e7: the kings as
    // above, 12 * (5, 10) quarters for a square in front not attacked.
    let taper = |mg: f64, eg: f64, units: f64| mg * units / 24.0 + eg * (1.0 - units / 24.0);
    let close = |a: f64, b: f64| assert!((a - b).abs() < 1e-9, "{a} {b}");
    close(
        passers("7r/8/4P3/8/8/8/8/K6k w - - 0 1"),
        taper(15.0, 120.0, 2.0),
    );
    // White's king on d7: 1 from e7, so 12 * (50 - 4) quarters, and it
    // defends e7: 12 * (5 + 2, 10 + 5) quarters for the path.
    let defended = passers("7r/3K4/4P3/8/8/8/8/7k w - - 0 1");
    close(
        defended,
        taper(21.0, (12.0 * 46.0 + 12.0 * 15.0) / 4.0, 2.0),
    );
    // A pawn on its third rank has no dynamic terms; a blocked one keeps
    // the kings' term only (a knight: 1 phase unit).
    assert_eq!(passers("8/8/8/8/8/4P3/8/K6k w - - 0 1"), 0.0);
    close(
        passers("8/4n3/4P3/8/8/8/8/K6k w - - 0 1"),
        taper(0.0, 90.0, 1.0),
    );
}

/// The connected-pawn terms alone.
fn connected(fen: &str) -> f64 {
    let on = Terms {
        connected: true,
        ..Terms::default()
    };
    alone(fen, on)
}

#[test]
fn connected_pawns_count_phalanx_support_and_rank_by_hand() {
    // No pieces: the endgame value alone. d3 and e3 (rank weight 12
    // quarters) in a phalanx, unopposed: 12 * 3 quarters each in the
    // middlegame, counted by (2 - 1) / 4 in the endgame (2: the third
    // rank counted from 0): 2 * 36 / 16 = 4.5 cp.
    assert_eq!(connected("4k3/8/8/8/8/3PP3/8/4K3 w - - 0 1"), 4.5);
    // Black's mirror image.
    assert_eq!(connected("4k3/8/3pp3/8/8/8/8/4K3 w - - 0 1"), -4.5);
    // e3 opposed by e7: 12 * 2 for it, 12 * 3 for d3: 60 / 16 cp.
    assert_eq!(connected("4k3/4p3/8/8/8/3PP3/8/4K3 w - - 0 1"), 3.75);
    // e4 defended by d3, not beside it: (16 * 2 + 20) quarters, counted
    // by 2 / 4 in the endgame: 6.5 cp; d3 alone is not connected.
    assert_eq!(connected("4k3/8/8/8/4P3/3P4/8/4K3 w - - 0 1"), 6.5);
    // Apart (d3 and f3): nothing.
    assert_eq!(connected("4k3/8/8/8/8/3P1P2/8/4K3 w - - 0 1"), 0.0);
    // A rook (2 phase units of 24): the middlegame's 2 * 9 cp weighs 1/12.
    let v = connected("4k3/8/8/8/8/3PP3/8/4K2R w - - 0 1");
    let want = 18.0 * 2.0 / 24.0 + 4.5 * 22.0 / 24.0;
    assert!((v - want).abs() < 1e-9, "{v} {want}");
}

#[test]
fn safe_checks_add_to_the_king_danger_by_hand() {
    let checks = |fen: &str| {
        let on = Terms {
            checks: true,
            ..Terms::default()
        };
        alone(fen, on)
    };
    let near = |v: f64, want: f64| assert!((v - want).abs() < 1e-9, "{v} {want}");
    // The queen on d4 bears on f2 (5 units, one piece: no danger on
    // its own) and checks safely from d1: a second role, 3 more units,
    // 2.5 * 8^2 = 160 cp in the middlegame; the queen is 4 phase
    // units of 24.
    near(
        checks("6k1/8/8/8/3q4/8/5PPP/6K1 w - - 0 1"),
        -160.0 * 4.0 / 24.0,
    );
    // The same for Black's king (mirror image).
    near(
        checks("6k1/5ppp/8/3Q4/8/8/8/6K1 w - - 0 1"),
        160.0 * 4.0 / 24.0,
    );
    // A knight on c3 checks safely from e2 as well: 3 more units,
    // 2.5 * 11^2 (knight 1 phase unit).
    near(
        checks("6k1/8/8/8/3q4/2n5/5PPP/6K1 w - - 0 1"),
        -2.5 * 121.0 * 5.0 / 24.0,
    );
    // A rook on b1 guards every square on the first rank: the queen's
    // checks there are unsafe, and the g-file and diagonals are
    // blocked, so nothing is added.
    near(checks("6k1/8/8/8/3q4/8/5PPP/1R4K1 w - - 0 1"), 0.0);
    // A square the enemy occupies is none it can check from: the
    // knight on d1 blocks the first rank, and the queen's attack on
    // d1 (its own piece) is no check (both bear on f2 already: the
    // danger is the same with and without the term).
    near(checks("6k1/8/8/8/3q4/8/5PPP/3n2K1 w - - 0 1"), 0.0);
}
