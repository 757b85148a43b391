//! Simulation: batched playouts, roll luck and the vectorised env, on a
//! pool of threads. Playing one game is the [`crate::play`] layer below.

pub mod episode;
pub mod luck;
pub mod paired;
pub mod playouts;
pub mod recorded;
pub mod vecenv;

pub use crate::play::{
    game_rng, play_out, play_random_decisions, play_random_game, random_move, sample_outcome,
    GameRng, PlayoutStats,
};

/// The shared pool of [`on_threads`]`(None, ..)`: rayon's default size,
/// built on first use. Never rayon's global pool: if that one cannot start
/// its threads (memory pressure), every later use of it in the process
/// panics.
static DEFAULT_POOL: std::sync::Mutex<Option<std::sync::Arc<rayon::ThreadPool>>> =
    std::sync::Mutex::new(None);

/// A pool of `threads` threads (None: the shared default pool), or None
/// when the threads cannot be started (then a build is tried again on the
/// next call).
pub(crate) fn pool(threads: Option<usize>) -> Option<std::sync::Arc<rayon::ThreadPool>> {
    let build = |t: usize| rayon::ThreadPoolBuilder::new().num_threads(t).build().ok();
    match threads {
        Some(t) => build(t).map(std::sync::Arc::new),
        None => {
            let mut shared = DEFAULT_POOL.lock().unwrap_or_else(|e| e.into_inner());
            if shared.is_none() {
                *shared = build(0).map(std::sync::Arc::new);
            }
            shared.clone()
        }
    }
}

/// Runs `run` (a batch of rayon work) on a pool of `threads` threads, or on
/// a shared pool of rayon's default size for None. `run` gets whether it is
/// on a pool: when no thread can be started it runs on the calling thread
/// and must not use rayon (the results do not depend on the thread count,
/// only the speed does).
///
/// The calling thread keeps polling for interrupts meanwhile (see
/// [`crate::interrupt::wait_polling`]); tasks must hand the token on with
/// [`crate::interrupt::within`] ([`par_map`] does).
pub(crate) fn on_threads<R: Send>(threads: Option<usize>, run: impl FnOnce(bool) -> R + Send) -> R {
    match pool(threads) {
        Some(p) => crate::interrupt::wait_polling(|| p.install(|| run(true))),
        None => run(false),
    }
}

/// `[job(0), .., job(count - 1)]`, computed in parallel on `threads` threads
/// as [`on_threads`] runs them (at least `min_len` items per rayon task),
/// every item under the caller's interrupt token: the one batch loop of the
/// playouts, paired games, recorded games and roll luck. Interrupted, it
/// returns the items finished before the interrupt, in order: the longest
/// prefix of items that ran to their end with the token never cancelled
/// (an item the interrupt cut short is dropped, as is every item after it).
pub(crate) fn par_map<R: Send>(
    threads: Option<usize>,
    count: u64,
    min_len: usize,
    job: impl Fn(u64) -> R + Sync + Send,
) -> Vec<R> {
    use rayon::prelude::*;
    let token = crate::interrupt::current();
    // Once interrupted, items not started are skipped: Ctrl-C then waits
    // only for the items in hand, not for every game of the batch (each up
    // to its next interrupt check). An item is kept only if the token was
    // still not cancelled when it ended: then nothing in it was cut short.
    let item = |k: u64| {
        if crate::interrupt::requested() {
            return None;
        }
        let r = job(k);
        (!crate::interrupt::cancelled()).then_some(r)
    };
    let items: Vec<Option<R>> = on_threads(threads, |pooled| {
        if !pooled {
            // No worker thread could be started: one item after another here.
            return (0..count).map(item).collect();
        }
        (0..count as usize)
            .into_par_iter()
            .with_min_len(min_len)
            .map(|k| crate::interrupt::within(token.as_ref(), || item(k as u64)))
            .collect()
    });
    items.into_iter().map_while(|x| x).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn par_map_keeps_the_order_for_any_thread_count() {
        let want: Vec<u64> = (0..1000).map(|k| k * k).collect();
        for threads in [None, Some(1), Some(2), Some(3)] {
            for min_len in [1, 16] {
                assert_eq!(super::par_map(threads, 1000, min_len, |k| k * k), want);
            }
        }
        assert!(super::par_map(Some(2), 0, 1, |k| k).is_empty());
    }

    #[test]
    fn an_interrupted_par_map_keeps_the_items_finished_before_it() {
        use crate::interrupt::{run, Token};
        // Item 10 is cut short by the interrupt (the token is cancelled
        // while it runs): items 0..10, finished before, are kept; item 10
        // and every later one are not (one thread: items in order).
        for threads in [Some(1), Some(2)] {
            let t = Token::new();
            let got = run(&t, None, || {
                super::par_map(threads, 1000, 1, |k| {
                    if k == 10 {
                        t.cancel();
                    }
                    k
                })
            });
            assert!(t.is_cancelled());
            let want: Vec<u64> = (0..got.len() as u64).collect();
            assert_eq!(got, want, "a prefix of the items, in order");
            assert!(got.len() <= 10, "item 10 was cut short: {}", got.len());
            if threads == Some(1) {
                assert_eq!(got.len(), 10);
            }
        }
    }
}
