//! The search evaluation's tests: the per-square corrections of the piece-square
//! table, and the structure terms of the mobility loop and its cache against
//! the plain ones, on random chess games.

use super::*;
use crate::board::MoveList;
use crate::play::random_move;
use crate::rng::game_rng;
use crate::variants::{chess::Chess, Game, Options};

/// Calls `visit` on every decision state of `games` random chess games
/// (game `i` on `game_rng(seed, i)`), each cut after `plies` plies.
fn for_each_random_chess_state(seed: u64, games: u64, plies: u32, mut visit: impl FnMut(&Chess)) {
    let mut ml = MoveList::new();
    for game in 0..games {
        let mut g = Chess::new(&Options::new()).unwrap();
        let mut rng = game_rng(seed, game);
        while matches!(g.node(), Node::Decision(_)) && g.progress().plies < plies {
            visit(&g);
            let m = random_move(&g, &mut rng, &mut ml);
            g.play(m);
        }
    }
}

/// With `pst` the table of an 8x8 board is the formula's plus each
/// square's correction seen from the piece's side (a Black piece on
/// e8 gets the correction of e1); other boards get none.
#[test]
fn corrected_table_adds_the_correction_of_the_square_seen_from_its_side() {
    let plain = SquareTable::new(&WEIGHTS, 8, 8, false);
    let corrected = SquareTable::new(&WEIGHTS, 8, 8, true);
    for c in Color::ALL {
        for r in Role::ALL {
            for sq in 0..64u8 {
                let (pm, pe) = plain.table[c as usize][r.index()][sq as usize];
                let (cm, ce) = corrected.table[c as usize][r.index()][sq as usize];
                let own = if c == Color::White { sq } else { sq ^ 56 };
                let (dm, de) = pst::CORRECTIONS[r.index()][own as usize];
                assert_eq!(
                    (cm, ce),
                    (pm + dm as f64, pe + de as f64),
                    "{c:?} {r:?} {sq}"
                );
                assert_eq!(pst::correction(c, r, sq), (dm as f64, de as f64));
            }
        }
    }
    let small = SquareTable::new(&WEIGHTS, 5, 5, true).table;
    assert_eq!(small, SquareTable::new(&WEIGHTS, 5, 5, false).table);
}

/// The evaluator's `pst` switch adds, on every board of random chess
/// games, the tapered sum of the pieces' corrections (White's minus
/// Black's) and nothing else; switching back gives the plain value.
#[test]
fn pst_switch_adds_the_tapered_corrections() {
    let mut e = Evaluator::with_set(tuned::WeightSet::Default);
    e.set_structure(true);
    let mut moved = 0;
    for_each_random_chess_state(3, 10, 150, |g| {
        let p = g.position();
        e.set_pst(false);
        let plain = e.static_value(g, 0);
        e.set_pst(true);
        let corrected = e.static_value(g, 0);
        let ph = mg_share(p);
        let mut want = 0.0;
        for c in Color::ALL {
            let sign = if c == Color::White { 1.0 } else { -1.0 };
            for r in Role::ALL {
                for s in p.pieces(c, r) {
                    let (m, eg) = pst::correction(c, r, s);
                    want += sign * (m * ph + eg * (1.0 - ph));
                }
            }
        }
        assert!(
            (corrected - plain - want).abs() < 1e-6,
            "{corrected} {plain} {want}"
        );
        moved += (want != 0.0) as u32;
        e.set_pst(false);
        assert_eq!(e.static_value(g, 0).to_bits(), plain.to_bits());
    });
    assert!(moved > 500, "{moved}");
}

/// The search's path (king-zone attackers counted in the mobility loop,
/// pawn terms from the cache) gives exactly the board terms plus the
/// structure terms computed on their own, also after the cache's
/// entries were replaced by other pawn structures many times.
#[test]
fn structure_in_the_mobility_loop_and_cache_equals_the_plain_terms() {
    let table = SquareTable::new(&WEIGHTS, 8, 8, false);
    // One cache per weight set: a cache's entries hold one set's values.
    let mut caches = [(); 2].map(|_| structure::PawnCache::default());
    let mut boards = 0;
    for_each_random_chess_state(7, 40, 200, |g| {
        let p = g.position();
        for bits in 0..32 {
            let terms = structure::Terms {
                threats: bits & 1 != 0,
                passers: bits & 2 != 0,
                connected: bits & 4 != 0,
                checks: bits & 8 != 0,
                fitted: bits & 16 != 0,
            };
            let cache = &mut caches[terms.fitted as usize];
            let fast = board_structure_cp(p, &WEIGHTS, &table, cache, terms);
            let plain = board_cp(p, &WEIGHTS, &table) + structure::structure_cp(p, terms);
            assert_eq!(fast.to_bits(), plain.to_bits(), "{fast} {plain}");
        }
        boards += 1;
    });
    assert!(boards > 2000, "{boards}");
}
