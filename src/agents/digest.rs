//! A digest of an agent's games, to check that a change (or another
//! machine, or an older commit) leaves its play exactly as it was.

use super::{Agent, AgentSpec};
use crate::play::{game_rng, play_out};
use crate::variants::{AnyGame, Options};
use crate::with_game;
use std::cell::RefCell;

/// FNV-1a, the hash of the digests (of agents' games here, of random
/// playouts in `examples/playout_digest.rs`).
pub struct Fnv1a(pub u64);

impl Default for Fnv1a {
    fn default() -> Fnv1a {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a {
    /// Hashes `bytes` into the state.
    pub fn eat(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
}

/// What [`agent_digest`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Digest {
    /// FNV-1a of every game's trace, in order.
    pub hash: u64,
    /// Decisions made over all games.
    pub plies: u64,
    /// Per game, its moves (UCI) and outcomes (`#id`), space-separated.
    pub traces: Vec<String>,
}

/// Plays `games` games of `variant` between the agent `spec` and `random`
/// (the agent moves first in even games, second in odd ones; game `i` draws
/// from `game_rng(7, i)`) and hashes every move and chance outcome.
pub fn agent_digest(variant: &str, spec: &str, games: u64) -> Result<Digest, String> {
    let proto = AnyGame::new(variant, &Options::new()).map_err(|e| e.to_string())?;
    let spec = AgentSpec::parse(spec).map_err(|e| e.to_string())?;
    let mut h = Fnv1a::default();
    let (mut plies, mut traces) = (0, Vec::new());
    for i in 0..games {
        let mut g = proto.clone();
        let mut rng = game_rng(7, i);
        let agents = RefCell::new([Agent::new(spec.clone()), Agent::new(AgentSpec::Random)]);
        let trace = RefCell::new(Vec::<String>::new());
        let stats = with_game!(&mut g, x => {
            play_out(
                x,
                &mut rng,
                |g, p, rng| {
                    let m = agents.borrow_mut()[(p as usize + i as usize) & 1].select(g, rng);
                    trace.borrow_mut().push(m.uci());
                    m
                },
                |_, _, o, _| trace.borrow_mut().push(format!("#{o}")),
            )
        });
        plies += stats.plies as u64;
        let trace = trace.into_inner().join(" ");
        h.eat(trace.as_bytes());
        traces.push(trace);
    }
    Ok(Digest {
        hash: h.0,
        plies,
        traces,
    })
}
