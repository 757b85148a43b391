//! Opponents of a vector env: one agent spec, or a pool of members (agent
//! specs, or members decided by the caller, e.g. a Python callable) of
//! which each env draws one per episode.
//!
//! The draw for episode `k` of env `i` comes from its own generator,
//! `game_rng(env_seeds[i], k ^ POOL_STREAM)`: it depends only on the seed
//! and the episode (never on the thread count), and it leaves the
//! episode's dice untouched, so every member meets the same dice. A pool of
//! one member draws nothing (it plays exactly as that member alone).
//!
//! Caller-decided members: after the caller's actions are applied, every
//! env whose opponent is such a member and must move waits; the caller is
//! asked once per member for the actions of all its waiting envs (their
//! observations from the opponent's point of view and their masks), the
//! actions are checked, then played (with the chance nodes after them), and
//! again while some env waits (a roll can hand the opponent a second
//! decision in a row). Any error (an illegal action, the caller's own)
//! restores every env and output buffer as they were before the call.

use std::fmt;

use rand::RngExt;

use super::super::episode::{episode_opponent, Episode, Snapshot};
use super::buffers::{self, Buffers, Copy};
use super::{Autoreset, VecEnv};
use crate::agents::{Agent, AgentSpec};
use crate::board::Move;
use crate::rng::game_rng;
use crate::variants::{AnyGame, GameError};

/// Episode-index bits that turn an env's episode generator into its pool
/// generator (indices never come near 2^63).
const POOL_STREAM: u64 = 0xC0DE_0000_0000_0000;

/// The most members of a pool.
pub const MAX_MEMBERS: usize = 1 << 10;

/// Who plays the opponent in one pool member.
#[derive(Clone, Debug, PartialEq)]
pub enum Member {
    /// A built-in agent, playing inside (one per env, built when first drawn).
    Agent(AgentSpec),
    /// The caller of [`VecEnv::step_with`] decides (a Python callable).
    External,
}

impl fmt::Display for Member {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Member::Agent(s) => write!(f, "{s}"),
            Member::External => f.write_str("<callable>"),
        }
    }
}

/// The opponent members of a vector env and their weights.
#[derive(Clone, Debug)]
pub struct Pool {
    members: Vec<Member>,
    weights: Vec<f64>,
    /// Whether weights were given (for the display).
    weighted: bool,
}

impl fmt::Display for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let [m] = &self.members[..] {
            return write!(f, "{m}");
        }
        let names: Vec<String> = self.members.iter().map(|m| m.to_string()).collect();
        write!(f, "[{}]", names.join(", "))?;
        if self.weighted {
            write!(f, " with weights {:?}", self.weights)?;
        }
        Ok(())
    }
}

impl Pool {
    /// One built-in agent.
    pub fn single(spec: AgentSpec) -> Pool {
        Pool::new(vec![Member::Agent(spec)], None).expect("one member, no weights")
    }

    /// `members` (1 ..= [`MAX_MEMBERS`]) drawn with probabilities
    /// proportional to `weights` (finite, not negative, not all zero; None:
    /// all equal).
    pub fn new(members: Vec<Member>, weights: Option<Vec<f64>>) -> Result<Pool, GameError> {
        if members.is_empty() || members.len() > MAX_MEMBERS {
            return Err(GameError::new(format!(
                "an opponent pool needs 1 to {MAX_MEMBERS} members, got {}",
                members.len()
            )));
        }
        let weighted = weights.is_some();
        let weights = weights.unwrap_or_else(|| vec![1.0; members.len()]);
        if weights.len() != members.len() {
            return Err(GameError::new(format!(
                "opponent_weights needs one weight per pool member ({}), got {}",
                members.len(),
                weights.len()
            )));
        }
        if let Some((i, w)) = weights
            .iter()
            .enumerate()
            .find(|(_, w)| !(w.is_finite() && **w >= 0.0))
        {
            return Err(GameError::new(format!(
                "opponent_weights[{i}] must be a finite number >= 0, got {w}"
            )));
        }
        if weights.iter().sum::<f64>() <= 0.0 {
            return Err(GameError::new(
                "opponent_weights must not all be zero (no member could be drawn)",
            ));
        }
        Ok(Pool {
            members,
            weights,
            weighted,
        })
    }

