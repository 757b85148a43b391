//! Batched random playouts in parallel (rayon), reproducible whatever the
//! thread count: game `i` uses only `game_rng(seed, i)`.

use super::{game_rng, play_random_game};
use crate::variants::{AnyGame, Game, Player};
use crate::with_game;
use rayon::prelude::*;

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

fn record<G: Game>(g: &G, plies: u32, chance_events: u32) -> GameRecord {
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
/// threads (None: rayon's default). Records are in game order.
pub fn random_playouts(
    proto: &AnyGame,
    seed: u64,
    start: u64,
    count: u64,
    threads: Option<usize>,
) -> Vec<GameRecord> {
    let run = || {
        (0..count as usize)
            .into_par_iter()
            .with_min_len(16)
            .map(|k| {
                let mut rng = game_rng(seed, start + k as u64);
                let mut g = proto.clone();
                with_game!(&mut g, x => {
                    let s = play_random_game(x, &mut rng);
                    record(x, s.plies, s.chance_events)
                })
            })
            .collect()
    };
    match threads {
        Some(t) => match rayon::ThreadPoolBuilder::new().num_threads(t).build() {
            Ok(pool) => pool.install(run),
            Err(_) => run(),
        },
        None => run(),
    }
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
}
