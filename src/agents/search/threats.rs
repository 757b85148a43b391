//! Threats of a turn of several moves: a side that moves once per die
//! (three-dice DiceChess) may take the king with its second move, which
//! one-move captures (`hcap`, quiescence) do not see (`hking`).

use crate::board::{Bitboard, Move, MoveKind, MoveList, Position, Role, RoleSet, Square};

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
            attackers_after_playing(pos, m, king)
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

/// The roles of the side to move's pieces that attack `king` after `m` is
/// played on a copy of `pos`.
fn attackers_after_playing(pos: &Position, m: Move, king: Square) -> RoleSet {
    let mut after = pos.clone();
    after.play(m);
    let att = after.attackers_to(king, pos.turn(), after.occupied());
    roles_among(&after, att)
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
        out[a.index()].0 |= attackers_after_playing(pos, m, king).0;
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

/// Whether the side to move, with two moves in a row (a Random Move Number
/// Chess turn, which a check ends), mates with them: a first move that
/// mates at once, or a first move without check and then a mating move.
pub(super) fn mates_in_two_moves(pos: &Position) -> bool {
    let mut first = MoveList::new();
    let mut second = MoveList::new();
    pos.legal_moves(&mut first);
    for &m1 in first.iter() {
        let mut p1 = pos.clone();
        p1.play(m1);
        if p1.is_check() {
            if !p1.has_legal_move() {
                return true;
            }
            continue;
        }
        p1.play_null();
        p1.legal_moves(&mut second);
        for &m2 in second.iter() {
            let mut p2 = p1.clone();
            p2.play(m2);
            if p2.is_check() && !p2.has_legal_move() {
                return true;
            }
        }
    }
    false
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

    #[test]
    fn two_moves_in_a_row_mate_where_one_does_not() {
        let mates = |fen: &str| mates_in_two_moves(&parse_fen(fen, &FEN_RULES).unwrap().0);
        // Ra7 (no check), then Rb8 mate; Rb8+ alone lets the king out.
        assert!(mates("7k/8/8/8/8/8/8/RR4K1 w - - 0 1"));
        // One rook and a distant king cannot mate in two moves.
        assert!(!mates("7k/8/8/8/8/8/8/R5K1 w - - 0 1"));
        // A first move that checks ends the turn, so it must mate itself:
        // with g7 and h7 shut in, Ra8 mates at once.
        assert!(mates("7k/6pp/8/8/8/8/8/R5K1 w - - 0 1"));
    }
}