    pub fn members(&self) -> &[Member] {
        &self.members
    }
    /// The weights (all 1 when none were given).
    pub fn weights(&self) -> &[f64] {
        &self.weights
    }
    pub fn len(&self) -> usize {
        self.members.len()
    }
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }
    /// The one built-in spec of a single-member pool.
    pub fn spec(&self) -> Option<&AgentSpec> {
        match &self.members[..] {
            [Member::Agent(s)] => Some(s),
            _ => None,
        }
    }
    /// Whether some member is decided by the caller.
    pub fn has_external(&self) -> bool {
        self.members.contains(&Member::External)
    }
    /// The members with a weight above zero.
    pub(super) fn drawable(&self) -> impl Iterator<Item = &Member> {
        self.members
            .iter()
            .zip(&self.weights)
            .filter(|(_, w)| **w > 0.0)
            .map(|(m, _)| m)
    }
    /// Whether every member's moves are cheap (random or the caller's).
    pub(super) fn cheap(&self) -> bool {
        self.members
            .iter()
            .all(|m| matches!(m, Member::External | Member::Agent(AgentSpec::Random)))
    }

    /// The member of episode `index` of the env seeded `seed`.
    pub fn draw(&self, seed: u64, index: u64) -> usize {
        if self.members.len() == 1 {
            return 0;
        }
        let total: f64 = self.weights.iter().sum();
        let x = game_rng(seed, index ^ POOL_STREAM).random::<f64>() * total;
        let mut acc = 0.0;
        for (i, w) in self.weights.iter().enumerate() {
            acc += w;
            if x < acc && *w > 0.0 {
                return i;
            }
        }
        // Rounding at the top end: the last member that can be drawn.
        self.weights.iter().rposition(|w| *w > 0.0).unwrap_or(0)
    }
}

/// No member drawn yet (before the first reset).
const UNDRAWN: usize = usize::MAX;

/// One env: its episode and the pool member it plays.
pub(super) struct Slot {
    pub(super) ep: Episode,
    member: usize,
    /// The member of the episode before this one.
    last_member: usize,
    /// The built-in agents of the members not playing now (by member),
    /// built when first drawn and kept for later episodes.
    bench: Vec<Option<Box<Agent>>>,
}

impl Slot {
    /// An env of `pool` (None: self-play) playing `start` as player 0.
    pub(super) fn new(start: AnyGame, pool: Option<&Pool>) -> Result<Slot, GameError> {
        use super::super::episode::Side;
        let (ep, member, bench) = match pool {
            None => (Episode::new(start, Side::Both, None, false)?, 0, Vec::new()),
            // One member (as before pools): its agent built at once, if it
            // has one; nothing drawn.
            Some(p) if p.len() == 1 => (
                Episode::new(start, Side::Player(0), p.spec().cloned(), false)?,
                0,
                Vec::new(),
            ),
            Some(p) => {
                let bench = (0..p.len()).map(|_| None).collect();
                (
                    Episode::new(start, Side::Player(0), None, false)?,
                    UNDRAWN,
                    bench,
                )
            }
        };
        Ok(Slot {
            ep,
            member,
            last_member: member,
            bench,
        })
    }

    /// The member of the current episode (0 before the first).
    pub(super) fn member(&self) -> usize {
        if self.member == UNDRAWN {
            0
        } else {
            self.member
        }
    }
    /// The member of the previous episode (the current one's at first).
    pub(super) fn last_member(&self) -> usize {
        if self.last_member == UNDRAWN {
            self.member()
        } else {
            self.last_member
        }
    }

    /// Starts episode `index` of `seed` against the member drawn for it.
    pub(super) fn start(&mut self, proto: &AnyGame, pool: Option<&Pool>, seed: u64, index: u64) {
        self.last_member = self.member;
        if let Some(p) = pool.filter(|p| p.len() > 1) {
            let j = p.draw(seed, index);
            if j != self.member {
                self.switch(p, j);
            }
        }
        self.ep.reset(proto, seed, index);
    }

    /// Makes member `j` the episode's opponent, benching the current one.
    fn switch(&mut self, pool: &Pool, j: usize) {
        let out = self.ep.swap_agent(None);
        if let Some(b) = self.bench.get_mut(self.member) {
            *b = out;
        }
        let next = match pool.members.get(j) {
            Some(Member::Agent(s)) => Some(
                self.bench[j]
                    .take()
                    .unwrap_or_else(|| Box::new(episode_opponent(s.clone()))),
            ),
            // A caller-decided member, or none (rolling back a first reset).
            _ => None,
        };
        self.ep.swap_agent(next);
        self.member = j;
    }

    /// Releases the agents.
    pub(super) fn close(&mut self) {
        self.ep.drop_agent();
        self.bench = Vec::new();
    }
}

/// A slot's state for a rollback (its agents stay where they are).
struct SlotSnapshot {
    ep: Snapshot,
    member: usize,
    last_member: usize,
}

/// The caller's decisions for the envs where one caller-decided pool
/// member must move: it pushes one action per env onto `actions`.
pub struct Requests<'a> {
    /// The pool member.
    pub member: usize,
    /// The envs waiting, ascending.
    pub envs: &'a [usize],
    /// Their observations from the opponent's point of view, env-major
    /// (`envs.len() * obs_len`).
    pub obs: &'a [f32],
    /// Their legal-action masks (`envs.len() * num_actions`).
    pub mask: &'a [bool],
    /// Where the caller puts the actions (empty on entry).
    pub actions: &'a mut Vec<i64>,
}

