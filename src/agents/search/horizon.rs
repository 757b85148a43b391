//! Wide chance nodes on the horizon (a Dice Chess roll: 21 outcomes, Vegas:
//! 30, three dice: 56): searching each outcome costs more than a ply, and
//! the chance state's own static value ignores that the player who rolls
//! next may capture a hanging piece, if the roll allows it.
//!
//! With `hcap` (the default), each outcome is valued by the static value
//! plus the best capture its mover can make, guessed without searching: the
//! victim's value, less the capturer's when the square is defended after
//! the capture (one exchange, as a static exchange evaluation's first
//! step). A capture of the king ends the game and is valued as such. This
//! is one node, like the static value it replaces. A roll of piece dice
//! leaves the board as it is, so the board is evaluated once (an outcome
//! that changes a piece, a Fluky die's new face, is valued on its own
//! board); where the variant names
//! the roles a roll lets move (`Game::search_roll_roles`), the captures are
//! listed once and each roll takes the best of its roles', so a roll costs
//! a few instructions, not a copy of the state and a move list.

use super::ordering::is_capture;
use super::threats::{king_in_two, roles_among, takes_in_two};
use super::{terminal_value, Engine, MATE};
use crate::agents::eval::Evaluate;
use crate::board::{Bitboard, Move, MoveKind, MoveList, Position, Role, RoleSet};
use crate::variants::{Node, Outcomes, Player};

impl Engine {
    /// The value for `pov` of the wide chance node `g` at the horizon
    /// (`ply` plies from the root): the exact expectation (in utility) over
    /// its outcomes of the static value with each outcome's best capture.
    pub(super) fn wide_horizon<G: Evaluate>(&mut self, g: &G, pov: Player, ply: usize) -> f64 {
        let mut o = Outcomes::new();
        g.chance_outcomes(&mut o);
        let ut = self.eval.utility;
        let mut memo = ut.memo();
        let base = self.eval.static_value(g, pov);
        let mut ml = MoveList::new();
        // Best gain per role of the side to roll, and the roles that can
        // take the king (those rolls are played out).
        let by_role = o
            .as_slice()
            .first()
            .and_then(|&(id, _)| g.search_roll_roles(id))
            .map(|_| {
                let pos = g.position();
                pos.tactical_moves(&mut ml);
                self.gains_by_role(g.position(), &ml)
            });
        let mover_is_pov = g.position().turn() == g.color_of(pov);
        // Rolls of one move per die: the roles that take the king on a
        // second move after a first move of each role (`hking`).
        let in_two = match o.as_slice().first() {
            Some(&(id, _)) if self.params.hking && g.search_roll_dice(id).is_some() => {
                Some(king_in_two(g.position(), &mut ml))
            }
            _ => None,
        };
        // The roller takes the king with its second move: the roll, two
        // moves, then the end.
        let king_taken = if mover_is_pov {
            MATE - (ply + 3) as f64
        } else {
            -(MATE - (ply + 3) as f64)
        };
        // A roller in check (Dice Chess) passes on the rolls that show no
        // role with an answer, and the checker then takes the king on its
        // rolls that show an attacker: those rolls are played out, once
        // (every such roll leads to the same pass).
        let checked = self.params.hcheck && in_two.is_none() && g.position().is_check();
        let answers = (by_role.is_some() && checked).then(|| {
            let pos = g.position();
            pos.legal_moves(&mut ml);
            let from = ml
                .iter()
                .fold(Bitboard::EMPTY, |b, m| b | Bitboard::from_square(m.from()));
            roles_among(pos, from)
        });
        let mut passed: Option<f64> = None;
        let mut sum = 0.0;
        for &(id, p) in o.as_slice() {
            if p <= 0.0 {
                continue;
            }
            let roles = g.search_roll_roles(id);
            if let (Some(answers), Some(roles)) = (answers, roles) {
                if (roles.0 & answers.0) == 0 {
                    let v = match passed {
                        Some(v) => v,
                        None => *passed
                            .insert(self.outcome_played(g, id, base, pov, ply, &mut ml, true)),
                    };
                    sum += p * memo.utility(v);
                    continue;
                }
            }
            let fast = match (&by_role, roles) {
                (Some((gains, king)), Some(roles)) if (roles.0 & king.0) == 0 => {
                    let gain = Role::ALL
                        .iter()
                        .filter(|r| roles.contains(**r))
                        .map(|r| gains[r.index()])
                        .fold(0.0, f64::max);
                    Some(if mover_is_pov {
                        base + gain
                    } else {
                        base - gain
                    })
                }
                _ => None,
            };
            let two = match (&in_two, fast, g.search_roll_dice(id)) {
                (Some(t), Some(_), Some(dice)) => takes_in_two(t, &dice),
                _ => false,
            };
            let v = match fast {
                Some(_) if two => king_taken,
                Some(v) => v,
                None => self.outcome_played(g, id, base, pov, ply, &mut ml, true),
            };
            sum += p * memo.utility(v);
        }
        ut.centipawns(sum)
    }

