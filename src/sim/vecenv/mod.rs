//! A vectorised environment: `num_envs` games stepped together in one call,
//! with observations, legal-action masks, rewards and done flags written into
//! caller-provided flat buffers (no per-game allocation per step).
//!
//! # Randomness and resets
//!
//! Each env is one [`Episode`](super::episode::Episode) (the episode loop the Gymnasium and
//! PettingZoo envs run too). Chance nodes (and the built-in opponent's
//! moves) are resolved inside with the generator of the current episode:
//! episode `k` (counted from 0 since the last [`VecEnv::reset`]) of env `i`
//! uses `game_rng(seed + i, k)` (wrapping add), advanced as the episode goes
//! on: env `i` plays exactly the games of the single env reset with seed
//! `seed + i` (Gymnasium's per-env seed convention). Results therefore
//! depend only on `(seed + i, k)` and the actions, never on the thread count.
//!
//! # Autoreset
//!
//! [`Autoreset::NextStep`] (the default, Gymnasium's
//! `AutoresetMode.NEXT_STEP`): the step on which env `i`'s game ends reports
//! the final observation, reward and `terminated`/`truncated`; on the *next*
//! step env `i`'s action is ignored (not validated), the env starts its next
//! episode and reports the new first observation with reward 0 and both
//! flags false. A finished env's mask has exactly one entry set,
//! [`NOOP_ACTION`] (the action the next step ignores), so that no mask is
//! ever all false (a masked policy's softmax needs one legal action).
//!
//! [`Autoreset::SameStep`] (Gymnasium's `AutoresetMode.SAME_STEP`, the
//! convention of Stable-Baselines3's vector envs): the step on which env
//! `i`'s game ends reports the reward, the flags and the termination of the
//! game that ended, writes that game's final observation into the
//! `final_obs` buffer, and reports the *next* episode's first observation,
//! mask and player in the ordinary buffers: the caller never sees a finished
//! game's mask.
//!
//! (A new episode that is already over after its first chance events —
//! impossible from the standard start positions — is reported as ended at
//! once and reset on the following step, in both modes.)
//!
//! # Forms
//!
//! * Self-play (`opponent = None`): every decision is taken by the caller;
//!   `current_player` says whose it is; rewards have two columns (players 0
//!   and 1); observations are from the point of view of the player to move
//!   (player 0 at terminal states, as `State.observation_tensor()`).
//! * With an opponent (any [`AgentSpec`]: `"random"`, `"greedy"`,
//!   `"expectimax:depth=N"`, `"mcts:sims=N,..."`): the caller is player 0;
//!   the opponent's decisions are made inside by an [`Agent`] owned by each
//!   env (its search buffers are reused across moves and episodes), drawing
//!   its randomness from the episode's generator; rewards have one column
//!   (player 0's); observations are player 0's.
//! * With a [`Pool`] of opponents: each env draws one member per episode
//!   (see [`opponent`]); members may be decided by the caller
//!   ([`VecEnv::step_with`]).

mod buffers;
mod memory;
pub mod opponent;

pub use buffers::Buffers;
pub use memory::memory_limit;
pub use opponent::{Decide, Member, Pool, Requests};

use buffers::{write_out, write_position, write_result, Out};
use opponent::Slot;

use crate::agents::AgentSpec;
use crate::board::Move;
use crate::variants::{api, Action, AnyGame, Game, GameError, Node};
use crate::with_game;
use rayon::prelude::*;
use std::sync::Arc;

/// The largest `num_envs` accepted.
pub const MAX_ENVS: usize = 1 << 16;

/// The one action a finished env's mask marks legal (the action the next
/// step ignores in [`Autoreset::NextStep`]).
pub const NOOP_ACTION: usize = 0;

/// `Buffers::termination` of an env whose game has not ended.
pub const NO_TERMINATION: i8 = -1;

/// When a finished env starts its next episode (see the module doc).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Autoreset {
    /// On the step after the one that ended the game (its action ignored).
    #[default]
    NextStep,
    /// On the step that ended it; the final observation goes to `final_obs`.
    SameStep,
}

