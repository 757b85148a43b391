//! Vegas Fun Chess: options and the FEN with two more fields, the roll
//! (`PN` or `-`) and the free move (`free` or `-`).

use super::*;

pub(super) fn read_die(
    name: &'static str,
    value: Option<String>,
    default: &str,
) -> Result<String, GameError> {
    let s = value.unwrap_or_else(|| default.to_string());
    let ok = !s.is_empty()
        && s.chars().count() <= MAX_FACES
        && s.chars().all(|c| face_index(c).is_some());
    if ok {
        Ok(s)
    } else {
        Err(GameError::new(format!(
            "vegas option {name} must be a string of 1 to {MAX_FACES} faces, each one of \
             P N B R Q K * (upper case; * = optional), e.g. {default:?}; got {s:?}"
        )))
    }
}

impl Vegas {
    /// Options: `fen` (default the start position, optionally with the
    /// extension fields), `max_plies` (default 1000), `die_a` (default
    /// `"PNBRKP"`), `die_b` (default `"PNBRQ*"`).
    pub fn new(options: &Options) -> Result<Vegas, GameError> {
        let mut r = OptionReader::new("vegas", options);
        let fen = r.string("fen")?;
        let max_plies = r.int("max_plies", 1000, 1, 1_000_000)? as u32;
        let die_a = read_die("die_a", r.string("die_a")?, DEFAULT_DIE_A)?;
        let die_b = read_die("die_b", r.string("die_b")?, DEFAULT_DIE_B)?;
        r.finish()?;
        let fen = fen.unwrap_or_else(|| START_FEN.to_string());
        Vegas::from_fen(&fen, max_plies, die_a, die_b)
    }

    pub(super) fn from_fen(
        fen: &str,
        max_plies: u32,
        die_a: String,
        die_b: String,
    ) -> Result<Vegas, GameError> {
        let (pos, rest) = parse_fen(fen, &FenRules::CHESS).map_err(GameError::new)?;
        if rest.len() > 2 {
            return Err(GameError::new(format!(
                "vegas FEN has at most two fields after the standard six (the roll, e.g. \
                 'PN' or '-', and 'free' or '-'), got {rest:?}"
            )));
        }
        let (la, lb) = (die_a.chars().count(), die_b.chars().count());
        let total = (la * lb) as f64;
        let mut counts = [[0u32; 7]; 7];
        for a in die_a.chars().filter_map(face_index) {
            for b in die_b.chars().filter_map(face_index) {
                counts[a as usize][b as usize] += 1;
            }
        }
        let mut table = Outcomes::new();
        for (a, row) in counts.iter().enumerate() {
            for (b, &n) in row.iter().enumerate() {
                if n > 0 {
                    table.add((a * 7 + b) as Action, n as f64 / total);
                }
            }
        }
        let roll = match rest.first().copied() {
            None | Some("-") => None,
            Some(t) => {
                let cs: Vec<char> = t.chars().collect();
                let id = match cs.as_slice() {
                    [a, b] => face_index(*a)
                        .zip(face_index(*b))
                        .map(|(a, b)| (a * 7 + b) as Action),
                    _ => None,
                };
                match id.filter(|id| table.as_slice().iter().any(|x| x.0 == *id)) {
                    Some(id) => Some(id),
                    None => {
                        return Err(GameError::new(format!(
                        "vegas FEN roll field must be '-' or a roll of the dice (die A {die_a:?} \
                             first, then die B {die_b:?}, e.g. 'PN' or 'B*'), got {t:?}"
                    )))
                    }
                }
            }
        };
        let free = match rest.get(1).copied() {
            None | Some("-") => false,
            Some("free") => true,
            Some(t) => {
                return Err(GameError::new(format!(
                    "vegas FEN free-move field must be 'free' (the side to move's previous move \
                     gave check) or '-', got {t:?}"
                )))
            }
        };
        let in_check = pos.is_check();
        if roll.is_some() && (in_check || free) {
            return Err(GameError::new(
                "vegas FEN has a roll, but the side to move does not roll: it is in check or on \
                 a free move (use '-' as the roll field)",
            ));
        }
        let mut g = Vegas {
            pos,
            phase: Phase::Chance,
            roll: None,
            free,
            die_a: die_a.into(),
            die_b: die_b.into(),
            table: Arc::new(OutcomeTable(table)),
            start_fen: fen.into(),
            progress: Progress::new(max_plies),
        };
        let pos = &g.pos;
        let end = g
            .progress
            .start(pos, pos.repetition_key(), Endings::NO_STALEMATE, || {
                pos.has_legal_move()
            });
        if let Some(e) = end {
            g.finish(e.0, e.1);
        } else {
            g.start_turn();
            if let Some(id) = roll {
                g.apply_outcome(id);
            }
        }
        Ok(g)
    }

    /// The body of [`Game::fen`].
    pub(super) fn fen_text(&self) -> String {
        let mut s = write_fen(&self.pos);
        s.push(' ');
        match self.roll {
            Some((a, b)) => s.push_str(&roll_name(a, b)),
            None => s.push('-'),
        }
        s.push_str(if self.phase == Phase::Free {
            " free"
        } else {
            " -"
        });
        s
    }
}
