//! One RL episode of one game: the single episode loop behind the Rust
//! [`super::vecenv::VecEnv`] (a vector of these), the Gymnasium env and the
//! PettingZoo env (through the `dicechess._core.Episode` binding), so that
//! all of them play the same game for one seed and the same actions.
//!
//! An episode starts from a start position with `(seed, index)`: its
//! randomness (dice, the built-in opponent's draws, a random side) comes
//! from `game_rng(seed, index)` only. Chance nodes and the built-in
//! opponent's decisions are resolved inside; the episode then waits for an
//! external decision: the learner's, or (with no built-in opponent) the
//! other side's, made by the caller (a Python callable, or the other
//! PettingZoo agent in self-play).
//!
//! An illegal external decision raises ([`GameError`], nothing changed), or,
//! with `lose_on_illegal`, ends the episode as a loss for the player who
//! made it (-1 for them, 0 for the other; the game itself unchanged), as
//! PettingZoo's classic envs do. An illegal decision by the opponent always
//! raises.

use serde::{Deserialize, Serialize};

use super::{game_rng, sample_outcome, GameRng};
use crate::agents::{Agent, AgentSpec, Evaluate};
use crate::board::{Move, MoveList};
use crate::variants::Termination;
use crate::variants::{api, Action, AnyGame, Game, GameError, Node, Outcomes, Player};
use crate::with_game;
use rand::RngExt;

/// Which side the learner plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Every decision is external (self-play, PettingZoo).
    Both,
    /// The learner plays this player.
    Player(Player),
    /// Drawn from the episode's generator at each reset (first draw).
    Random,
}

/// The name of the termination of an episode lost by an illegal action.
pub const ILLEGAL_ACTION: &str = "illegal_action";

/// Table entries a `search` opponent with a node budget gets per node of
/// its budget: room for every search of a long game (with `keep` the
/// table holds one game's entries), so budgets of 1,024 nodes and more keep
/// the default 16 MiB table.
pub const TABLE_ENTRIES_PER_NODE: u64 = 512;

/// Bytes of one transposition-table entry (`agents::search::tt`).
const TABLE_ENTRY_BYTES: u64 = 32;

/// The spec an episode's built-in opponent plays: a `search` agent with a
/// node budget gets a table no larger than its searches can fill
/// ([`TABLE_ENTRIES_PER_NODE`] entries a node, at least 1 MiB, at most its
/// `tt_mb`), so that many envs fit in memory (a vector env holds one
/// opponent per env); other specs are unchanged.
pub fn sized_for_episode(spec: AgentSpec) -> AgentSpec {
    match spec {
        AgentSpec::Search(mut p) => {
            if let Some(nodes) = p.node_limit() {
                let bytes = nodes
                    .saturating_mul(TABLE_ENTRIES_PER_NODE)
                    .saturating_mul(TABLE_ENTRY_BYTES);
                let mb = bytes.div_ceil(1 << 20).clamp(1, u32::MAX as u64) as u32;
                p.tt_mb = p.tt_mb.min(mb);
            }
            AgentSpec::Search(p)
        }
        other => other,
    }
}

/// Most nodes the tree of an episode's `mcts` opponent grows to (a vector
/// env holds one opponent per env): a search that fills it evaluates its
/// leaves instead of growing it, so its memory is bounded by construction
/// ([`crate::agents::mcts::tree_bytes`], about 2 MB) whatever `sims`,
/// `nodes` or `ms`. Budgets whose trees stay smaller play as they do
/// elsewhere (`mcts:sims=256` in chess grows about 9,000 nodes).
pub const EPISODE_TREE_NODES: usize = 1 << 14;

/// An episode's built-in opponent: [`sized_for_episode`]'s spec, an `mcts`
/// tree capped at [`EPISODE_TREE_NODES`].
pub fn episode_opponent(spec: AgentSpec) -> Agent {
    Agent::new(sized_for_episode(spec)).with_tree_cap(EPISODE_TREE_NODES)
}

/// Bytes an episode's built-in opponent `spec` (as [`episode_opponent`]
/// makes it) may hold at most: a `search` agent's table (rounded down to a
/// power of two of 64-byte buckets, with 2 MiB of alignment slack from 2 MiB
/// on) and its buffers; an `mcts` agent's tree of at most
/// [`EPISODE_TREE_NODES`] nodes and its buffers; a generous constant for
/// the buffers of the other agents.
pub fn opponent_bytes(spec: &AgentSpec) -> u64 {
    const BUFFERS: u64 = 1 << 19;
    match sized_for_episode(spec.clone()) {
        AgentSpec::Search(p) if p.tt => {
            let buckets = ((p.tt_mb as u64) << 20) / 64;
            let table = (1u64 << (63 - buckets.max(1).leading_zeros())) * 64;
            let slack = if table >= 2 << 20 { 2 << 20 } else { 0 };
            table + slack + BUFFERS
        }
        AgentSpec::Mcts(_) => crate::agents::mcts::tree_bytes(EPISODE_TREE_NODES) + BUFFERS,
        _ => BUFFERS,
    }
}

