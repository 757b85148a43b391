//! Attack tables, all computed by `const fn`: leapers, `between`, `line`,
//! and kindergarten bitboards for the sliders (about 11 KB of those).
//!
//! Everything here is for the full 8x8 grid. Smaller boards mask the result
//! and add the off-board squares to the occupancy, so that sliders stop at
//! the edge of the board (see [`crate::board::Position`]).

use super::types::{Bitboard, Color, Square};

const fn leaper_table(deltas: &[(i8, i8)]) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let f = (sq % 8) as i8;
        let r = (sq / 8) as i8;
        let mut i = 0;
        while i < deltas.len() {
            let (nf, nr) = (f + deltas[i].0, r + deltas[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                t[sq] |= 1u64 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    t
}

/// A knight's (file, rank) steps, in the order of AlphaZero's knight
/// planes (the action encoding uses the same order).
pub const KNIGHT_DELTAS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

static KNIGHT: [u64; 64] = leaper_table(&KNIGHT_DELTAS);
static KING: [u64; 64] = leaper_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static PAWN: [[u64; 64]; 2] = [
    leaper_table(&[(-1, 1), (1, 1)]),
    leaper_table(&[(-1, -1), (1, -1)]),
];

const fn ray_between(a: usize, b: usize, full_line: bool) -> u64 {
    let (af, ar) = ((a % 8) as i8, (a / 8) as i8);
    let (bf, br) = ((b % 8) as i8, (b / 8) as i8);
    let (df, dr) = (bf - af, br - ar);
    if a == b || !(df == 0 || dr == 0 || df == dr || df == -dr) {
        return 0;
    }
    let sf = if df > 0 {
        1
    } else if df < 0 {
        -1
    } else {
        0
    };
    let sr = if dr > 0 {
        1
    } else if dr < 0 {
        -1
    } else {
        0
    };
    let mut out = 0u64;
    if full_line {
        // Walk from a backwards to the edge, then forwards to the other edge.
        let (mut f, mut r) = (af, ar);
        while f - sf >= 0 && f - sf < 8 && r - sr >= 0 && r - sr < 8 {
            f -= sf;
            r -= sr;
        }
        while f >= 0 && f < 8 && r >= 0 && r < 8 {
            out |= 1u64 << (r * 8 + f);
            f += sf;
            r += sr;
        }
    } else {
        let (mut f, mut r) = (af + sf, ar + sr);
        while f != bf || r != br {
            out |= 1u64 << (r * 8 + f);
            f += sf;
            r += sr;
        }
    }
    out
}

const fn square_pair_table(full_line: bool) -> [[u64; 64]; 64] {
    let mut t = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            t[a][b] = ray_between(a, b, full_line);
            b += 1;
        }
        a += 1;
    }
    t
}

static BETWEEN: [[u64; 64]; 64] = square_pair_table(false);
static LINE: [[u64; 64]; 64] = square_pair_table(true);

/// Squares a knight on `sq` attacks (8x8 grid).
#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq as usize])
}

/// Squares a king on `sq` attacks (8x8 grid).
#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING[sq as usize])
}

/// Squares a pawn of `color` on `sq` attacks (8x8 grid).
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color as usize][sq as usize])
}

/// The squares from which a pawn of `color` attacks some square of
/// `targets` (8x8 grid): the squares the other colour's pawns on `targets`
/// would attack, set-wise.
#[inline(always)]
pub fn pawn_attack_sources(color: Color, targets: Bitboard) -> Bitboard {
    let (t, not_a, not_h) = (
        targets.0,
        !0x0101_0101_0101_0101u64,
        !0x8080_8080_8080_8080u64,
    );
    Bitboard(match color {
        // A White pawn on s attacks s + 7 (not from the a-file) and s + 9
        // (not from the h-file).
        Color::White => ((t >> 7) & not_a) | ((t >> 9) & not_h),
        // A Black pawn on s attacks s - 7 (not from the h-file) and s - 9
        // (not from the a-file).
        Color::Black => ((t << 7) & not_h) | ((t << 9) & not_a),
    })
}

// Sliders: kindergarten bitboards (about 11 KB of tables, L1-resident)
// instead of magic bitboards (an 860 KB table, whose lookups were most of the
// L1 misses per ply and whose lines, shared by the cores, slowed the threads
// of a batch down: README, thread scaling). The occupancy of one line is
// gathered into bits 58..63 by one multiplication (the product's terms never
// overlap, so there are no carries) and indexes a table of that line's
// attacks. No shifts by a variable amount (3 uops each on x86-64 without
// BMI2).

/// Gathers the b..g files of a line with one square per file (a rank or a
/// diagonal) into bits 58..63.
const FILE_B_GATHER: u64 = 0x0202_0202_0202_0202;
/// Inner squares of the a-file (a2..a7): the file occupancy that matters.
const A_FILE_INNER: u64 = 0x0001_0101_0101_0100;
/// Gathers a2..a7 into bits 58..63.
const A_FILE_GATHER: u64 = 0x0004_0810_2040_8000;

