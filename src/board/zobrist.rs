//! Zobrist keys, generated at compile time from a fixed seed (splitmix64).

use super::types::{Color, Role, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// Number of keys: 2 colours x 6 roles x 64 squares, side, 16 castling,
/// 8 en-passant files, and 256 spare keys for variant state.
const N: usize = 768 + 1 + 16 + 8 + 256;

const fn gen() -> [u64; N] {
    let mut t = [0u64; N];
    let mut s = 0x0123_4567_89AB_CDEFu64;
    let mut i = 0;
    while i < N {
        let (ns, v) = splitmix(s);
        s = ns;
        t[i] = v;
        i += 1;
    }
    t
}

static KEYS: [u64; N] = gen();

/// Key of a piece on a square.
#[inline(always)]
pub fn piece(c: Color, r: Role, sq: Square) -> u64 {
    KEYS[(c as usize * 6 + r as usize) * 64 + sq as usize]
}

/// Key xored in when Black is to move.
#[inline(always)]
pub fn black_to_move() -> u64 {
    KEYS[768]
}

/// Key of a set of castling rights (4 bits).
#[inline(always)]
pub fn castling(rights: u8) -> u64 {
    KEYS[769 + (rights & 15) as usize]
}

/// Key of an en-passant file.
#[inline(always)]
pub fn ep_file(file: u8) -> u64 {
    KEYS[785 + (file & 7) as usize]
}

/// One of 256 spare keys for variant state (stocks, …).
#[inline(always)]
pub fn extra(i: usize) -> u64 {
    KEYS[793 + (i & 255)]
}
