//! Basic value types: colours, piece roles, pieces, squares and bitboards.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A side of the board. White moves towards the higher ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Color {
    /// White, player 0 by default; moves first.
    White = 0,
    /// Black.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// 0 for White, 1 for Black.
    #[inline(always)]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The other colour.
    #[inline(always)]
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// `"white"` or `"black"`.
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        self.other()
    }
}

/// What a piece is (for a die: the face it currently shows).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Role {
    /// Pawn.
    Pawn = 0,
    /// Knight.
    Knight = 1,
    /// Bishop.
    Bishop = 2,
    /// Rook.
    Rook = 3,
    /// Queen.
    Queen = 4,
    /// King.
    King = 5,
}

impl Role {
    /// All roles in index order.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// Index 0..6 in the order P N B R Q K.
    #[inline(always)]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The role with index `i` (0..6).
    #[inline(always)]
    pub fn from_index(i: usize) -> Role {
        Role::ALL[i]
    }

    /// Upper-case letter: P N B R Q K.
    pub fn char(self) -> char {
        b"PNBRQK"[self as usize] as char
    }

    /// Parses a letter (either case).
    pub fn from_char(c: char) -> Option<Role> {
        match c.to_ascii_uppercase() {
            'P' => Some(Role::Pawn),
            'N' => Some(Role::Knight),
            'B' => Some(Role::Bishop),
            'R' => Some(Role::Rook),
            'Q' => Some(Role::Queen),
            'K' => Some(Role::King),
            _ => None,
        }
    }

    /// The one-role mask for [`RoleSet`].
    #[inline(always)]
    pub fn bit(self) -> RoleSet {
        RoleSet(1 << self as u8)
    }
}

/// A set of roles, used to restrict move generation ("move a piece the die shows").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct RoleSet(pub u8);

impl RoleSet {
    /// No roles.
    pub const EMPTY: RoleSet = RoleSet(0);
    /// Every role.
    pub const ALL: RoleSet = RoleSet(0b11_1111);

    /// Whether `r` is in the set.
    #[inline(always)]
    pub fn contains(self, r: Role) -> bool {
        self.0 & (1 << r as u8) != 0
    }
    /// The set with `r` added.
    #[inline(always)]
    pub fn with(self, r: Role) -> RoleSet {
        RoleSet(self.0 | (1 << r as u8))
    }
    /// Whether the set has no roles.
    #[inline(always)]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl BitOr for RoleSet {
    type Output = RoleSet;
    fn bitor(self, o: RoleSet) -> RoleSet {
        RoleSet(self.0 | o.0)
    }
}

/// A coloured piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What the piece is.
    pub role: Role,
}

impl Piece {
    /// A piece of `color` and `role`.
    pub fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }
    /// FEN letter: upper case for White.
    pub fn char(self) -> char {
        let c = self.role.char();
        match self.color {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }
    /// Parses a FEN letter.
    pub fn from_char(c: char) -> Option<Piece> {
        let role = Role::from_char(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, role })
    }
}

/// A square index `rank * 8 + file` (a1 = 0, h8 = 63) on the 8x8 grid that
/// every board geometry lives in.
pub type Square = u8;

/// File (0 = a) of a square.
#[inline(always)]
pub fn file_of(sq: Square) -> u8 {
    sq & 7
}

/// Rank (0 = rank 1) of a square.
#[inline(always)]
pub fn rank_of(sq: Square) -> u8 {
    sq >> 3
}

/// The square at `file`, `rank` (both 0-based).
#[inline(always)]
pub fn square(file: u8, rank: u8) -> Square {
    rank * 8 + file
}

/// Algebraic name such as `e4`.
pub fn square_name(sq: Square) -> String {
    let mut s = String::with_capacity(2);
    s.push((b'a' + file_of(sq)) as char);
    s.push((b'1' + rank_of(sq)) as char);
    s
}

