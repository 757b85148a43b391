//! A vectorised environment: `num_envs` games stepped together in one call,
//! with observations, legal-action masks, rewards and done flags written into
//! caller-provided flat buffers (no per-game allocation per step).
//!
//! # Randomness and resets
//!
//! Each env is one [`Episode`] (the episode loop the Gymnasium and
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

use super::episode::{Episode, Side};
use crate::agents::AgentSpec;
use crate::board::Move;
use crate::variants::{api, Action, AnyGame, Game, GameError, Node};
use crate::with_game;
use rayon::prelude::*;

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

/// Output buffers of one step, flat, env-major.
pub struct Buffers<'a> {
    /// `num_envs * obs_len` floats.
    pub obs: &'a mut [f32],
    /// `num_envs * num_actions` flags.
    pub mask: &'a mut [bool],
    /// `num_envs * reward_width` floats.
    pub rewards: &'a mut [f32],
    pub terminated: &'a mut [bool],
    pub truncated: &'a mut [bool],
    /// Player to decide, or -4 at terminal states.
    pub player: &'a mut [i8],
    /// The code (index in `Termination::ALL`) of the game that ended on this
    /// step, else [`NO_TERMINATION`].
    pub termination: &'a mut [i8],
    /// [`Autoreset::SameStep`]: `num_envs * obs_len` floats, env `i`'s
    /// final observation where its game ended on this step (other rows
    /// untouched); [`Autoreset::NextStep`]: empty.
    pub final_obs: &'a mut [f32],
}