    /// One outcome of [`Engine::wide_horizon`] played on a copy: its
    /// mover's legal captures after the roll (and a king capture played).
    /// A roll that passes the turn to another roll (a Random Move Number
    /// throw of 1) is followed by that roll when `pass` (one level): the
    /// next roller moves on the same board, and takes the king if the
    /// check stands.
    #[allow(clippy::too_many_arguments)]
    fn outcome_played<G: Evaluate>(
        &mut self,
        g: &G,
        id: crate::variants::Action,
        base: f64,
        pov: Player,
        ply: usize,
        ml: &mut MoveList,
        pass: bool,
    ) -> f64 {
        let mut child = g.clone();
        child.apply_outcome(id);
        // `base` values the board before the roll. A roll of piece dice
        // leaves it as it is, but a Fluky or Metamorph roll turns the moved
        // die to a new face (those rolls reach here only when `hexpand` is
        // below their four outcomes): that board is valued afresh, as
        // `base` is (no tempo). Only the pieces are compared (a Random Move
        // Number throw may pass the turn).
        let base = if child.position().same_pieces(g.position()) {
            base
        } else {
            match child.node() {
                Node::Decision(_) => self.eval.board_value(&child, pov),
                Node::Chance => self
                    .eval
                    .at_chance(&child, pov, |c| terminal_value(c, pov, ply + 2)),
                Node::Terminal => base,
            }
        };
        match child.node() {
            Node::Terminal => terminal_value(&child, pov, ply + 1),
            Node::Chance if pass => {
                let mut o = Outcomes::new();
                child.chance_outcomes(&mut o);
                let ut = self.eval.utility;
                let mut memo = ut.memo();
                let mut sum = 0.0;
                for &(next, p) in o.as_slice() {
                    let v = self.outcome_played(&child, next, base, pov, ply + 1, ml, false);
                    sum += p * memo.utility(v);
                }
                ut.centipawns(sum)
            }
            Node::Chance => base,
            Node::Decision(mover) => {
                // The roller mates with the moves it threw (`qmate`).
                let moves = child.search_moves_left().min(self.qmate);
                // Valued at the turn's full length, found sooner or not.
                if self
                    .mate_memo
                    .shortest_mate(child.position(), moves, ml)
                    .is_some()
                {
                    let v = MATE - (ply + 1 + moves as usize) as f64;
                    return if mover == pov { v } else { -v };
                }
                child.search_tactical_candidates(ml);
                match self.best_capture(child.position(), ml) {
                    Capture::King(m) => {
                        child.search_play(m);
                        if matches!(child.node(), Node::Terminal) {
                            terminal_value(&child, pov, ply + 2)
                        } else {
                            base
                        }
                    }
                    Capture::Gain(gain) if mover == pov => base + gain,
                    Capture::Gain(gain) => base - gain,
                }
            }
        }
    }

    /// Per role, the best one-exchange gain of the moves `ml` by that
    /// role's pieces (0 when none gains), and the roles that can take the
    /// king.
    fn gains_by_role(&self, pos: &Position, ml: &MoveList) -> ([f64; 6], RoleSet) {
        let mut gains = [0.0f64; 6];
        let mut king = RoleSet::EMPTY;
        for &m in ml.iter() {
            let Some(role) = pos.role_at(m.from()) else {
                continue;
            };
            match self.capture_gain(pos, m) {
                Some(Capture::King(_)) => king = king.with(role),
                Some(Capture::Gain(x)) => gains[role.index()] = gains[role.index()].max(x),
                None => {}
            }
        }
        (gains, king)
    }

    /// The best capture (or promotion) among the moves `ml` of the side to
    /// move in `pos`, by the one-exchange guess of the module's comment (0
    /// when none gains).
    fn best_capture(&self, pos: &Position, ml: &MoveList) -> Capture {
        let mut best = 0.0f64;
        for &m in ml.iter() {
            match self.capture_gain(pos, m) {
                Some(Capture::King(m)) => return Capture::King(m),
                Some(Capture::Gain(x)) => best = best.max(x),
                None => {}
            }
        }
        Capture::Gain(best)
    }

