//! The game's invariants ([`crate::variants::Game::check_invariants`]):
//! the phase's state, the cached maximum of usable dice against the exact
//! search, and the legal moves against the exact search move by move.

use super::turn::{self, DiceLeft};
use super::{after, DiceChess3, Phase};
use crate::board::{Color, MoveList};
use crate::variants::Game;

impl DiceChess3 {
    pub(super) fn invariants(&self) -> Result<(), String> {
        let p = &self.pos;
        if p.hash() != p.compute_hash() {
            return Err("incremental hash differs from recomputed hash".into());
        }
        match self.phase {
            Phase::Over => {
                if self.progress.result.is_none() {
                    return Err("over without a result".into());
                }
            }
            Phase::Chance => {
                if self.roll.is_some() || self.left != DiceLeft::NONE {
                    return Err("dice shown at a chance node".into());
                }
            }
            Phase::Moving => {
                if p.king(Color::White).is_none() || p.king(Color::Black).is_none() {
                    return Err("a king is missing in a running game".into());
                }
                let n = self.left.total();
                if self.need == 0 || self.need > n {
                    return Err(format!("dice to use {} of {n} left", self.need));
                }
                let exact = (1..=n).rev().find(|&k| turn::can_use(p, &self.left, k));
                if self.need != exact.unwrap_or(0) {
                    return Err("cached maximum of usable dice is stale".into());
                }
                if n < 3 && p.ep_square().is_some() {
                    return Err("en passant after the first move of a turn".into());
                }
                let mut ml = MoveList::new();
                self.legal_moves(&mut ml);
                if ml.is_empty() {
                    return Err("decision node without legal moves".into());
                }
                // The fast witness agrees with the exact search.
                let mut all = MoveList::new();
                p.pseudo_moves_of(turn::roles_left(&self.left), &mut all);
                for &m in all.iter() {
                    let mut rest = self.left;
                    rest.take(turn::face_of(p, m));
                    let mut after = p.clone();
                    after::play_within_turn(&mut after, m);
                    let exact =
                        turn::captures_king(p, m) || turn::can_use(&after, &rest, self.need - 1);
                    if exact != ml.contains(m) {
                        return Err(format!(
                            "move {} legal by the exact search: {exact}",
                            m.uci()
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}
