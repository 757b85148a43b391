//! Fixed action spaces (AlphaZero layout).
//!
//! A move is encoded from the mover's point of view (ranks mirrored when
//! Black moves) as `square * planes + plane`, where `square = file + rank *
//! files` is the from-square and the planes are:
//!
//! * `0 .. 8*D`: queen-like moves, `direction * D + (distance - 1)`, with
//!   directions N, NE, E, SE, S, SW, W, NW and `D = max(files, ranks) - 1`
//!   (7 on 8x8, 4 on 5x5). Castling is the king's two-square move; a
//!   promotion to a queen is the plain pawn move;
//! * `8*D .. 8*D+8`: knight moves (1,2) (2,1) (2,-1) (1,-2) (-1,-2) (-2,-1)
//!   (-2,1) (-1,2) as (file, rank) deltas;
//! * `8*D+8 .. 8*D+17`: promotions to anything but a queen,
//!   `(direction + 1) * 3 + role` with direction -1/0/+1 (file delta) and role
//!   N=0, B=1, R=2.
//!
//! So 8x8 has 64 x 73 = 4672 move actions and 5x5 has 25 x 49 = 1225. After
//! them come the variant extras: `pass` (one action) where passing exists, and
//! Cubic rotations `square * 4 + role` (N, B, R, Q) from the mover's view.

use crate::board::{file_of, rank_of, square, Color, Geometry, Move, MoveKind, Role, Square};

/// Shape of a variant's action space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActionLayout {
    pub geometry: Geometry,
    pub pass: bool,
    pub rotations: bool,
}

const DIRS: [(i8, i8); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];
use crate::board::attacks::KNIGHT_DELTAS as KNIGHT;

/// For each (file, rank) delta in -7..=7 (indexed `+ 7`): its index in
/// [`KNIGHT`], or 8 + the index in [`DIRS`] of its direction. A table instead
/// of searching both lists per move (`encode` runs for every legal move of
/// every VecEnv step).
const DELTA_CODE: [[u8; 15]; 15] = {
    let mut t = [[0u8; 15]; 15];
    let mut i = 0;
    while i < 15 {
        let mut j = 0;
        while j < 15 {
            let (df, dr) = (i as i8 - 7, j as i8 - 7);
            let mut code = u8::MAX;
            let mut k = 0;
            while k < 8 {
                if KNIGHT[k].0 == df && KNIGHT[k].1 == dr {
                    code = k as u8;
                }
                k += 1;
            }
            if code == u8::MAX {
                // Direction 0 for a zero delta, as the search did.
                code = 8;
                let mut d = 0;
                while d < 8 {
                    if DIRS[d].0 == df.signum() && DIRS[d].1 == dr.signum() {
                        code = 8 + d as u8;
                    }
                    d += 1;
                }
            }
            t[i][j] = code;
            j += 1;
        }
        i += 1;
    }
    t
};

/// Planes per from-square on 8x8.
const STANDARD_PLANES: usize = 8 * 7 + 17;

/// The plane of a move (not an under-promotion) between two view squares of
/// the 8x8 board, so that `encode` is two lookups there (it runs for every
/// legal move of every VecEnv step). Same formula as the general path.
static STANDARD_PLANE: [[u8; 64]; 64] = {
    let mut t = [[0u8; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let df = (b % 8) as i8 - (a % 8) as i8;
            let dr = (b / 8) as i8 - (a / 8) as i8;
            let code = DELTA_CODE[(df + 7) as usize][(dr + 7) as usize];
            let dist = if df.abs() > dr.abs() {
                df.abs()
            } else {
                dr.abs()
            };
            t[a][b] = if code < 8 {
                56 + code
            } else if dist == 0 {
                0 // a == b: not a move
            } else {
                (code - 8) * 7 + dist as u8 - 1
            };
            b += 1;
        }
        a += 1;
    }
    t
};

