//! Vegas Fun Chess: the readable roll and turn state, and why a move the
//! board allows is not allowed by the dice.

use super::*;

impl Vegas {
    pub(super) fn describe_roll(a: u8, b: u8) -> String {
        if a == OPTIONAL || b == OPTIONAL {
            format!(
                "the dice show {} (optional face: any legal move or a pass is allowed)",
                roll_name(a, b)
            )
        } else if a == b {
            format!(
                "the dice show {} (only {} moves are allowed)",
                roll_name(a, b),
                FACE_NAMES[a as usize]
            )
        } else {
            format!(
                "the dice show {} (only {} and {} moves are allowed)",
                roll_name(a, b),
                FACE_NAMES[a as usize],
                FACE_NAMES[b as usize]
            )
        }
    }

    /// The body of [`Game::describe_state`].
    pub(super) fn describe_text(&self) -> Vec<String> {
        let side = self.pos.turn().name();
        let line = match (self.phase, self.roll) {
            (Phase::Chance, _) => format!("dice: {side} to roll"),
            (Phase::Rolled, Some((a, b))) => {
                format!("dice: {} — {}", roll_name(a, b), Vegas::describe_roll(a, b))
            }
            (Phase::Evasion, _) => {
                format!("dice: none ({side} is in check: no roll, must get out of check)")
            }
            (Phase::Free, _) => format!(
                "dice: none (free move: {side}'s previous move gave check; any legal move or a pass)"
            ),
            (_, Some((a, b))) => format!("dice: {}", roll_name(a, b)),
            (_, None) => "dice: none".into(),
        };
        vec![
            line,
            format!("die A: {}, die B: {}", self.die_a, self.die_b),
        ]
    }

    /// The body of [`Game::explain_disallowed`].
    pub(super) fn explain_text(&self, mv: Move) -> Option<String> {
        let side = self.pos.turn().name();
        match self.phase {
            Phase::Rolled => {
                let (a, b) = self.roll?;
                if a == OPTIONAL || b == OPTIONAL {
                    return None;
                }
                if mv.is_null() {
                    return Some(format!(
                        "passing is not allowed: {}; a pass is only allowed on the optional \
                         face (*) or on a free move",
                        Vegas::describe_roll(a, b)
                    ));
                }
                let role = self.pos.role_at(mv.from())?;
                let what = match mv.kind() {
                    crate::board::MoveKind::Castle => "castling is a king move".to_string(),
                    _ => format!(
                        "{} is a {} move",
                        san::san(&self.pos, mv),
                        FACE_NAMES[role.index()]
                    ),
                };
                Some(format!("{what}, but {}", Vegas::describe_roll(a, b)))
            }
            Phase::Evasion if mv.is_null() => Some(format!(
                "passing is not allowed: {side} is in check (no roll) and must get out of check"
            )),
            _ => None,
        }
    }
}
