//! Orthodox chess (docs/rules.md §1): the zero-luck control and the perft reference.

use super::*;
use crate::board::moves::{write_leaper, write_pawn, write_targets};
use crate::board::{Bitboard, Geometry, MoveKind, MoveSink, RoleSet, Square};
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

/// Room in the cache. Positions of real games rarely have more than 60
/// legal moves (218 at most); one with more than this is simply not cached
/// (generated again). Kept small because `Chess` is copied on every clone
/// and sets the size of `AnyGame`.
const CACHE_MOVES: usize = 128;

/// The legal moves of the current position. `play` needs them anyway for
/// the mate/stalemate test, so keeping them saves generating them a second
/// time in `legal_moves` (random playouts call both every ply).
#[derive(Clone)]
struct LegalCache {
    /// The list is complete and belongs to the current position.
    valid: bool,
    /// More moves than fit were generated (then `valid` is false).
    overflow: bool,
    len: usize,
    moves: [Move; CACHE_MOVES],
}

impl Default for LegalCache {
    fn default() -> Self {
        LegalCache {
            valid: false,
            overflow: false,
            len: 0,
            moves: [Move::NULL; CACHE_MOVES],
        }
    }
}

impl MoveSink for LegalCache {
    #[inline(always)]
    fn add(&mut self, from: Square, to: Bitboard, kind: MoveKind) {
        let r = write_targets(&mut self.moves, self.len, from, to, kind);
        self.take(r);
    }
    #[inline(always)]
    fn add_leaper(&mut self, from: Square, to: Bitboard, deltas: &[i8; 8]) {
        let r = write_leaper(&mut self.moves, self.len, from, to, deltas);
        self.take(r);
    }
    #[inline(always)]
    fn add_pawn(&mut self, from: Square, fwd: u32, to: Bitboard, two: Bitboard) {
        let r = write_pawn(&mut self.moves, self.len, from, fwd, to, two);
        self.take(r);
    }
}

impl LegalCache {
    #[inline(always)]
    fn take(&mut self, written: Result<usize, usize>) {
        match written {
            Ok(n) => self.len = n,
            Err(n) => {
                self.len = n;
                self.overflow = true;
            }
        }
    }
    /// Generates the legal moves of `pos`; returns whether there is any.
    #[inline(always)]
    fn fill(&mut self, pos: &Position) -> bool {
        self.len = 0;
        self.overflow = false;
        pos.generate(RoleSet::ALL, self);
        self.valid = !self.overflow;
        self.len > 0 || self.overflow
    }
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
        if self.progress.result.is_none() {
            if self.legal.valid {
                out.set_from_prefix(&self.legal.moves, self.legal.len);
            } else {
                self.pos.legal_moves(out);
            }
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