/// The caller's answer to [`Requests`] (its error type `E`).
pub type Decide<'a, E> = dyn FnMut(Requests<'_>) -> Result<(), E> + 'a;

impl VecEnv {
    /// [`VecEnv::reset`] for an env with caller-decided opponents: `decide`
    /// answers their decisions (see the module doc); on error nothing changed.
    pub fn reset_with<E: From<GameError>>(
        &mut self,
        seed: Option<u64>,
        b: Buffers<'_>,
        decide: &mut Decide<'_, E>,
    ) -> Result<(), E> {
        self.check_buffers(&b)?;
        self.guarded(b, decide, |v, mut b, decide| {
            if let Some(s) = seed {
                v.set_seed(s);
            }
            let proto = v.proto.clone();
            let (pool, seeds) = (v.opponents.clone(), v.seeds.clone());
            v.par_each(vec![(); v.slots.len()], |i, slot, ()| {
                slot.start(&proto, pool.as_deref(), seeds[i], 0)
            });
            v.finish(&vec![None; v.slots.len()], b.reborrow(), decide)
        })
    }

    /// [`VecEnv::step`] for an env with caller-decided opponents: `decide`
    /// answers their decisions (see the module doc); on error (the caller's
    /// or an illegal action of either side) nothing changed.
    pub fn step_with<E: From<GameError>>(
        &mut self,
        actions: &[i64],
        b: Buffers<'_>,
        decide: &mut Decide<'_, E>,
    ) -> Result<(), E> {
        self.check_buffers(&b)?;
        let moves = self.check_actions(actions)?;
        self.guarded(b, decide, |v, mut b, decide| {
            let (proto, pool) = (v.proto.clone(), v.opponents.clone());
            v.par_each(moves.clone(), |_, slot, mv| match mv {
                Some(m) => slot.ep.play_move(m),
                // The episode ended on the previous step: the next one.
                None => {
                    let (seed, k) = (slot.ep.seed(), slot.ep.index().wrapping_add(1));
                    slot.start(&proto, pool.as_deref(), seed, k)
                }
            });
            v.finish(&moves, b.reborrow(), decide)
        })
    }

    /// Runs `f`, restoring the envs, seeds and buffers if it fails.
    fn guarded<E>(
        &mut self,
        mut b: Buffers<'_>,
        decide: &mut Decide<'_, E>,
        f: impl FnOnce(&mut VecEnv, Buffers<'_>, &mut Decide<'_, E>) -> Result<(), E>,
    ) -> Result<(), E> {
        let snaps: Vec<SlotSnapshot> = self
            .slots
            .iter()
            .map(|s| SlotSnapshot {
                ep: s.ep.snapshot(),
                member: s.member,
                last_member: s.last_member,
            })
            .collect();
        let (seed, seeds, copy) = (self.seed, self.seeds.clone(), Copy::of(&b));
        let r = f(self, b.reborrow(), decide);
        if r.is_err() {
            let pool = self.opponents.clone();
            for (slot, s) in self.slots.iter_mut().zip(snaps) {
                if slot.member != s.member {
                    if let Some(p) = pool.as_deref() {
                        slot.switch(p, s.member);
                    }
                }
                slot.last_member = s.last_member;
                slot.ep.rollback(s.ep);
            }
            (self.seed, self.seeds) = (seed, seeds);
            copy.restore(&mut b);
        }
        r
    }

    /// After the caller's moves: the opponents' decisions, the outputs,
    /// same-step resets (and the opponents' decisions in the new episodes).
    fn finish<E: From<GameError>>(
        &mut self,
        moves: &[Option<Move>],
        mut b: Buffers<'_>,
        decide: &mut Decide<'_, E>,
    ) -> Result<(), E> {
        self.opponent_rounds(decide)?;
        let (proto, pool) = (self.proto.clone(), self.opponents.clone());
        let same_step = self.autoreset == Autoreset::SameStep;
        let (obs_len, num_actions, rw) = (self.obs_len, self.num_actions, self.reward_width());
        let outs = b.reborrow().split(obs_len, num_actions, rw);
        let items: Vec<_> = outs.into_iter().zip(moves.iter().copied()).collect();
        self.par_each(items, |_, slot, (mut out, mv)| {
            if same_step && mv.is_some() && slot.ep.over() {
                // Report the game that ended, then start the next one.
                slot.ep.write_observation(slot.ep.view(), out.final_obs);
                buffers::write_result(&slot.ep, &mut out);
                let (seed, k) = (slot.ep.seed(), slot.ep.index().wrapping_add(1));
                slot.start(&proto, pool.as_deref(), seed, k);
            } else {
                buffers::write_result(&slot.ep, &mut out);
            }
            buffers::write_position(&slot.ep, &mut out);
        });
        // A same-step reset whose new episode opens with the opponent's move.
        let waiting: Vec<bool> = self.slots.iter().map(|s| s.ep.opponent_to_move()).collect();
        if waiting.contains(&true) {
            self.opponent_rounds(decide)?;
            let outs = b.split(obs_len, num_actions, rw);
            for ((slot, mut out), w) in self.slots.iter().zip(outs).zip(waiting) {
                if w {
                    buffers::write_position(&slot.ep, &mut out);
                }
            }
        }
        Ok(())
    }

