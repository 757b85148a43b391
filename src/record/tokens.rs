//! PGN tokens with their 1-based line and column (for error messages).

use super::RecordError;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Tok {
    /// `[Name "value"]`.
    Tag(String, String),
    /// A move, `--`, or anything else between separators.
    Symbol(String),
    /// `{...}`, `;...` (text without the delimiters).
    Comment(String),
    /// `1-0`, `0-1`, `1/2-1/2`, `*`.
    Result(String),
    /// A variation `( ... )`, skipped whole.
    Variation,
}

/// A token and where it starts.
#[derive(Clone, Debug)]
pub(super) struct Spanned {
    pub tok: Tok,
    pub line: usize,
    pub column: usize,
}

/// A lexer over any source of characters (a text, or a file read a chunk
/// at a time): it holds one character of look-ahead and the token being
/// built, never the text. At most `limit` characters are taken after a
/// [`Lexer::mark`] (a game's start): beyond them the source reads as ended
/// and [`Lexer::exceeded`] says so.
pub(super) struct Lexer<I> {
    src: I,
    peeked: Option<Option<char>>,
    line: usize,
    column: usize,
    taken: u64,
    mark: u64,
    limit: u64,
    exceeded: bool,
}

const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

fn is_separator(c: char) -> bool {
    c.is_whitespace() || matches!(c, '{' | '}' | '[' | ']' | ';' | '"')
}

/// An error at a 1-based line and column.
pub(super) fn error_at(line: usize, column: usize, message: impl Into<String>) -> RecordError {
    RecordError {
        line,
        column,
        message: message.into(),
    }
}

impl<I: Iterator<Item = char>> Lexer<I> {
    /// A lexer of `src` taking at most `limit` characters after each mark.
    pub fn new(src: I, limit: u64) -> Lexer<I> {
        Lexer {
            src,
            peeked: None,
            line: 1,
            column: 1,
            taken: 0,
            mark: 0,
            limit,
            exceeded: false,
        }
    }

    /// Starts counting the characters of the next game (for the limit).
    pub fn mark(&mut self) {
        self.mark = self.taken - u64::from(matches!(self.peeked, Some(Some(_))));
    }

    /// The most characters a game may take.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// Whether the source was cut at the limit.
    pub fn exceeded(&self) -> bool {
        self.exceeded
    }

    /// The source of the characters.
    pub fn source_mut(&mut self) -> &mut I {
        &mut self.src
    }

    fn pull(&mut self) -> Option<char> {
        if self.taken - self.mark >= self.limit {
            self.exceeded = true;
            return None;
        }
        let c = self.src.next()?;
        self.taken += 1;
        Some(c)
    }

    fn peek(&mut self) -> Option<char> {
        if self.peeked.is_none() {
            self.peeked = Some(self.pull());
        }
        self.peeked.flatten()
    }

    /// Where the next character is (1-based line and column).
    pub fn position(&self) -> (usize, usize) {
        (self.line, self.column)
    }

    fn error(&self, message: impl Into<String>) -> RecordError {
        error_at(self.line, self.column, message)
    }

    fn bump(&mut self) -> Option<char> {
        let c = match self.peeked.take() {
            Some(c) => c,
            None => self.pull(),
        }?;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn skip_space(&mut self) {
        while let Some(c) = self.peek() {
            if !c.is_whitespace() {
                break;
            }
            // `%` in the first column escapes the rest of the line.
            self.bump();
            if c == '\n' && self.peek() == Some('%') {
                self.skip_line();
            }
        }
    }

    fn skip_line(&mut self) -> String {
        let mut s = String::new();
        while let Some(c) = self.peek() {
            if c == '\n' {
                break;
            }
            s.push(c);
            self.bump();
        }
        s
    }

    /// The next token, None at the end of the text.
    pub fn next_token(&mut self) -> Result<Option<Spanned>, RecordError> {
        if self.line == 1 && self.column == 1 && self.peek() == Some('%') {
            self.skip_line();
        }
        self.skip_space();
        let (line, column) = (self.line, self.column);
        let Some(c) = self.peek() else {
            return Ok(None);
        };
        let tok = match c {
            '[' => {
                self.bump();
                self.tag()?
            }
            '{' => {
                self.bump();
                let mut s = String::new();
                loop {
                    match self.bump() {
                        Some('}') => break,
                        Some(c) => s.push(c),
                        None => {
                            return Err(error_at(
                                line,
                                column,
                                "comment '{' not closed: expected '}'",
                            ))
                        }
                    }
                }
                Tok::Comment(s)
            }
            ';' => {
                self.bump();
                Tok::Comment(self.skip_line())
            }
            '(' => {
                self.variation(line, column)?;
                Tok::Variation
            }
            ')' => return Err(self.error("')' without a variation '(' to close")),
            ']' | '}' | '"' => {
                return Err(self.error(format!("unexpected {c:?}: expected a move or a tag")))
            }
            _ => {
                let mut s = String::new();
                while let Some(c) = self.peek() {
                    if is_separator(c) || (c == ')' && !s.contains('(')) {
                        break;
                    }
                    s.push(c);
                    self.bump();
                }
                if RESULTS.contains(&s.as_str()) {
                    Tok::Result(s)
                } else {
                    Tok::Symbol(s)
                }
            }
        };
        Ok(Some(Spanned { tok, line, column }))
    }

    fn variation(&mut self, line: usize, column: usize) -> Result<(), RecordError> {
        let mut depth = 0usize;
        loop {
            match self.bump() {
                Some('(') => depth += 1,
                Some(')') => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                Some('{') => while !matches!(self.bump(), Some('}') | None) {},
                Some(_) => {}
                None => {
                    return Err(error_at(
                        line,
                        column,
                        "variation '(' not closed: expected ')'",
                    ))
                }
            }
        }
    }

    fn tag(&mut self) -> Result<Tok, RecordError> {
        self.skip_space();
        let mut name = String::new();
        while let Some(c) = self.peek() {
            if !(c.is_ascii_alphanumeric() || c == '_') {
                break;
            }
            name.push(c);
            self.bump();
        }
        if name.is_empty() {
            return Err(self.error("expected a tag name (letters, digits, '_') after '['"));
        }
        self.skip_space();
        if self.bump() != Some('"') {
            return Err(self.error(format!("expected '\"' to start the value of tag {name}")));
        }
        let mut value = String::new();
        loop {
            match self.bump() {
                Some('"') => break,
                Some('\\') => match self.bump() {
                    Some(c @ ('\\' | '"')) => value.push(c),
                    _ => {
                        return Err(
                            self.error("expected '\\\\' or '\\\"' after '\\' in a tag value")
                        )
                    }
                },
                Some('\n') | None => {
                    return Err(self.error(format!("value of tag {name} not closed: expected '\"'")))
                }
                Some(c) => value.push(c),
            }
        }
        self.skip_space();
        if self.bump() != Some(']') {
            return Err(self.error(format!("expected ']' to close tag {name}")));
        }
        Ok(Tok::Tag(name, value))
    }
}

/// A tag value with `\` and `"` escaped.
pub(super) fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}
