//! Batched playouts in parallel (rayon) between two agents, reproducible
//! whatever the thread count: game `i` uses only `game_rng(seed, i)`, for
//! the dice and the agents' own randomness alike.

use super::{game_rng, play_random_game};
use crate::agents::{play_game, Agent, AgentSpec};
use crate::variants::{AnyGame, Game, Player};
use crate::with_game;

/// `winner` code for a draw.
pub const DRAW: i8 = -1;
/// `winner` code for a game truncated at `max_plies`.
pub const TRUNCATED: i8 = -2;

/// One finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Winning player (0/1), [`DRAW`] or [`TRUNCATED`].
    pub winner: i8,
    /// Decisions made.
    pub plies: u32,
    /// Chance outcomes applied.
    pub chance_events: u32,
    /// Termination code (index into `Termination::ALL`).
    pub termination: u8,
    /// The colour player 0 commands at the end (0 White, 1 Black).
    pub player0_color: u8,
}

/// The record of the finished game `g`.
pub(crate) fn record<G: Game>(g: &G, plies: u32, chance_events: u32) -> GameRecord {
    let term = g.termination();
    let winner = match (g.winner(), term) {
        (Some(p), _) => p as i8,
        (None, Some(crate::variants::Termination::MaxPlies)) => TRUNCATED,
        _ => DRAW,
    };
    GameRecord {
        winner,
        plies,
        chance_events,
        termination: term.map(|t| t.code()).unwrap_or(u8::MAX),
        player0_color: g.color_of(0 as Player) as u8,
    }
}

/// Plays games `start .. start + count` of a run seeded with `seed`, each
/// from a clone of `proto`, with uniformly random decisions, on `threads`
/// threads (None: rayon's default). Records are in game order. The same as
/// [`playouts`] with two `random` agents (and the same records).
pub fn random_playouts(
    proto: &AnyGame,
    seed: u64,
    start: u64,
    count: u64,
    threads: Option<usize>,
) -> Vec<GameRecord> {
    playouts(
        proto,
        &[AgentSpec::Random, AgentSpec::Random],
        seed,
        start,
        count,
        threads,
    )
}

/// Plays games `start .. start + count` of a run seeded with `seed`, each
/// from a clone of `proto`, player `p` deciding with `agents[p]`, on
/// `threads` threads (None: rayon's default). Records are in game order.
pub fn playouts(
    proto: &AnyGame,
    agents: &[AgentSpec; 2],
    seed: u64,
    start: u64,
    count: u64,
    threads: Option<usize>,
) -> Vec<GameRecord> {
    let both_random = agents.iter().all(|a| *a == AgentSpec::Random);
    let min_len = if both_random { 16 } else { 1 };
    super::par_map(threads, count, min_len, |k| {
        let mut rng = game_rng(seed, start + k);
        let mut g = proto.clone();
        if both_random {
            // The allocation-free loop.
            with_game!(&mut g, x => {
                let s = play_random_game(x, &mut rng);
                record(x, s.plies, s.chance_events)
            })
        } else {
            let mut pair = [Agent::new(agents[0].clone()), Agent::new(agents[1].clone())];
            with_game!(&mut g, x => {
                let s = play_game(x, &mut pair, &mut rng);
                record(x, s.plies, s.chance_events)
            })
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Options;

    #[test]
    fn same_results_for_any_thread_count_and_chunking() {
        let g = AnyGame::new("chess", &Options::new()).unwrap();
        let one = random_playouts(&g, 7, 0, 40, Some(1));
        let two = random_playouts(&g, 7, 0, 40, Some(2));
        let mut chunked = random_playouts(&g, 7, 0, 15, Some(2));
        chunked.extend(random_playouts(&g, 7, 15, 25, Some(1)));
        assert_eq!(one, two);
        assert_eq!(one, chunked);
        assert!(one.iter().all(|r| r.termination != u8::MAX));
        let other_seed = random_playouts(&g, 8, 0, 40, Some(1));
        assert_ne!(one, other_seed);
    }

    #[test]
    fn random_agents_replay_random_playouts() {
        let g = AnyGame::new("vegas", &Options::new()).unwrap();
        let fast = random_playouts(&g, 3, 0, 12, Some(1));
        // The generic agent loop makes exactly the same draws.
        let mut slow = Vec::new();
        for i in 0..12 {
            let mut rng = game_rng(3, i);
            let mut x = g.clone();
            let mut pair = [Agent::new(AgentSpec::Random), Agent::new(AgentSpec::Random)];
            slow.push(with_game!(&mut x, y => {
                let s = play_game(y, &mut pair, &mut rng);
                record(y, s.plies, s.chance_events)
            }));
        }
        assert_eq!(fast, slow);
    }

    #[test]
    fn agent_playouts_same_for_any_thread_count_and_chunking() {
        let mut o = Options::new();
        o.insert("max_plies".into(), 60.into());
        let g = AnyGame::new("random_move_number", &o).unwrap();
        let specs = [
            AgentSpec::parse("greedy").unwrap(),
            AgentSpec::parse("mcts:sims=8").unwrap(),
        ];
        let one = playouts(&g, &specs, 5, 0, 6, Some(1));
        let mut two = playouts(&g, &specs, 5, 0, 2, Some(2));
        two.extend(playouts(&g, &specs, 5, 2, 4, Some(2)));
        assert_eq!(one, two);
    }
}
