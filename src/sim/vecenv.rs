//! A vectorised environment: `num_envs` games stepped together in one call,
//! with observations, legal-action masks, rewards and done flags written into
//! caller-provided flat buffers (no per-game allocation per step).
//!
//! # Randomness and resets
//!
//! Chance nodes (and the built-in opponent's moves) are resolved inside the
//! environment with the generator of the current episode: episode `k`
//! (counted from 0 since the last [`VecEnv::reset`]) of env `i` uses
//! `game_rng(seed, i * 2^32 + k)`, advanced as the episode goes on. Results
//! therefore depend only on `(seed, i, k)` and the actions, never on the
//! thread count.
//!
//! # Autoreset
//!
//! Gymnasium's `AutoresetMode.NEXT_STEP`: the step on which env `i`'s game
//! ends reports the final observation, reward and `terminated`/`truncated`;
//! on the *next* step env `i`'s action is ignored (not validated), the env
//! starts its next episode and reports the new first observation with reward
//! 0 and both flags false. (A new episode that is already over after its
//! first chance events — impossible from the standard start positions — is
//! reported as ended at once and reset on the following step.)
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

use super::{game_rng, sample_outcome, GameRng};
use crate::agents::{Agent, AgentSpec, Evaluate};
use crate::board::{Move, MoveList};
use crate::variants::{api, Action, AnyGame, Game, GameError, Node, Outcomes, Termination};
use crate::with_game;
use rayon::prelude::*;

/// The largest `num_envs` accepted.
pub const MAX_ENVS: usize = 1 << 16;

struct Env {
    game: AnyGame,
    rng: GameRng,
    episode: u64,
    history: Vec<Action>,
    needs_reset: bool,
    /// The built-in opponent (None in self-play); boxed so that `Env`, walked
    /// by every step, stays small.
    agent: Option<Box<Agent>>,
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
}

