//! The conformance suite every variant runs (every name in `VARIANTS`, and
//! every relative in `RELATIVES` that is a row of options, so a new variant
//! or relative gets it for free): random games in which every state keeps
//! its invariants, chance outcomes form an exact distribution with names
//! that parse back, every legal action's text parses back to it, the FEN
//! and serialisation round-trip, and the game replays from its actions.

use crate::common::{replay, walk_random_game};
use dicechess::variants::{api, AnyGame, Game, Node, Options, Outcomes, RELATIVES, VARIANTS};
use dicechess::with_game;

/// Games per variant, and the maximum plies of each (short games reach
/// many openings; the variants' own tests play long games).
const GAMES: u64 = 12;
const MAX_PLIES: i64 = 120;

/// Every variant, then every relative (a variant spec with options).
fn specs() -> impl Iterator<Item = &'static str> {
    VARIANTS.iter().chain(RELATIVES).copied()
}

fn proto(variant: &str) -> AnyGame {
    let mut o = Options::new();
    o.insert("max_plies".into(), MAX_PLIES.into());
    AnyGame::new(variant, &o).unwrap_or_else(|e| panic!("{variant}: {e}"))
}

/// At a chance node: probabilities positive and summing to 1, ids in range
/// and distinct, names distinct and parsing back to their ids.
fn check_chance<G: Game>(g: &G) {
    let mut o = Outcomes::new();
    g.chance_outcomes(&mut o);
    let outs = o.as_slice();
    assert!(
        !outs.is_empty(),
        "{}: chance node without outcomes",
        g.fen()
    );
    let total: f64 = outs.iter().map(|x| x.1).sum();
    assert!((total - 1.0).abs() < 1e-12, "{}: sum {total}", g.fen());
    let mut names = std::collections::BTreeSet::new();
    for &(id, p) in outs {
        assert!(
            p > 0.0 && (id as usize) < g.max_chance_outcomes(),
            "{id} {p}"
        );
        let name = g.outcome_name(id);
        assert!(names.insert(name.clone()), "duplicate outcome name {name}");
        assert_eq!(api::string_to_action(g, &name).unwrap(), id, "{name}");
    }
}

/// At a decision node: actions sorted, distinct, in range; each one's text
/// parses back to it.
fn check_decision<G: Game>(g: &G) {
    let actions = api::legal_actions(g);
    assert!(!actions.is_empty(), "{}: decision without actions", g.fen());
    assert!(actions.windows(2).all(|w| w[0] < w[1]));
    for &a in &actions {
        assert!((a as usize) < g.layout().num_actions());
        let text = api::action_to_string(g, a).unwrap();
        let back = api::string_to_action(g, &text)
            .unwrap_or_else(|e| panic!("{}: {text:?} does not parse: {e}", g.fen()));
        assert_eq!(back, a, "{}: {text:?}", g.fen());
    }
}

/// A running game read back from its FEN (with its options) is the same
/// node with the same FEN and legal actions.
fn check_fen_round_trip<G: Game>(g: &G) {
    let mut o = g.options();
    o.insert("fen".into(), g.fen().into());
    let h = AnyGame::new(g.variant(), &o)
        .unwrap_or_else(|e| panic!("{}: FEN {} refused: {e}", g.variant(), g.fen()));
    with_game!(&h, h => {
        assert_eq!(h.fen(), g.fen());
        assert_eq!(h.node(), g.node(), "{}", g.fen());
        assert_eq!(api::legal_actions(h), api::legal_actions(g), "{}", g.fen());
    });
}

#[test]
fn every_variant_conforms() {
    for variant in specs() {
        let start = proto(variant);
        let mut decisions = 0u64;
        for i in 0..GAMES {
            let mut g = start.clone();
            let actions = with_game!(&mut g, x => walk_random_game(x, 17, i, |s, step| {
                s.check_invariants()
                    .unwrap_or_else(|e| panic!("{variant} game {i} step {step}: {e}: {}", s.fen()));
                let _ = api::pretty(s);
                match s.node() {
                    Node::Chance => check_chance(s),
                    Node::Decision(p) => {
                        decisions += 1;
                        assert_eq!(api::current_player(s), p as i32);
                        check_decision(s);
                    }
                    Node::Terminal => {
                        assert!(s.termination().is_some());
                        let r = api::returns(s);
                        assert_eq!(r[0] + r[1], 0.0);
                    }
                }
                if s.node() != Node::Terminal && step % 5 == 0 {
                    check_fen_round_trip(s);
                }
            }));
            // The same game from its actions through the checked API.
            let mut again = start.clone();
            with_game!(&mut again, x => replay(x, &actions));
            with_game!(&again, x => with_game!(&g, y => {
                assert_eq!(x.fen(), y.fen());
                assert_eq!(x.termination(), y.termination());
                assert_eq!(x.winner(), y.winner());
            }));
        }
        // The suite looked at real games, not only at start positions.
        assert!(
            decisions >= 10 * GAMES,
            "{variant}: only {decisions} decisions"
        );
    }
}

#[test]
fn every_variant_serialises_and_plays_on_the_same() {
    for variant in specs() {
        let mut g = proto(variant);
        // Part of a game, then a round trip through both formats.
        let actions = with_game!(&mut g, x => walk_random_game(x, 3, 0, |_, _| {}));
        let mut mid = proto(variant);
        let half = &actions[..actions.len() / 2];
        with_game!(&mut mid, x => replay(x, half));
        let json: AnyGame = serde_json::from_str(&serde_json::to_string(&mid).unwrap()).unwrap();
        let bin: AnyGame = postcard::from_bytes(&postcard::to_allocvec(&mid).unwrap()).unwrap();
        for mut back in [json, bin] {
            with_game!(&mut back, b => replay(b, &actions[half.len()..]));
            with_game!(&back, b => with_game!(&g, y => {
                assert_eq!(b.fen(), y.fen(), "{variant}");
                assert_eq!(b.termination(), y.termination(), "{variant}");
                assert_eq!(b.plies(), y.plies(), "{variant}");
            }));
        }
    }
}
