//! Cubic Checkers (docs/rules.md §7): Pribylinec's draughts-like game of cubes that
//! are demoted when jumped. No dice: a zero-luck game.
//!
//! **Cubes** are stored as pieces of the [`Position`] (R, B, N, P faces; no
//! kings), on the dark squares of the 8x8 board. Every cube moves alike: any
//! number of empty squares diagonally (a flying king of international
//! draughts); the face is only its strength.
//!
//! **Jumping** is allowed from the player's turn after their first plain
//! move of an R-faced cube (the *rook-moved* flag), and from then on it is
//! compulsory whenever an active cube can jump, with the maximum-capture
//! rule. Jumped cubes stay on the board as obstacles (they cannot be jumped
//! twice) and are demoted R→B→N→P→removed when the whole move ends.
//!
//! **Encoding: one landing per decision** (as OpenSpiel's checkers): a jump
//! of several cubes is a run of decisions by the same player, and at every
//! step only landings that lie on a maximum-capture path are legal (the
//! turn stays with the jumper until no jump is left). Actions use the 8x8
//! move layout of the chess variants (4672 ids; a move or a landing is the
//! queen-like move from its square to the next, seen from the mover's side).
//!
//! **Pausing.** The cube that moved is paused: it cannot move in its owner's
//! next turn. Each side therefore has at most one paused cube, the one its
//! last move ended on.
//!
//! **End**, checked when a move ends, in this order: the opponent has three
//! cubes or fewer (`cubes_left`, the mover wins); the opponent has no legal
//! move (`no_moves`, the mover wins); 20 moves in a row without a jump
//! (`no_jumps`, draw); `max_plies` (also checked after each landing). No
//! repetition rule.
//!
//! **Notation** `c1-d2` for a move, `e1xg3` for one landing of a jump (the
//! whole jump reads `e1xg3xe5`); `string_to_action` also takes UCI (`c1d2`)
//! and `-`/`x` interchangeably. **FEN** (see [`fen`]):
//! `1n1r1r1n/b1b1b1b1/8/8/8/8/1B1B1B1B/N1R1R1N1 w - - 0 1`.

mod fen;
mod moves;

use super::legal_cache::LegalCache;
use super::*;
use crate::board::attacks::between;
use crate::board::{square, square_name, Bitboard, Geometry, Piece, Role, Square};
use crate::encode::observation::{fill_plane, fill_squares};
use moves::JumpBoard;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The setup (docs/rules.md §7).
pub const START_FEN: &str = "1n1r1r1n/b1b1b1b1/8/8/8/8/1B1B1B1B/N1R1R1N1 w - - 0 1";

/// Plain moves in a row without a jump that draw.
pub const NO_JUMP_LIMIT: u32 = 20;

/// A side with this many cubes or fewer has lost.
pub const CUBES_LOST_AT: u32 = 3;

const LAYOUT: ActionLayout = ActionLayout {
    geometry: Geometry::STANDARD,
    pass: false,
    rotations: false,
};

/// A jump in progress: the landings so far (the start square first) and the
/// cubes jumped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Jump {
    path: [Square; 10],
    len: u8,
    jumped: Bitboard,
}

impl Jump {
    /// The squares of the jump so far, start square first.
    pub fn path(&self) -> &[Square] {
        &self.path[..self.len as usize]
    }
    /// Where the jumping cube stands now.
    pub fn current(&self) -> Square {
        self.path[self.len as usize - 1]
    }
    /// The cubes jumped so far (still on the board until the move ends).
    pub fn jumped(&self) -> Bitboard {
        self.jumped
    }
    /// `e1xg3xe5`.
    pub fn text(&self) -> String {
        let v: Vec<String> = self.path().iter().map(|&s| square_name(s)).collect();
        v.join("x")
    }
}

/// A Cubic Checkers game.
///
/// ```
/// use dicechess::variants::{cubic_checkers::CubicCheckers, Game, Node, Options};
/// let g = CubicCheckers::new(&Options::new()).unwrap();
/// assert_eq!(g.node(), Node::Decision(0));
/// assert_eq!(g.fen(), "1n1r1r1n/b1b1b1b1/8/8/8/8/1B1B1B1B/N1R1R1N1 w - - 0 1");
/// ```
#[derive(Clone, Serialize, Deserialize)]
pub struct CubicCheckers {
    /// Cubes as pieces; the halfmove clock is the no-jump count.
    pos: Position,
    /// Whether each colour has made a plain move with an R-faced cube.
    rook_moved: [bool; 2],
    /// Each colour's paused cube (where its last move ended).
    paused: [Option<Square>; 2],
    jump: Option<Jump>,
    progress: Progress,
    start_fen: Arc<str>,
    /// Derived, not state (worked out again when missing): the most cubes
    /// the current decision's move must still jump, and its legal moves,
    /// both as `play` found them for the position it led to (so a
    /// multi-jump's later landings need no longest-jump search from scratch).
    #[serde(skip)]
    left: Option<u8>,
    #[serde(skip)]
    next: LegalCache,
}

