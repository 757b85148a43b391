//! The one `Game` of the orthodox rule sets, over their board: chess on 8x8
//! (docs/rules.md §1) and Gardner minichess on 5x5 (docs/rules.md §8) play
//! the same moves, end the same way (only which endings apply differs,
//! [`Endings`]) and differ otherwise only in their setup and options, which
//! each variant's module keeps ([`OrthodoxRules`]).

pub use super::legal_cache::LegalCache;
use super::*;
use crate::notation::fen::write_fen;
use crate::notation::san;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// What one orthodox rule set adds to the shared game: its name, board
/// layout, endings, and what its state keeps besides the position (a value
/// of the implementing type, e.g. Gardner's start FEN).
pub trait OrthodoxRules: Clone + Send + Sync + Serialize + DeserializeOwned + 'static {
    /// The variant's name.
    const VARIANT: &'static str;
    /// The board and action layout.
    const LAYOUT: ActionLayout;
    /// Which orthodox endings apply.
    const ENDINGS: Endings;
    /// Whether the search may pass for the side to move (null-move pruning).
    const NULL_MOVE: bool;
    /// Where the legal moves the result update generates are kept, if at all.
    type Legal: LegalMemo;
    /// The variant's options besides `max_plies` (reported first).
    fn options(&self, out: &mut Options);
}

/// An orthodox game: the position, the progress counters and the rule set's
/// own state `R`.
#[derive(Clone, Serialize, Deserialize)]
// `OrthodoxRules` already asks for serde: no bounds to add.
#[serde(bound = "")]
pub struct Orthodox<R: OrthodoxRules> {
    pos: Position,
    progress: Progress,
    rules: R,
    /// Not game state: a cache, so not serialized (a deserialized game
    /// simply generates again).
    #[serde(skip)]
    legal: R::Legal,
}

impl<R: OrthodoxRules> Orthodox<R> {
    /// A game starting from `pos`, ending at `max_plies` at the latest.
    pub(crate) fn start(pos: Position, max_plies: u32, rules: R) -> Self {
        let mut g = Orthodox {
            pos,
            progress: Progress::new(max_plies),
            rules,
            legal: R::Legal::default(),
        };
        let (pos, legal) = (&g.pos, &mut g.legal);
        g.progress.result = g
            .progress
            .start(pos, pos.repetition_key(), R::ENDINGS, || legal.fill(pos))
            .map(by_color_index);
        g
    }

    /// Checkmate, stalemate, threefold repetition, and the rule set's other
    /// endings, in docs/rules.md §0 order.
    fn update_result(&mut self) {
        let (pos, legal) = (&self.pos, &mut self.legal);
        self.progress.result = orthodox_ending(pos, &self.progress, R::ENDINGS, || legal.fill(pos))
            .map(by_color_index);
    }

    /// `update_result` without keeping the move list: the cheapest test
    /// that a move exists.
    fn update_result_unlisted(&mut self) {
        self.legal.invalidate();
        let pos = &self.pos;
        self.progress.result = orthodox_ending(pos, &self.progress, R::ENDINGS, || {
            pos.surely_has_legal_move() || pos.has_legal_move()
        })
        .map(by_color_index);
    }

    /// The position and history after `mv`, before the result update: the
    /// two halves of [`Progress::after_move`], apart so that `search_play`
    /// takes the cheaper update.
    fn advance(&mut self, mv: Move) {
        self.pos.play(mv);
        self.progress.decided(PassBound::InAll);
        // Captures and pawn moves can never be undone.
        let irreversible = self.pos.halfmove_clock() == 0;
        self.progress
            .record(self.pos.repetition_key(), irreversible);
    }
}

impl<R: OrthodoxRules> Game for Orthodox<R> {
    fn progress(&self) -> &Progress {
        &self.progress
    }
    fn position(&self) -> &Position {
        &self.pos
    }
    fn layout(&self) -> ActionLayout {
        R::LAYOUT
    }
    fn variant(&self) -> &'static str {
        R::VARIANT
    }
    fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        if self.progress.result.is_none() {
            self.legal.write(&self.pos, out);
        }
    }
    fn play(&mut self, mv: Move) {
        self.advance(mv);
        self.update_result();
    }
    fn search_play(&mut self, mv: Move) {
        self.advance(mv);
        self.update_result_unlisted();
    }
    fn search_tactical_candidates(&self, out: &mut MoveList) {
        out.clear();
        if self.progress.result.is_none() {
            self.pos.tactical_moves(out);
        }
    }
    fn san(&self, mv: Move) -> String {
        san::san(&self.pos, mv)
    }
    fn fen(&self) -> String {
        write_fen(&self.pos)
    }
    fn options(&self) -> Options {
        let mut o = Options::new();
        self.rules.options(&mut o);
        o.insert("max_plies".into(), self.progress.max_plies.into());
        o
    }
    fn search_key(&self) -> u64 {
        self.pos.hash()
    }
    fn search_moves_left(&self) -> u32 {
        1
    }
    fn search_null(&self) -> Option<Self> {
        if !R::NULL_MOVE || self.pos.is_check() {
            return None;
        }
        let mut g = self.clone();
        g.pos.play_null();
        g.update_result_unlisted();
        Some(g)
    }
}

/// Where a game keeps the legal moves of its current position between the
/// result update (which needs to know whether there is any) and
/// `legal_moves`.
pub trait LegalMemo: Clone + Default + Send + Sync + 'static {
    /// Looks at the legal moves of `pos` (keeping them if this memo does);
    /// returns whether there is any.
    fn fill(&mut self, pos: &Position) -> bool;
    /// The legal moves of `pos`, the position of the last `fill`, into `out`.
    fn write(&self, pos: &Position, out: &mut MoveList);
    /// Forgets the kept moves (the position changed without a `fill`).
    fn invalidate(&mut self) {}
}

/// Keeps nothing: the result update only asks whether a move exists
/// (Gardner: a small game copied often by the game-tree perft and the
/// search, where a move list in the state would cost more than it saves).
#[derive(Clone, Copy, Default)]
pub struct NoMemo;

impl LegalMemo for NoMemo {
    #[inline(always)]
    fn fill(&mut self, pos: &Position) -> bool {
        pos.has_legal_move()
    }
    #[inline(always)]
    fn write(&self, pos: &Position, out: &mut MoveList) {
        pos.legal_moves(out);
    }
}

impl LegalMemo for LegalCache {
    #[inline(always)]
    fn fill(&mut self, pos: &Position) -> bool {
        LegalCache::fill(self, pos)
    }
    #[inline(always)]
    fn invalidate(&mut self) {
        LegalCache::invalidate(self)
    }
    #[inline(always)]
    fn write(&self, pos: &Position, out: &mut MoveList) {
        if !self.copy_to(out) {
            pos.legal_moves(out);
        }
    }
}
