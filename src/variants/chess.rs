//! Orthodox chess (docs/rules.md §1): the zero-luck control and the perft reference.

use super::legal_cache::LegalCache;
use super::*;
use crate::board::Geometry;
use crate::notation::fen::{parse_fen, write_fen, FenRules};
use crate::notation::san;
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
#[derive(Clone, Serialize, Deserialize)]
pub struct Chess {
    pos: Position,
    progress: Progress,
    /// Not game state: a cache, so not serialized (a deserialized game
    /// simply generates again).
    #[serde(skip)]
    legal: LegalCache,
}

const LAYOUT: ActionLayout = ActionLayout {
    geometry: Geometry::STANDARD,
    pass: false,
    rotations: false,
};

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
        let mut g = Chess {
            pos,
            progress: Progress::new(max_plies),
            legal: LegalCache::default(),
        };
        g.progress.record(g.pos.repetition_key(), true);
        g.update_result();
        g
    }

    fn update_result(&mut self) {
        let (pos, legal) = (&self.pos, &mut self.legal);
        self.progress.result =
            orthodox_ending(pos, &self.progress, Endings::CHESS, || legal.fill(pos))
                .map(by_color_index);
    }
}

impl Game for Chess {
    game_accessors!();
    fn variant(&self) -> &'static str {
        "chess"
    }
    fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        if self.progress.result.is_none() && !self.legal.copy_to(out) {
            self.pos.legal_moves(out);
        }
    }
    fn play(&mut self, mv: Move) {
        self.pos.play(mv);
        self.progress.plies += 1;
        let irreversible = self.pos.halfmove_clock() == 0;
        self.progress
            .record(self.pos.repetition_key(), irreversible);
        self.update_result();
    }
    fn san(&self, mv: Move) -> String {
        san::san(&self.pos, mv)
    }
    fn fen(&self) -> String {
        write_fen(&self.pos)
    }
    fn options(&self) -> Options {
        let mut o = Options::new();
        o.insert("max_plies".into(), self.progress.max_plies.into());
        o
    }
    fn search_key(&self) -> u64 {
        self.pos.hash()
    }
    fn search_null(&self) -> Option<Self> {
        if self.pos.is_check() {
            return None;
        }
        let mut g = self.clone();
        g.pos.play_null();
        g.update_result();
        Some(g)
    }
}