/// A set of squares, one bit per square.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square of the 8x8 grid.
    pub const FULL: Bitboard = Bitboard(!0);

    /// The set holding only `sq`.
    #[inline(always)]
    pub fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u64 << sq)
    }
    /// Whether `sq` is in the set.
    #[inline(always)]
    pub fn contains(self, sq: Square) -> bool {
        self.0 >> sq & 1 != 0
    }
    /// Whether the set is empty.
    #[inline(always)]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// Whether the set has at least one square.
    #[inline(always)]
    pub fn any(self) -> bool {
        self.0 != 0
    }
    /// Number of squares.
    #[inline(always)]
    pub fn count(self) -> u32 {
        self.0.count_ones()
    }
    /// More than one square.
    #[inline(always)]
    pub fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }
    /// The lowest square; undefined for an empty set.
    #[inline(always)]
    pub fn first(self) -> Square {
        self.0.trailing_zeros() as Square
    }
    /// The only square, if exactly one.
    #[inline(always)]
    pub fn single(self) -> Option<Square> {
        if self.0 != 0 && !self.more_than_one() {
            Some(self.first())
        } else {
            None
        }
    }
    /// The set with `sq` added.
    #[inline(always)]
    pub fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq)
    }
    /// The set with `sq` removed.
    #[inline(always)]
    pub fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq))
    }
    /// Shifted one rank up (towards rank 8).
    #[inline(always)]
    pub fn up(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }
    /// Shifted one rank down.
    #[inline(always)]
    pub fn down(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }
    /// All squares of a rank (0-based) on the 8x8 grid.
    #[inline(always)]
    pub const fn rank(r: u8) -> Bitboard {
        Bitboard(0xff << (8 * r))
    }
    /// All squares of a file (0-based) on the 8x8 grid.
    #[inline(always)]
    pub const fn file(f: u8) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << f)
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = self.0.trailing_zeros() as Square;
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }
}

macro_rules! bb_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, o: Bitboard) -> Bitboard {
                Bitboard(self.0 $op o.0)
            }
        }
        impl $tra for Bitboard {
            #[inline(always)]
            fn $fa(&mut self, o: Bitboard) {
                self.0 = self.0 $op o.0;
            }
        }
    };
}
bb_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bb_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bb_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#018x})", self.0)
    }
}

/// The board a game is played on: a rectangle in the corner of the 8x8 grid.
/// Squares outside it are never occupied and block sliders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Geometry {
    /// Number of files (columns a, b, ...).
    pub files: u8,
    /// Number of ranks (rows 1, 2, ...).
    pub ranks: u8,
}

impl Geometry {
    /// The orthodox 8x8 board.
    pub const STANDARD: Geometry = Geometry { files: 8, ranks: 8 };
    /// The 5x5 board of Fluky / Metamorph chess.
    pub const SMALL: Geometry = Geometry { files: 5, ranks: 5 };

    /// The squares of this board.
    #[inline(always)]
    pub fn mask(self) -> Bitboard {
        let row: u64 = (1u64 << self.files) - 1;
        let mut m = 0u64;
        let mut r = 0;
        while r < self.ranks {
            m |= row << (8 * r);
            r += 1;
        }
        Bitboard(m)
    }
    /// The last rank (0-based) for a colour: where its pawns promote.
    #[inline(always)]
    pub fn last_rank(self, c: Color) -> u8 {
        match c {
            Color::White => self.ranks - 1,
            Color::Black => 0,
        }
    }
    /// The rank a colour's pieces start on (0-based).
    #[inline(always)]
    pub fn back_rank(self, c: Color) -> u8 {
        self.last_rank(c.other())
    }
    /// Whether `sq` lies on this board.
    #[inline(always)]
    pub fn contains(self, sq: Square) -> bool {
        file_of(sq) < self.files && rank_of(sq) < self.ranks
    }
    /// Number of squares.
    pub fn num_squares(self) -> usize {
        self.files as usize * self.ranks as usize
    }
    /// Parses an algebraic square name on this board.
    pub fn parse_square(self, s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let f = b[0].wrapping_sub(b'a');
        let r = b[1].wrapping_sub(b'1');
        if f < self.files && r < self.ranks {
            Some(square(f, r))
        } else {
            None
        }
    }
}
