//! Helpers for the dice-chess variant tests (`tests/dice_chess*.rs`, included
//! with `#[path]`): rolls and moves by name, legal SAN lists, and random
//! games checked at every node.

use dicechess::sim::{game_rng, sample_outcome};
use dicechess::variants::{api, Game, Node, Outcomes, Termination};
use rand::RngExt;
use std::collections::HashMap;

/// Applies the chance outcome named `name`.
pub fn roll<G: Game>(g: &mut G, name: &str) {
    assert_eq!(g.node(), Node::Chance, "roll {name} at a non-chance node");
    let a = api::string_to_action(g, name).unwrap_or_else(|e| panic!("{name}: {e}"));
    api::apply_action(g, a).unwrap();
}

/// Plays the move written `san`.
pub fn mv<G: Game>(g: &mut G, san: &str) {
    let a = api::string_to_action(g, san).unwrap_or_else(|e| panic!("{san}: {e}"));
    api::apply_action(g, a).unwrap();
}

/// The legal decisions as sorted SAN.
pub fn sans<G: Game>(g: &G) -> Vec<String> {
    let mut v: Vec<String> = api::legal_actions(g)
        .into_iter()
        .map(|a| api::action_to_string(g, a).unwrap())
        .collect();
    v.sort();
    v
}

/// Plays `n` random games from `proto`: invariants at every node, every SAN
/// parses back to its action, and (every tenth game) the FEN read back by
/// `from_fen` gives the same FEN and moves. Returns the terminations seen.
pub fn random_games<G: Game>(
    proto: &G,
    seed: u64,
    n: u64,
    from_fen: impl Fn(&str) -> G,
) -> HashMap<Termination, u32> {
    let mut outcomes = Outcomes::new();
    let mut terms = HashMap::new();
    for i in 0..n {
        let mut g = proto.clone();
        let mut rng = game_rng(seed, i);
        let mut steps = 0;
        loop {
            let at = g.fen();
            g.check_invariants()
                .unwrap_or_else(|e| panic!("game {i}: {e} at {at}"));
            if i % 10 == 0 && g.node() != Node::Terminal {
                let h = from_fen(&at);
                assert_eq!(h.fen(), at);
                assert_eq!(sans(&h), sans(&g), "{at}");
            }
            match g.node() {
                Node::Terminal => break,
                Node::Chance => {
                    let o = sample_outcome(&g, &mut rng, &mut outcomes);
                    g.apply_outcome(o);
                }
                Node::Decision(_) => {
                    let acts = api::legal_actions(&g);
                    let a = acts[rng.random_range(0..acts.len())];
                    let s = api::action_to_string(&g, a).unwrap();
                    assert_eq!(api::string_to_action(&g, &s).unwrap(), a, "{s} at {at}");
                    api::apply_action(&mut g, a).unwrap();
                }
            }
            steps += 1;
            assert!(steps < 20_000, "game {i} does not end");
        }
        *terms.entry(g.termination().unwrap()).or_insert(0) += 1;
    }
    terms
}
