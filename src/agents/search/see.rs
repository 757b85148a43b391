//! Chess facts the pruning needs without playing a move: static exchange
//! evaluation (whether a capture wins at least a threshold of material
//! once both sides have recaptured on its square with their least
//! valuable pieces for as long as that pays, pins ignored; only sound
//! where any piece may recapture, chess, hence the `see` option) and
//! whether a quiet move gives check.

use crate::board::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, pawn_attack_sources, rook_attacks,
};
use crate::board::{Bitboard, Move, MoveKind, Position, Role};

/// Whether the quiet move `m` (not a capture or promotion) may give
/// check on `p`: a direct check by the moved piece or a discovered one by
/// a slider behind it. Castling counts as a check (the rook's is not
/// worked out).
pub fn quiet_may_check(p: &Position, m: Move) -> bool {
    if !matches!(m.kind(), MoveKind::Normal | MoveKind::DoublePush) {
        return true;
    }
    let us = p.turn();
    let Some(king) = p.king(!us) else {
        return false;
    };
    let (from, to) = (m.from(), m.to());
    let Some(role) = p.role_at(from) else {
        return true;
    };
    let occ = p.occupied().without(from).with(to);
    if p.role_attacks(us, role, to, occ).contains(king) {
        return true;
    }
    let ours = p.by_color(us).without(from);
    let diag = (p.by_role(Role::Bishop) | p.by_role(Role::Queen)) & ours;
    let ortho = (p.by_role(Role::Rook) | p.by_role(Role::Queen)) & ours;
    (bishop_attacks(king, occ) & diag).any() || (rook_attacks(king, occ) & ortho).any()
}

/// [`quiet_may_check`] for many moves of one position: the squares from
/// which each role checks the enemy king and the pieces whose move may
/// uncover a check are worked out once, so that most moves are one
/// membership test. The moves these do not settle (castling and other
/// special moves, a move of a piece that shields the king from one of
/// ours) and every move of a position where one of ours already attacks
/// the king go through [`quiet_may_check`] itself, so the answers are its
/// own.
pub struct CheckSquares {
    /// Whether the sets are used (an enemy king and no check standing).
    used: bool,
    /// By role: the squares a piece of that role checks from.
    from: [Bitboard; 6],
    /// Our pieces alone between the enemy king and one of our sliders.
    shields: Bitboard,
}

impl CheckSquares {
    pub fn new(p: &Position) -> CheckSquares {
        let us = p.turn();
        let unused = CheckSquares {
            used: false,
            from: [Bitboard::EMPTY; 6],
            shields: Bitboard::EMPTY,
        };
        let Some(king) = p.king(!us) else {
            return unused;
        };
        let (occ, ours) = (p.occupied(), p.by_color(us));
        let queens = p.by_role(Role::Queen);
        let diag = (p.by_role(Role::Bishop) | queens) & ours;
        let ortho = (p.by_role(Role::Rook) | queens) & ours;
        let mut shields = Bitboard::EMPTY;
        let snipers = (bishop_attacks(king, Bitboard::EMPTY) & diag)
            | (rook_attacks(king, Bitboard::EMPTY) & ortho);
        for s in snipers {
            let b = between(king, s) & occ;
            if b.is_empty() {
                // A check standing already (a dice variant's king left in
                // check): every move is worked out on its own.
                return unused;
            }
            if !b.more_than_one() {
                shields |= b & ours;
            }
        }
        let (b, r) = (bishop_attacks(king, occ), rook_attacks(king, occ));
        let mut from = [Bitboard::EMPTY; 6];
        from[Role::Pawn.index()] = pawn_attack_sources(us, Bitboard::from_square(king));
        from[Role::Knight.index()] = knight_attacks(king);
        from[Role::Bishop.index()] = b;
        from[Role::Rook.index()] = r;
        from[Role::Queen.index()] = b | r;
        from[Role::King.index()] = king_attacks(king);
        CheckSquares {
            used: true,
            from,
            shields,
        }
    }