struct Out<'a> {
    obs: &'a mut [f32],
    mask: &'a mut [bool],
    rewards: &'a mut [f32],
    terminated: &'a mut bool,
    truncated: &'a mut bool,
    player: &'a mut i8,
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
    opponent: Option<AgentSpec>,
    envs: Vec<Env>,
    pool: Option<rayon::ThreadPool>,
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
    /// threads, `None` on rayon's global pool, or in a plain loop when the
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
        let pool = match threads {
            Some(0) => {
                return Err(GameError::new(
                    "threads must be at least 1 (or None for all cores)",
                ))
            }
            Some(1) | None => None,
            Some(t) => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(t)
                    .build()
                    .map_err(|e| GameError::new(format!("cannot start {t} threads: {e}")))?,
            ),
        };
        let (obs_shape, num_actions) =
            with_game!(&proto, g => (api::observation_shape(g), g.layout().num_actions()));
        let envs = (0..num_envs)
            .map(|_| Env {
                game: proto.clone(),
                rng: game_rng(seed, 0),
                episode: u64::MAX,
                history: Vec::new(),
                needs_reset: true,
                agent: opponent.clone().map(|s| Box::new(Agent::new(s))),
            })
            .collect();
        let cheap_steps = matches!(opponent, None | Some(AgentSpec::Random));
        Ok(VecEnv {
            envs,
            proto,
            seed,
            opponent,
            pool,
            serial: threads == Some(1)
                || (threads.is_none() && cheap_steps && num_envs < AUTO_SERIAL_BELOW),
            min_len: if cheap_steps { 8 } else { 1 },
            obs_len: obs_shape.iter().product(),
            num_actions,
            obs_shape,
        })
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
    /// The seed of the current run.
    pub fn seed(&self) -> u64 {
        self.seed
    }
    /// Every action applied in env `i`'s current episode (chance outcomes,
    /// the opponent's and the caller's decisions), replayable through
    /// `State.apply_action`.
    pub fn history(&self, i: usize) -> Option<&[Action]> {
        self.envs.get(i).map(|e| e.history.as_slice())
    }
    /// The current episode number of env `i` (0 after [`VecEnv::reset`]).
    pub fn episode(&self, i: usize) -> Option<u64> {
        self.envs.get(i).map(|e| e.episode)
    }
    /// The game of env `i`.
    pub fn game(&self, i: usize) -> Option<&AnyGame> {
        self.envs.get(i).map(|e| &e.game)
    }

    /// Releases the thread pool, the opponents' search buffers and the
    /// histories (the binding refuses further calls).
    pub fn close(&mut self) {
        self.pool = None;
        for e in &mut self.envs {
            e.agent = None;
            e.history = Vec::new();
            e.needs_reset = true;
        }
    }

    fn check_buffers(&self, b: &Buffers<'_>) -> Result<(), GameError> {
        let n = self.envs.len();
        let ok = b.obs.len() == n * self.obs_len
            && b.mask.len() == n * self.num_actions
            && b.rewards.len() == n * self.reward_width()
            && b.terminated.len() == n
            && b.truncated.len() == n
            && b.player.len() == n;
        if ok {
            Ok(())
        } else {
            Err(GameError::new("VecEnv output buffers have the wrong sizes"))
        }
    }

    fn for_each_env<F>(&mut self, b: Buffers<'_>, moves: &[Option<Move>], f: F)
    where
        F: Fn(usize, &mut Env, Option<Move>, Out<'_>) + Sync + Send,
    {
        let rw = self.reward_width();
        let outs: Vec<Out<'_>> = b
            .obs
            .chunks_mut(self.obs_len)
            .zip(b.mask.chunks_mut(self.num_actions))
            .zip(b.rewards.chunks_mut(rw))
            .zip(b.terminated.iter_mut())
            .zip(b.truncated.iter_mut())
            .zip(b.player.iter_mut())
            .map(
                |(((((obs, mask), rewards), terminated), truncated), player)| Out {
                    obs,
                    mask,
                    rewards,
                    terminated,
                    truncated,
                    player,
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
    /// seed) and writes the first observations; rewards are 0.
    pub fn reset(&mut self, seed: Option<u64>, b: Buffers<'_>) -> Result<(), GameError> {
        self.check_buffers(&b)?;
        if let Some(s) = seed {
            self.seed = s;
        }
        for e in &mut self.envs {
            e.needs_reset = true;
            e.episode = u64::MAX; // the reset below makes it 0
        }
        let none = vec![None; self.envs.len()];
        let (proto, seed) = (self.proto.clone(), self.seed);
        self.for_each_env(b, &none, |i, env, _, out| {
            step_env(&proto, seed, i, env, None, out)
        });
        Ok(())
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
        let check = |(i, env): (usize, &Env)| -> Result<Option<Move>, GameError> {
            if env.needs_reset {
                return Ok(None);
            }
            let a = actions[i];
            with_game!(&env.game, g => {
                let mut ml = MoveList::new();
                g.legal_moves(&mut ml);
                let (layout, turn) = (g.layout(), g.position().turn());
                let found = u32::try_from(a)
                    .ok()
                    .and_then(|a| ml.iter().copied().find(|&m| layout.encode(m, turn) == a));
                found.map(Some).ok_or_else(|| {
                    GameError::new(format!(
                        "env {i}: action {a} is not legal; there are {} legal actions \
                         (ids below {}; see the mask)",
                        ml.len(),
                        self.num_actions
                    ))
                })
            })
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
        let (proto, seed) = (self.proto.clone(), self.seed);
        self.for_each_env(b, &moves, |i, env, mv, out| {
            step_env(&proto, seed, i, env, mv, out)
        });
        Ok(())
    }
}

/// Resolves chance nodes (and the opponent's decisions) until the caller
/// decides or the game is over.
fn advance<G: Evaluate>(
    g: &mut G,
    rng: &mut GameRng,
    mut agent: Option<&mut Agent>,
    history: &mut Vec<Action>,
) {
    let mut outcomes = Outcomes::new();
    loop {
        if crate::interrupt::requested() {
            return; // the binding then requires a reset
        }
        match g.node() {
            Node::Chance => {
                let o = sample_outcome(g, rng, &mut outcomes);
                g.apply_outcome(o);
                history.push(o);
            }
            Node::Decision(p) if p != 0 && agent.is_some() => {
                // `Agent::select` for "random" makes exactly the draw the
                // random opponent always made.
                let m = agent
                    .as_deref_mut()
                    .map_or(Move::NULL, |a| a.select(g, rng));
                history.push(g.layout().encode(m, g.position().turn()));
                g.play(m);
            }
            _ => return,
        }
    }
}

fn step_env(proto: &AnyGame, seed: u64, i: usize, env: &mut Env, mv: Option<Move>, out: Out<'_>) {
    let fresh = env.needs_reset;
    if fresh {
        env.episode = env.episode.wrapping_add(1);
        env.game = proto.clone();
        env.rng = game_rng(seed, ((i as u64) << 32).wrapping_add(env.episode));
        env.history.clear();
        env.needs_reset = false;
    }
    let Env {
        game,
        rng,
        history,
        agent,
        ..
    } = env;
    let opp = agent.is_some();
    let ended = with_game!(game, g => {
        if let Some(m) = mv {
            history.push(g.layout().encode(m, g.position().turn()));
            g.play(m);
        }
        advance(g, rng, agent.as_deref_mut(), history);
        write_out(g, opp, out)
    });
    env.needs_reset = ended;
}

/// Writes one env's outputs; returns whether the game is over.
fn write_out<G: Game>(g: &G, opp: bool, out: Out<'_>) -> bool {
    let node = g.node();
    let view = match (opp, node) {
        (false, Node::Decision(p)) => p,
        _ => 0,
    };
    api::write_observation(g, view, out.obs);
    // A full clear (`rep stosb`, no read of the old lines) measured faster
    // than clearing only last step's entries plus a check that the caller
    // wrote nothing else into the row.
    out.mask.fill(false);
    let mut ml = MoveList::new();
    g.legal_moves(&mut ml);
    let (layout, turn) = (g.layout(), g.position().turn());
    for &m in ml.iter() {
        if let Some(x) = out.mask.get_mut(layout.encode(m, turn) as usize) {
            *x = true;
        }
    }
    *out.player = match node {
        Node::Decision(p) => p as i8,
        Node::Chance => -1,
        Node::Terminal => -4,
    };
    let ended = node == Node::Terminal;
    let truncated = g.termination() == Some(Termination::MaxPlies);
    *out.terminated = ended && !truncated;
    *out.truncated = truncated;
    let r = if ended { api::returns(g) } else { [0.0, 0.0] };
    for (o, v) in out.rewards.iter_mut().zip(r) {
        *o = v as f32;
    }
    ended
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
