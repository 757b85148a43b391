//! Playout games with their records: every action of games played exactly
//! as [`super::playouts::playouts`] plays them (same generator per game,
//! same agent draws), for runs asked to save their games. A separate loop,
//! so that runs that do not save pay nothing.

use std::cell::RefCell;

use crate::agents::{Agent, AgentSpec};
use crate::play::{game_rng, play_out};
use crate::variants::{Action, AnyGame, Game};
use crate::with_game;

/// The actions of game `index` of a run seeded with `seed`.
pub fn recorded_game(
    proto: &AnyGame,
    agents: &[AgentSpec; 2],
    seed: u64,
    index: u64,
) -> Vec<Action> {
    let mut rng = game_rng(seed, index);
    let mut pair = [Agent::new(agents[0].clone()), Agent::new(agents[1].clone())];
    let actions = RefCell::new(Vec::new());
    let mut g = proto.clone();
    with_game!(&mut g, x => {
        play_out(
            x,
            &mut rng,
            |g, p, rng| {
                let m = pair[p as usize & 1].select(g, rng);
                actions.borrow_mut().push(g.layout().encode(m, g.position().turn()));
                m
            },
            |_, _, o, _| actions.borrow_mut().push(o),
        );
    });
    actions.into_inner()
}

/// The actions of games `start .. start + count` (in game order).
pub fn recorded_games(
    proto: &AnyGame,
    agents: &[AgentSpec; 2],
    seed: u64,
    start: u64,
    count: u64,
    threads: Option<usize>,
) -> Vec<Vec<Action>> {
    super::par_map(threads, count, 1, |k| {
        recorded_game(proto, agents, seed, start + k)
    })
}

/// The actions of pairs `start .. start + count` of a
/// [`super::paired::paired_playouts`] run (the same games: `[A as player 0,
/// B as player 0]` per pair), for runs that save their games.
pub fn recorded_pairs(
    proto: &AnyGame,
    agents: &[AgentSpec; 2],
    seed: u64,
    start: u64,
    count: u64,
    opening_plies: u32,
    threads: Option<usize>,
) -> Vec<[Vec<Action>; 2]> {
    let [a, b] = agents;
    let one = |seats: [&AgentSpec; 2], pair: u64| {
        let actions = RefCell::new(Vec::new());
        let on_action = |x| actions.borrow_mut().push(x);
        super::paired::play_pair_game::<true>(proto, seats, seed, pair, opening_plies, &on_action);
        actions.into_inner()
    };
    super::par_map(threads, count, 1, |k| {
        let pair = start + k;
        [one([a, b], pair), one([b, a], pair)]
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::{api, Options};

    #[test]
    fn records_replay_the_playouts_games() {
        for v in ["chess", "vegas", "dice_chess3", "cubic_checkers"] {
            let g = AnyGame::new(v, &Options::new()).unwrap();
            let agents = [AgentSpec::Random, AgentSpec::Random];
            let games = super::super::playouts::playouts(&g, &agents, 5, 0, 6, Some(1));
            let recs = recorded_games(&g, &agents, 5, 0, 6, Some(2));
            for (game, acts) in games.iter().zip(&recs) {
                let mut x = g.clone();
                for &a in acts {
                    with_game!(&mut x, y => api::apply_action(y, a)).unwrap();
                }
                let plies = with_game!(&x, y => y.plies());
                assert_eq!(plies, game.plies, "{v}");
                let term = with_game!(&x, y => y.termination()).map(|t| t.code());
                assert_eq!(term.unwrap_or(u8::MAX), game.termination, "{v}");
            }
        }
    }

    #[test]
    fn pair_records_replay_the_paired_games() {
        let agents = [AgentSpec::Greedy, AgentSpec::Random];
        for v in ["vegas", "fluky", "dice_chess"] {
            let g = AnyGame::new(v, &Options::new()).unwrap();
            let pairs = super::super::paired::paired_playouts(&g, &agents, 3, 2, 4, 3, Some(1));
            let recs = recorded_pairs(&g, &agents, 3, 2, 4, 3, Some(2));
            for (pair, acts) in pairs.iter().zip(&recs) {
                for (game, acts) in pair.iter().zip(acts) {
                    let mut x = g.clone();
                    for &a in acts {
                        with_game!(&mut x, y => api::apply_action(y, a)).unwrap();
                    }
                    assert_eq!(with_game!(&x, y => y.plies()), game.plies, "{v}");
                    let term = with_game!(&x, y => y.termination()).map(|t| t.code());
                    assert_eq!(term.unwrap_or(u8::MAX), game.termination, "{v}");
                    let winner = with_game!(&x, y => y.winner()).map(|w| w as i8);
                    assert_eq!(winner.unwrap_or(-1), game.winner.max(-1), "{v}");
                }
            }
        }
    }
}