    /// Asks `decide` for the moves of every env whose caller-decided
    /// opponent must move, until none must.
    fn opponent_rounds<E: From<GameError>>(&mut self, decide: &mut Decide<'_, E>) -> Result<(), E> {
        let (mut obs, mut mask, mut actions) = (Vec::new(), Vec::new(), Vec::new());
        loop {
            let waiting: Vec<usize> = (0..self.slots.len())
                .filter(|&i| self.slots[i].ep.opponent_to_move())
                .collect();
            if waiting.is_empty() {
                return Ok(());
            }
            let mut members: Vec<usize> = waiting.iter().map(|&i| self.slots[i].member).collect();
            members.sort_unstable();
            members.dedup();
            let mut moves: Vec<(usize, Move)> = Vec::with_capacity(waiting.len());
            for m in members {
                let envs: Vec<usize> = waiting
                    .iter()
                    .copied()
                    .filter(|&i| self.slots[i].member == m)
                    .collect();
                obs.clear();
                obs.resize(envs.len() * self.obs_len, 0.0);
                mask.clear();
                mask.resize(envs.len() * self.num_actions, false);
                for (j, &i) in envs.iter().enumerate() {
                    let ep = &self.slots[i].ep;
                    let row = j * self.obs_len..(j + 1) * self.obs_len;
                    ep.write_observation(ep.decider().unwrap_or(1), &mut obs[row]);
                    let row = j * self.num_actions..(j + 1) * self.num_actions;
                    ep.write_mask(None, &mut mask[row]);
                }
                actions.clear();
                decide(Requests {
                    member: m,
                    envs: &envs,
                    obs: &obs,
                    mask: &mask,
                    actions: &mut actions,
                })?;
                if actions.len() != envs.len() {
                    return Err(GameError::new(format!(
                        "opponent {m} gave {} actions for {} envs",
                        actions.len(),
                        envs.len()
                    ))
                    .into());
                }
                for (j, (&i, &a)) in envs.iter().zip(&actions).enumerate() {
                    let mv = self.slots[i].ep.check(a).map_err(|e| {
                        GameError::new(format!(
                            "opponent {m}'s action {j} of {} (env {i}): {}",
                            envs.len(),
                            e.0
                        ))
                    })?;
                    moves.push((i, mv));
                }
            }
            // Every answer of the round is checked before any is played.
            for (i, mv) in moves {
                self.slots[i].ep.play_move(mv);
            }
            if crate::interrupt::requested() {
                return Ok(()); // the binding raises KeyboardInterrupt
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(weights: Option<Vec<f64>>) -> Result<Pool, GameError> {
        let m = |s: &str| Member::Agent(AgentSpec::parse(s).unwrap());
        Pool::new(vec![m("random"), Member::External, m("greedy")], weights)
    }

    #[test]
    fn draws_follow_the_weights_for_a_seed() {
        let p = pool(Some(vec![1.0, 0.0, 3.0])).unwrap();
        let mut counts = [0usize; 3];
        for seed in 0..50u64 {
            for k in 0..200 {
                let j = p.draw(seed, k);
                assert_eq!(j, p.draw(seed, k));
                counts[j] += 1;
            }
        }
        assert_eq!(counts[1], 0);
        let share = counts[2] as f64 / 10_000.0;
        assert!((share - 0.75).abs() < 0.03, "{counts:?}");
        // One member: nothing drawn.
        assert_eq!(Pool::single(AgentSpec::Random).draw(3, 4), 0);
    }

    #[test]
    fn bad_pools_say_what_is_allowed() {
        let err = |r: Result<Pool, GameError>| r.unwrap_err().0;
        assert!(err(Pool::new(Vec::new(), None)).contains("1 to 1024 members, got 0"));
        assert!(err(pool(Some(vec![1.0]))).contains("one weight per pool member (3), got 1"));
        assert!(err(pool(Some(vec![1.0, f64::NAN, 1.0]))).contains("opponent_weights[1]"));
        assert!(err(pool(Some(vec![0.0; 3]))).contains("not all be zero"));
        assert_eq!(
            pool(None).unwrap().to_string(),
            "[random, <callable>, greedy]"
        );
    }
}
