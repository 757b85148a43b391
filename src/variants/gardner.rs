//! Gardner minichess (docs/rules.md §8): orthodox chess on 5x5, the zero-luck twin
//! of Fluky and Metamorph.
//!
//! FIDE moves except: pawns move one square ([`PawnStyle::Minichess`]: no
//! double step, so no en passant), no castling, promotion to Q, R, B or N.
//! Checkmate wins, stalemate and threefold repetition draw; there is no
//! 50-move and no insufficient-material rule; `max_plies` defaults to 400.
//! The game is a draw with perfect play (Mhalla and Prost, 2013). The game
//! itself is the shared orthodox one ([`super::orthodox`]).

use super::orthodox::{NoMemo, Orthodox, OrthodoxRules};
use super::*;
use crate::board::{Geometry, PawnStyle, RoleSet};
use crate::notation::fen::{parse_fen, FenRules};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Gardner's setup.
pub const START_FEN: &str = "rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1";

/// What a Gardner FEN may contain (castling and en passant always `-`).
pub const FEN_RULES: FenRules = FenRules {
    geometry: Geometry::SMALL,
    pawns: PawnStyle::Minichess,
    roles: RoleSet::ALL,
    allow_opponent_in_check: false,
    moves_keep_king_safe: true,
};

/// A Gardner minichess game.
///
/// ```
/// use dicechess::variants::{gardner::Gardner, Game, Node, Options};
/// let g = Gardner::new(&Options::new()).unwrap();
/// assert_eq!(g.node(), Node::Decision(0));
/// assert_eq!(g.position().count_legal(), 7);
/// ```
pub type Gardner = Orthodox<GardnerRules>;

/// Gardner's rules: mate, stalemate, repetition and `max_plies` only
/// ([`Endings::SMALL`]); the state also keeps the start FEN (an option).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GardnerRules {
    start_fen: Arc<str>,
}

impl OrthodoxRules for GardnerRules {
    const VARIANT: &'static str = "gardner";
    const LAYOUT: ActionLayout = ActionLayout {
        geometry: Geometry::SMALL,
        pass: false,
        rotations: false,
    };
    const ENDINGS: Endings = Endings::SMALL;
    const NULL_MOVE: bool = false;
    type Legal = NoMemo;
    fn options(&self, out: &mut Options) {
        out.insert("fen".into(), (*self.start_fen).into());
    }
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
        Ok(Orthodox::start(
            pos,
            max_plies,
            GardnerRules {
                start_fen: start_fen.into(),
            },
        ))
    }
}
