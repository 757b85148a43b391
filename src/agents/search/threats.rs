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
            let set = roles_among(pos, pos.attackers_to(king, us, occ) & !from & !to);
            match checks_directly(pos, m, a, king) {
                Some(lands) => set.with(lands),
                None => set,
            }
        };
        out[a.index()].0 |= attackers.0;
    }
    agrees_in_debug(out, king_in_two_by_copy, pos)
}

/// `fast`, which debug builds check against the slow way of finding it.
fn agrees_in_debug<T: PartialEq + std::fmt::Debug>(
    fast: T,
    slow: impl FnOnce(&Position) -> T,
    pos: &Position,
) -> T {
    debug_assert_eq!(fast, slow(pos), "{}", crate::notation::fen::write_fen(pos));
    fast
}

/// The roles of the pieces `set` of `pos`.
pub(super) fn roles_among(pos: &Position, set: Bitboard) -> RoleSet {
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
        if mates_in_one(&p1, &mut second) {
            return true;
        }
    }
    false
}

/// The mates found on the last two boards asked about: the throws of a
/// horizon node leave its board as it is (and those after a passing throw
/// leave the next one), so its outcomes ask about the same boards.
#[derive(Default)]
pub(super) struct MateMemo {
    slots: [Option<(u64, [Option<bool>; 2])>; 2],
    next: usize,
}

