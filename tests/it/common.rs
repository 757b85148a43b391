//! Helpers shared by the integration tests, generic over [`Game`].

use dicechess::agents::search::{Engine, SearchResult};
use dicechess::agents::{eval::Evaluate, AgentSpec};
use dicechess::board::MoveList;
use dicechess::sim::{game_rng, random_move, sample_outcome};
use dicechess::variants::{api, Action, Game, Node, Outcomes};

/// Plays game `index` of a run seeded with `seed` from `g` to the end with
/// random decisions and sampled dice, calling `visit(state, step)` on every
/// state (the terminal one included) before the next action; returns the
/// actions applied, in order.
pub fn walk_random_game<G: Game>(
    g: &mut G,
    seed: u64,
    index: u64,
    mut visit: impl FnMut(&G, usize),
) -> Vec<Action> {
    let mut rng = game_rng(seed, index);
    let (mut moves, mut outcomes) = (MoveList::new(), Outcomes::new());
    let mut actions = Vec::new();
    for step in 0.. {
        visit(g, step);
        match g.node() {
            Node::Terminal => break,
            Node::Chance => {
                let o = sample_outcome(g, &mut rng, &mut outcomes);
                actions.push(o);
                g.apply_outcome(o);
            }
            Node::Decision(_) => {
                let m = random_move(g, &mut rng, &mut moves);
                actions.push(g.layout().encode(m, g.position().turn()));
                g.play(m);
            }
        }
    }
    actions
}

/// Applies `actions` through the checked action API (panics on the first
/// one refused, naming it).
pub fn replay<G: Game>(g: &mut G, actions: &[Action]) {
    for (i, &a) in actions.iter().enumerate() {
        api::apply_action(g, a)
            .unwrap_or_else(|e| panic!("{}: action {i} ({a}) refused: {e}", g.variant()));
    }
}

/// Applies the chance outcome named `name` (e.g. "QK") to chance node `g`.
pub fn apply_named<G: Game>(g: &mut G, name: &str) {
    assert_eq!(g.node(), Node::Chance, "{}", g.fen());
    let a = api::string_to_action(g, name).unwrap();
    api::apply_action(g, a).unwrap();
}

/// A search of `g` by the agent `spec` (a `search:` spec), seeded with 0.
pub fn search<G: Evaluate>(g: &G, spec: &str) -> SearchResult {
    let AgentSpec::Search(p) = AgentSpec::parse(spec).unwrap() else {
        panic!("{spec} is not a search spec")
    };
    Engine::new(p).search(g, &mut game_rng(0, 0), (None, None, None), None)
}

/// Byte edits of an ASCII text, for the parser fuzzes: each
/// (position, kind, byte) deletes, inserts or replaces (kind modulo 3) at
/// the position modulo the length, the byte taken from `alphabet`.
pub fn byte_edits(s: &str, edits: &[(usize, u8, u8)], alphabet: &[u8]) -> String {
    let mut b = s.as_bytes().to_vec();
    for &(pos, kind, c) in edits {
        let c = alphabet[c as usize % alphabet.len()];
        let i = pos % (b.len() + 1);
        match kind % 3 {
            0 if i < b.len() => {
                b.remove(i);
            }
            1 => b.insert(i, c),
            _ if i < b.len() => b[i] = c,
            _ => {}
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// A fuzz campaign's seed and number of trials: `FUZZ_SEED` (default 7)
/// and `FUZZ_N` (default `trials`).
pub fn fuzz_campaign(trials: u64) -> (u64, u64) {
    let var =
        |name: &str, default: u64| std::env::var(name).map_or(default, |s| s.parse().expect(name));
    (var("FUZZ_SEED", 7), var("FUZZ_N", trials))
}