/// The saveable part of an episode (its start position and settings are the
/// owner's): replaying `history` from the start restores the game.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Saved {
    pub seed: u64,
    pub index: u64,
    pub learner: Option<Player>,
    pub history: Vec<Action>,
    pub rolls: Vec<Action>,
    pub opponent_actions: Vec<Action>,
    pub illegal: Option<(Player, Action)>,
    pub rng: GameRng,
}

/// An episode's state without its built-in opponent ([`Episode::snapshot`]).
pub struct Snapshot {
    game: AnyGame,
    saved: Saved,
    node: Node,
}

/// One episode (see the module doc).
pub struct Episode {
    game: AnyGame,
    rng: GameRng,
    seed: u64,
    index: u64,
    side: Side,
    /// The learner's player in this episode (None in self-play).
    learner: Option<Player>,
    /// The built-in opponent; None: the other side decides externally.
    /// Boxed so that an episode, walked by every VecEnv step, stays small.
    agent: Option<Box<Agent>>,
    lose_on_illegal: bool,
    /// Every action of this episode (chance, opponent, external).
    history: Vec<Action>,
    /// Chance outcomes since the learner's last decision (in self-play:
    /// since the last decision).
    rolls: Vec<Action>,
    /// The opponent's decisions since the learner's last decision.
    opponent_actions: Vec<Action>,
    /// The player who lost by an illegal action, and the action.
    illegal: Option<(Player, Action)>,
    /// The game's node, kept up to date (terminal detection is not free).
    node: Node,
}

impl Episode {
    /// An episode of the game `start` (not started: call [`Episode::reset`]).
    /// `opponent` (a built-in agent) needs a learner side.
    pub fn new(
        start: AnyGame,
        side: Side,
        opponent: Option<AgentSpec>,
        lose_on_illegal: bool,
    ) -> Result<Episode, GameError> {
        if side == Side::Both && opponent.is_some() {
            return Err(GameError::new(
                "an opponent needs a learner side; self-play has none",
            ));
        }
        if let Side::Player(p) = side {
            if p > 1 {
                return Err(GameError::new(format!(
                    "the learner must be player 0 or 1, got {p}"
                )));
            }
        }
        Ok(Episode {
            game: start,
            rng: game_rng(0, 0),
            seed: 0,
            index: 0,
            side,
            learner: None,
            agent: opponent.map(|s| Box::new(episode_opponent(s))),
            lose_on_illegal,
            history: Vec::new(),
            rolls: Vec::new(),
            opponent_actions: Vec::new(),
            illegal: None,
            node: Node::Chance,
        })
    }

    /// Starts episode `index` of `seed` from `start` and plays chance and
    /// the built-in opponent up to the first external decision.
    pub fn reset(&mut self, start: &AnyGame, seed: u64, index: u64) {
        self.game.clone_from(start);
        self.seed = seed;
        self.index = index;
        self.rng = game_rng(seed, index);
        self.history.clear();
        self.rolls.clear();
        self.opponent_actions.clear();
        self.illegal = None;
        if let Some(a) = self.agent.as_mut() {
            a.new_game();
        }
        self.learner = match self.side {
            Side::Both => None,
            Side::Player(p) => Some(p),
            Side::Random => Some(self.rng.random_range(0..2u8)),
        };
        self.advance();
    }

    /// The player who must decide now from outside (the learner, or the
    /// other side when there is no built-in opponent), None when the
    /// episode is over.
    pub fn decider(&self) -> Option<Player> {
        match self.node {
            Node::Decision(p) if self.illegal.is_none() => Some(p),
            _ => None,
        }
    }

    /// Whether the decider is the opponent (deciding from outside).
    fn opponent_decides(&self, p: Player) -> bool {
        self.learner.is_some_and(|l| l != p)
    }

    /// The legal move behind `action` for the decider, or why there is none.
    pub fn check(&self, action: i64) -> Result<Move, GameError> {
        let Some(p) = self.decider() else {
            return Err(GameError::new("the episode is over; reset it first"));
        };
        with_game!(&self.game, g => {
            let mut ml = MoveList::new();
            g.legal_moves(&mut ml);
            let (layout, turn) = (g.layout(), g.position().turn());
            let found = u32::try_from(action)
                .ok()
                .and_then(|a| ml.iter().copied().find(|&m| layout.encode(m, turn) == a));
            found.ok_or_else(|| {
                let who = if self.opponent_decides(p) { "the opponent chose " } else { "" };
                GameError::new(format!(
                    "{who}action {action} is not legal; there are {} legal actions for \
                     player {p} (ids below {}; see the mask)",
                    ml.len(),
                    layout.num_actions()
                ))
            })
        })
    }

