//! Chance outcomes that lead to one state are searched once (`merge`):
//! the search keys that make them equal (Random Move Number Chess keys a
//! throw by what it decides later, Dice Chess a roll by the roles it
//! allows), and the merged search's values against the unmerged one.

use crate::common::{apply_named, search, walk_random_game};
use dicechess::agents::eval::Evaluate;
use dicechess::agents::search::{Engine, Params};
use dicechess::sim::game_rng;
use dicechess::variants::dice_chess::DiceChess;
use dicechess::variants::random_move_number::RandomMoveNumber;
use dicechess::variants::{Game, Node, Options};

/// Search key after throw `d` from the Random Move Number FEN `fen` (at a
/// chance node).
fn key_after_throw(fen: &str, d: &str) -> u64 {
    let mut g = RandomMoveNumber::from_fen(fen, 1000).unwrap();
    apply_named(&mut g, d);
    g.search_key()
}

#[test]
fn random_move_number_keys_a_throw_by_what_it_decides_later() {
    // White (player 0) last threw 3; Black last threw 5.
    let fen = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1 throw 0 0 wb 423 15";
    let k = |d: &str| key_after_throw(fen, d);
    // 2, 4 and 5 start a new run of one: the same future (a repeat of any
    // of them gives two moves next time), so the same key.
    assert_eq!(k("2"), k("4"));
    assert_eq!(k("2"), k("5"));
    // 3 repeats the last throw (two moves now, a run of two), 1 forfeits,
    // 6 gives two moves and starts a run of sixes.
    let distinct: std::collections::BTreeSet<u64> = [k("2"), k("3"), k("1"), k("6")].into();
    assert_eq!(distinct.len(), 4);
    // The same board and moves left, but the last throw a 1 or a 6 rather
    // than one of 2-5: a later 1 or 6 acts differently, so keys differ.
    let after = |rec: &str| {
        let f = format!("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1 move 1 0 wb {rec} 15");
        RandomMoveNumber::from_fen(&f, 1000).unwrap().search_key()
    };
    assert_eq!(after("42"), after("45"));
    assert_ne!(after("42"), after("41"));
    assert_ne!(after("42"), after("46"));
    // During the colour choice the throw itself counts (higher plays White).
    let choose = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 choose0 0 2 - - -";
    assert_ne!(key_after_throw(choose, "2"), key_after_throw(choose, "3"));
}

#[test]
fn dice_chess_keys_a_roll_by_the_roles_it_allows() {
    let d = DiceChess::new(&Options::new()).unwrap();
    let rolled = |name: &str| {
        let mut x = d.clone();
        apply_named(&mut x, name);
        x.search_key()
    };
    let doubles: std::collections::BTreeSet<u64> = ["PP", "NN", "BB", "RR", "QQ", "KK"]
        .iter()
        .map(|r| rolled(r))
        .collect();
    assert_eq!(doubles.len(), 1, "every double allows any move");
    let pairs: std::collections::BTreeSet<u64> = ["PN", "PB", "NB", "QK", "PP"]
        .iter()
        .map(|r| rolled(r))
        .collect();
    assert_eq!(pairs.len(), 5);
}

/// Decision nodes of a random game from `g`, every seventh step, at most
/// four.
fn positions<G: Game>(mut g: G, seed: u64) -> Vec<G> {
    let mut out = Vec::new();
    walk_random_game(&mut g, seed, 0, |x, step| {
        if step % 7 == 6 && out.len() < 4 && matches!(x.node(), Node::Decision(_)) {
            out.push(x.clone());
        }
    });
    out
}

/// Nodes searched with and without merging over the positions of
/// [`positions`], after checking that both find one value.
fn merge_saving<G: Evaluate>(g: G) -> (u64, u64) {
    let (mut merged, mut unmerged) = (0u64, 0u64);
    for x in positions(g, 5) {
        let p = |merge: bool| Params {
            merge,
            tt: false,
            qsearch: false,
            ..Params::plain(2)
        };
        let a = Engine::new(p(true)).search(&x, &mut game_rng(1, 0), (None, None, None), None);
        let b = Engine::new(p(false)).search(&x, &mut game_rng(1, 0), (None, None, None), None);
        assert!(
            (a.value - b.value).abs() < 1e-6,
            "{}: {} merged, {} not",
            x.fen(),
            a.value,
            b.value
        );
        merged += a.nodes;
        unmerged += b.nodes;
    }
    (merged, unmerged)
}

/// With pruning but no table (so that the values do not depend on the
/// order in which nodes were searched), the merged and unmerged searches
/// find one value at every depth; merging saves nodes.
#[test]
fn merged_outcomes_keep_the_value_and_save_nodes() {
    let saving = [
        (
            "random_move_number",
            merge_saving(RandomMoveNumber::new(&Options::new()).unwrap()),
        ),
        (
            "dice_chess",
            merge_saving(DiceChess::new(&Options::new()).unwrap()),
        ),
    ];
    for (variant, (merged, unmerged)) in saving {
        assert!(
            merged * 5 < unmerged * 4,
            "{variant}: {merged} nodes merged, {unmerged} not"
        );
    }
    // The default search agrees that merging is on and can be turned off.
    let mut r = RandomMoveNumber::from_fen(
        "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1 throw 0 0 wb 423 15",
        1000,
    )
    .unwrap();
    apply_named(&mut r, "2");
    let on = search(&r, "search:depth=2");
    let off = search(&r, "search:depth=2,merge=0");
    assert!(on.nodes < off.nodes, "{} vs {}", on.nodes, off.nodes);
}