impl CubicCheckers {
    /// Options: `fen` (default the setup), `max_plies` (default 1000).
    pub fn new(options: &Options) -> Result<CubicCheckers, GameError> {
        let mut r = OptionReader::new("cubic_checkers", options);
        let fen = r.string("fen")?;
        let max_plies = r.int("max_plies", 1000, 1, 1_000_000)? as u32;
        r.finish()?;
        let start_fen = fen.unwrap_or_else(|| START_FEN.to_string());
        let mut g = fen::parse(&start_fen, max_plies)
            .map_err(|m| GameError::new(format!("cubic_checkers FEN {start_fen:?}: {m}")))?;
        g.start_fen = start_fen.into();
        if g.jump.is_none() {
            g.update_result();
        }
        Ok(g)
    }

    /// Whether `c` may (and so must) jump: it has moved an R-faced cube.
    pub fn jumps_enabled(&self, c: Color) -> bool {
        self.rook_moved[c as usize]
    }
    /// The paused cube of `c`, if any.
    pub fn paused(&self, c: Color) -> Option<Square> {
        self.paused[c as usize]
    }
    /// The jump in progress, if any.
    pub fn jump(&self) -> Option<&Jump> {
        self.jump.as_ref()
    }
    /// Moves in a row without a jump.
    pub fn no_jump_count(&self) -> u32 {
        self.pos.halfmove_clock()
    }

    /// The most cubes the side to move can (and so must) still jump in this
    /// move: 0 when it makes a plain move.
    pub fn max_capture(&self) -> u32 {
        let us = self.pos.turn();
        if let Some(j) = &self.jump {
            return self.jump_board(us, j.jumped).longest(j.current());
        }
        if !self.jumps_enabled(us) {
            return 0;
        }
        let b = self.jump_board(us, Bitboard::EMPTY);
        self.active(us).map(|sq| b.longest(sq)).max().unwrap_or(0)
    }

    /// `c`'s cubes that may move this turn.
    fn active(&self, c: Color) -> Bitboard {
        let own = self.pos.by_color(c);
        match self.paused[c as usize] {
            Some(sq) => own.without(sq),
            None => own,
        }
    }

    fn jump_board(&self, us: Color, jumped: Bitboard) -> JumpBoard {
        JumpBoard {
            occ: self.pos.occupied(),
            theirs: self.pos.by_color(us.other()),
            jumped,
        }
    }

    /// Works out the first decisions of `c` (to move, no jump in progress)
    /// into the cache; returns whether there is any.
    fn cache_first_decisions(&mut self, c: Color) -> bool {
        let b = self.jump_board(c, Bitboard::EMPTY);
        let (active, jumps) = (self.active(c), self.jumps_enabled(c));
        self.next.start();
        self.left = Some(b.add_first(active, jumps, &mut self.next) as u8);
        self.next.finish()
    }

    /// Decides whether the game is over once a move has ended (the side to
    /// move is the mover's opponent).
    fn update_result(&mut self) {
        let them = self.pos.turn();
        let us = them.other();
        let count = |c: Color| self.pos.by_color(c).count();
        self.progress.result = if count(them) <= CUBES_LOST_AT {
            Some((Termination::CubesLeft, Some(us as Player)))
        } else if count(us) <= CUBES_LOST_AT {
            // Only from a set-up position.
            Some((Termination::CubesLeft, Some(them as Player)))
        } else if !self.cache_first_decisions(them) {
            Some((Termination::NoMoves, Some(us as Player)))
        } else if self.no_jump_count() >= NO_JUMP_LIMIT {
            Some((Termination::NoJumps, None))
        } else if self.progress.plies >= self.progress.max_plies {
            Some((Termination::MaxPlies, None))
        } else {
            None
        };
    }

    /// Moves the cube on `from` to the empty square `to`.
    fn move_cube(&mut self, from: Square, to: Square) {
        if let Some(p) = self.pos.remove(from) {
            self.pos.put(to, p);
        }
    }

    /// Ends the move of `us`, whose cube stands on `to`: demotions, pausing,
    /// the no-jump count, the turn.
    fn end_move(&mut self, us: Color, to: Square, jumped: Bitboard) {
        for x in jumped {
            // R→B→N→P→removed: one face down (roles are ordered P, N, B, R;
            // cubes have no other faces).
            let Some(p) = self.pos.remove(x) else {
                continue;
            };
            if p.role != Role::Pawn {
                let down = Role::from_index(p.role as usize - 1);
                self.pos.put(x, Piece::new(p.color, down));
            } else {
                let theirs = &mut self.paused[us.other() as usize];
                if *theirs == Some(x) {
                    *theirs = None;
                }
            }
        }
        self.paused[us as usize] = Some(to);
        let no_jump = if jumped.any() {
            0
        } else {
            self.no_jump_count() + 1
        };
        let fullmove = self.pos.fullmove_number() + us as u32;
        self.pos.set_clocks(no_jump, fullmove);
        self.pos.set_turn(us.other());
        self.jump = None;
        self.update_result();
    }

