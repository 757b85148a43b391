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
//! is one node, like the static value it replaces. Every outcome leaves the
//! board as it is, so the board is evaluated once; where the variant names
//! the roles a roll lets move (`Game::search_roll_roles`), the captures are
//! listed once and each roll takes the best of its roles', so a roll costs
//! a few instructions, not a copy of the state and a move list.

use super::ordering::is_capture;
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
                pos.legal_moves_within(pos.tactical_squares(), &mut ml);
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
        let mut sum = 0.0;
        for &(id, p) in o.as_slice() {
            if p <= 0.0 {
                continue;
            }
            let fast = match (&by_role, g.search_roll_roles(id)) {
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
                None => self.outcome_played(g, id, base, pov, ply, &mut ml),
            };
            sum += p * ut.utility(v);
        }
        ut.centipawns(sum)
    }

    /// One outcome of [`Engine::wide_horizon`] played on a copy: its
    /// mover's legal captures after the roll (and a king capture played).
    fn outcome_played<G: Evaluate>(
        &mut self,
        g: &G,
        id: crate::variants::Action,
        base: f64,
        pov: Player,
        ply: usize,
        ml: &mut MoveList,
    ) -> f64 {
        let mut child = g.clone();
        child.apply_outcome(id);
        // A roll moves no piece (a Random Move Number throw may pass the
        // turn, under `hexpand=0`, so only the pieces are compared).
        debug_assert!(
            child.position().same_pieces(g.position()),
            "a horizon roll moved a piece"
        );
        match child.node() {
            Node::Terminal => terminal_value(&child, pov, ply + 1),
            Node::Chance => base,
            Node::Decision(mover) => {
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

/// For a side to move that makes one move per die: per role `a` of a first
/// move, the roles whose pieces attack the enemy king after some move of a
/// piece of role `a` (the moved piece included, as the role it lands as).
/// Moves that take the king at once are left out (one die is enough).
/// Moves are pseudo-legal: these variants have no check.
pub(super) fn king_in_two(pos: &Position, ml: &mut MoveList) -> [RoleSet; 6] {
    let mut out = [RoleSet::EMPTY; 6];
    let us = pos.turn();
    let Some(king) = pos.king(!us) else {
        return out;
    };
    ml.clear();
    pos.pseudo_moves_of(RoleSet::ALL, ml);
    for &m in ml.iter() {
        let (Some(a), false) = (pos.role_at(m.from()), m.to() == king) else {
            continue;
        };
        let attackers = if m.is_castle_or_en_passant() {
            // Two pieces move or one vanishes off the target square: play it.
            let mut after = pos.clone();
            after.play(m);
            let att = after.attackers_to(king, us, after.occupied());
            out[a.index()].0 |= roles_among(&after, att).0;
            continue;
        } else {
            // The pieces that stay where they are, seen through the new
            // occupancy, plus the moved piece from its new square.
            let (from, to) = (
                Bitboard::from_square(m.from()),
                Bitboard::from_square(m.to()),
            );
            let occ = (pos.occupied() & !from) | to;
            let lands = match m.kind() {
                MoveKind::Promotion(r) => r,
                _ => a,
            };
            let mut set = roles_among(pos, pos.attackers_to(king, us, occ) & !from & !to);
            if pos.role_attacks(us, lands, m.to(), occ).contains(king) {
                set = set.with(lands);
            }
            set
        };
        out[a.index()].0 |= attackers.0;
    }
    debug_assert_eq!(
        out,
        king_in_two_by_copy(pos),
        "{}",
        crate::notation::fen::write_fen(pos)
    );
    out
}

/// The roles of the pieces `set` of `pos`.
fn roles_among(pos: &Position, set: Bitboard) -> RoleSet {
    Role::ALL
        .into_iter()
        .filter(|&r| (set & pos.by_role(r)).any())
        .fold(RoleSet::EMPTY, RoleSet::with)
}

/// [`king_in_two`] the slow way, every move played on a copy (the debug
/// builds' check of the fast one).
fn king_in_two_by_copy(pos: &Position) -> [RoleSet; 6] {
    let mut out = [RoleSet::EMPTY; 6];
    let us = pos.turn();
    let Some(king) = pos.king(!us) else {
        return out;
    };
    let mut ml = MoveList::new();
    pos.pseudo_moves_of(RoleSet::ALL, &mut ml);
    for &m in ml.iter() {
        let (Some(a), false) = (pos.role_at(m.from()), m.to() == king) else {
            continue;
        };
        let mut after = pos.clone();
        after.play(m);
        let att = after.attackers_to(king, us, after.occupied());
        out[a.index()].0 |= roles_among(&after, att).0;
    }
    out
}

/// Whether dice `dice` (counts by face = role index) allow a first move of
/// some role `a` and then a king capture by a role of `in_two[a]`, each
/// with a die of its own.
pub(super) fn takes_in_two(in_two: &[RoleSet; 6], dice: &[u8; 6]) -> bool {
    Role::ALL.iter().any(|&a| {
        let na = dice[a.index()];
        na > 0
            && Role::ALL
                .iter()
                .any(|&b| in_two[a.index()].contains(b) && dice[b.index()] > u8::from(a == b))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::{parse_fen, FenRules};

    const FEN_RULES: FenRules = FenRules::CHESS;

    fn dice(letters: &str) -> [u8; 6] {
        let mut n = [0u8; 6];
        for c in letters.chars() {
            n["PNBRQK".find(c).unwrap()] += 1;
        }
        n
    }

    #[test]
    fn a_king_taken_in_two_moves_needs_a_die_for_each() {
        // The knight on e4 shields the black king from the rook on e1: any
        // knight move uncovers the rook, and Nd6 or Nf6 attack e8 itself.
        let (pos, _) = parse_fen("4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1", &FEN_RULES).unwrap();
        let t = king_in_two(&pos, &mut MoveList::new());
        let n = Role::Knight.index();
        assert!(t[n].contains(Role::Rook) && t[n].contains(Role::Knight));
        assert_eq!(
            t[Role::Rook.index()],
            RoleSet::EMPTY,
            "a rook move keeps the knight between"
        );
        assert_eq!(t[Role::King.index()], RoleSet::EMPTY);
        assert!(takes_in_two(&t, &dice("NRP")), "knight away, rook takes");
        assert!(takes_in_two(&t, &dice("NNP")), "knight to f6, knight takes");
        assert!(
            !takes_in_two(&t, &dice("NPP")),
            "one knight die: no second move"
        );
        assert!(
            !takes_in_two(&t, &dice("RRQ")),
            "no first move frees the file"
        );
        assert!(!takes_in_two(&t, &dice("PPK")));
    }

    #[test]
    fn the_moved_piece_itself_may_take_the_king() {
        // Rd1-d8 or Rd1-e1 attack e8 (the second move is the same rook,
        // so it needs two rook dice); a king move changes nothing.
        let (pos, _) = parse_fen("4k3/8/8/8/8/8/8/3R2K1 w - - 0 1", &FEN_RULES).unwrap();
        let t = king_in_two(&pos, &mut MoveList::new());
        assert_eq!(t[Role::Rook.index()], RoleSet::EMPTY.with(Role::Rook));
        assert_eq!(t[Role::King.index()], RoleSet::EMPTY);
        assert!(takes_in_two(&t, &dice("RRP")));
        assert!(!takes_in_two(&t, &dice("RPK")));
        let (bare, _) = parse_fen("4k3/8/8/8/8/8/8/6K1 w - - 0 1", &FEN_RULES).unwrap();
        assert_eq!(
            king_in_two(&bare, &mut MoveList::new()),
            [RoleSet::EMPTY; 6]
        );
    }
}