    /// The one-exchange gain of `m` when it captures or promotes.
    fn capture_gain(&self, pos: &Position, m: Move) -> Option<Capture> {
        let capture = is_capture(pos, m);
        let promotion = match m.kind() {
            MoveKind::Promotion(r) => Some(r),
            _ => None,
        };
        if !capture && promotion.is_none() {
            return None;
        }
        let victim = if !capture {
            None
        } else if matches!(m.kind(), MoveKind::EnPassant) {
            Some(Role::Pawn)
        } else {
            pos.role_at(m.to())
        };
        if victim == Some(Role::King) {
            return Some(Capture::King(m));
        }
        let mover = pos.role_at(m.from())?;
        let value = |r: Role| self.eval.piece_value(r);
        let lands = promotion.unwrap_or(mover);
        let mut gain = victim.map_or(0.0, value);
        if let Some(r) = promotion {
            gain += value(r) - value(Role::Pawn);
        }
        let occ = pos.occupied() & !Bitboard::from_square(m.from());
        if pos.attackers_to(m.to(), !pos.turn(), occ).any() {
            gain -= value(lands);
        }
        Some(Capture::Gain(gain))
    }
}

/// What [`Engine::capture_gain`] found.
enum Capture {
    /// The gain of a capture or promotion (0 when none gains).
    Gain(f64),
    /// A capture of the king.
    King(Move),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::search::ordering::is_capture;
    use crate::agents::search::Params;
    use crate::play::{random_move, sample_outcome};
    use crate::rng::game_rng;
    use crate::variants::fluky::Fluky;
    use crate::variants::{Game, Options};

    /// Whether no outcome of chance node `g` leaves its mover a capture or
    /// a promotion (the horizon's capture guess then adds nothing).
    fn no_roll_captures(g: &Fluky) -> bool {
        let (mut o, mut ml) = (Outcomes::new(), MoveList::new());
        g.chance_outcomes(&mut o);
        o.as_slice().iter().all(|&(id, _)| {
            let mut c = g.clone();
            c.apply_outcome(id);
            if !matches!(c.node(), Node::Decision(_)) {
                return true;
            }
            c.legal_moves(&mut ml);
            ml.iter().all(|&m| {
                !is_capture(c.position(), m) && !matches!(m.kind(), MoveKind::Promotion(_))
            })
        })
    }

    /// A Fluky roll turns the moved die to a new face. Under `hexpand=0`
    /// its four outcomes count as a wide roll, and where no outcome leaves
    /// a capture the horizon must value the roll as the exact expectation
    /// of the rolled boards (without tempo, as the horizon values a board
    /// a roll leaves as it is), not four times the board before the roll
    /// (found by fuzzing the search's options: a debug assertion said a
    /// horizon roll moved a piece).
    #[test]
    fn a_wide_fluky_roll_is_valued_on_the_faces_it_rolls() {
        let mut e = Engine::new(Params::default());
        let (mut ml, mut o) = (MoveList::new(), Outcomes::new());
        let mut checked = 0;
        for game in 0..40 {
            let mut g = Fluky::new("fluky", &Options::new()).unwrap();
            let mut rng = game_rng(17, game);
            for _ in 0..60 {
                match g.node() {
                    Node::Terminal => break,
                    Node::Decision(_) => {
                        let m = random_move(&g, &mut rng, &mut ml);
                        g.play(m);
                    }
                    Node::Chance => {
                        if no_roll_captures(&g) {
                            for pov in [0, 1] {
                                let horizon = e.wide_horizon(&g, pov, 3);
                                g.chance_outcomes(&mut o);
                                let ut = e.eval.utility;
                                let mut memo = ut.memo();
                                let mut sum = 0.0;
                                for &(id, p) in o.as_slice() {
                                    let mut c = g.clone();
                                    c.apply_outcome(id);
                                    let v = match c.node() {
                                        Node::Terminal => terminal_value(&c, pov, 4),
                                        _ => e.eval.board_value(&c, pov),
                                    };
                                    sum += p * memo.utility(v);
                                }
                                let exact = ut.centipawns(sum);
                                assert!(
                                    (horizon - exact).abs() < 1e-6,
                                    "{horizon} {exact} {}",
                                    g.fen()
                                );
                            }
                            checked += 1;
                        }
                        let a = sample_outcome(&g, &mut rng, &mut o);
                        g.apply_outcome(a);
                    }
                }
            }
        }
        assert!(checked > 50, "{checked}");
    }
}
