//! The two FEN fields of three-dice DiceChess after the six standard ones:
//! the turn's roll and the dice left (see the game's module doc).

use super::dice;
use super::{DiceChess3, Phase, NAME};
use crate::board::square_name;
use crate::notation::fen::write_fen;
use crate::variants::GameError;

impl DiceChess3 {
    /// Reads the roll and dice-left fields after the six standard ones.
    pub(super) fn read_turn_state(&mut self, rest: &[&str]) -> Result<(), GameError> {
        let err = |m: String| GameError::new(format!("{NAME} FEN: {m}"));
        match rest {
            [] | ["-"] | ["-", "-"] => Ok(()),
            [roll, left] => {
                let r = dice::parse_roll(roll, 3).ok_or_else(|| {
                    err(format!(
                        "the roll field must be '-' or three faces of P N B R Q K (e.g. 'PNK'), \
                         got {roll:?}"
                    ))
                })?;
                let mut counts = [0u8; 6];
                for &f in &r {
                    counts[f as usize] += 1;
                }
                let l = (1..=3)
                    .find_map(|k| dice::parse_roll(left, k))
                    .ok_or_else(|| {
                        err(format!(
                            "the dice-left field must be one to three faces of the roll, got \
                             {left:?}"
                        ))
                    })?;
                for &f in &l {
                    if counts[f as usize] == 0 {
                        return Err(err(format!(
                            "the dice left {left:?} are not part of the roll {roll:?}"
                        )));
                    }
                    counts[f as usize] -= 1;
                    self.left.add(f as usize);
                }
                if l.len() < 3 && self.pos.ep_square().is_some() {
                    return Err(err(
                        "en passant is only possible on the first move of a turn; the \
                         en-passant field must be '-' after a move of the turn"
                            .into(),
                    ));
                }
                self.turn_reset = l.len() < 3 && self.pos.halfmove_clock() == 0;
                self.roll = Some([r[0], r[1], r[2]]);
                self.phase = Phase::Moving;
                Ok(())
            }
            _ => Err(err(format!(
                "after the six standard fields come the roll and the dice left (e.g. 'PNK NK', \
                 or '- -' before the roll), got {rest:?}"
            ))),
        }
    }

    /// The FEN with the turn's roll and dice left (see the module doc of
    /// the game).
    pub(super) fn write_fen(&self) -> String {
        let mut fields: Vec<String> = write_fen(&self.pos)
            .split(' ')
            .map(str::to_string)
            .collect();
        fields[3] = match self.pos.ep_square() {
            Some(ep) if self.ep_possible() => square_name(ep),
            _ => "-".into(),
        };
        let mut s = fields.join(" ");
        match self.phase {
            Phase::Moving => {
                s.push(' ');
                s.push_str(&self.dice().unwrap_or_default());
                s.push(' ');
                s.push_str(&self.left_name());
            }
            _ => s.push_str(" - -"),
        }
        s
    }
}
