//! Random Move Number Chess: options, reading and writing the extended FEN
//! (the turn-state fields are described in the module doc).

use super::*;

pub(super) fn parse_record(s: &str, which: usize) -> Result<Vec<u8>, GameError> {
    if s == "-" {
        return Ok(Vec::new());
    }
    s.chars()
        .map(|c| match c {
            '1'..='6' => Ok(c as u8 - b'0'),
            _ => Err(GameError::new(format!(
                "{NAME} FEN: throw record of player {which} must be '-' or digits 1-6, got {s:?}"
            ))),
        })
        .collect()
}

impl RandomMoveNumber {
    /// Options: `fen` (default the start position at the colour choice; may
    /// carry the turn state, see the module doc), `max_plies` (default 1000).
    pub fn new(options: &Options) -> Result<RandomMoveNumber, GameError> {
        let mut r = OptionReader::new(NAME, options);
        let fen = r.string("fen")?;
        let max_plies = r.int("max_plies", 1000, 1, 1_000_000)? as u32;
        r.finish()?;
        Self::from_fen(fen.as_deref().unwrap_or(START_FEN), max_plies)
    }

    /// A game from an (extended) FEN.
    pub fn from_fen(fen: &str, max_plies: u32) -> Result<RandomMoveNumber, GameError> {
        let (pos, rest) = parse_fen(fen, &FEN_RULES).map_err(GameError::new)?;
        if pos.king_attacked(Color::White) && pos.king_attacked(Color::Black) {
            return Err(GameError::new(format!(
                "{NAME} FEN: both kings are in check, which cannot happen in a game"
            )));
        }
        let mut g = RandomMoveNumber {
            pos,
            phase: Phase::Choose0,
            moves_left: 0,
            first_turns: 2,
            chosen: false,
            white: 0,
            records: [Vec::with_capacity(64), Vec::with_capacity(64)],
            runs: [0, 0],
            progress: Progress::new(max_plies),
        };
        if !rest.is_empty() {
            g.read_turn_state(&rest)?;
        }
        // Positions that are over already; the move test is the variant's
        // own (king captures count).
        let key = g.pos.repetition_key();
        let no_move = matches!(g.phase, Phase::Throw | Phase::Move) && !g.has_variant_move();
        let end = g.progress.start(&g.pos, key, Endings::CHESS, || true);
        if no_move {
            g.end_without_moves();
        } else {
            g.progress.result = end.map(|r| g.by_player(r));
        }
        Ok(g)
    }

    pub(super) fn read_turn_state(&mut self, rest: &[&str]) -> Result<(), GameError> {
        let err = |m: String| GameError::new(format!("{NAME} FEN: {m}"));
        if rest.len() != 6 {
            return Err(err(format!(
                "after the six standard fields come exactly six turn-state fields \
                 (phase moves_left first_turns colours record0 record1), got {rest:?}"
            )));
        }
        self.phase = match rest[0] {
            "choose0" => Phase::Choose0,
            "choose1" => Phase::Choose1,
            "throw" => Phase::Throw,
            "move" => Phase::Move,
            "over" => {
                return Err(err(
                    "the FEN is of a finished game (phase 'over'); it cannot be resumed".into(),
                ))
            }
            s => {
                return Err(err(format!(
                    "phase must be one of choose0, choose1, throw, move; got {s:?}"
                )))
            }
        };
        self.moves_left = rest[1]
            .parse::<u32>()
            .ok()
            .filter(|&n| n <= 10_000)
            .ok_or_else(|| {
                err(format!(
                    "moves_left must be a number from 0 to 10000, got {:?}",
                    rest[1]
                ))
            })?;
        self.first_turns = match rest[2] {
            "0" => 0,
            "1" => 1,
            "2" => 2,
            s => return Err(err(format!("first_turns must be 0, 1 or 2, got {s:?}"))),
        };
        match rest[3] {
            "-" => self.chosen = false,
            "wb" => {
                self.chosen = true;
                self.white = 0;
            }
            "bw" => {
                self.chosen = true;
                self.white = 1;
            }
            s => {
                return Err(err(format!(
                    "colours must be '-' (not chosen), 'wb' (player 0 White) or 'bw' \
                     (player 0 Black), got {s:?}"
                )))
            }
        }
        self.records = [parse_record(rest[4], 0)?, parse_record(rest[5], 1)?];
        self.runs = [run_of(&self.records[0]), run_of(&self.records[1])];
        let (l0, l1) = (self.records[0].len(), self.records[1].len());
        let ties = |n: usize| (0..n).all(|i| self.records[0][i] == self.records[1][i]);
        match self.phase {
            Phase::Choose0 | Phase::Choose1 => {
                if self.chosen || self.first_turns != 2 || self.moves_left != 0 {
                    return Err(err(format!(
                        "during the colour choice the colours are '-', first_turns is 2 and \
                         moves_left 0, got {} {} {}",
                        rest[3], rest[2], rest[1]
                    )));
                }
                let n = if self.phase == Phase::Choose0 {
                    if l0 != l1 {
                        return Err(err("phase choose0 needs records of equal length".into()));
                    }
                    l1
                } else {
                    if l0 != l1 + 1 {
                        return Err(err(
                            "phase choose1 needs player 0's record one throw longer".into(),
                        ));
                    }
                    l1
                };
                if !ties(n) {
                    return Err(err(
                        "before the colours are chosen every pair of throws must be a tie".into(),
                    ));
                }
            }
            Phase::Throw | Phase::Move => {
                if !self.chosen {
                    return Err(err(format!(
                        "phase {} needs the colours ('wb' or 'bw')",
                        self.phase.name()
                    )));
                }
                if self.phase == Phase::Throw && (self.moves_left != 0 || self.first_turns != 0) {
                    return Err(err(
                        "phase throw needs moves_left 0 and first_turns 0".into()
                    ));
                }
                if self.phase == Phase::Move {
                    if self.moves_left == 0 {
                        return Err(err("phase move needs moves_left of at least 1".into()));
                    }
                    if self.first_turns > 1 || (self.first_turns == 1 && self.moves_left != 1) {
                        return Err(err(
                            "in phase move first_turns is 0, or 1 with moves_left 1 (the first \
                             mover's first move)"
                                .into(),
                        ));
                    }
                }
            }
        }
        validate(&self.pos, &FEN_RULES).map_err(GameError::new)?;
        Ok(())
    }

    /// The body of [`Game::fen`].
    pub(super) fn fen_text(&self) -> String {
        let phase = if self.progress.result.is_some() {
            "over"
        } else {
            self.phase.name()
        };
        let colours = match (self.chosen, self.white) {
            (false, _) => "-",
            (true, 0) => "wb",
            (true, _) => "bw",
        };
        let rec = |r: &Vec<u8>| {
            if r.is_empty() {
                "-".to_string()
            } else {
                r.iter().map(|d| (b'0' + d) as char).collect()
            }
        };
        format!(
            "{} {} {} {} {} {} {}",
            write_fen(&self.pos),
            phase,
            self.moves_left(),
            self.first_turns,
            colours,
            rec(&self.records[0]),
            rec(&self.records[1])
        )
    }
}
