//! Random Move Number Chess: move text for king captures and the readable
//! turn state.

use super::*;

impl RandomMoveNumber {
    pub(super) fn king_capture_san(&self, mv: Move) -> String {
        let from = mv.from();
        let to = mv.to();
        let role = self.pos.role_at(from).unwrap_or(Role::Pawn);
        let mut s = String::with_capacity(8);
        if role == Role::Pawn {
            s.push((b'a' + file_of(from)) as char);
        } else {
            s.push(role.char());
            let us = self.pos.turn();
            let rivals = self
                .pos
                .attackers_to(to, us, self.pos.occupied())
                .without(from)
                & self.pos.pieces(us, role);
            san::push_disambiguation(&mut s, from, rivals);
        }
        s.push('x');
        s.push_str(&square_name(to));
        if let Some(r) = mv.promotion() {
            s.push('=');
            s.push(r.char());
        }
        s
    }

    /// The body of [`Game::describe_state`].
    pub(super) fn describe_text(&self) -> Vec<String> {
        let mut v = Vec::new();
        match self.colors() {
            None => v.push("colours: not chosen yet".to_string()),
            Some(c) => v.push(format!(
                "colours: player 0 {}, player 1 {}",
                c[0].name(),
                c[1].name()
            )),
        }
        if self.progress.result.is_none() {
            v.push(match self.phase {
                Phase::Choose0 | Phase::Choose1 => {
                    format!("player {} throws for colours", self.thrower())
                }
                Phase::Throw => format!(
                    "player {} ({}) throws for the number of moves",
                    self.thrower(),
                    self.pos.turn().name()
                ),
                Phase::Move => format!("moves left this turn: {}", self.moves_left),
            });
            if self.first_turns > 0 && self.phase != Phase::Choose0 && self.phase != Phase::Choose1
            {
                v.push(format!(
                    "throw-free first turns still to begin: {}",
                    self.first_turns
                ));
            }
        }
        for p in 0..2 {
            let r: Vec<String> = self.records[p].iter().map(|d| d.to_string()).collect();
            v.push(format!(
                "throw record of player {p}: [{}]{}",
                r.join(" "),
                if self.runs[p] > 1 {
                    format!(" (run of {})", self.runs[p])
                } else {
                    String::new()
                }
            ));
        }
        v
    }
}