    /// Plays the decider's `action`, then chance and the built-in opponent.
    /// An illegal action raises, or (`lose_on_illegal`, the learner's or a
    /// self-play decision, inside the action space) ends the episode as that
    /// player's loss.
    pub fn play(&mut self, action: i64) -> Result<(), GameError> {
        // An id outside the action space is the caller's error, never a
        // policy's illegal move: it raises even with `lose_on_illegal`.
        let n = with_game!(&self.game, g => g.layout().num_actions());
        let in_space = (0..n as i64).contains(&action);
        match self.check(action) {
            Ok(m) => {
                self.play_move(m);
                Ok(())
            }
            Err(e) => match self.decider() {
                Some(p) if in_space && self.lose_on_illegal && !self.opponent_decides(p) => {
                    self.rolls.clear();
                    self.opponent_actions.clear();
                    self.illegal = Some((p, action as u32));
                    Ok(())
                }
                _ => Err(e),
            },
        }
    }

    /// Plays the decider's legal move `m` (from [`Episode::check`]).
    pub fn play_move(&mut self, m: Move) {
        let p = self.decider().unwrap_or(0);
        let by_opponent = self.opponent_decides(p);
        if !by_opponent {
            self.rolls.clear();
            self.opponent_actions.clear();
        }
        let Episode {
            game,
            history,
            opponent_actions,
            ..
        } = self;
        with_game!(game, g => {
            let a = g.layout().encode(m, g.position().turn());
            history.push(a);
            if by_opponent {
                opponent_actions.push(a);
            }
            g.play(m);
        });
        self.advance();
    }

    /// Resolves chance nodes and the built-in opponent's decisions until an
    /// external decision or the end (or an interrupt: the caller then needs
    /// a reset).
    fn advance(&mut self) {
        let Episode {
            game,
            rng,
            learner,
            agent,
            history,
            rolls,
            opponent_actions,
            ..
        } = self;
        self.node = with_game!(game, g => advance(g, rng, *learner, agent.as_deref_mut(), history, rolls, opponent_actions));
    }

