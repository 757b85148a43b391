//! The turn's first decision's candidates, listed when the dice are rolled:
//! the roll needs them for the turn's maximum (docs/rules.md §10), and the
//! first decision draws from the same list instead of generating it again.
//! Listed face by face, with where each face's moves begin, so the
//! witnesses of the maximum-dice rule read them without sorting the list.

use super::witness::{Chain, Witnesses};
use crate::board::{Bitboard, MoveKind, MoveList, MoveSink, Position, Role, RoleSet, Square};
use crate::variants::legal_cache::LegalCache;

/// The pseudo-legal moves of the roll (see the module doc). Not game state:
/// invalid after the first move, and after a copy from text.
#[derive(Clone, Default)]
pub struct FirstMoves {
    moves: LegalCache,
    /// Where each face's moves begin in `moves`.
    starts: [u16; 6],
    /// The witness chain that showed the turn's maximum, if one did.
    pub chain: Option<Chain>,
}

impl FirstMoves {
    /// Lists the pseudo-legal moves of `roles` in `pos` (the roll's).
    #[inline(always)]
    pub fn fill(&mut self, pos: &Position, roles: RoleSet) {
        self.moves.start();
        self.chain = None;
        let mut sink = FaceStarts {
            moves: &mut self.moves,
            starts: &mut self.starts,
        };
        pos.generate_pseudo(roles, &mut sink);
        self.moves.finish();
    }

    /// The moves' witnesses, if the list is valid (it fitted and belongs to
    /// the current position).
    #[inline(always)]
    pub fn witnesses(&self) -> Option<Witnesses<'_>> {
        let list = self.moves.moves()?;
        Some(Witnesses::with_starts(list, self.starts))
    }

    /// Copies the moves into `out` if the list is valid; returns whether it
    /// was.
    #[inline(always)]
    pub fn copy_to(&self, out: &mut MoveList) -> bool {
        self.moves.copy_to(out)
    }

    /// Marks the moves stale (a move was played).
    #[inline(always)]
    pub fn invalidate(&mut self) {
        self.moves.invalidate();
    }
}

/// Passes the generator's moves on to the list and notes where each
/// face's moves begin.
struct FaceStarts<'a> {
    moves: &'a mut LegalCache,
    starts: &'a mut [u16; 6],
}

impl MoveSink for FaceStarts<'_> {
    #[inline(always)]
    fn add(&mut self, from: Square, to: Bitboard, kind: MoveKind) {
        self.moves.add(from, to, kind);
    }
    #[inline(always)]
    fn add_leaper(&mut self, from: Square, to: Bitboard, deltas: &[i8; 8]) {
        self.moves.add_leaper(from, to, deltas);
    }
    #[inline(always)]
    fn add_pawn(&mut self, from: Square, fwd: u32, to: Bitboard, two: Bitboard) {
        self.moves.add_pawn(from, fwd, to, two);
    }
    #[inline(always)]
    fn begin_role(&mut self, role: Role) {
        self.starts[role.index()] = self.moves.len() as u16;
    }
}
