//! Simulation: batched playouts, roll luck and the vectorised env, on a
//! pool of threads. Playing one game is the [`crate::play`] layer below.

pub mod episode;
pub mod luck;
pub mod paired;
pub mod playouts;
pub mod recorded;
pub mod vecenv;

pub use crate::play::{
    game_rng, play_out, play_random_game, random_move, sample_outcome, GameRng, PlayoutStats,
};

/// Runs `run` (a batch of rayon work) on a pool of `threads` threads, or on
/// rayon's global pool for None (also if the pool cannot be started: the
/// results do not depend on the thread count, only the speed does).
///
/// The calling thread keeps polling for interrupts meanwhile (see
/// [`crate::interrupt::wait_polling`]); tasks must hand the token on with
/// [`crate::interrupt::within`].
pub(crate) fn on_threads<R: Send>(threads: Option<usize>, run: impl FnOnce() -> R + Send) -> R {
    crate::interrupt::wait_polling(|| match threads {
        Some(t) => match rayon::ThreadPoolBuilder::new().num_threads(t).build() {
            Ok(pool) => pool.install(run),
            Err(_) => run(),
        },
        None => run(),
    })
}