/// The lines through one square: its rank, diagonal and anti-diagonal
/// (each with the square), its file's inner squares, the multiplier
/// gathering those, and `1 << file` (to move a-file attacks over).
struct Lines {
    rank: u64,
    diagonal: u64,
    anti_diagonal: u64,
    file_inner: u64,
    file_gather: u64,
    file_unit: u64,
}

const fn lines_table() -> [Lines; 64] {
    let mut t = [const {
        Lines {
            rank: 0,
            diagonal: 0,
            anti_diagonal: 0,
            file_inner: 0,
            file_gather: 0,
            file_unit: 0,
        }
    }; 64];
    let mut sq = 0;
    while sq < 64 {
        let f = sq % 8;
        let bit = 1u64 << sq;
        t[sq] = Lines {
            rank: 0xFF << (sq - f),
            diagonal: bit | ray_walk(sq, 0, 1, 1) | ray_walk(sq, 0, -1, -1),
            anti_diagonal: bit | ray_walk(sq, 0, 1, -1) | ray_walk(sq, 0, -1, 1),
            file_inner: A_FILE_INNER << f,
            file_gather: A_FILE_GATHER >> f,
            file_unit: 1 << f,
        };
        sq += 1;
    }
    t
}

/// Squares a slider on `sq` attacks in direction (`df`, `dr`) given `occ`.
const fn ray_walk(sq: usize, occ: u64, df: i8, dr: i8) -> u64 {
    let (mut f, mut r) = ((sq % 8) as i8, (sq / 8) as i8);
    let mut out = 0u64;
    loop {
        f += df;
        r += dr;
        if f < 0 || f >= 8 || r < 0 || r >= 8 {
            return out;
        }
        out |= 1u64 << (r * 8 + f);
        if occ & (1u64 << (r * 8 + f)) != 0 {
            return out;
        }
    }
}

/// `FILL[file][inner]`: the first-rank attacks of a rook on `file` when
/// b1..g1 hold the bits of `inner` (a1/h1 never block), copied onto every
/// rank. Masked with a rank or a diagonal through a square of `file` (one
/// square per file), it gives the slider's attacks along that line.
const fn fill_table() -> [[u64; 64]; 8] {
    let mut t = [[0u64; 64]; 8];
    let mut f = 0;
    while f < 8 {
        let mut inner = 0;
        while inner < 64 {
            let occ = (inner as u64) << 1;
            let first = ray_walk(f, occ, 1, 0) | ray_walk(f, occ, -1, 0);
            t[f][inner] = first.wrapping_mul(0x0101_0101_0101_0101);
            inner += 1;
        }
        f += 1;
    }
    t
}

/// `A_FILE_ATTACKS[rank][index]`: the attacks of a rook on the a-file square
/// of `rank` for every occupancy of a2..a7, at that occupancy's gathered index.
const fn a_file_table() -> [[u64; 64]; 8] {
    let mut t = [[0u64; 64]; 8];
    let mut r = 0;
    while r < 8 {
        let mut bits = 0;
        while bits < 64 {
            let mut occ = 0u64;
            let mut k = 0;
            while k < 6 {
                if bits & (1 << k) != 0 {
                    occ |= 1u64 << (8 * (k + 1));
                }
                k += 1;
            }
            let idx = (occ.wrapping_mul(A_FILE_GATHER) >> 58) as usize;
            let att = ray_walk(r * 8, occ, 0, 1) | ray_walk(r * 8, occ, 0, -1);
            // The gather is one-to-one on the 64 occupancies.
            assert!(t[r][idx] == 0 || t[r][idx] == att);
            t[r][idx] = att;
            bits += 1;
        }
        r += 1;
    }
    t
}

static LINES: [Lines; 64] = lines_table();
static FILL: [[u64; 64]; 8] = fill_table();
static A_FILE_ATTACKS: [[u64; 64]; 8] = a_file_table();

/// Attacks along `line` (a rank or diagonal, one square per file) of a
/// slider on `file` of it.
#[inline(always)]
fn along(line: u64, file: usize, occ: u64) -> u64 {
    FILL[file][((occ & line).wrapping_mul(FILE_B_GATHER) >> 58) as usize] & line
}

/// Rook attacks from `sq` given the occupancy `occ`.
#[inline(always)]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let l = &LINES[sq as usize];
    let (file, rank) = ((sq & 7) as usize, (sq >> 3) as usize & 7);
    let on_rank = along(l.rank, file, occ.0);
    let f = ((occ.0 & l.file_inner).wrapping_mul(l.file_gather) >> 58) as usize;
    let on_file = A_FILE_ATTACKS[rank][f].wrapping_mul(l.file_unit);
    Bitboard(on_rank | on_file)
}

/// Bishop attacks from `sq` given the occupancy `occ`.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let l = &LINES[sq as usize];
    let file = (sq & 7) as usize;
    Bitboard(along(l.diagonal, file, occ.0) | along(l.anti_diagonal, file, occ.0))
}