impl ActionLayout {
    fn max_dist(self) -> usize {
        self.geometry.files.max(self.geometry.ranks) as usize - 1
    }
    /// Planes per from-square.
    pub fn planes(self) -> usize {
        8 * self.max_dist() + 17
    }
    /// Number of move actions (before the extras).
    pub fn move_actions(self) -> usize {
        self.geometry.num_squares() * self.planes()
    }
    /// The pass action, if this layout has one.
    pub fn pass_action(self) -> Option<u32> {
        self.pass.then_some(self.move_actions() as u32)
    }
    fn rotation_base(self) -> usize {
        self.move_actions() + self.pass as usize
    }
    /// Total number of distinct actions at decision nodes.
    pub fn num_actions(self) -> usize {
        self.rotation_base()
            + if self.rotations {
                self.geometry.num_squares() * 4
            } else {
                0
            }
    }

    fn view(self, sq: Square, mover: Color) -> (i8, i8) {
        let (f, r) = (file_of(sq) as i8, rank_of(sq) as i8);
        match mover {
            Color::White => (f, r),
            Color::Black => (f, self.geometry.ranks as i8 - 1 - r),
        }
    }

    fn unview(self, f: i8, r: i8, mover: Color) -> Option<Square> {
        let g = self.geometry;
        if f < 0 || r < 0 || f >= g.files as i8 || r >= g.ranks as i8 {
            return None;
        }
        let r = match mover {
            Color::White => r,
            Color::Black => g.ranks as i8 - 1 - r,
        };
        Some(square(f as u8, r as u8))
    }

    /// The action id of a move (or of `Move::NULL`, the pass) by `mover`.
    #[inline]
    pub fn encode(self, mv: Move, mover: Color) -> u32 {
        if mv.is_null() {
            return self.pass_action().unwrap_or(u32::MAX);
        }
        let kind = mv.kind();
        if self.geometry == Geometry::STANDARD
            && !matches!(kind, MoveKind::Rotation(_))
            && !matches!(kind, MoveKind::Promotion(r) if r != Role::Queen)
        {
            // On 8x8 the view square is the square, rank-mirrored for Black.
            let flip = mover as u8 * 56;
            let (a, b) = ((mv.from() ^ flip) as usize, (mv.to() ^ flip) as usize);
            return (a * STANDARD_PLANES + STANDARD_PLANE[a][b] as usize) as u32;
        }
        self.encode_general(mv, mover)
    }

    /// `encode` for any board (no tables).
    fn encode_general(self, mv: Move, mover: Color) -> u32 {
        let files = self.geometry.files as i8;
        let (ff, fr) = self.view(mv.from(), mover);
        let from_idx = (ff + fr * files) as usize;
        if let MoveKind::Rotation(role) = mv.kind() {
            return (self.rotation_base() + from_idx * 4 + role as usize - 1) as u32;
        }
        let (tf, tr) = self.view(mv.to(), mover);
        let (df, dr) = (tf - ff, tr - fr);
        let d = self.max_dist();
        let plane = match mv.kind() {
            MoveKind::Promotion(role) if role != Role::Queen => {
                8 * d + 8 + ((df + 1) as usize) * 3 + (role as usize - 1)
            }
            _ => {
                let code = DELTA_CODE[(df + 7) as usize][(dr + 7) as usize] as usize;
                if code < 8 {
                    8 * d + code
                } else {
                    let dist = df.abs().max(dr.abs());
                    (code - 8) * d + dist as usize - 1
                }
            }
        };
        (from_idx * self.planes() + plane) as u32
    }