impl MateMemo {
    /// The fewest moves in a row (up to `moves`: 0, 1 or 2) with which
    /// the side to move mates, if it can: [`mates_in_one`], then
    /// [`mates_in_two_moves`]. One lookup serves both lengths.
    pub(super) fn shortest_mate(
        &mut self,
        pos: &Position,
        moves: u32,
        ml: &mut MoveList,
    ) -> Option<u32> {
        if moves == 0 {
            return None;
        }
        // The board's hash leaves the en-passant square out.
        let key = pos.hash()
            ^ pos.ep_square().map_or(0, |e| {
                (u64::from(e) + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            });
        let i = match self
            .slots
            .iter()
            .position(|s| matches!(s, Some((k, _)) if *k == key))
        {
            Some(i) => i,
            None => {
                let i = self.next;
                self.next ^= 1;
                self.slots[i] = Some((key, [None, None]));
                i
            }
        };
        let found = &mut self.slots[i].as_mut().expect("slot just filled").1;
        if *found[0].get_or_insert_with(|| mates_in_one(pos, ml)) {
            return Some(1);
        }
        (moves >= 2 && *found[1].get_or_insert_with(|| mates_in_two_moves(pos))).then_some(2)
    }
}

/// Whether some legal move of the side to move mates at once (or takes a
/// king left in check). Only moves
/// that can give check are played: those landing where a piece (or a
/// promoted pawn) attacks the enemy king, castlings and en passant, and
/// every move when one of our pieces alone shields the king from one of
/// our sliders (a discovered check).
pub(super) fn mates_in_one(pos: &Position, ml: &mut MoveList) -> bool {
    let us = pos.turn();
    let Some(king) = pos.king(!us) else {
        return false;
    };
    if pos.attackers_to(king, us, pos.occupied()).any() {
        // A check left standing (Random Move Number Chess): the king can
        // be taken, which wins as a mate does.
        return true;
    }
    let shields = shields_a_slider(pos, king);
    let within = if shields {
        Bitboard::FULL
    } else {
        check_squares(pos, king)
    };
    pos.legal_moves_within(within, ml);
    // Without a shield only the moved piece can check (or a castling rook,
    // or a pawn taken en passant uncovering a line): a move landing on
    // another role's check square is not played.
    let found = ml.iter().any(|&m| {
        let direct = || {
            pos.role_at(m.from())
                .and_then(|r| checks_directly(pos, m, r, king))
                .is_some()
        };
        (shields || m.is_castle_or_en_passant() || direct()) && mates_by(pos, m)
    });
    agrees_in_debug(found, mates_in_one_by_playing_all, pos)
}

/// The squares a move of the side to move must land on to give a direct
/// check to the king on `king`: where a pawn, knight, bishop, rook or queen
/// (a promotion's role included) would attack it, plus the castling king's
/// squares on the back rank and the en-passant square.
fn check_squares(pos: &Position, king: Square) -> Bitboard {
    let them = !pos.turn();
    // A pawn that promotes may itself block the line to the king (a2-a1=Q
    // against a king on a3): the lines are drawn as if such pawns were gone.
    let geo = pos.geometry();
    let before_last = match pos.turn() {
        crate::board::Color::White => geo.last_rank(pos.turn()) - 1,
        crate::board::Color::Black => geo.last_rank(pos.turn()) + 1,
    };
    let promoting = pos.pieces(pos.turn(), Role::Pawn) & Bitboard::rank(before_last);
    let occ = pos.occupied() & !promoting;
    let mut s = Bitboard::EMPTY;
    for r in [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook] {
        // Attacks are symmetric: a piece of ours on these squares attacks
        // the king (pawns seen from the king's colour).
        s |= pos.role_attacks(them, r, king, occ);
    }
    let own = pos.castling_rights()
        & match pos.turn() {
            crate::board::Color::White => WHITE_CASTLES,
            crate::board::Color::Black => BLACK_CASTLES,
        };
    if own != 0 {
        s |= Bitboard::rank(pos.geometry().back_rank(pos.turn()));
    }
    if let Some(ep) = pos.ep_square() {
        s |= Bitboard::from_square(ep);
    }
    s
}

const WHITE_CASTLES: u8 =
    crate::board::position::WHITE_KINGSIDE | crate::board::position::WHITE_QUEENSIDE;
const BLACK_CASTLES: u8 =
    crate::board::position::BLACK_KINGSIDE | crate::board::position::BLACK_QUEENSIDE;

/// Whether one of our pieces is the only piece between the enemy king on
/// `king` and one of our bishops, rooks or queens on a line.
fn shields_a_slider(pos: &Position, king: Square) -> bool {
    let us = pos.turn();
    let occ = pos.occupied();
    let ours = pos.by_color(us);
    let queens = pos.pieces(us, Role::Queen);
    [
        (Role::Rook, pos.pieces(us, Role::Rook) | queens),
        (Role::Bishop, pos.pieces(us, Role::Bishop) | queens),
    ]
    .into_iter()
    .any(|(line, sliders)| {
        sliders.any() && {
            let shields = pos.role_attacks(us, line, king, occ) & ours;
            let behind = pos.role_attacks(us, line, king, occ & !shields);
            (behind & sliders & !shields).any()
        }
    })
}

/// [`mates_in_one`] the slow way, every legal move played (the debug
/// builds' check of the fast one).
fn mates_in_one_by_playing_all(pos: &Position) -> bool {
    let mut ml = MoveList::new();
    pos.legal_moves(&mut ml);
    ml.iter().any(|&m| mates_by(pos, m))
}

/// The role the piece of role `role` that `m` moves lands as (a
/// promotion's, else its own), if from its new square it attacks `king`
/// (through the occupancy after the move; castlings and en passant move
/// or remove a second piece, which this leaves out).
fn checks_directly(pos: &Position, m: Move, role: Role, king: Square) -> Option<Role> {
    let lands = match m.kind() {
        MoveKind::Promotion(r) => r,
        _ => role,
    };
    let occ = (pos.occupied() & !Bitboard::from_square(m.from())) | Bitboard::from_square(m.to());
    pos.role_attacks(pos.turn(), lands, m.to(), occ)
        .contains(king)
        .then_some(lands)
}

/// Whether `m` checks and leaves the other side without a legal move.
fn mates_by(pos: &Position, m: Move) -> bool {
    let mut p = pos.clone();
    p.play(m);
    p.is_check() && !p.has_legal_move()
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
    fn a_mate_in_one_is_found_among_the_checks_it_could_give() {
        let mates = |fen: &str| {
            mates_in_one(
                &parse_fen(fen, &FEN_RULES).expect(fen).0,
                &mut MoveList::new(),
            )
        };
        // Back-rank mate by a quiet rook move.
        assert!(mates("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"));
        // The same with an escape square: no mate.
        assert!(!mates("6k1/5p1p/8/8/8/8/8/R5K1 w - - 0 1"));
        // A discovered mate: any knight move but Nxh7 uncovers the rook
        // on a8 against the king boxed in by its pawns.
        assert!(mates("R4N1k/6pp/8/8/8/8/8/6K1 w - - 0 1"));
        // Mate by promotion: f8=Q (or R) against the boxed king.
        assert!(mates("7k/5Ppp/8/8/8/8/8/6K1 w - - 0 1"));
        // A rook on the f-file mates the king on f8 between its rooks
        // (castling or Rf1).
        assert!(mates("4rkr1/4p1p1/8/8/8/8/8/4K2R w K - 0 1"));
        // Mate by a promotion moving away from the king along the line the
        // pawn itself blocked: a2-a1=Q against the king on a3 (found by
        // fuzzing the search's options).
        assert!(mates("brk4r/8/7B/n1P3pP/4p3/K3QR2/pP5N/8 b - - 0 52"));
        // Bare kings: nothing can check.
        assert!(!mates("7k/8/8/8/8/8/8/6K1 w - - 0 1"));
    }

    #[test]
    fn the_checks_filter_finds_every_mate_in_one_of_random_games() {
        use rand::RngExt;
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let mut rng = crate::rng::game_rng(5, 0);
        let (mut ml, mut scratch) = (MoveList::new(), MoveList::new());
        let (mut positions, mut mates) = (0, 0);
        for _ in 0..150 {
            let (mut pos, _) = parse_fen(start, &FEN_RULES).unwrap();
            for _ in 0..200 {
                pos.legal_moves(&mut ml);
                if ml.is_empty() {
                    break;
                }
                let fast = mates_in_one(&pos, &mut scratch);
                assert_eq!(fast, mates_in_one_by_playing_all(&pos));
                positions += 1;
                mates += fast as u32;
                let m = ml.as_slice()[rng.random_range(0..ml.len())];
                pos.play(m);
            }
        }
        assert!(
            positions > 10_000 && mates > 20,
            "{positions} positions, {mates} mates"
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
