//! The dice left in a turn and the face a move uses: the small vocabulary
//! that the maximum-dice rule (the turn module) and its witnesses (the
//! witness module) share.

use crate::board::{Move, Position, RoleSet};
use serde::{Deserialize, Serialize};

/// Dice left by face (face index = role index): one byte per face in a
/// word, so that taking a die and reading the faces left stay in a
/// register (a byte written into an array and the array read back whole
/// right after stalls the load). Serialized as the six counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "[u8; 6]", into = "[u8; 6]")]
pub struct DiceLeft(u64);

impl DiceLeft {
    /// No dice.
    pub const NONE: DiceLeft = DiceLeft(0);

    /// The dice of face `f` left.
    #[inline(always)]
    pub fn get(self, f: usize) -> u8 {
        (self.0 >> (8 * f)) as u8
    }

    /// One more die of face `f`.
    #[inline(always)]
    pub fn add(&mut self, f: usize) {
        self.0 += 1 << (8 * f);
    }

    /// One die of face `f` fewer (there must be one).
    #[inline(always)]
    pub fn take(&mut self, f: usize) {
        debug_assert!(self.get(f) > 0, "no die of face {f} to take");
        self.0 -= 1 << (8 * f);
    }

    /// These dice without those of face `f`.
    #[inline(always)]
    pub fn without_face(self, f: usize) -> DiceLeft {
        DiceLeft(self.0 & !(0xff << (8 * f)))
    }

    /// How many dice.
    #[inline(always)]
    pub fn total(self) -> u8 {
        (self.0.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u8
    }

    /// The faces with dice, as bits (face `f` is bit `f`).
    #[inline(always)]
    pub fn faces(self) -> u8 {
        // A count is at most 3 (two bits): its low bit or the next marks a
        // face; the multiply gathers byte `i`'s bit 0 into bit `56 + i`
        // (the products' bits never meet, so nothing carries).
        let t = (self.0 | self.0 >> 1) & 0x0101_0101_0101;
        (t.wrapping_mul(0x0102_0408_1020_0000) >> 56) as u8
    }

    /// Whether some face has two dice or more (a count is at most 3).
    #[inline(always)]
    pub fn has_pair(self) -> bool {
        self.0 & 0x0202_0202_0202 != 0
    }

    /// The dice of a roll, given as its faces.
    #[inline(always)]
    pub fn of_roll(faces: &[u8]) -> DiceLeft {
        let mut d = DiceLeft::NONE;
        for &f in faces {
            d.add(f as usize);
        }
        d
    }

    /// The counts by face.
    pub fn counts(self) -> [u8; 6] {
        let b = self.0.to_le_bytes();
        [b[0], b[1], b[2], b[3], b[4], b[5]]
    }
}

impl From<[u8; 6]> for DiceLeft {
    fn from(c: [u8; 6]) -> DiceLeft {
        DiceLeft(u64::from_le_bytes([
            c[0], c[1], c[2], c[3], c[4], c[5], 0, 0,
        ]))
    }
}

impl From<DiceLeft> for [u8; 6] {
    fn from(d: DiceLeft) -> [u8; 6] {
        d.counts()
    }
}

/// The roles of the dice left.
#[inline(always)]
pub fn roles_left(left: &DiceLeft) -> RoleSet {
    RoleSet(left.faces())
}

/// Whether `mv` captures the enemy king.
#[inline(always)]
pub fn captures_king(pos: &Position, mv: Move) -> bool {
    pos.king(pos.turn().other()) == Some(mv.to())
}

/// The face (role) a move uses: the moving piece's role (castling: king).
#[inline(always)]
pub fn face_of(pos: &Position, mv: Move) -> usize {
    pos.role_at(mv.from()).map_or(0, |r| r.index())
}
