//! The output buffers of a step and what each env writes into them.

use super::super::episode::Episode;
use super::{NOOP_ACTION, NO_TERMINATION};
use crate::variants::{Game, Node};
use crate::with_game;

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

/// One env's rows of the [`Buffers`].
pub(super) struct Out<'a> {
    pub(super) obs: &'a mut [f32],
    pub(super) mask: &'a mut [bool],
    pub(super) rewards: &'a mut [f32],
    pub(super) terminated: &'a mut bool,
    pub(super) truncated: &'a mut bool,
    pub(super) player: &'a mut i8,
    pub(super) termination: &'a mut i8,
    pub(super) final_obs: &'a mut [f32],
}

impl Buffers<'_> {
    /// The same buffers, borrowed again (for a step's several passes).
    pub(super) fn reborrow(&mut self) -> Buffers<'_> {
        Buffers {
            obs: self.obs,
            mask: self.mask,
            rewards: self.rewards,
            terminated: self.terminated,
            truncated: self.truncated,
            player: self.player,
            termination: self.termination,
            final_obs: self.final_obs,
        }
    }
}

impl<'a> Buffers<'a> {
    /// Each env's rows (`obs_len` floats, `num_actions` flags, `reward_width`
    /// floats, ...), env-major.
    pub(super) fn split(self, obs_len: usize, num_actions: usize, rw: usize) -> Vec<Out<'a>> {
        let n = self.terminated.len();
        let mut finals: Vec<&mut [f32]> = if self.final_obs.is_empty() {
            (0..n).map(|_| <&mut [f32]>::default()).collect()
        } else {
            self.final_obs.chunks_mut(obs_len).collect()
        };
        self.obs
            .chunks_mut(obs_len)
            .zip(self.mask.chunks_mut(num_actions))
            .zip(self.rewards.chunks_mut(rw))
            .zip(self.terminated.iter_mut())
            .zip(self.truncated.iter_mut())
            .zip(self.player.iter_mut())
            .zip(self.termination.iter_mut())
            .zip(finals.drain(..))
            .map(
                |(
                    ((((((obs, mask), rewards), terminated), truncated), player), termination),
                    final_obs,
                )| Out {
                    obs,
                    mask,
                    rewards,
                    terminated,
                    truncated,
                    player,
                    termination,
                    final_obs,
                },
            )
            .collect()
    }
}

/// A copy of the buffers, restored when a step with caller-decided
/// opponents fails (the caller's arrays then keep the last step's outputs).
pub(super) struct Copy {
    obs: Vec<f32>,
    mask: Vec<bool>,
    rewards: Vec<f32>,
    flags: Vec<bool>,
    codes: Vec<i8>,
    final_obs: Vec<f32>,
}

impl Copy {
    pub(super) fn of(b: &Buffers<'_>) -> Copy {
        Copy {
            obs: b.obs.to_vec(),
            mask: b.mask.to_vec(),
            rewards: b.rewards.to_vec(),
            flags: [&*b.terminated, &*b.truncated].concat(),
            codes: [&*b.player, &*b.termination].concat(),
            final_obs: b.final_obs.to_vec(),
        }
    }
    pub(super) fn restore(&self, b: &mut Buffers<'_>) {
        let n = b.terminated.len();
        b.obs.copy_from_slice(&self.obs);
        b.mask.copy_from_slice(&self.mask);
        b.rewards.copy_from_slice(&self.rewards);
        b.terminated.copy_from_slice(&self.flags[..n]);
        b.truncated.copy_from_slice(&self.flags[n..]);
        b.player.copy_from_slice(&self.codes[..n]);
        b.termination.copy_from_slice(&self.codes[n..]);
        b.final_obs.copy_from_slice(&self.final_obs);
    }
}

/// Writes one env's outputs.
pub(super) fn write_out(env: &Episode, mut out: Out<'_>) {
    write_position(env, &mut out);
    write_result(env, &mut out);
}

/// The observation, mask and player of env's current node.
pub(super) fn write_position(env: &Episode, out: &mut Out<'_>) {
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
pub(super) fn write_result(env: &Episode, out: &mut Out<'_>) {
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