    /// The text of a legal decision: `c1-d2` or `e1xg3`.
    fn step_text(&self, mv: Move) -> String {
        let jumps = (between(mv.from(), mv.to()) & self.pos.occupied()).any();
        format!(
            "{}{}{}",
            square_name(mv.from()),
            if jumps { 'x' } else { '-' },
            square_name(mv.to())
        )
    }
}

impl Game for CubicCheckers {
    game_accessors!();
    fn extras(&self) -> Extras {
        Extras {
            paused: Some(self.paused.iter().flatten().map(|&s| square_name(s)).collect()),
            ..Extras::default()
        }
    }
    fn search_key(&self) -> u64 {
        // The board with its faces (side to move included), the rook-moved
        // flags, the paused cubes, the jump in progress (where the cube
        // stands and which cubes it jumped) and the no-jump count (20 plies
        // draw soon, so it decides the future).
        let sq = |s: Option<Square>| s.map_or(0x7F, |s| s as u64);
        let flags = self.rook_moved[0] as u64
            | (self.rook_moved[1] as u64) << 1
            | sq(self.paused[0]) << 2
            | sq(self.paused[1]) << 9
            | (self.pos.halfmove_clock().min(255) as u64) << 16;
        let (at, jumped) = self
            .jump
            .map_or((0x7F, 0), |j| (j.current() as u64, j.jumped.0));
        super::mix_key(super::mix_key(self.pos.hash(), flags | at << 24), jumped)
    }
    fn variant(&self) -> &'static str {
        "cubic_checkers"
    }
    fn node(&self) -> Node {
        match self.progress.result {
            Some(_) => Node::Terminal,
            None => Node::Decision(self.pos.turn() as Player),
        }
    }
    fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        if self.progress.result.is_some() {
            return;
        }
        if self.next.copy_to(out) {
            return;
        }
        let us = self.pos.turn();
        match &self.jump {
            Some(j) => {
                let b = self.jump_board(us, j.jumped);
                let left = self.left.map_or_else(|| b.longest(j.current()), u32::from);
                b.add_continuations(j.current(), left, out);
            }
            None => {
                let b = self.jump_board(us, Bitboard::EMPTY);
                b.add_first(self.active(us), self.jumps_enabled(us), out);
            }
        }
    }
    fn play(&mut self, mv: Move) {
        let us = self.pos.turn();
        let (from, to) = (mv.from(), mv.to());
        // The most cubes this move must still jump, this landing included.
        let left = self
            .left
            .take()
            .map_or_else(|| self.max_capture(), u32::from);
        self.next.invalidate();
        self.progress.decided(PassBound::InAll);
        let over = between(from, to) & self.pos.occupied();
        if over.is_empty() {
            if self.pos.role_at(from) == Some(Role::Rook) {
                self.rook_moved[us as usize] = true;
            }
            self.move_cube(from, to);
            self.end_move(us, to, Bitboard::EMPTY);
            return;
        }
        let mut j = self.jump.unwrap_or(Jump {
            path: [from; 10],
            len: 1,
            jumped: Bitboard::EMPTY,
        });
        j.path[j.len as usize] = to;
        j.len += 1;
        j.jumped |= over;
        self.move_cube(from, to);
        // A legal landing lies on a longest jump: one cube fewer is left.
        let b = self.jump_board(us, j.jumped);
        debug_assert_eq!(left > 1, b.can_jump(to), "a landing off a longest jump");
        if left > 1 {
            self.jump = Some(j);
            if self.progress.plies >= self.progress.max_plies {
                self.progress.result = Some((Termination::MaxPlies, None));
            } else {
                self.left = Some(left as u8 - 1);
                self.next.start();
                b.add_continuations(to, left - 1, &mut self.next);
                self.next.finish();
            }
        } else {
            self.end_move(us, to, j.jumped);
        }
    }
    fn san(&self, mv: Move) -> String {
        self.step_text(mv)
    }
    fn parse_decision(&self, text: &str) -> Option<Result<Move, String>> {
        let t = text.trim().to_ascii_lowercase();
        let squares: Vec<&str> = t.split(['-', 'x']).collect();
        let (a, b) = match squares.as_slice() {
            [a, b] => (*a, *b),
            // ASCII only: a byte index into wide characters would panic.
            [one] if one.len() == 4 && one.is_ascii() => one.split_at(2),
            [_, _, ..] => {
                return Some(Err(format!(
                    "{text:?}: give one landing per action (the jump continues with \
                     the same player), e.g. {:?}",
                    squares[..2].join("x")
                )))
            }
            _ => return Some(Err(format!("{text:?} is not a move: write c1-d2 or e1xg3"))),
        };
        let g = Geometry::STANDARD;
        let (Some(from), Some(to)) = (g.parse_square(a), g.parse_square(b)) else {
            return Some(Err(format!("{text:?} is not a move: write c1-d2 or e1xg3")));
        };
        let mut ml = MoveList::new();
        self.legal_moves(&mut ml);
        Some(
            ml.iter()
                .copied()
                .find(|m| m.from() == from && m.to() == to)
                .ok_or_else(|| {
                    let legal: Vec<String> = ml.iter().map(|&m| self.step_text(m)).collect();
                    format!(
                        "{text:?} is not a legal move here; legal: {}",
                        legal.join(", ")
                    )
                }),
        )
    }
    fn fen(&self) -> String {
        fen::write(self)
    }
    fn extra_planes(&self) -> &'static [&'static str] {
        &[
            "own_paused",
            "opponent_paused",
            "own_jumps_enabled",
            "opponent_jumps_enabled",
            "jumping_cube",
            "jumped_cubes",
            "no_jump_fraction",
        ]
    }
    fn write_extra_planes(&self, view: Color, out: &mut [f32]) {
        let p = &self.pos;
        let n = p.geometry().num_squares();
        out[..self.extra_planes().len() * n].fill(0.0);
        for (i, c) in [view, view.other()].into_iter().enumerate() {
            if let Some(sq) = self.paused[c as usize] {
                fill_squares(p, out, i, Bitboard::from_square(sq), view, 1.0);
            }
            if self.jumps_enabled(c) {
                fill_plane(p, out, 2 + i, 1.0);
            }
        }
        if let Some(j) = &self.jump {
            fill_squares(p, out, 4, Bitboard::from_square(j.current()), view, 1.0);
            fill_squares(p, out, 5, j.jumped, view, 1.0);
        }
        let frac = self.no_jump_count() as f32 / NO_JUMP_LIMIT as f32;
        fill_plane(p, out, 6, frac.min(1.0));
    }
    fn describe_state(&self) -> Vec<String> {
        let paused: Vec<String> = Color::ALL
            .iter()
            .filter_map(|&c| {
                self.paused(c)
                    .map(|s| format!("{} ({})", square_name(s), c.name()))
            })
            .collect();
        let enabled: Vec<&str> = Color::ALL
            .iter()
            .filter(|&&c| self.jumps_enabled(c))
            .map(|c| c.name())
            .collect();
        let mut v = vec![
            format!(
                "paused cubes: {}",
                if paused.is_empty() {
                    "none".into()
                } else {
                    paused.join(", ")
                }
            ),
            format!(
                "jumping allowed (a rook-faced cube has moved): {}",
                if enabled.is_empty() {
                    "nobody".into()
                } else {
                    enabled.join(", ")
                }
            ),
            format!(
                "moves without a jump: {} of {NO_JUMP_LIMIT}",
                self.no_jump_count()
            ),
        ];
        if let Some(j) = &self.jump {
            v.push(format!("jump in progress: {} (must continue)", j.text()));
        }
        v
    }
    fn check_invariants(&self) -> Result<(), String> {
        let p = &self.pos;
        if p.hash() != p.compute_hash() {
            return Err("incremental hash differs from recomputed hash".into());
        }
        if (p.by_role(Role::King) | p.by_role(Role::Queen)).any() {
            return Err("a king or queen on the board".into());
        }
        if (p.occupied() & !fen::DARK_SQUARES).any() {
            return Err("a cube on a light square".into());
        }
        for c in Color::ALL {
            if let Some(sq) = self.paused[c as usize] {
                if p.piece_at(sq).map(|x| x.color) != Some(c) {
                    return Err(format!(
                        "paused square {} has no {} cube",
                        square_name(sq),
                        c.name()
                    ));
                }
            }
        }
        if let Some(j) = &self.jump {
            let us = p.turn();
            if p.piece_at(j.current()).map(|x: Piece| x.color) != Some(us) {
                return Err("the jumping cube is not on its last landing".into());
            }
            if (j.jumped & !p.by_color(us.other())).any() {
                return Err("a jumped square has no enemy cube".into());
            }
        }
        if self.node() != Node::Terminal {
            let mut ml = MoveList::new();
            self.legal_moves(&mut ml);
            if ml.is_empty() {
                return Err("decision node without legal moves".into());
            }
        }
        Ok(())
    }
    fn options(&self) -> Options {
        let mut o = Options::new();
        o.insert("fen".into(), (*self.start_fen).into());
        o.insert("max_plies".into(), self.progress.max_plies.into());
        o
    }
}
