//! Random decisions without the whole legal list: random playouts draw one
//! move per decision, and the maximum-dice rule (docs/rules.md §10) is the
//! costly part of listing the legal moves (every move needs a proof that
//! the rest of the turn can still use the maximum). So a draw takes the
//! candidates (the pseudo-legal moves of the dice left, a superset of the
//! legal moves), picks one uniformly, tests only that one, and if it is
//! illegal removes it and picks again among the rest.
//!
//! This is exactly uniform over the legal moves: each pick is uniform over
//! the candidates left, every legal move is always among them, and only
//! illegal ones are removed, so whenever a pick lands on a legal move every
//! legal move was equally likely to be it.

use super::turn::{captures_king, face_of, keeps_two, LegalTest};
use super::witness::{changed_squares, Witnesses};
use super::{DiceChess3, Phase};
use crate::board::{Move, MoveList};
use crate::rng::{uniform_index, GameRng};

impl DiceChess3 {
    /// A uniformly random move of [`crate::variants::Game::legal_moves`]
    /// at a decision node, by rejection (see the module doc).
    pub(super) fn sample_legal(&self, rng: &mut GameRng, buf: &mut MoveList) -> Move {
        debug_assert!(self.phase == Phase::Moving, "no decision to sample");
        buf.clear();
        // The first decision's candidates come with the roll (and the
        // chain that showed the maximum); later ones are generated.
        let first = self.candidates(buf);
        debug_assert!(!buf.is_empty(), "decision node without candidates");
        let (pos, left) = (&self.pos, &self.left);
        match self.need {
            // Every candidate is legal (with one die to use, any move is).
            0 | 1 => buf[uniform_index(rng, buf.len())],
            // One more die after this move: the exact test on bitboards is
            // cheaper than witnesses for the few moves drawn.
            2 => draw_legal(rng, buf, |m| keeps_two(pos, left, m)),
            need => {
                // Most draws are settled by the roll's chain: a move clear
                // of it (or taking the king) is legal. The full test (with
                // witnesses) is built at the first draw it does not settle.
                let chain = if first { self.first.chain } else { None };
                let quick = |m: Move| {
                    captures_king(pos, m)
                        || chain.is_some_and(|c| {
                            (c.squares_without(face_of(pos, m)) & changed_squares(m, pos.turn()))
                                .is_empty()
                        })
                };
                let i = uniform_index(rng, buf.len());
                let m = buf[i];
                if quick(m) {
                    return m;
                }
                // Witnesses read a list that the draws do not change.
                let list;
                let wit = match self.first.witnesses() {
                    Some(wit) => wit,
                    None => {
                        list = buf.clone();
                        Witnesses::new(pos, &list)
                    }
                };
                let mut test = LegalTest::new(pos, &wit, left, need);
                if test.is_legal(m) {
                    return m;
                }
                buf.swap_remove(i);
                draw_legal(rng, buf, |m| quick(m) || test.is_legal(m))
            }
        }
    }
}

/// Draws candidates of `buf` uniformly, removing each one that is not
/// `legal`, until one is (there must be one).
#[inline(always)]
fn draw_legal(rng: &mut GameRng, buf: &mut MoveList, mut legal: impl FnMut(Move) -> bool) -> Move {
    loop {
        let i = uniform_index(rng, buf.len());
        let m = buf[i];
        if legal(m) {
            return m;
        }
        buf.swap_remove(i);
    }
}
