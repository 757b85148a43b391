//! PGN-compatible records. The seven standard tags, then `Variant`, `SetUp`
//! and `FEN` when the game does not start from the variant's start position,
//! `VariantOptions` (the complete options as JSON, for an exact replay),
//! `Termination` and `Seed` when known. Decisions are SAN (`--` for a pass,
//! as PGN readers write null moves); every chance outcome is a comment
//! `{roll NAME}` before the decision it allows, which PGN readers such as
//! python-chess skip.

use super::tokens::{error_at, escape, Lexer, Tok};
use super::{apply, at_chance, result_token, termination_name, Record, RecordError};
use crate::variants::{api, AnyGame, Game, GameError, Node, Options};
use crate::with_game;

/// The tags every record starts with (PGN's Seven Tag Roster) and defaults.
const ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// Tags written from the game itself, never from [`Record::tags`].
const DERIVED: [&str; 7] = [
    "Result",
    "Variant",
    "SetUp",
    "FEN",
    "VariantOptions",
    "Termination",
    "Seed",
];

/// Comment prefix of a chance outcome.
const ROLL: &str = "roll ";
/// How PGN writes a null move (a pass).
const PASS: &str = "--";

/// The record as PGN text (ending with a blank line).
pub fn write(rec: &Record) -> Result<String, GameError> {
    let start = rec.start()?;
    let options = super::snapshot::complete_options(&start, &rec.options);
    let default_fen = AnyGame::new(&rec.variant, &Options::new())
        .map(|g| with_game!(&g, x => x.fen()))
        .unwrap_or_default();
    let start_fen = with_game!(&start, x => x.fen());
    // Movetext first: it replays (and checks) the game.
    let mut g = start;
    let mut words: Vec<String> = Vec::new();
    let mut last_color = None;
    for (k, &a) in rec.actions.iter().enumerate() {
        let text = with_game!(&g, x => api::action_to_string(x, a))
            .map_err(|e| GameError::new(format!("action {k} ({a}): {e}")))?;
        match with_game!(&g, x => x.node()) {
            Node::Chance => words.push(format!("{{{ROLL}{text}}}")),
            _ => {
                let pos_color = with_game!(&g, x => x.position().turn());
                let number = with_game!(&g, x => x.position().fullmove_number());
                if last_color != Some(pos_color) {
                    if pos_color == crate::board::Color::White {
                        words.push(format!("{number}."));
                    } else if last_color.is_none() {
                        words.push(format!("{number}..."));
                    }
                }
                last_color = Some(pos_color);
                words.push(if text == "pass" { PASS.into() } else { text });
            }
        }
        apply(&mut g, a).map_err(|e| GameError::new(format!("action {k} ({a}): {e}")))?;
    }
    let result = result_token(&g);
    words.push(result.to_string());

    let mut tags: Vec<(String, String)> = Vec::new();
    for (name, default) in ROSTER {
        let v = if name == "Result" {
            result.to_string()
        } else {
            rec.tags
                .iter()
                .find(|(n, _)| n == name)
                .map_or(default.to_string(), |(_, v)| v.clone())
        };
        tags.push((name.into(), v));
    }
    tags.push(("Variant".into(), rec.variant.clone()));
    if start_fen != default_fen {
        tags.push(("SetUp".into(), "1".into()));
        tags.push(("FEN".into(), start_fen));
    }
    tags.push((
        "VariantOptions".into(),
        serde_json::Value::Object(options).to_string(),
    ));
    if let Some(t) = termination_name(&g) {
        tags.push(("Termination".into(), t.into()));
    }
    if let Some(s) = rec.seed {
        tags.push(("Seed".into(), s.to_string()));
    }
    for (n, v) in &rec.tags {
        if !DERIVED.contains(&n.as_str()) && !ROSTER.iter().any(|(r, _)| r == n) {
            tags.push((n.clone(), v.clone()));
        }
    }
    let mut out = String::new();
    for (n, v) in tags {
        out.push_str(&format!("[{n} \"{}\"]\n", escape(&v)));
    }
    out.push('\n');
    let mut line_len = 0;
    for w in words {
        if line_len > 0 && line_len + 1 + w.len() > 79 {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        line_len += w.len();
        out.push_str(&w);
    }
    out.push_str("\n\n");
    Ok(out)
}

/// A game being read: its tags until the movetext starts, then the game.
struct Reading {
    tags: Vec<(String, String)>,
    game: Option<(AnyGame, Record)>,
}

impl Reading {
    fn new() -> Reading {
        Reading {
            tags: Vec::new(),
            game: None,
        }
    }

    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Starts the game from the tags (at the first movetext token).
    fn start(&mut self, line: usize, column: usize) -> Result<(), RecordError> {
        let err = |m: String| error_at(line, column, m);
        let variant = self.tag("Variant").unwrap_or("chess");
        // python-chess and others write "Standard" for orthodox chess.
        let variant = match variant.to_ascii_lowercase().as_str() {
            "standard" | "chess" | "classical" | "normal" => "chess".to_string(),
            _ => variant.to_string(),
        };
        let mut options = match self.tag("VariantOptions") {
            Some(json) => match serde_json::from_str(json) {
                Ok(serde_json::Value::Object(m)) => m,
                _ => {
                    return Err(err(format!(
                        "tag VariantOptions must be a JSON object of options, got {json:?}"
                    )))
                }
            },
            None => Options::new(),
        };
        if let Some(fen) = self.tag("FEN") {
            if !options.contains_key("fen") {
                options.insert("fen".into(), fen.to_string().into());
            }
        }
        let seed = match self.tag("Seed") {
            Some(s) => Some(s.parse::<u64>().map_err(|_| {
                err(format!(
                    "tag Seed must be a non-negative integer, got {s:?}"
                ))
            })?),
            None => None,
        };
        let game = AnyGame::new(&variant, &options)
            .map_err(|e| err(format!("cannot start the game from the tags: {e}")))?;
        let rec = Record {
            variant,
            options: super::snapshot::complete_options(&game, &options),
            actions: Vec::new(),
            tags: self
                .tags
                .iter()
                .filter(|(n, _)| !DERIVED.contains(&n.as_str()))
                .cloned()
                .collect(),
            seed,
        };
        self.game = Some((game, rec));
        Ok(())
    }

    /// Ends the game: its result and termination must be the tags'.
    fn finish(
        mut self,
        result: Option<&str>,
        line: usize,
        column: usize,
    ) -> Result<Record, RecordError> {
        if self.game.is_none() {
            self.start(line, column)?;
        }
        let Some((g, rec)) = self.game.take() else {
            return Err(error_at(line, column, "no game"));
        };
        let actual = result_token(&g);
        for (what, claimed) in [("result", result), ("Result tag", self.tag("Result"))] {
            if let Some(c) = claimed {
                if c != actual {
                    return Err(error_at(
                        line,
                        column,
                        format!("the {what} says {c} but the moves end with {actual}"),
                    ));
                }
            }
        }
        if let Some(t) = self.tag("Termination") {
            let actual = termination_name(&g).unwrap_or("none");
            if t != actual {
                return Err(error_at(
                    line,
                    column,
                    format!("tag Termination says {t:?} but the moves end with {actual:?}"),
                ));
            }
        }
        Ok(rec)
    }
}

/// The most characters one game may take in a PGN read (its tags, moves,
/// comments, and the space before it): a longer one is an error, so that
/// reading a file holds at most one bounded game, whatever the file's size.
pub const MAX_GAME_CHARS: u64 = 1 << 26;

/// Every game in `text`.
pub fn read(text: &str) -> Result<Vec<Record>, RecordError> {
    read_range(text, 0, None)
}

/// Games `skip ..` of `text`, at most `take` of them: the games before are
/// only tokenised (neither replayed nor kept), and reading stops after the
/// last one wanted, so a huge text costs only what precedes it.
pub fn read_range(
    text: &str,
    skip: usize,
    take: Option<usize>,
) -> Result<Vec<Record>, RecordError> {
    let mut reader = Reader::new(text.chars(), skip);
    let mut games = Vec::new();
    while take.is_none_or(|t| games.len() < t) {
        match reader.next_record()? {
            Some(r) => games.push(r),
            None => break,
        }
    }
    Ok(games)
}

/// Reads games one at a time from any source of characters (a text, or a
/// file read a chunk at a time), skipping the first `skip` (only
/// tokenised): it holds the game being read and one token, never the text,
/// and refuses a game longer than [`MAX_GAME_CHARS`].
pub struct Reader<I> {
    lexer: Lexer<I>,
    skip: usize,
    skipped: usize,
    cur: Option<Reading>,
    ended: bool,
}

impl<I: Iterator<Item = char>> Reader<I> {
    /// A reader of `src` that skips its first `skip` games.
    pub fn new(src: I, skip: usize) -> Reader<I> {
        Reader::with_limit(src, skip, MAX_GAME_CHARS)
    }

    /// [`Reader::new`] with another bound on a game's characters.
    pub fn with_limit(src: I, skip: usize, limit: u64) -> Reader<I> {
        Reader {
            lexer: Lexer::new(src, limit.max(1)),
            skip,
            skipped: 0,
            cur: None,
            ended: false,
        }
    }

    /// The source of the characters (to see why it ended).
    pub fn source_mut(&mut self) -> &mut I {
        self.lexer.source_mut()
    }

    /// `e`, or the game's length when the source was cut at the limit.
    fn limit_or(&self, e: RecordError) -> RecordError {
        if self.lexer.exceeded() {
            let (line, column) = self.lexer.position();
            error_at(
                line,
                column,
                format!(
                    "a game longer than {} characters (a record is read a game at a time, \
                     each at most that long): is this PGN?",
                    self.lexer_limit()
                ),
            )
        } else {
            e
        }
    }

    fn lexer_limit(&self) -> u64 {
        self.lexer.limit()
    }

    /// The next game (None after the last one); after an error, None.
    pub fn next_record(&mut self) -> Result<Option<Record>, RecordError> {
        if self.ended {
            return Ok(None);
        }
        let r = self.read_one();
        if !matches!(r, Ok(Some(_))) {
            self.ended = true;
        }
        r.map_err(|e| self.limit_or(e))
    }

    fn read_one(&mut self) -> Result<Option<Record>, RecordError> {
        while let Some(sp) = self.lexer.next_token()? {
            if self.skipped < self.skip {
                if matches!(sp.tok, Tok::Result(_)) {
                    self.skipped += 1;
                    self.lexer.mark();
                }
                continue;
            }
            let (line, column) = (sp.line, sp.column);
            let err = |m: String| error_at(line, column, m);
            let reading = self.cur.get_or_insert_with(Reading::new);
            match sp.tok {
                Tok::Tag(n, v) => {
                    if reading.game.is_some() {
                        return Err(err(format!(
                            "tag {n} inside the moves: expected a move or a result (1-0, 0-1, 1/2-1/2, *)"
                        )));
                    }
                    reading.tags.push((n, v));
                }
                Tok::Result(r) => {
                    self.lexer.mark();
                    if let Some(r0) = self.cur.take() {
                        return r0.finish(Some(&r), line, column).map(Some);
                    }
                }
                Tok::Variation => {}
                Tok::Comment(c) => {
                    if reading.game.is_none() {
                        reading.start(line, column)?;
                    }
                    let Some((g, rec)) = reading.game.as_mut() else {
                        continue;
                    };
                    let Some(name) = c.trim().strip_prefix(ROLL.trim_end()).map(str::trim) else {
                        continue; // an ordinary comment
                    };
                    if !at_chance(g) {
                        return Err(err(format!(
                            "roll {name:?} where no dice are rolled: expected a move"
                        )));
                    }
                    let a = with_game!(&*g, x => api::string_to_action(x, name))
                        .map_err(|e| err(format!("roll {name:?}: {e}")))?;
                    apply(g, a).map_err(|e| err(e.0))?;
                    rec.actions.push(a);
                }
                Tok::Symbol(s) => {
                    if reading.game.is_none() {
                        reading.start(line, column)?;
                    }
                    let Some((g, rec)) = reading.game.as_mut() else {
                        continue;
                    };
                    let s = strip_move_number(&s);
                    if s.is_empty() || s.starts_with('$') {
                        continue; // a move number or an annotation glyph
                    }
                    if at_chance(g) {
                        return Err(err(format!(
                            "move {s:?} at a chance node: expected the roll as a comment {{roll ...}}"
                        )));
                    }
                    let s = if s == PASS { "pass" } else { s };
                    let a = with_game!(&*g, x => api::string_to_action(x, s))
                        .map_err(|e| err(format!("move {s:?}: {e}")))?;
                    apply(g, a).map_err(|e| err(e.0))?;
                    rec.actions.push(a);
                }
            }
        }
        if self.lexer.exceeded() {
            return Err(error_at(0, 0, String::new())); // replaced by limit_or
        }
        if let Some(r) = self.cur.take() {
            if !r.tags.is_empty() || r.game.is_some() {
                // A game ends with its result: text without one was cut short
                // (read whole, it would pass for a game of fewer moves).
                let (line, column) = self.lexer.position();
                let what = if r.game.is_some() { "moves" } else { "tags" };
                return Err(error_at(
                    line,
                    column,
                    format!(
                        "the text ends inside a game (after its {what}): expected its result \
                         (1-0, 0-1, 1/2-1/2 or *) to end it"
                    ),
                ));
            }
        }
        Ok(None)
    }
}

/// `s` without a leading move number (`12.`, `12...`); a bare number stays.
fn strip_move_number(s: &str) -> &str {
    let digits = s.trim_start_matches(|c: char| c.is_ascii_digit());
    if digits.len() < s.len() && digits.starts_with('.') {
        digits.trim_start_matches('.')
    } else {
        s
    }
}
