//! The maximum-dice shortcuts of `turn` against playing the moves out.

use super::after::has_move_after;
use super::turn;
use super::*;
use crate::board::{MoveKind, RoleSet};
use crate::play::{game_rng, random_move};
use rand::RngExt;

/// At every decision of random games (castling, en passant and promotions
/// among them), for every pseudo-legal move that does not take the king
/// and every face: whether the face can move after it, on bitboards,
/// agrees with playing the move and generating.
#[test]
fn has_move_after_agrees_with_playing_the_move() {
    let (mut checked, mut kinds) = (0u64, [0u64; 4]);
    for i in 0..40 {
        let mut g = DiceChess3::new(&Options::new()).unwrap();
        let mut rng = game_rng(7, i);
        let (mut outcomes, mut buf) = (Outcomes::new(), MoveList::new());
        loop {
            match g.node() {
                Node::Terminal => break,
                Node::Chance => {
                    g.chance_outcomes(&mut outcomes);
                    g.apply_outcome(outcomes.sample(rng.random::<f64>()));
                }
                Node::Decision(_) => {
                    let pos = &g.pos;
                    let mut all = MoveList::new();
                    pos.pseudo_moves_of(RoleSet::ALL, &mut all);
                    for &m in all.iter().filter(|&&m| !turn::captures_king(pos, m)) {
                        let mut after = pos.clone();
                        after::play_within_turn(&mut after, m);
                        let sets = Role::ALL.map(|r| r.bit());
                        for roles in sets.into_iter().chain([RoleSet::ALL]) {
                            assert_eq!(
                                has_move_after(pos, m, roles),
                                after.has_pseudo_move_of(roles),
                                "{} after {}",
                                g.fen(),
                                m.uci()
                            );
                            checked += 1;
                        }
                        match m.kind() {
                            MoveKind::Castle => kinds[0] += 1,
                            MoveKind::EnPassant => kinds[1] += 1,
                            MoveKind::Promotion(_) => kinds[2] += 1,
                            _ => kinds[3] += 1,
                        }
                    }
                    let m = random_move(&g, &mut rng, &mut buf);
                    g.play(m);
                }
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
    assert!(
        kinds.iter().all(|&n| n > 0),
        "castling, en passant, promotions, others: {kinds:?}"
    );
}