impl Autoreset {
    /// The Gymnasium-style name: `"next_step"` or `"same_step"`.
    pub fn name(self) -> &'static str {
        match self {
            Autoreset::NextStep => "next_step",
            Autoreset::SameStep => "same_step",
        }
    }
    /// The mode named `name` (as [`Autoreset::name`]).
    pub fn parse(name: &str) -> Result<Autoreset, GameError> {
        match name {
            "next_step" => Ok(Autoreset::NextStep),
            "same_step" => Ok(Autoreset::SameStep),
            _ => Err(GameError::new(format!(
                "autoreset must be \"next_step\" or \"same_step\", got {name:?}"
            ))),
        }
    }
}

/// With `threads: None`, envs step on the calling thread when there are
/// fewer than this many and each step is cheap (no opponent or a random
/// one): handing a step to the pool costs more than the second core gains.
/// Chess self-play, 2 cores, pool vs calling thread: 16 envs 0.26x, 64 envs
/// 0.42x, 128 envs 0.80x, 256 envs 1.09x, 512 envs 1.30x.
pub const AUTO_SERIAL_BELOW: usize = 256;

/// `num_envs` games of one variant stepped together.
pub struct VecEnv {
    proto: AnyGame,
    seed: u64,
    /// Env `i`'s seed for episode 0 (`seed + i` unless a list was given).
    seeds: Vec<u64>,
    autoreset: Autoreset,
    /// The opponents (None: self-play).
    opponents: Option<Arc<Pool>>,
    slots: Vec<Slot>,
    pool: Option<std::sync::Arc<rayon::ThreadPool>>,
    /// Step on the calling thread (see [`VecEnv::new`]).
    serial: bool,
    /// Fewest envs per parallel work unit: a few for cheap steps, one when
    /// an opponent searches.
    min_len: usize,
    obs_len: usize,
    num_actions: usize,
    obs_shape: [usize; 3],
}

impl VecEnv {
    /// `num_envs` games cloned from `proto` (1 ..= [`MAX_ENVS`]); `threads`:
    /// `Some(1)` steps in a plain loop, `Some(n)` on an own pool of `n`
    /// threads, `None` on the shared default pool, or in a plain loop when the
    /// pool would not pay (fewer than [`AUTO_SERIAL_BELOW`] envs with no
    /// opponent or a random one). Results never depend on it. Call
    /// [`VecEnv::reset`] first.
    pub fn new(
        proto: AnyGame,
        num_envs: usize,
        seed: u64,
        opponent: Option<AgentSpec>,
        threads: Option<usize>,
    ) -> Result<VecEnv, GameError> {
        VecEnv::with_pool(proto, num_envs, seed, opponent.map(Pool::single), threads)
    }

    /// [`VecEnv::new`] with a pool of opponents (one member drawn per env
    /// and episode; see [`opponent`]).
    pub fn with_pool(
        proto: AnyGame,
        num_envs: usize,
        seed: u64,
        opponents: Option<Pool>,
        threads: Option<usize>,
    ) -> Result<VecEnv, GameError> {
        if num_envs == 0 || num_envs > MAX_ENVS {
            return Err(GameError::new(format!(
                "num_envs must be from 1 to {MAX_ENVS}, got {num_envs}"
            )));
        }
        if with_game!(&proto, g => g.node()) == Node::Terminal {
            return Err(GameError::new(
                "the start position is already terminal; a VecEnv needs a game that can be played",
            ));
        }
        memory::check_memory(&proto, num_envs, opponents.as_ref())?;
        let pool = match threads {
            Some(0) => {
                return Err(GameError::new(
                    "threads must be at least 1 (or None for all cores)",
                ))
            }
            Some(1) => None,
            // The shared default pool, never rayon's global one (which panics
            // for good once it fails to start); none when no thread can start.
            None => super::pool(None),
            Some(t) => Some(std::sync::Arc::new(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(t)
                    .build()
                    .map_err(|e| GameError::new(format!("cannot start {t} threads: {e}")))?,
            )),
        };
        let (obs_shape, num_actions) =
            with_game!(&proto, g => (api::observation_shape(g), g.layout().num_actions()));
        let slots = (0..num_envs)
            .map(|_| Slot::new(proto.clone(), opponents.as_ref()))
            .collect::<Result<_, _>>()?;
        let cheap_steps = opponents.as_ref().is_none_or(Pool::cheap);
        let serial =
            pool.is_none() || (threads.is_none() && cheap_steps && num_envs < AUTO_SERIAL_BELOW);
        Ok(VecEnv {
            slots,
            proto,
            seed,
            seeds: (0..num_envs as u64).map(|i| seed.wrapping_add(i)).collect(),
            autoreset: Autoreset::NextStep,
            opponents: opponents.map(Arc::new),
            pool,
            serial,
            min_len: if cheap_steps { 8 } else { 1 },
            obs_len: obs_shape.iter().product(),
            num_actions,
            obs_shape,
        })
    }

