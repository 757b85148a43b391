//! The registry's rows (`src/variants/registry.rs`) against the games they
//! describe: a row that misstates its board, its chance or its twin fails
//! here, not in a study.

use crate::common::walk_random_game;
use dicechess::variants::{AnyGame, Game, Node, Options, ROWS, VARIANTS};
use dicechess::with_game;
use std::collections::BTreeSet;

fn game(name: &str) -> AnyGame {
    AnyGame::new(name, &Options::new()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn rows_are_the_variants_in_name_order_with_distinct_ids() {
    let names: Vec<&str> = ROWS.iter().map(|r| r.name).collect();
    assert_eq!(names, VARIANTS);
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(names, sorted, "VARIANTS is sorted");
    for (what, ids) in [
        ("name", names.clone()),
        ("gym id", ROWS.iter().map(|r| r.gym).collect()),
        ("title", ROWS.iter().map(|r| r.title).collect()),
    ] {
        let distinct: BTreeSet<&str> = ids.iter().copied().collect();
        assert_eq!(distinct.len(), ids.len(), "a {what} is used twice: {ids:?}");
    }
}

#[test]
fn each_row_describes_its_game() {
    for (i, row) in ROWS.iter().enumerate() {
        let mut g = game(row.name);
        with_game!(&mut g, x => {
            assert_eq!(x.variant(), row.name);
            let geo = x.position().geometry();
            assert_eq!((geo.files, geo.ranks), (row.board, row.board), "{}: board", row.name);
            assert_eq!(x.max_chance_outcomes() > 0, row.chance, "{}: chance ids", row.name);
            // A game with chance reaches a chance node; one without never does.
            let mut chance_nodes = 0;
            for k in 0..4 {
                let mut y = x.clone();
                walk_random_game(&mut y, 70, 4 * i as u64 + k, |s, _| {
                    chance_nodes += matches!(s.node(), Node::Chance) as u32;
                });
            }
            assert_eq!(chance_nodes > 0, row.chance, "{}: chance nodes", row.name);
        });
    }
}

#[test]
fn each_twin_is_a_dice_free_variant_on_the_same_board() {
    for row in ROWS {
        let twin = ROWS
            .iter()
            .find(|t| t.name == row.twin)
            .unwrap_or_else(|| panic!("{}: twin {:?} is no variant", row.name, row.twin));
        assert!(!twin.chance, "{}: twin {} has chance", row.name, twin.name);
        assert_eq!(twin.board, row.board, "{}: twin {}", row.name, twin.name);
        assert_eq!(
            twin.twin, twin.name,
            "a twin is its own twin: {}",
            twin.name
        );
    }
}
