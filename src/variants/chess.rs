//! Orthodox chess (docs/rules.md §1): the zero-luck control and the perft reference.
//! The game itself is the shared orthodox one ([`super::orthodox`]).

use super::orthodox::{LegalCache, Orthodox, OrthodoxRules};
use super::*;
use crate::board::Geometry;
use crate::notation::fen::{parse_fen, FenRules};
use serde::{Deserialize, Serialize};

/// The standard starting position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// An orthodox chess game with automatic draws.
///
/// ```
/// use dicechess::variants::{chess::Chess, Game, Node, Options};
/// let g = Chess::new(&Options::new()).unwrap();
/// assert_eq!(g.node(), Node::Decision(0));
/// assert_eq!(g.position().count_legal(), 20);
/// ```
pub type Chess = Orthodox<ChessRules>;

/// Chess's rules: every orthodox ending, the legal moves cached (random
/// playouts ask for them every ply), null moves for the search; no state
/// besides the position.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
pub struct ChessRules;

impl OrthodoxRules for ChessRules {
    const VARIANT: &'static str = "chess";
    const LAYOUT: ActionLayout = ActionLayout {
        geometry: Geometry::STANDARD,
        pass: false,
        rotations: false,
    };
    const ENDINGS: Endings = Endings::CHESS;
    const NULL_MOVE: bool = true;
    type Legal = LegalCache;
    fn options(&self, _out: &mut Options) {}
}

impl Chess {
    /// Options: `fen` (default the start position), `max_plies` (default 1000).
    pub fn new(options: &Options) -> Result<Chess, GameError> {
        let mut r = OptionReader::new("chess", options);
        let fen = r.string("fen")?;
        let max_plies = r.int("max_plies", 1000, 1, 1_000_000)? as u32;
        r.finish()?;
        let fen = fen.as_deref().unwrap_or(START_FEN);
        let (pos, rest) = parse_fen(fen, &FenRules::CHESS).map_err(GameError::new)?;
        if !rest.is_empty() {
            return Err(GameError::new(format!(
                "chess FEN has unexpected extra fields {rest:?}"
            )));
        }
        Ok(Chess::from_position(pos, max_plies))
    }

    /// A game starting from `pos`.
    pub fn from_position(pos: Position, max_plies: u32) -> Chess {
        Orthodox::start(pos, max_plies, ChessRules)
    }
}
