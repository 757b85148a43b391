//! The dice rule set of Dice Chess (docs/rules.md §9) as options, so that a
//! relative of it is a set of options, not a file: how many piece-type dice
//! are rolled (`dice`), whether doubles allow any move (`doubles`), what a
//! roll that allows no move does (`no_move`); the faces are the
//! `die_faces` option ([`super::dice::read_die`]). One die deciding the
//! piece type is `dice_chess:dice=1`.
//!
//! A roll is kept as two face slots, ascending; one die leaves the second
//! slot at 6 (no face), which no role and no name reads.

use super::dice::{self, FACE_NAMES};
use super::{GameError, OptionReader, Options};
use crate::board::RoleSet;
use serde::{Deserialize, Serialize};

/// The `doubles` values, default first.
const DOUBLES: [&str; 2] = ["any", "rolled"];
/// The `no_move` values, default first.
const NO_MOVE: [&str; 2] = ["pass", "reroll"];

/// The options of the dice rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceRules {
    /// Dice rolled per turn (`dice`: 1 or 2).
    pub dice: u8,
    /// Doubles allow any legal move (`doubles="any"`), or only moves of
    /// the rolled type (`"rolled"`). No effect with one die.
    pub doubles_any: bool,
    /// A roll that allows no move passes the turn (`no_move="pass"`), or
    /// the same player rolls again (`"reroll"`: no null move, so the
    /// position, en passant included, stays as it is).
    pub reroll: bool,
}

impl DiceRules {
    /// The classic game's rules, the defaults: two dice, doubles allow any
    /// legal move, a roll without a move passes the turn.
    pub const CLASSIC: DiceRules = DiceRules {
        dice: 2,
        doubles_any: true,
        reroll: false,
    };

    /// Reads `dice`, `doubles` and `no_move` (each checked, the error
    /// naming the allowed values); absent options are the classic ones.
    pub fn read(r: &mut OptionReader) -> Result<DiceRules, GameError> {
        let dice = r.int("dice", 2, 1, 2)? as u8;
        let doubles = r.choice("doubles", DOUBLES[0], &DOUBLES)?;
        let no_move = r.choice("no_move", NO_MOVE[0], &NO_MOVE)?;
        Ok(DiceRules {
            dice,
            doubles_any: doubles == DOUBLES[0],
            reroll: no_move == NO_MOVE[1],
        })
    }

    /// Writes the options [`DiceRules::read`] reads back.
    pub fn write(&self, o: &mut Options) {
        o.insert("dice".into(), self.dice.into());
        o.insert("doubles".into(), DOUBLES[!self.doubles_any as usize].into());
        o.insert("no_move".into(), NO_MOVE[self.reroll as usize].into());
    }

    /// Dice per roll, as the face arithmetic of [`super::dice`] takes it.
    #[inline(always)]
    pub fn k(&self) -> usize {
        self.dice as usize
    }

    /// The roll of outcome `id`, faces ascending (one die: second slot 6).
    #[inline(always)]
    pub fn roll(&self, id: super::Action) -> [u8; 2] {
        let f = dice::roll_faces(self.k(), id);
        [f[0], f[1]]
    }

    /// The roles a roll allows (doubles: every role, where they allow any
    /// move).
    #[inline(always)]
    pub fn roles(&self, r: [u8; 2]) -> RoleSet {
        if self.doubles_any && r[0] == r[1] {
            RoleSet::ALL
        } else {
            dice::roles_of(&r)
        }
    }

    /// The faces a roll shows (one die: one face).
    pub fn faces<'a>(&self, r: &'a [u8; 2]) -> &'a [u8] {
        &r[..self.k()]
    }

    /// What a roll allows, in words, for `str(state)` and error messages.
    pub fn describe(&self, r: [u8; 2]) -> String {
        let name = dice::roll_name(&r);
        let faces = self.faces(&r);
        let (shows, any) = match faces.len() {
            1 => ("the die shows", false),
            _ => ("the dice show", self.doubles_any && r[0] == r[1]),
        };
        if any {
            return format!("{shows} {name} (doubles: any legal move)");
        }
        let mut names: Vec<&str> = faces.iter().map(|&f| FACE_NAMES[f as usize]).collect();
        names.dedup();
        format!(
            "{shows} {name} (only {} moves are allowed)",
            names.join(" and ")
        )
    }

    /// The FEN's roll field: `-` (none) or the faces of one roll (`PN`,
    /// `N` with one die) that the die faces `counts` can show.
    pub fn parse_roll_field(
        &self,
        variant: &str,
        field: &str,
        die_faces: &str,
        counts: &[u32; 6],
    ) -> Result<Option<super::Action>, GameError> {
        if field == "-" {
            return Ok(None);
        }
        let possible = |r: &Vec<u8>| r.iter().all(|&f| counts[f as usize] > 0);
        match dice::parse_roll(field, self.k()).filter(possible) {
            Some(r) => Ok(Some(dice::roll_id(&r))),
            None => {
                let (what, eg) = match self.dice {
                    1 => ("one face of the die", "'N'"),
                    _ => ("two faces of the dice", "'PN', 'QQ'"),
                };
                Err(GameError::new(format!(
                    "{variant} FEN roll field must be '-' or {what} {die_faces:?} (e.g. {eg}), \
                     got {field:?}"
                )))
            }
        }
    }
}
