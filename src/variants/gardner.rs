//! Gardner minichess (docs/rules.md §8): orthodox chess on 5x5, the zero-luck twin
//! of Fluky and Metamorph.
//!
//! FIDE moves except: pawns move one square ([`PawnStyle::Minichess`]: no
//! double step, so no en passant), no castling, promotion to Q, R, B or N.
//! Checkmate wins, stalemate and threefold repetition draw; there is no
//! 50-move and no insufficient-material rule; `max_plies` defaults to 400.
//! The game is a draw with perfect play (Mhalla and Prost, 2013).

use super::*;
use crate::board::{Geometry, PawnStyle, RoleSet};
use crate::notation::fen::{parse_fen, write_fen, FenRules};
use crate::notation::san;
use serde::{Deserialize, Serialize};

/// Gardner's setup.
pub const START_FEN: &str = "rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1";

/// What a Gardner FEN may contain (castling and en passant always `-`).
pub const FEN_RULES: FenRules = FenRules {
    geometry: Geometry::SMALL,
    pawns: PawnStyle::Minichess,
    roles: RoleSet::ALL,
    allow_opponent_in_check: false,
};

const LAYOUT: ActionLayout = ActionLayout {
    geometry: Geometry::SMALL,
    pass: false,
    rotations: false,
};

/// A Gardner minichess game.
///
/// ```
/// use dicechess::variants::{gardner::Gardner, Game, Node, Options};
/// let g = Gardner::new(&Options::new()).unwrap();
/// assert_eq!(g.node(), Node::Decision(0));
/// assert_eq!(g.position().count_legal(), 7);
/// ```
#[derive(Clone, Serialize, Deserialize)]
pub struct Gardner {
    pos: Position,
    progress: Progress,
    start_fen: String,
}

impl Gardner {
    /// Options: `fen` (default the setup), `max_plies` (default 400).
    pub fn new(options: &Options) -> Result<Gardner, GameError> {
        let mut r = OptionReader::new("gardner", options);
        let fen = r.string("fen")?;
        let max_plies = r.int("max_plies", 400, 1, 1_000_000)? as u32;
        r.finish()?;
        let start_fen = fen.unwrap_or_else(|| START_FEN.to_string());
        let err = |m: String| GameError::new(format!("gardner FEN {start_fen:?}: {m}"));
        let (pos, rest) = parse_fen(&start_fen, &FEN_RULES).map_err(err)?;
        if !rest.is_empty() {
            return Err(err(format!("unexpected extra fields {rest:?}")));
        }
        if pos.castling_rights() != 0 {
            return Err(err(
                "there is no castling in Gardner minichess; the castling field must be '-'".into(),
            ));
        }
        let mut g = Gardner {
            pos,
            progress: Progress::new(max_plies),
            start_fen,
        };
        g.progress.record(g.pos.repetition_key(), true);
        g.update_result();
        Ok(g)
    }

    /// Checkmate, stalemate, threefold repetition, `max_plies` (docs/rules.md §0 order).
    fn update_result(&mut self) {
        let pos = &self.pos;
        self.progress.result =
            orthodox_ending(pos, &self.progress, Endings::SMALL, || pos.has_legal_move())
                .map(by_color_index);
    }
}

impl Game for Gardner {
    game_accessors!();
    fn search_key(&self) -> u64 {
        self.pos.hash()
    }
    fn variant(&self) -> &'static str {
        "gardner"
    }
    fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        if self.progress.result.is_none() {
            self.pos.legal_moves(out);
        }
    }
    fn play(&mut self, mv: Move) {
        self.pos.play(mv);
        self.progress.plies += 1;
        // Captures and pawn moves can never be undone.
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
        o.insert("fen".into(), self.start_fen.clone().into());
        o.insert("max_plies".into(), self.progress.max_plies.into());
        o
    }
}
