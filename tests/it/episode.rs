//! The one episode loop (`sim::episode`): external opponents, the illegal-
//! action rule, random sides, and save/restore.

use dicechess::agents::AgentSpec;
use dicechess::sim::episode::{Episode, Side, ILLEGAL_ACTION};
use dicechess::variants::{api, AnyGame, Game, Options};
use dicechess::with_game;

fn game(variant: &str) -> AnyGame {
    AnyGame::new(variant, &Options::new()).unwrap()
}

/// The first legal action id of the decider.
fn first_legal(e: &Episode) -> i64 {
    with_game!(e.game(), g => api::legal_actions(g)[0]) as i64
}

fn fen(e: &Episode) -> String {
    with_game!(e.game(), g => g.fen())
}

#[test]
fn an_external_opponent_decides_between_the_learners_moves() {
    let start = game("vegas");
    let mut e = Episode::new(start.clone(), Side::Player(0), None, true).unwrap();
    e.reset(&start, 3, 0);
    assert_eq!(e.decider(), Some(0));
    let rolls = e.rolls().len();
    assert!(rolls >= 1, "the first roll is made inside");
    while e.decider() == Some(0) {
        e.play(first_legal(&e)).unwrap();
    }
    assert_eq!(e.decider(), Some(1));
    assert!(e.opponent_actions().is_empty());
    // The opponent's illegal action raises even with lose_on_illegal.
    let before = fen(&e);
    let err = e.play(99_999).unwrap_err();
    assert!(
        err.0.contains("the opponent chose action 99999"),
        "{}",
        err.0
    );
    assert_eq!(fen(&e), before);
    let a = first_legal(&e);
    e.play(a).unwrap();
    assert_eq!(e.opponent_actions()[0], a as u32);
    assert_eq!(*e.history().last().unwrap(), *e.rolls().last().unwrap());
}

#[test]
fn an_illegal_action_loses_and_changes_nothing() {
    let start = game("chess");
    let mut e = Episode::new(
        start.clone(),
        Side::Player(1),
        Some(AgentSpec::Random),
        true,
    )
    .unwrap();
    e.reset(&start, 0, 0);
    assert_eq!(e.decider(), Some(1));
    assert_eq!(e.opponent_actions().len(), 1);
    let before = (fen(&e), e.history().to_vec());
    e.play(0).unwrap();
    assert!(e.over() && e.terminated() && !e.truncated());
    assert_eq!(e.termination(), Some(ILLEGAL_ACTION));
    assert_eq!(e.returns(), [0.0, -1.0]);
    assert_eq!(e.illegal_action(), Some(0));
    assert_eq!((fen(&e), e.history().to_vec()), before);
    assert_eq!(e.decider(), None);
    // Raise mode: an error and nothing changed.
    let mut r = Episode::new(
        start.clone(),
        Side::Player(1),
        Some(AgentSpec::Random),
        false,
    )
    .unwrap();
    r.reset(&start, 0, 0);
    assert!(r.play(0).is_err());
    assert!(!r.over() && fen(&r) == before.0);
}

#[test]
fn a_random_side_is_drawn_per_episode_and_reproducible() {
    let start = game("fluky");
    let mut e = Episode::new(start.clone(), Side::Random, Some(AgentSpec::Random), false).unwrap();
    let mut sides = Vec::new();
    for index in 0..16 {
        e.reset(&start, 9, index);
        let side = e.learner().unwrap();
        assert_eq!(e.decider(), Some(side));
        e.reset(&start, 9, index);
        assert_eq!(e.learner(), Some(side));
        sides.push(side);
    }
    assert!(sides.contains(&0) && sides.contains(&1));
    assert!(Episode::new(start.clone(), Side::Both, Some(AgentSpec::Random), false).is_err());
    assert!(Episode::new(start, Side::Player(2), None, false).is_err());
}

#[test]
fn a_saved_episode_continues_identically() {
    for variant in ["vegas", "dice_chess3", "random_move_number"] {
        let start = game(variant);
        let spec = AgentSpec::parse("expectimax:depth=1").unwrap();
        let mut e =
            Episode::new(start.clone(), Side::Player(0), Some(spec.clone()), false).unwrap();
        e.reset(&start, 17, 4);
        for _ in 0..3 {
            if !e.over() {
                e.play(first_legal(&e)).unwrap();
            }
        }
        let mut back = Episode::new(start.clone(), Side::Player(0), Some(spec), false).unwrap();
        back.restore(&start, e.save()).unwrap();
        assert_eq!((back.seed(), back.index()), (17, 4));
        while !e.over() {
            let a = first_legal(&e);
            e.play(a).unwrap();
            back.play(a).unwrap();
            assert_eq!(e.history(), back.history(), "{variant}");
            assert_eq!(e.rolls(), back.rolls(), "{variant}");
        }
        assert!(back.over() && e.returns() == back.returns());
        // A history that does not replay is refused.
        let mut bad = e.save();
        bad.history.push(u32::MAX);
        assert!(back.restore(&start, bad).is_err());
    }
}
