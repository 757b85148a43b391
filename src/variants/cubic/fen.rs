//! Cubic Chess: options, and the FEN with the stocks in a bracket after the
//! board (`...RNBQKBNR[Nq] w ...`, White's upper case).

use super::*;

/// Splits the stock bracket off a Cubic FEN: `(standard FEN, stock text)`.
pub(super) fn split_stock(text: &str) -> Result<(String, Option<String>), GameError> {
    let mut fields: Vec<String> = text.split_whitespace().map(str::to_string).collect();
    let mut stock: Option<String> = None;
    let mut take = |s: &str| -> Result<(), GameError> {
        if stock.is_some() {
            return Err(GameError::new(format!(
                "cubic FEN {text:?} has more than one stock bracket"
            )));
        }
        stock = Some(s.to_string());
        Ok(())
    };
    if let Some(first) = fields.first_mut() {
        if let Some(i) = first.find('[') {
            let (board, bracket) = first.split_at(i);
            take(bracket)?;
            *first = board.to_string();
        }
    }
    let mut kept = Vec::with_capacity(fields.len());
    for (i, f) in fields.into_iter().enumerate() {
        if i > 0 && f.starts_with('[') {
            take(&f)?;
        } else {
            kept.push(f);
        }
    }
    let stock = match stock {
        None => None,
        Some(s) => {
            let inner = s
                .strip_prefix('[')
                .and_then(|s| s.strip_suffix(']'))
                .ok_or_else(|| {
                    GameError::new(format!(
                        "cubic FEN stock must be written in brackets like [NBrq], got {s:?}"
                    ))
                })?;
            if inner.contains(['[', ']']) {
                return Err(GameError::new(format!(
                    "cubic FEN {text:?} has more than one stock bracket"
                )));
            }
            Some(inner.to_string())
        }
    };
    Ok((kept.join(" "), stock))
}

pub(super) fn parse_stock(text: &str) -> Result<[[u8; 4]; 2], GameError> {
    let mut stock = [[0u8; 4]; 2];
    if text == "-" {
        return Ok(stock);
    }
    for c in text.chars() {
        let p = Piece::from_char(c).ok_or_else(|| {
            GameError::new(format!(
                "cubic FEN stock has an unknown letter {c:?}; a stock holds N, B, R, Q \
                 (upper case: White's stock, lower case: Black's)"
            ))
        })?;
        match p.role {
            Role::Pawn => {
                return Err(GameError::new(
                    "cubic FEN stock has a pawn; captured pawns are gone, a stock holds only \
                     N, B, R, Q",
                ))
            }
            Role::King => {
                return Err(GameError::new(
                    "cubic FEN stock has a king; a stock holds only N, B, R, Q",
                ))
            }
            _ => {}
        }
        let n = &mut stock[p.color as usize][stock_index(p.role)];
        if *n >= MAX_FEN_STOCK {
            return Err(GameError::new(format!(
                "cubic FEN stock has more than {MAX_FEN_STOCK} {}s for {}",
                role_name(p.role),
                color_title(p.color)
            )));
        }
        *n += 1;
    }
    Ok(stock)
}

/// The stock bracket of a FEN, e.g. `[NBrq]`.
pub(super) fn write_stock(stock: &[[u8; 4]; 2]) -> String {
    let mut s = String::from("[");
    for c in Color::ALL {
        for (i, r) in STOCK_ROLES.iter().enumerate() {
            for _ in 0..stock[c as usize][i] {
                s.push(Piece::new(c, *r).char());
            }
        }
    }
    s.push(']');
    s
}

/// The Cubic FEN of a position and stocks.
pub fn cubic_fen(pos: &Position, stock: &[[u8; 4]; 2]) -> String {
    let f = write_fen(pos);
    let (board, rest) = f.split_once(' ').unwrap_or((&f, ""));
    format!("{board}{} {rest}", write_stock(stock))
}

impl Cubic {
    /// Options: `fen` (default the start position; stocks as in the module
    /// doc), `max_plies` (default 1000).
    pub fn new(options: &Options) -> Result<Cubic, GameError> {
        let mut r = OptionReader::new("cubic", options);
        let fen = r.string("fen")?;
        let max_plies = r.int("max_plies", 1000, 1, 1_000_000)? as u32;
        r.finish()?;
        let fen = fen.as_deref().unwrap_or(START_FEN);
        let (pos, stock) = Cubic::parse_fen(fen)?;
        Ok(Cubic::from_position(pos, stock, max_plies))
    }

    /// Parses a Cubic FEN into the position and both stocks.
    pub fn parse_fen(fen: &str) -> Result<(Position, [[u8; 4]; 2]), GameError> {
        let (std_fen, stock_text) = split_stock(fen)?;
        let (pos, rest) = parse_fen(&std_fen, &FEN_RULES).map_err(GameError::new)?;
        if !rest.is_empty() {
            return Err(GameError::new(format!(
                "cubic FEN has unexpected extra fields {rest:?}; the stocks go in brackets \
                 after the board, e.g. rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Nq] w KQkq - 0 1"
            )));
        }
        for c in Color::ALL {
            let n = pos.by_color(c).count();
            if n > 16 {
                return Err(GameError::new(format!(
                    "{} has {n} pieces on the board; a side has at most 16 in Cubic Chess",
                    color_title(c)
                )));
            }
        }
        let stock = match stock_text {
            Some(s) => parse_stock(&s)?,
            None => [[0; 4]; 2],
        };
        Ok((pos, stock))
    }
}
