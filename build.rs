//! Generates the magic-bitboard slider attack tables at build time.
//!
//! The magic multipliers are searched with a fixed-seed generator, so every
//! build produces the same tables; the result is written to
//! `$OUT_DIR/magics.rs` and included by `src/board/attacks.rs`.

use std::fmt::Write as _;
use std::{env, fs, path::Path};

const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn slide(sq: u8, occ: u64, dirs: &[(i8, i8); 4]) -> u64 {
    let mut att = 0u64;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq & 7) as i8, (sq >> 3) as i8);
        loop {
            f += df;
            r += dr;
            if !(0..8).contains(&f) || !(0..8).contains(&r) {
                break;
            }
            let b = 1u64 << (r * 8 + f);
            att |= b;
            if occ & b != 0 {
                break;
            }
        }
    }
    att
}

/// Relevant occupancy: the rays without their last square.
fn relevant_mask(sq: u8, dirs: &[(i8, i8); 4]) -> u64 {
    let mut m = 0u64;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq & 7) as i8, (sq >> 3) as i8);
        loop {
            f += df;
            r += dr;
            let (nf, nr) = (f + df, r + dr);
            if !(0..8).contains(&nf) || !(0..8).contains(&nr) {
                break;
            }
            m |= 1u64 << (r * 8 + f);
        }
    }
    m
}

struct XorShift(u64);
impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

fn find_magics(
    dirs: &[(i8, i8); 4],
    rng: &mut XorShift,
    table: &mut Vec<u64>,
) -> Vec<(u64, u64, u32, usize)> {
    let mut out = Vec::new();
    for sq in 0..64u8 {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        let shift = 64 - bits;
        let mut occs = Vec::new();
        let mut sub = 0u64;
        loop {
            occs.push((sub, slide(sq, sub, dirs)));
            sub = sub.wrapping_sub(mask) & mask;
            if sub == 0 {
                break;
            }
        }
        let size = 1usize << bits;
        let mut used = vec![0u64; size];
        let mut epoch = vec![0u32; size];
        let mut attempt = 0u32;
        let magic = loop {
            let magic = rng.sparse();
            if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
                continue;
            }
            attempt += 1;
            let mut ok = true;
            for &(occ, att) in &occs {
                let idx = (occ.wrapping_mul(magic) >> shift) as usize;
                if epoch[idx] != attempt {
                    epoch[idx] = attempt;
                    used[idx] = att;
                } else if used[idx] != att {
                    ok = false;
                    break;
                }
            }
            if ok {
                break magic;
            }
        };
        let offset = table.len();
        table.resize(offset + size, 0);
        for &(occ, att) in &occs {
            table[offset + (occ.wrapping_mul(magic) >> shift) as usize] = att;
        }
        out.push((mask, magic, shift, offset));
    }
    out
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let mut table = Vec::new();
    let rook = find_magics(&ROOK_DIRS, &mut rng, &mut table);
    let bishop = find_magics(&BISHOP_DIRS, &mut rng, &mut table);
    let mut s = String::new();
    for (name, magics) in [("ROOK_MAGICS", &rook), ("BISHOP_MAGICS", &bishop)] {
        writeln!(s, "pub(crate) static {name}: [Magic; 64] = [").unwrap();
        for (mask, magic, shift, offset) in magics {
            writeln!(
                s,
                "    Magic {{ mask: {mask:#x}, magic: {magic:#x}, shift: {shift}, offset: {offset} }},"
            )
            .unwrap();
        }
        writeln!(s, "];").unwrap();
    }
    writeln!(
        s,
        "pub(crate) static SLIDER_ATTACKS: [u64; {}] = [",
        table.len()
    )
    .unwrap();
    for chunk in table.chunks(8) {
        let line: Vec<String> = chunk.iter().map(|x| format!("{x:#x}")).collect();
        writeln!(s, "    {},", line.join(", ")).unwrap();
    }
    writeln!(s, "];").unwrap();
    let out = Path::new(&env::var("OUT_DIR").unwrap()).join("magics.rs");
    fs::write(out, s).unwrap();
}
