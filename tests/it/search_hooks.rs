//! The shortcuts the search takes through the `Game` trait agree with the
//! rules: `search_play` reaches the same state as `play`, and
//! `search_tactical_candidates` lists legal moves that include every
//! capture and promotion; at the board level, `legal_moves_within` is the
//! full list restricted to the given squares, `tactical_moves` its
//! captures, promotions and pawn moves to the last rank in its order, and `surely_has_legal_move`
//! never claims a move where there is none.

use crate::common::walk_random_game;
use dicechess::board::{Bitboard, MoveKind, MoveList, Position};
use dicechess::variants::{AnyGame, Game, Node, Options, VARIANTS};
use dicechess::with_game;

fn is_capture_or_promotion(p: &Position, m: dicechess::board::Move) -> bool {
    matches!(m.kind(), MoveKind::EnPassant | MoveKind::Promotion(_))
        || p.by_color(p.turn().other()).contains(m.to())
}

fn check_decision<G: Game>(g: &G) {
    let (mut legal, mut cands) = (MoveList::new(), MoveList::new());
    g.legal_moves(&mut legal);
    g.search_tactical_candidates(&mut cands);
    let pos = g.position();
    for &m in cands.iter() {
        assert!(
            legal.contains(m),
            "{}: candidate {m:?} is not legal",
            g.fen()
        );
    }
    for &m in legal.iter() {
        if is_capture_or_promotion(pos, m) {
            assert!(cands.contains(m), "{}: {m:?} missing", g.fen());
        }
        let (mut a, mut b) = (g.clone(), g.clone());
        a.play(m);
        b.search_play(m);
        assert_eq!(a.fen(), b.fen());
        assert_eq!(a.node(), b.node(), "{} then {m:?}", g.fen());
        assert_eq!(a.progress().result, b.progress().result);
        assert_eq!(a.search_key(), b.search_key());
        let (mut la, mut lb) = (MoveList::new(), MoveList::new());
        a.legal_moves(&mut la);
        b.legal_moves(&mut lb);
        assert_eq!(la.as_slice(), lb.as_slice(), "{} then {m:?}", g.fen());
    }
}

fn check_board(p: &Position) {
    let mut all = MoveList::new();
    p.legal_moves(&mut all);
    if p.surely_has_legal_move() {
        assert!(!all.is_empty(), "{p:?}: claimed a move");
    }
    assert_eq!(p.has_legal_move(), !all.is_empty());
    // Their pieces, a rank and the en-passant square: the shapes the
    // search asks for, and a patterned set that cuts through everything.
    let theirs = p.by_color(p.turn().other());
    let ep = p.ep_square().map_or(Bitboard::EMPTY, Bitboard::from_square);
    for within in [
        theirs | Bitboard::rank(7) | Bitboard::rank(0) | ep,
        theirs,
        Bitboard(0x0F0F_0F0F_0F0F_0F0F),
        Bitboard::rank(0) | Bitboard::rank(7),
    ] {
        let mut some = MoveList::new();
        p.legal_moves_within(within, &mut some);
        let expected: Vec<_> = all
            .iter()
            .copied()
            .filter(|m| within.contains(m.to()))
            .collect();
        let mut got = some.as_slice().to_vec();
        got.sort_by_key(|m| format!("{m:?}"));
        let mut want = expected;
        want.sort_by_key(|m| format!("{m:?}"));
        assert_eq!(got, want, "{p:?} within {within:?}");
    }
    // The quiescence list: exactly the captures and promotions of the full
    // list and its pawn moves to the last rank (Cubic pawns do not
    // promote), in its order (move ordering breaks ties by list order, so
    // the search's trees depend on it).
    let mut tactical = MoveList::new();
    p.tactical_moves(&mut tactical);
    let pawns = p.by_role(dicechess::board::Role::Pawn);
    let want: Vec<_> = all
        .iter()
        .copied()
        .filter(|&m| {
            is_capture_or_promotion(p, m)
                || (pawns.contains(m.from()) && p.tactical_squares().contains(m.to()))
        })
        .collect();
    assert_eq!(tactical.as_slice(), want.as_slice(), "{p:?}");
}

#[test]
fn search_shortcuts_agree_with_the_rules() {
    let (mut decisions, mut tactical) = (0, 0);
    for v in VARIANTS {
        for i in 0..8 {
            let mut g = AnyGame::new(v, &Options::new()).unwrap();
            with_game!(&mut g, x => {
                walk_random_game(x, 29, i, |s, _| {
                    if matches!(s.node(), Node::Decision(_)) {
                        decisions += 1;
                        check_decision(s);
                        check_board(s.position());
                        let mut c = MoveList::new();
                        s.search_tactical_candidates(&mut c);
                        tactical += c.len();
                    }
                });
            });
        }
    }
    // The walk really met positions with captures to list.
    assert!(
        decisions > 5_000 && tactical > 1_000,
        "{decisions} {tactical}"
    );
}

/// `search_roll_roles` (the horizon's `hcap` shortcut) names, for every roll
/// of a variant that answers it, the roles of the pieces the roll lets move
/// first, and the roll leaves the board and the side to move as they are.
#[test]
fn search_roll_roles_names_the_pieces_a_roll_lets_move() {
    let mut rolls = 0;
    for v in VARIANTS {
        for i in 0..4 {
            let mut g = AnyGame::new(v, &Options::new()).unwrap();
            with_game!(&mut g, x => {
                walk_random_game(x, 31, i, |s, _| {
                    if s.node() != Node::Chance {
                        return;
                    }
                    let mut o = dicechess::variants::Outcomes::new();
                    s.chance_outcomes(&mut o);
                    let n = o.as_slice().iter().filter(|x| s.search_roll_roles(x.0).is_some()).count();
                    assert!(n == 0 || n == o.len(), "{v}: some rolls answered, not all");
                    if n == 0 {
                        return;
                    }
                    for &(id, _) in o.as_slice() {
                        let roles = s.search_roll_roles(id).unwrap();
                        let mut child = s.clone();
                        child.apply_outcome(id);
                        if !matches!(child.node(), Node::Decision(_)) {
                            continue;
                        }
                        rolls += 1;
                        assert!(child.position() == s.position(), "{v}: a roll moved a piece");
                        let mut ml = MoveList::new();
                        child.legal_moves(&mut ml);
                        for &m in ml.iter().filter(|m| !m.is_null()) {
                            let role = s.position().role_at(m.from()).unwrap();
                            let castle_by_rook = matches!(m.kind(), MoveKind::Castle)
                                && roles.contains(dicechess::board::Role::Rook);
                            assert!(
                                roles.contains(role) || castle_by_rook,
                                "{v} {}: roll {} allows {m:?} of a {role:?}, not in {roles:?}",
                                s.fen(),
                                child.outcome_name(id)
                            );
                        }
                    }
                });
            });
        }
    }
    assert!(rolls > 1_000, "{rolls}");
}