/// Queen attacks from `sq` given the occupancy `occ`.
#[inline(always)]
pub fn queen_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    rook_attacks(sq, occ) | bishop_attacks(sq, occ)
}

/// Squares strictly between `a` and `b` if they share a line, else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN[a as usize][b as usize])
}

/// The whole line (edge to edge) through `a` and `b`, or empty.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINE[a as usize][b as usize])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rook_on_a1_empty_board() {
        assert_eq!(rook_attacks(0, Bitboard::EMPTY).count(), 14);
        assert_eq!(bishop_attacks(27, Bitboard::EMPTY).count(), 13);
    }

    #[test]
    fn sliders_agree_with_ray_walk_on_random_occupancies() {
        let mut x = 0x1234_5678_9abc_def1u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occ = Bitboard(x & (x >> 3));
            let sq = (x % 64) as Square;
            let mut r = Bitboard::EMPTY;
            let mut b = Bitboard::EMPTY;
            for (df, dr, diag) in [
                (1, 0, false),
                (-1, 0, false),
                (0, 1, false),
                (0, -1, false),
                (1, 1, true),
                (1, -1, true),
                (-1, 1, true),
                (-1, -1, true),
            ] {
                let (mut f, mut rk) = ((sq % 8) as i8, (sq / 8) as i8);
                loop {
                    f += df;
                    rk += dr;
                    if !(0..8).contains(&f) || !(0..8).contains(&rk) {
                        break;
                    }
                    let s = (rk * 8 + f) as Square;
                    if diag {
                        b = b.with(s);
                    } else {
                        r = r.with(s);
                    }
                    if occ.contains(s) {
                        break;
                    }
                }
            }
            assert_eq!(rook_attacks(sq, occ), r);
            assert_eq!(bishop_attacks(sq, occ), b);
        }
    }

    /// Every occupancy of the squares that can matter to a slider on each
    /// square (its lines without their edge squares), with and without every
    /// other square occupied, against a walk along the rays.
    #[test]
    fn sliders_agree_with_ray_walk_on_every_relevant_occupancy() {
        const ROOK: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        const BISHOP: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        type Lookup = fn(Square, Bitboard) -> Bitboard;
        let sliders: [(&[(i8, i8); 4], Lookup); 2] =
            [(&ROOK, rook_attacks), (&BISHOP, bishop_attacks)];
        let mut cases = 0u64;
        for (dirs, attacks) in sliders {
            for sq in 0..64u8 {
                let walk = |occ: u64| {
                    dirs.iter()
                        .fold(0, |a, &(df, dr)| a | ray_walk(sq as usize, occ, df, dr))
                };
                // The squares whose occupancy changes the attacks: the rays'
                // squares but their last ones.
                let relevant: Vec<u8> = (0..64u8).filter(|&s| walk(1 << s) != walk(0)).collect();
                cases += 1 << relevant.len();
                let mask = relevant.iter().fold(0u64, |a, &s| a | 1 << s);
                for bits in 0..1u32 << relevant.len() {
                    let occ = relevant
                        .iter()
                        .enumerate()
                        .filter(|(k, _)| bits >> k & 1 == 1)
                        .fold(0u64, |a, (_, &s)| a | 1 << s);
                    let expected = walk(occ);
                    assert_eq!(
                        attacks(sq, Bitboard(occ)).0,
                        expected,
                        "sq {sq} occ {occ:#x}"
                    );
                    let full = occ | !mask;
                    assert_eq!(
                        attacks(sq, Bitboard(full)).0,
                        expected,
                        "sq {sq} occ {full:#x}"
                    );
                }
            }
        }
        // 102,400 rook and 5,248 bishop occupancies (the magic-table sizes).
        assert_eq!(cases, 102_400 + 5_248);
    }

    #[test]
    fn between_and_line() {
        // a1..h8 diagonal
        assert_eq!(between(0, 63).count(), 6);
        assert_eq!(line(9, 18).count(), 8);
        assert!(between(0, 10).is_empty());
        assert!(line(0, 17).is_empty());
    }

    #[test]
    fn pawn_attack_sources_are_the_squares_whose_pawn_attacks_a_target() {
        for c in [Color::White, Color::Black] {
            for t in 0..64u8 {
                let expected = (0..64u8)
                    .filter(|&s| pawn_attacks(c, s).contains(t))
                    .fold(Bitboard::EMPTY, Bitboard::with);
                let got = pawn_attack_sources(c, Bitboard::from_square(t));
                assert_eq!(got, expected, "{c:?} target {t}");
            }
        }
        // Set-wise: the union of the single targets' sources.
        let set = Bitboard(0x0081_0000_1800_4200);
        let union = set.into_iter().fold(Bitboard::EMPTY, |a, t| {
            a | pawn_attack_sources(Color::Black, Bitboard::from_square(t))
        });
        assert_eq!(pawn_attack_sources(Color::Black, set), union);
    }
}