    /// The game (a terminal node, or the position before the illegal action).
    pub fn game(&self) -> &AnyGame {
        &self.game
    }
    /// The game's node (terminal after the end, not after an illegal action).
    pub fn node(&self) -> Node {
        self.node
    }
    pub fn seed(&self) -> u64 {
        self.seed
    }
    /// The episode's number within its seed.
    pub fn index(&self) -> u64 {
        self.index
    }
    /// The learner's player this episode (None in self-play).
    pub fn learner(&self) -> Option<Player> {
        self.learner
    }
    pub fn history(&self) -> &[Action] {
        &self.history
    }
    pub fn rolls(&self) -> &[Action] {
        &self.rolls
    }
    pub fn opponent_actions(&self) -> &[Action] {
        &self.opponent_actions
    }
    /// The illegal action that ended the episode, if one did.
    pub fn illegal_action(&self) -> Option<Action> {
        self.illegal.map(|(_, a)| a)
    }
    /// Whether the opponent must decide now from outside (a learner side
    /// and no built-in opponent: a vector env's caller-decided pool member).
    pub fn opponent_to_move(&self) -> bool {
        self.decider().is_some_and(|p| self.opponent_decides(p))
    }
    /// Replaces the built-in opponent (None: the opponent decides from
    /// outside), returning the previous one; takes effect at the next reset.
    pub fn swap_agent(&mut self, agent: Option<Box<Agent>>) -> Option<Box<Agent>> {
        std::mem::replace(&mut self.agent, agent)
    }
    /// A copy of everything but the built-in opponent, for [`Episode::rollback`].
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            game: self.game.clone(),
            saved: self.save(),
            node: self.node,
        }
    }
    /// Returns to a [`Episode::snapshot`] of this episode (its opponent's
    /// search caches are kept: they never change a legal game).
    pub fn rollback(&mut self, s: Snapshot) {
        let Saved {
            seed,
            index,
            learner,
            history,
            rolls,
            opponent_actions,
            illegal,
            rng,
        } = s.saved;
        (self.game, self.node, self.seed, self.index) = (s.game, s.node, seed, index);
        (self.learner, self.history, self.rolls) = (learner, history, rolls);
        (self.opponent_actions, self.illegal, self.rng) = (opponent_actions, illegal, rng);
    }
    /// Releases the built-in opponent's search buffers.
    pub fn drop_agent(&mut self) {
        self.agent = None;
        self.history = Vec::new();
    }

    /// Whether the episode is over (the game ended, or an illegal action).
    pub fn over(&self) -> bool {
        self.illegal.is_some() || self.node == Node::Terminal
    }

    /// The game stopped at `max_plies` (not a result).
    pub fn truncated(&self) -> bool {
        self.illegal.is_none()
            && self.node == Node::Terminal
            && with_game!(&self.game, g => g.termination()) == Some(Termination::MaxPlies)
    }

    /// The episode ended with a result.
    pub fn terminated(&self) -> bool {
        self.over() && !self.truncated()
    }

    /// Why the episode ended: a termination name, [`ILLEGAL_ACTION`], or None.
    pub fn termination(&self) -> Option<&'static str> {
        if self.illegal.is_some() {
            return Some(ILLEGAL_ACTION);
        }
        with_game!(&self.game, g => g.termination()).map(Termination::name)
    }

    /// `[r0, r1]`: the game's returns once it ended (-1 for an illegal
    /// action's player, 0 for the other), zeros before.
    pub fn returns(&self) -> [f64; 2] {
        if let Some((p, _)) = self.illegal {
            let mut r = [0.0; 2];
            r[p as usize] = -1.0;
            return r;
        }
        if self.node != Node::Terminal {
            return [0.0; 2];
        }
        with_game!(&self.game, g => api::returns(g))
    }

    /// The default point of view: the learner's, in self-play the player to
    /// move (player 0 at terminal nodes).
    pub fn view(&self) -> Player {
        self.learner.unwrap_or(match self.node {
            Node::Decision(p) => p,
            _ => 0,
        })
    }

    /// Writes the observation tensor from `player`'s point of view.
    pub fn write_observation(&self, player: Player, out: &mut [f32]) {
        with_game!(&self.game, g => api::write_observation(g, player, out));
    }

    /// Writes the legal-action mask of the player deciding at this node
    /// when that is `player` (any decider for None); all false otherwise.
    pub fn write_mask(&self, player: Option<Player>, out: &mut [bool]) {
        // A full clear (`rep stosb`, no read of the old lines) measured faster
        // than clearing only last step's entries.
        out.fill(false);
        let deciding = match self.node {
            Node::Decision(p) => player.is_none_or(|q| q == p),
            _ => false,
        };
        with_game!(&self.game, g => {
            if deciding {
                let mut ml = MoveList::new();
                g.legal_moves(&mut ml);
                let (layout, turn) = (g.layout(), g.position().turn());
                for &m in ml.iter() {
                    if let Some(x) = out.get_mut(layout.encode(m, turn) as usize) {
                        *x = true;
                    }
                }
            }
        });
    }

    /// The saveable state (see [`Saved`]).
    pub fn save(&self) -> Saved {
        Saved {
            seed: self.seed,
            index: self.index,
            learner: self.learner,
            history: self.history.clone(),
            rolls: self.rolls.clone(),
            opponent_actions: self.opponent_actions.clone(),
            illegal: self.illegal,
            rng: self.rng.clone(),
        }
    }

    /// Restores a [`Saved`] state: its history is replayed from `start`
    /// (every action checked; nothing trusted).
    pub fn restore(&mut self, start: &AnyGame, saved: Saved) -> Result<(), GameError> {
        let mut game = start.clone();
        for &a in &saved.history {
            with_game!(&mut game, g => api::apply_action(g, a))?;
        }
        if saved.learner.is_some_and(|p| p > 1) || saved.illegal.is_some_and(|(p, _)| p > 1) {
            return Err(GameError::new("not a saved episode: bad player"));
        }
        self.node = with_game!(&game, g => g.node());
        self.game = game;
        self.seed = saved.seed;
        self.index = saved.index;
        self.learner = saved.learner;
        self.history = saved.history;
        self.rolls = saved.rolls;
        self.opponent_actions = saved.opponent_actions;
        self.illegal = saved.illegal;
        self.rng = saved.rng;
        Ok(())
    }
}

fn advance<G: Evaluate>(
    g: &mut G,
    rng: &mut GameRng,
    learner: Option<Player>,
    mut agent: Option<&mut Agent>,
    history: &mut Vec<Action>,
    rolls: &mut Vec<Action>,
    opponent_actions: &mut Vec<Action>,
) -> Node {
    let mut outcomes = Outcomes::new();
    loop {
        let node = g.node();
        if crate::interrupt::requested() {
            return node;
        }
        match node {
            Node::Chance => {
                let o = sample_outcome(g, rng, &mut outcomes);
                g.apply_outcome(o);
                history.push(o);
                rolls.push(o);
            }
            Node::Decision(p) if learner.is_some_and(|l| l != p) => {
                let Some(a) = agent.as_deref_mut() else {
                    return node; // the opponent decides from outside
                };
                // `Agent::select` for "random" makes exactly the draw the
                // random opponent always made.
                let m = a.select(g, rng);
                let id = g.layout().encode(m, g.position().turn());
                history.push(id);
                opponent_actions.push(id);
                g.play(m);
            }
            _ => return node,
        }
    }
}