    /// A move-shaped decoding of an action id: `(from, to, promotion or
    /// rotation role)`. Variants match it against their legal moves, so no
    /// move kind is guessed here. `None` for ids outside the move/rotation
    /// ranges or leading off the board.
    pub fn decode(self, action: u32, mover: Color) -> Option<(Square, Square, Option<Role>)> {
        let a = action as usize;
        let files = self.geometry.files as usize;
        if a < self.move_actions() {
            let (from_idx, plane) = (a / self.planes(), a % self.planes());
            let (ff, fr) = ((from_idx % files) as i8, (from_idx / files) as i8);
            let from = self.unview(ff, fr, mover)?;
            let d = self.max_dist();
            let (df, dr, role) = if plane < 8 * d {
                let (u, dist) = (DIRS[plane / d], (plane % d + 1) as i8);
                (u.0 * dist, u.1 * dist, None)
            } else if plane < 8 * d + 8 {
                let k = KNIGHT[plane - 8 * d];
                (k.0, k.1, None)
            } else {
                let p = plane - 8 * d - 8;
                (p as i8 / 3 - 1, 1, Some(Role::from_index(p % 3 + 1)))
            };
            let to = self.unview(ff + df, fr + dr, mover)?;
            Some((from, to, role))
        } else if self.rotations && a >= self.rotation_base() && a < self.num_actions() {
            let r = a - self.rotation_base();
            let idx = r / 4;
            let from = self.unview((idx % files) as i8, (idx / files) as i8, mover)?;
            Some((from, from, Some(Role::from_index(r % 4 + 1))))
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::{parse_fen, FenRules};

    #[test]
    fn standard_table_matches_general_encoding() {
        let l8 = ActionLayout {
            geometry: Geometry::STANDARD,
            pass: false,
            rotations: true,
        };
        let kinds = [
            MoveKind::Normal,
            MoveKind::DoublePush,
            MoveKind::Castle,
            MoveKind::Promotion(Role::Queen),
        ];
        for from in 0..64 {
            for to in (0..64).filter(|&t| t != from) {
                for kind in kinds {
                    for mover in [Color::White, Color::Black] {
                        let mv = Move::new(from, to, kind);
                        assert_eq!(l8.encode(mv, mover), l8.encode_general(mv, mover));
                    }
                }
            }
        }
    }

    #[test]
    fn sizes() {
        let l8 = ActionLayout {
            geometry: Geometry::STANDARD,
            pass: false,
            rotations: false,
        };
        assert_eq!(l8.num_actions(), 4672);
        let l5 = ActionLayout {
            geometry: Geometry::SMALL,
            pass: false,
            rotations: false,
        };
        assert_eq!(l5.num_actions(), 1225);
        let cubic = ActionLayout {
            geometry: Geometry::STANDARD,
            pass: false,
            rotations: true,
        };
        assert_eq!(cubic.num_actions(), 4672 + 256);
        let vegas = ActionLayout {
            geometry: Geometry::STANDARD,
            pass: true,
            rotations: false,
        };
        assert_eq!(vegas.num_actions(), 4673);
        assert_eq!(vegas.pass_action(), Some(4672));
    }

    #[test]
    fn encodings_are_distinct_and_decode_back() {
        let l8 = ActionLayout {
            geometry: Geometry::STANDARD,
            pass: false,
            rotations: false,
        };
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        ] {
            let (pos, _) = parse_fen(fen, &FenRules::CHESS).unwrap();
            let mut ml = crate::board::MoveList::new();
            pos.legal_moves(&mut ml);
            let mut seen = std::collections::HashSet::new();
            for &m in ml.iter() {
                let a = l8.encode(m, pos.turn());
                assert!((a as usize) < l8.num_actions());
                assert!(seen.insert(a), "duplicate id for {m:?}");
                let (f, t, r) = l8.decode(a, pos.turn()).unwrap();
                assert_eq!((f, t), (m.from(), m.to()));
                match m.kind() {
                    MoveKind::Promotion(Role::Queen) => assert_eq!(r, None),
                    MoveKind::Promotion(p) => assert_eq!(r, Some(p)),
                    _ => assert_eq!(r, None),
                }
            }
        }
    }

    #[test]
    fn e2e4_from_both_sides() {
        let l8 = ActionLayout {
            geometry: Geometry::STANDARD,
            pass: false,
            rotations: false,
        };
        let e2e4 = Move::new(12, 28, MoveKind::DoublePush);
        let e7e5 = Move::new(52, 36, MoveKind::DoublePush);
        // Mirrored: the same action id from each mover's point of view.
        assert_eq!(l8.encode(e2e4, Color::White), l8.encode(e7e5, Color::Black));
        assert_eq!(l8.encode(e2e4, Color::White), (12 * 73 + 1) as u32);
    }
}