struct Out<'a> {
    obs: &'a mut [f32],
    mask: &'a mut [bool],
    rewards: &'a mut [f32],
    terminated: &'a mut bool,
    truncated: &'a mut bool,
    player: &'a mut i8,
    termination: &'a mut i8,
    final_obs: &'a mut [f32],
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
    opponent: Option<AgentSpec>,
    envs: Vec<Episode>,
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
        check_memory(&proto, num_envs, opponent.as_ref())?;
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
        let side = if opponent.is_some() {
            Side::Player(0)
        } else {
            Side::Both
        };
        let envs = (0..num_envs)
            .map(|_| Episode::new(proto.clone(), side, opponent.clone(), false))
            .collect::<Result<_, _>>()?;
        let cheap_steps = matches!(opponent, None | Some(AgentSpec::Random));
        let serial =
            pool.is_none() || (threads.is_none() && cheap_steps && num_envs < AUTO_SERIAL_BELOW);
        Ok(VecEnv {
            envs,
            proto,
            seed,
            seeds: (0..num_envs as u64).map(|i| seed.wrapping_add(i)).collect(),
            autoreset: Autoreset::NextStep,
            opponent,
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
        self.envs.len()
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
        if self.opponent.is_some() {
            1
        } else {
            2
        }
    }
    /// The opponent's spec, if any.
    pub fn opponent(&self) -> Option<&AgentSpec> {
        self.opponent.as_ref()
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
        self.envs.get(i).map(|e| e.history())
    }
    /// The current episode number of env `i` (0 after [`VecEnv::reset`]).
    pub fn episode(&self, i: usize) -> Option<u64> {
        self.envs.get(i).map(|e| e.index())
    }
    /// The game of env `i`.
    pub fn game(&self, i: usize) -> Option<&AnyGame> {
        self.envs.get(i).map(|e| e.game())
    }

    /// Releases the thread pool, the opponents' search buffers and the
    /// histories (the binding refuses further calls).
    pub fn close(&mut self) {
        self.pool = None;
        for e in &mut self.envs {
            e.drop_agent();
        }
    }

    fn check_buffers(&self, b: &Buffers<'_>) -> Result<(), GameError> {
        let n = self.envs.len();
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

    fn for_each_env<F>(&mut self, b: Buffers<'_>, moves: &[Option<Move>], f: F)
    where
        F: Fn(usize, &mut Episode, Option<Move>, Out<'_>) + Sync + Send,
    {
        let rw = self.reward_width();
        let n = self.envs.len();
        let final_chunk = if b.final_obs.is_empty() {
            0
        } else {
            self.obs_len
        };
        let mut finals: Vec<&mut [f32]> = if final_chunk == 0 {
            (0..n).map(|_| <&mut [f32]>::default()).collect()
        } else {
            b.final_obs.chunks_mut(final_chunk).collect()
        };
        let outs: Vec<Out<'_>> = b
            .obs
            .chunks_mut(self.obs_len)
            .zip(b.mask.chunks_mut(self.num_actions))
            .zip(b.rewards.chunks_mut(rw))
            .zip(b.terminated.iter_mut())
            .zip(b.truncated.iter_mut())
            .zip(b.player.iter_mut())
            .zip(b.termination.iter_mut())
            .zip(finals.drain(..))
            .map(
                |(
                    ((((((obs, mask), rewards), terminated), truncated), player), termination),
                    fin,
                )| {
                    Out {
                        obs,
                        mask,
                        rewards,
                        terminated,
                        truncated,
                        player,
                        termination,
                        final_obs: fin,
                    }
                },
            )
            .collect();
        if self.serial {
            for (i, (env, out)) in self.envs.iter_mut().zip(outs).enumerate() {
                f(i, env, moves[i], out);
            }
            return;
        }
        let (min_len, token) = (self.min_len, crate::interrupt::current());
        let (envs, pool) = (&mut self.envs, &self.pool);
        let run = move || {
            let each = || {
                envs.par_iter_mut()
                    .zip(outs.into_par_iter())
                    .enumerate()
                    .with_min_len(min_len)
                    .for_each(|(i, (env, out))| {
                        crate::interrupt::within(token.as_ref(), || f(i, env, moves[i], out))
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

    /// Starts episode 0 of every env (with `seed`, if given, as the new run
    /// seed: env `i` gets `seed + i`) and writes the first observations;
    /// rewards are 0. Without a seed, every env restarts from its last seed.
    pub fn reset(&mut self, seed: Option<u64>, b: Buffers<'_>) -> Result<(), GameError> {
        self.check_buffers(&b)?;
        if let Some(s) = seed {
            self.seed = s;
            for (i, x) in self.seeds.iter_mut().enumerate() {
                *x = s.wrapping_add(i as u64);
            }
        }
        self.reset_all(b);
        Ok(())
    }

    /// [`VecEnv::reset`] with one seed per env (`seeds[i]` for env `i`;
    /// `seed()` becomes `seeds[0]`).
    pub fn reset_seeds(&mut self, seeds: &[u64], b: Buffers<'_>) -> Result<(), GameError> {
        self.check_buffers(&b)?;
        if seeds.len() != self.envs.len() {
            return Err(GameError::new(format!(
                "expected {} seeds (one per env), got {}",
                self.envs.len(),
                seeds.len()
            )));
        }
        self.seeds.copy_from_slice(seeds);
        self.seed = seeds[0];
        self.reset_all(b);
        Ok(())
    }

    fn reset_all(&mut self, b: Buffers<'_>) {
        let none = vec![None; self.envs.len()];
        let proto = self.proto.clone();
        let seeds = std::mem::take(&mut self.seeds);
        self.for_each_env(b, &none, |i, env, _, out| {
            env.reset(&proto, seeds[i], 0);
            write_out(env, out);
        });
        self.seeds = seeds;
    }

    /// Applies `actions[i]` in every env (ignored for envs that ended on the
    /// previous step: those start a new episode). All actions are checked
    /// before any is applied; on error nothing changed.
    pub fn step(&mut self, actions: &[i64], b: Buffers<'_>) -> Result<(), GameError> {
        self.check_buffers(&b)?;
        let n = self.envs.len();
        if actions.len() != n {
            return Err(GameError::new(format!(
                "expected {n} actions (one per env), got {}",
                actions.len()
            )));
        }
        let check = |(i, env): (usize, &Episode)| -> Result<Option<Move>, GameError> {
            if env.over() {
                return Ok(None);
            }
            env.check(actions[i])
                .map(Some)
                .map_err(|e| GameError::new(format!("env {i}: {}", e.0)))
        };
        let moves: Vec<Option<Move>> = if self.serial || n < 64 {
            self.envs
                .iter()
                .enumerate()
                .map(check)
                .collect::<Result<_, _>>()?
        } else {
            let run = || {
                self.envs
                    .par_iter()
                    .enumerate()
                    .with_min_len(8)
                    .map(check)
                    .collect::<Result<Vec<_>, _>>()
            };
            match &self.pool {
                Some(p) => p.install(run)?,
                None => run()?,
            }
        };
        let proto = self.proto.clone();
        let same_step = self.autoreset == Autoreset::SameStep;
        self.for_each_env(b, &moves, |_, env, mv, mut out| {
            match mv {
                Some(m) => env.play_move(m),
                // The episode ended on the previous step: the next one.
                None => env.reset(&proto, env.seed(), env.index().wrapping_add(1)),
            }
            if same_step && mv.is_some() && env.over() {
                // Report the game that ended, then start the next one.
                env.write_observation(env.view(), out.final_obs);
                write_result(env, &mut out);
                env.reset(&proto, env.seed(), env.index().wrapping_add(1));
                write_position(env, &mut out);
            } else {
                write_out(env, out);
            }
        });
        Ok(())
    }
}

/// The bytes this process may use: the least of the physical memory, what
/// the address-space limit (`ulimit -v`) leaves of it, and the cgroup's
/// `memory.max`; None where none is known.
pub fn memory_limit() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        let mut limit: Option<u64> = None;
        let mut least = |v: u64| limit = Some(limit.map_or(v, |l| l.min(v)));
        // SAFETY: sysconf and getrlimit only read process settings.
        unsafe {
            let (pages, page) = (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
            );
            if pages > 0 && page > 0 {
                least(pages as u64 * page as u64);
            }
            let mut r = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            if libc::getrlimit(libc::RLIMIT_AS, &mut r) == 0 && r.rlim_cur != libc::RLIM_INFINITY {
                // The address space already taken (`/proc/self/statm`'s first field).
                let used = std::fs::read_to_string("/proc/self/statm")
                    .ok()
                    .and_then(|t| t.split_whitespace().next()?.parse::<u64>().ok())
                    .map_or(0, |p| p * page.max(0) as u64);
                #[allow(clippy::unnecessary_cast)] // rlim_t is not u64 on every target
                let cur = r.rlim_cur as u64;
                least(cur.saturating_sub(used));
            }
        }
        if let Ok(text) = std::fs::read_to_string("/sys/fs/cgroup/memory.max") {
            if let Ok(v) = text.trim().parse::<u64>() {
                least(v);
            }
        }
        limit
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// Refuses, before anything is allocated, `num_envs` envs whose outputs
/// and opponents (a `search` agent's table each) could never fit in
/// [`memory_limit`], with the memory they would need in the message.
fn check_memory(
    proto: &AnyGame,
    num_envs: usize,
    opponent: Option<&AgentSpec>,
) -> Result<(), GameError> {
    let (obs_len, num_actions) = with_game!(proto, g => (
        api::observation_shape(g).iter().product::<usize>() as u64,
        g.layout().num_actions() as u64,
    ));
    // Observations (and same-step final observations), masks, the rest.
    let outputs = 2 * 4 * obs_len + num_actions + 64;
    let per_opponent = opponent.map_or(0, super::episode::opponent_bytes);
    let each = outputs + per_opponent + std::mem::size_of::<Episode>() as u64;
    let need = each.saturating_mul(num_envs as u64);
    match memory_limit() {
        Some(have) if need > have => Err(GameError::new(format!(
            "{num_envs} envs{} need about {} MB ({:.2} MB each{}), more than the {} MB this \
             process may use (physical memory, ulimit -v, cgroup); use fewer envs{}",
            opponent.map_or(String::new(), |s| format!(" with opponent {s}")),
            need >> 20,
            each as f64 / (1 << 20) as f64,
            if per_opponent > 1 << 20 {
                ", most of it the opponent's search table"
            } else {
                ""
            },
            have >> 20,
            if per_opponent > 1 << 20 {
                ", a smaller tt_mb, or a node budget (search:nodes=N sizes the table to fit)"
            } else {
                ""
            },
        ))),
        _ => Ok(()),
    }
}

/// Writes one env's outputs.
fn write_out(env: &Episode, mut out: Out<'_>) {
    write_position(env, &mut out);
    write_result(env, &mut out);
}

/// The observation, mask and player of env's current node.
fn write_position(env: &Episode, out: &mut Out<'_>) {
    env.write_observation(env.view(), out.obs);
    env.write_mask(None, out.mask);
    if env.over() {
        // Never an all-false mask: the no-op the next step ignores.
        out.mask[NOOP_ACTION] = true;
    }
    *out.player = match env.node() {
        Node::Decision(p) => p as i8,
        Node::Chance => -1,
        Node::Terminal => -4,
    };
}

/// The reward, flags and termination of env's episode (zeros, false and
/// none while it runs).
fn write_result(env: &Episode, out: &mut Out<'_>) {
    let (over, truncated) = (env.over(), env.truncated());
    *out.terminated = over && !truncated;
    *out.truncated = truncated;
    *out.termination = if over {
        with_game!(env.game(), g => g.termination()).map_or(NO_TERMINATION, |t| t.code() as i8)
    } else {
        NO_TERMINATION
    };
    let r = if over { env.returns() } else { [0.0; 2] };
    match env.learner() {
        Some(p) => out.rewards[0] = r[p as usize] as f32,
        None => {
            for (o, v) in out.rewards.iter_mut().zip(r) {
                *o = v as f32;
            }
        }
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