    /// The same env with autoreset mode `mode` (the default is
    /// [`Autoreset::NextStep`]).
    pub fn with_autoreset(mut self, mode: Autoreset) -> VecEnv {
        self.autoreset = mode;
        self
    }
    /// The autoreset mode.
    pub fn autoreset(&self) -> Autoreset {
        self.autoreset
    }
    /// Number of games.
    pub fn num_envs(&self) -> usize {
        self.slots.len()
    }
    /// `(planes, ranks, files)` of one observation.
    pub fn obs_shape(&self) -> [usize; 3] {
        self.obs_shape
    }
    /// Floats per observation.
    pub fn obs_len(&self) -> usize {
        self.obs_len
    }
    /// Length of one mask (the variant's number of decision actions).
    pub fn num_actions(&self) -> usize {
        self.num_actions
    }
    /// Reward columns: 2 in self-play, 1 with an opponent.
    pub fn reward_width(&self) -> usize {
        if self.opponents.is_some() {
            1
        } else {
            2
        }
    }
    /// The opponent's spec, if it is one built-in agent.
    pub fn opponent(&self) -> Option<&AgentSpec> {
        self.opponents.as_deref().and_then(Pool::spec)
    }
    /// The opponents (None in self-play).
    pub fn opponents(&self) -> Option<&Pool> {
        self.opponents.as_deref()
    }
    /// The pool member env `i` plays in its current episode (0 for a
    /// single opponent).
    pub fn opponent_index(&self, i: usize) -> Option<usize> {
        self.slots.get(i).map(Slot::member)
    }
    /// The pool member env `i` played in its previous episode (the current
    /// one's in its first): with [`Autoreset::SameStep`], the member of the
    /// game that ended on this step.
    pub fn last_opponent_index(&self, i: usize) -> Option<usize> {
        self.slots.get(i).map(Slot::last_member)
    }
    /// The seed of the current run (env 0's seed when a list was given).
    pub fn seed(&self) -> u64 {
        self.seed
    }
    /// Env `i`'s seed (episode `k` of env `i` uses `game_rng(seeds[i], k)`).
    pub fn env_seed(&self, i: usize) -> Option<u64> {
        self.seeds.get(i).copied()
    }
    /// Every action applied in env `i`'s current episode (chance outcomes,
    /// the opponent's and the caller's decisions), replayable through
    /// `State.apply_action`.
    pub fn history(&self, i: usize) -> Option<&[Action]> {
        self.slots.get(i).map(|e| e.ep.history())
    }
    /// The current episode number of env `i` (0 after [`VecEnv::reset`]).
    pub fn episode(&self, i: usize) -> Option<u64> {
        self.slots.get(i).map(|e| e.ep.index())
    }
    /// The game of env `i`.
    pub fn game(&self, i: usize) -> Option<&AnyGame> {
        self.slots.get(i).map(|e| e.ep.game())
    }

    /// Releases the thread pool, the opponents' search buffers and the
    /// histories (the binding refuses further calls).
    pub fn close(&mut self) {
        self.pool = None;
        for s in &mut self.slots {
            s.close();
        }
    }

    fn check_buffers(&self, b: &Buffers<'_>) -> Result<(), GameError> {
        let n = self.slots.len();
        let ok = b.obs.len() == n * self.obs_len
            && b.mask.len() == n * self.num_actions
            && b.rewards.len() == n * self.reward_width()
            && b.terminated.len() == n
            && b.truncated.len() == n
            && b.player.len() == n
            && b.termination.len() == n
            && b.final_obs.len()
                == match self.autoreset {
                    Autoreset::NextStep => 0,
                    Autoreset::SameStep => n * self.obs_len,
                };
        if ok {
            Ok(())
        } else {
            Err(GameError::new("VecEnv output buffers have the wrong sizes"))
        }
    }

