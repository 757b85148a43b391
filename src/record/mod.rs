//! Game records: a game of any variant as its variant, complete options and
//! every action (decisions and chance outcomes), written as PGN-compatible
//! text ([`pgn`]) or JSON Lines ([`jsonl`]) and read back by replaying every
//! action through the checked action API, so that a record read is a game
//! the rules allow and its replay ends in the same full state.

pub mod jsonl;
pub mod pgn;
mod tokens;

use crate::variants::{api, snapshot, Action, AnyGame, Game, GameError, Node, Options};
use crate::with_game;
use std::fmt;

/// One game: enough to replay it exactly.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Record {
    pub variant: String,
    /// The options the game was created with (complete after [`Record::replay`]).
    pub options: Options,
    /// Every action from the start: decisions and chance outcomes.
    pub actions: Vec<Action>,
    /// Free tags (PGN's Event, Site, Date, Round, White, Black, ...), in order.
    pub tags: Vec<(String, String)>,
    /// The seed the game was played with, when known.
    pub seed: Option<u64>,
}

/// A record that cannot be read: where (1-based line and column) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for RecordError {}

impl Record {
    /// The record of a game created with `options` after `actions`.
    pub fn new(variant: &str, options: Options, actions: Vec<Action>) -> Record {
        Record {
            variant: variant.to_string(),
            options,
            actions,
            ..Record::default()
        }
    }

    /// The game at the start of the record.
    pub fn start(&self) -> Result<AnyGame, GameError> {
        AnyGame::new(&self.variant, &self.options)
    }

    /// The game after every action, each one checked.
    pub fn replay(&self) -> Result<AnyGame, GameError> {
        let mut g = self.start()?;
        for (k, &a) in self.actions.iter().enumerate() {
            apply(&mut g, a)
                .map_err(|e| GameError::new(format!("action {k} ({a}) cannot be replayed: {e}")))?;
        }
        Ok(g)
    }

    /// The options with defaults filled in (as `State.options`).
    pub fn complete_options(&self) -> Result<Options, GameError> {
        Ok(snapshot::complete_options(&self.start()?, &self.options))
    }
}

/// Applies a checked action.
pub(crate) fn apply(g: &mut AnyGame, a: Action) -> Result<(), GameError> {
    with_game!(g, x => api::apply_action(x, a))
}

/// Whether the game waits for a chance outcome.
pub(crate) fn at_chance(g: &AnyGame) -> bool {
    with_game!(g, x => x.node() == Node::Chance)
}

/// PGN's result of a game: `1-0`, `0-1`, `1/2-1/2`, or `*` while it runs
/// and when it was truncated (`max_plies`: no result).
pub fn result_token(g: &AnyGame) -> &'static str {
    with_game!(g, x => {
        match x.termination() {
            None => "*",
            Some(t) if t.name() == "max_plies" => "*",
            Some(_) => match x.winner() {
                None => "1/2-1/2",
                Some(p) if x.color_of(p) == crate::board::Color::White => "1-0",
                Some(_) => "0-1",
            },
        }
    })
}

/// The termination name (`TERMINATIONS`) of a finished game.
pub fn termination_name(g: &AnyGame) -> Option<&'static str> {
    with_game!(g, x => x.termination()).map(|t| t.name())
}

#[cfg(test)]
mod tests;