    /// [`quiet_may_check`]`(p, m)`, `p` being the position these were
    /// made for.
    #[inline]
    pub fn may_check(&self, p: &Position, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        // A slider leaving a line of the king's along that line could see
        // the king from `to` through `from`: only if it was the first piece
        // on that line, so checking already, which `new` leaves to
        // `quiet_may_check`.
        if !self.used
            || !matches!(m.kind(), MoveKind::Normal | MoveKind::DoublePush)
            || self.shields.contains(from)
        {
            return quiet_may_check(p, m);
        }
        match p.role_at(from) {
            Some(role) => self.from[role.index()].contains(to),
            None => true,
        }
    }
}

/// Exchange values (centipawns): a king is worth more than any exchange.
const VALUE: [i32; 6] = [100, 320, 330, 500, 900, 20_000];

fn value(r: Role) -> i32 {
    VALUE[r.index()]
}

/// Whether capture `m` on `p` gains at least `threshold` centipawns by
/// static exchange. Moves other than plain captures (en passant,
/// promotions, castling, rotations) count as gaining it.
pub fn see_ge(p: &Position, m: Move, threshold: i32) -> bool {
    if !matches!(m.kind(), MoveKind::Normal) {
        return true;
    }
    let (from, to) = (m.from(), m.to());
    let Some(attacker) = p.role_at(from) else {
        return true;
    };
    let victim = p.role_at(to).map_or(0, value);
    // What the mover has won if the exchange stops now, less the threshold.
    let mut swap = victim - threshold;
    if swap < 0 {
        return false;
    }
    // ... and if the other side takes the piece that captured.
    swap = value(attacker) - swap;
    if swap <= 0 {
        return true;
    }
    let diag = p.by_role(Role::Bishop) | p.by_role(Role::Queen);
    let ortho = p.by_role(Role::Rook) | p.by_role(Role::Queen);
    let mut occ = p.occupied().without(from).without(to);
    let mut side = p.turn();
    let mut attackers = (p.attackers_to(to, side, occ) | p.attackers_to(to, !side, occ)) & occ;
    // 1 while the exchange, stopped now, meets the threshold for the mover.
    let mut res = 1;
    loop {
        side = !side;
        attackers &= occ;
        let ours = attackers & p.by_color(side);
        if ours.is_empty() {
            break;
        }
        res ^= 1;
        // Role::ALL runs from the least valuable to the king.
        let Some(role) = Role::ALL.into_iter().find(|&r| (ours & p.by_role(r)).any()) else {
            break;
        };
        if role == Role::King {
            // The king may take only if nothing can take it back.
            if (attackers & p.by_color(!side)).any() {
                res ^= 1;
            }
            break;
        }
        swap = value(role) - swap;
        if swap < res {
            break;
        }
        let sq = (ours & p.by_role(role)).first();
        occ = occ.without(sq);
        // Sliders behind the piece that moved now see the square.
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= bishop_attacks(to, occ) & diag;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= rook_attacks(to, occ) & ortho;
        }
    }
    res != 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Geometry, MoveList};
    use crate::notation::fen::{parse_fen, FenRules};
    use crate::play::{play_out, random_move};
    use crate::rng::game_rng;
    use crate::variants::{AnyGame, Game, Options, VARIANTS};

    /// Every move of the positions of random games of every variant, and
    /// of their boards with the other side to move (so that kings left in
    /// check and pieces shielding them are met): the per-position sets
    /// answer as [`quiet_may_check`] does.
    #[test]
    fn check_squares_answer_as_quiet_may_check() {
        let mut ml = MoveList::new();
        let (mut moves, mut checking, mut shielded) = (0, 0, 0);
        let mut compare = |p: &Position| {
            let c = CheckSquares::new(p);
            let mut all = MoveList::new();
            p.pseudo_moves_of(crate::board::RoleSet::ALL, &mut all);
            for &m in all.iter() {
                let want = quiet_may_check(p, m);
                assert_eq!(c.may_check(p, m), want, "{p:?} {m:?}");
                moves += 1;
                checking += want as u32;
                shielded += c.shields.contains(m.from()) as u32;
            }
        };
        for v in VARIANTS {
            for game in 0..6 {
                let mut g = AnyGame::new(v, &Options::new()).unwrap();
                let mut rng = game_rng(13, game);
                crate::with_game!(&mut g, x => {
                    let decide = |g: &_, _, rng: &mut _| {
                        let p: &Position = Game::position(g);
                        compare(p);
                        let mut other = p.clone();
                        other.play_null();
                        compare(&other);
                        random_move(g, rng, &mut ml)
                    };
                    play_out(x, &mut rng, decide, |_, _, _, _| {});
                });
            }
        }
        assert!(
            moves > 300_000 && checking > 20_000 && shielded > 500,
            "{moves} {checking} {shielded}"
        );
    }

    fn capture(fen_text: &str, from: &str, to: &str) -> (Position, Move) {
        let (p, _) = parse_fen(fen_text, &FenRules::CHESS).unwrap();
        let sq = |s: &str| Geometry::STANDARD.parse_square(s).unwrap();
        (p, Move::new(sq(from), sq(to), MoveKind::Normal))
    }

    #[test]
    fn undefended_pawn_is_a_gain() {
        let (p, m) = capture("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "d1", "d5");
        assert!(see_ge(&p, m, 0));
        assert!(see_ge(&p, m, 100));
        assert!(!see_ge(&p, m, 101));
    }

    #[test]
    fn defended_pawn_loses_the_rook() {
        let (p, m) = capture("4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1", "d1", "d5");
        assert!(!see_ge(&p, m, 0));
        // Pawn takes pawn, recaptured: even.
        let (p, m) = capture("4k3/8/4p3/3p4/4P3/8/8/4K3 w - - 0 1", "e4", "d5");
        assert!(see_ge(&p, m, 0));
        assert!(!see_ge(&p, m, 1));
    }

    #[test]
    fn x_ray_batteries_count() {
        // Rook takes a knight defended by a rook, backed by a second rook:
        // R x N, r x R, R x r wins a knight for nothing net... N + R - R.
        let (p, m) = capture("3rk3/8/8/3n4/8/8/3R4/3RK3 w - - 0 1", "d2", "d5");
        assert!(see_ge(&p, m, 320));
        assert!(!see_ge(&p, m, 321));
        // Without the second white rook the knight costs the rook.
        let (p, m) = capture("3rk3/8/8/3n4/8/8/3R4/4K3 w - - 0 1", "d2", "d5");
        assert!(!see_ge(&p, m, 0));
    }

    #[test]
    fn quiet_checks_direct_and_discovered() {
        let mv = |p: &Position, from: &str, to: &str| {
            let sq = |s: &str| Geometry::STANDARD.parse_square(s).unwrap();
            quiet_may_check(p, Move::new(sq(from), sq(to), MoveKind::Normal))
        };
        let (p, _) = parse_fen("4k3/8/8/8/8/8/4B3/4RK2 w - - 0 1", &FenRules::CHESS).unwrap();
        // The bishop leaves the e-file: the rook gives check.
        assert!(mv(&p, "e2", "d3"));
        // Bb5+ is a direct check.
        assert!(mv(&p, "e2", "b5"));
        // Kf2 checks nothing.
        assert!(!mv(&p, "f1", "f2"));
        let (p, _) = parse_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", &FenRules::CHESS).unwrap();
        assert!(mv(&p, "a1", "a8"));
        assert!(!mv(&p, "a1", "a7"));
    }

    #[test]
    fn king_cannot_take_into_a_defended_square() {
        // Nxe5: the king on f6 may not take back while the rook on e1
        // guards e5, so the pawn is won.
        let (p, m) = capture("8/8/5k2/4p3/2N5/8/8/4R1K1 w - - 0 1", "c4", "e5");
        assert!(see_ge(&p, m, 100));
        assert!(!see_ge(&p, m, 101));
        // Without the rook, Kxe5 wins the knight for the pawn.
        let (p, m) = capture("8/8/5k2/4p3/2N5/8/8/6K1 w - - 0 1", "c4", "e5");
        assert!(!see_ge(&p, m, 0));
    }
}