    /// Runs `f(i, slot_i, items[i])` for every env, on the calling thread or
    /// the pool (see [`VecEnv::new`]).
    fn par_each<T: Send, F>(&mut self, items: Vec<T>, f: F)
    where
        F: Fn(usize, &mut Slot, T) + Sync + Send,
    {
        if self.serial {
            for (i, (slot, x)) in self.slots.iter_mut().zip(items).enumerate() {
                f(i, slot, x);
            }
            return;
        }
        let (min_len, token) = (self.min_len, crate::interrupt::current());
        let (slots, pool) = (&mut self.slots, &self.pool);
        let run = move || {
            let each = || {
                slots
                    .par_iter_mut()
                    .zip(items.into_par_iter())
                    .enumerate()
                    .with_min_len(min_len)
                    .for_each(|(i, (slot, x))| {
                        crate::interrupt::within(token.as_ref(), || f(i, slot, x))
                    })
            };
            match pool {
                Some(p) => p.install(each),
                None => each(),
            }
        };
        if min_len == 1 {
            // Searching opponents: long steps stay interruptible.
            crate::interrupt::wait_polling(run)
        } else {
            run()
        }
    }

    /// [`VecEnv::par_each`] over each env's episode, move and output rows.
    fn for_each_env<F>(&mut self, b: Buffers<'_>, moves: &[Option<Move>], f: F)
    where
        F: Fn(usize, &mut Slot, Option<Move>, Out<'_>) + Sync + Send,
    {
        let outs = b.split(self.obs_len, self.num_actions, self.reward_width());
        let items: Vec<_> = outs.into_iter().zip(moves.iter().copied()).collect();
        self.par_each(items, |i, slot, (out, mv)| f(i, slot, mv, out));
    }

    fn set_seed(&mut self, s: u64) {
        self.seed = s;
        for (i, x) in self.seeds.iter_mut().enumerate() {
            *x = s.wrapping_add(i as u64);
        }
    }

    /// Refuses a call without the caller's decisions when some opponent
    /// needs them.
    fn check_no_external(&self) -> Result<(), GameError> {
        if self.opponents.as_deref().is_some_and(Pool::has_external) {
            return Err(GameError::new(
                "an opponent is decided by the caller: use reset_with/step_with",
            ));
        }
        Ok(())
    }

    /// Starts episode 0 of every env (with `seed`, if given, as the new run
    /// seed: env `i` gets `seed + i`) and writes the first observations;
    /// rewards are 0. Without a seed, every env restarts from its last seed.
    pub fn reset(&mut self, seed: Option<u64>, b: Buffers<'_>) -> Result<(), GameError> {
        self.check_buffers(&b)?;
        self.check_no_external()?;
        if let Some(s) = seed {
            self.set_seed(s);
        }
        self.reset_all(b);
        Ok(())
    }

    /// [`VecEnv::reset`] with one seed per env (`seeds[i]` for env `i`;
    /// `seed()` becomes `seeds[0]`).
    pub fn reset_seeds(&mut self, seeds: &[u64], b: Buffers<'_>) -> Result<(), GameError> {
        self.reset_seeds_with(seeds, b, None::<&mut Decide<'_, GameError>>)
    }

    /// [`VecEnv::reset_seeds`]; with caller-decided opponents, `decide`
    /// answers them as in [`VecEnv::reset_with`].
    pub fn reset_seeds_with<E: From<GameError>>(
        &mut self,
        seeds: &[u64],
        b: Buffers<'_>,
        decide: Option<&mut Decide<'_, E>>,
    ) -> Result<(), E> {
        self.check_buffers(&b)?;
        if seeds.len() != self.slots.len() {
            return Err(GameError::new(format!(
                "expected {} seeds (one per env), got {}",
                self.slots.len(),
                seeds.len()
            ))
            .into());
        }
        let old = std::mem::replace(&mut self.seeds, seeds.to_vec());
        let old_seed = std::mem::replace(&mut self.seed, seeds[0]);
        let r = match decide {
            Some(d) => self.reset_with(None, b, d),
            None => self
                .check_no_external()
                .map_err(E::from)
                .map(|()| self.reset_all(b)),
        };
        if r.is_err() {
            (self.seeds, self.seed) = (old, old_seed);
        }
        r
    }

    fn reset_all(&mut self, b: Buffers<'_>) {
        let none = vec![None; self.slots.len()];
        let proto = self.proto.clone();
        let seeds = std::mem::take(&mut self.seeds);
        let pool = self.opponents.clone();
        self.for_each_env(b, &none, |i, slot, _, out| {
            slot.start(&proto, pool.as_deref(), seeds[i], 0);
            write_out(&slot.ep, out);
        });
        self.seeds = seeds;
    }

    /// The legal move of each env's `actions[i]` (None for envs that ended
    /// on the previous step), or the first error.
    fn check_actions(&self, actions: &[i64]) -> Result<Vec<Option<Move>>, GameError> {
        let n = self.slots.len();
        if actions.len() != n {
            return Err(GameError::new(format!(
                "expected {n} actions (one per env), got {}",
                actions.len()
            )));
        }
        let check = |(i, slot): (usize, &Slot)| -> Result<Option<Move>, GameError> {
            let env = &slot.ep;
            if env.over() {
                return Ok(None);
            }
            env.check(actions[i])
                .map(Some)
                .map_err(|e| GameError::new(format!("env {i}: {}", e.0)))
        };
        if self.serial || n < 64 {
            self.slots.iter().enumerate().map(check).collect()
        } else {
            let run = || {
                self.slots
                    .par_iter()
                    .enumerate()
                    .with_min_len(8)
                    .map(check)
                    .collect::<Result<Vec<_>, _>>()
            };
            match &self.pool {
                Some(p) => p.install(run),
                None => run(),
            }
        }
    }

    /// Applies `actions[i]` in every env (ignored for envs that ended on the
    /// previous step: those start a new episode). All actions are checked
    /// before any is applied; on error nothing changed.
    pub fn step(&mut self, actions: &[i64], b: Buffers<'_>) -> Result<(), GameError> {
        self.check_buffers(&b)?;
        self.check_no_external()?;
        let moves = self.check_actions(actions)?;
        let proto = self.proto.clone();
        let pool = self.opponents.clone();
        let same_step = self.autoreset == Autoreset::SameStep;
        self.for_each_env(b, &moves, |_, slot, mv, mut out| {
            let next = |slot: &mut Slot| {
                let (seed, k) = (slot.ep.seed(), slot.ep.index().wrapping_add(1));
                slot.start(&proto, pool.as_deref(), seed, k)
            };
            match mv {
                Some(m) => slot.ep.play_move(m),
                // The episode ended on the previous step: the next one.
                None => next(slot),
            }
            let env = &slot.ep;
            if same_step && mv.is_some() && env.over() {
                // Report the game that ended, then start the next one.
                env.write_observation(env.view(), out.final_obs);
                write_result(env, &mut out);
                next(slot);
                write_position(&slot.ep, &mut out);
            } else {
                write_out(env, out);
            }
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Options;

    fn serial(num_envs: usize, opponent: Option<&str>, threads: Option<usize>) -> bool {
        let proto = AnyGame::new("chess", &Options::new()).unwrap();
        let opponent = opponent.map(|s| AgentSpec::parse(s).unwrap());
        VecEnv::new(proto, num_envs, 0, opponent, threads)
            .unwrap()
            .serial
    }

    #[test]
    fn all_cores_only_where_the_pool_pays() {
        // threads=None: small batches of cheap steps stay on the calling thread.
        assert!(serial(1, None, None));
        assert!(serial(AUTO_SERIAL_BELOW - 1, None, None));
        assert!(serial(64, Some("random"), None));
        assert!(!serial(AUTO_SERIAL_BELOW, None, None));
        // A searching opponent makes every step worth sharing.
        assert!(!serial(2, Some("greedy"), None));
        assert!(!serial(2, Some("mcts:sims=10"), None));
        // Explicit thread counts are obeyed.
        assert!(serial(4096, None, Some(1)));
        assert!(!serial(16, None, Some(2)));
    }
}
