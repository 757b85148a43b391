//! The engine as a leaf evaluator for other agents (MCTS): the static
//! value or a quiescence search of one state, with no budget, table or
//! history, so the value depends only on the state.

use super::budget::Budget;
use super::{terminal_value, Engine, INF};
use crate::agents::eval::Evaluate;
use crate::variants::{Node, Player};

/// Most nodes of one leaf's quiescence search: beyond it (long capture and
/// rotation sequences in Cubic) the leaf falls back to its static value.
pub const LEAF_QS_NODES: u64 = 256;

impl Engine {
    /// A leaf engine: quiescence with chance nodes valued statically
    /// (`qchance=stop`), no transposition table.
    pub fn leaf_evaluator() -> Engine {
        Engine::new(super::Params {
            tt: false,
            qchance: super::QChance::Stop,
            ..super::Params::plain(1)
        })
    }

    /// The value of `g` for `pov` in centipawns (proven results are
    /// `±MATE` minus plies): quiescence search at a decision node when
    /// `quiesce` (at most [`LEAF_QS_NODES`] nodes, else the static value),
    /// else the static evaluation; the exact expectation of
    /// static values at a chance node. Adds the nodes visited to
    /// [`Engine::leaf_nodes`].
    pub fn leaf_value<G: Evaluate>(&mut self, g: &G, pov: Player, quiesce: bool) -> f64 {
        match g.node() {
            Node::Terminal => terminal_value(g, pov, 0),
            Node::Chance => {
                self.nodes += 1;
                self.eval.at_chance(g, pov, |c| terminal_value(c, pov, 1))
            }
            Node::Decision(_) if !quiesce => {
                self.nodes += 1;
                self.eval.static_value(g, pov)
            }
            Node::Decision(_) => {
                self.stopped = false;
                self.budget = Budget::new(Some(self.nodes + LEAF_QS_NODES), None, None);
                let v = self.node(g, 0, -INF, INF, pov, 0, 0);
                if self.stopped {
                    self.stopped = false;
                    self.nodes += 1;
                    return self.eval.static_value(g, pov);
                }
                v
            }
        }
    }

    /// The static value of `g` for `pov` (centipawns; see
    /// [`Engine::leaf_value`]), counted as one node.
    pub fn static_leaf<G: Evaluate>(&mut self, g: &G, pov: Player) -> f64 {
        self.leaf_value(g, pov, false)
    }

    /// Nodes evaluated since the engine was made (or last [`Engine::reset_leaf_nodes`]).
    pub fn leaf_nodes(&self) -> u64 {
        self.nodes
    }

    pub fn reset_leaf_nodes(&mut self) {
        self.nodes = 0;
    }
}
