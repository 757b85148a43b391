//! Piece-type dice of the dice-chess variants (faces P N B R Q K, face index
//! = role index): a roll of several dice is a multiset of faces with a fixed
//! outcome id (its rank among all multisets in lexicographic order), a name
//! (the letters in face order: `PN`, `QQ`, `NBK`) and an exact probability.

use super::{Action, GameError, Outcomes};
use crate::board::{Geometry, Position, Role, RoleSet};
use crate::encode::observation::fill_plane;
use crate::encode::ActionLayout;
use crate::notation::fen::FenRules;

/// The standard starting position of the 8x8 dice-chess variants.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// FEN rules of the 8x8 dice-chess variants: the side not to move may be in
/// check (a check left standing, or no check at all).
pub const FEN_RULES: FenRules = FenRules {
    allow_opponent_in_check: true,
    ..FenRules::CHESS
};

/// Action layout of the 8x8 dice-chess variants (no pass action: passes
/// are forced, never chosen).
pub const LAYOUT: ActionLayout = ActionLayout {
    geometry: Geometry::STANDARD,
    pass: false,
    rotations: false,
};

/// Face letters by face index.
pub const FACE_LETTERS: [char; 6] = ['P', 'N', 'B', 'R', 'Q', 'K'];
/// Face names by face index (error messages, descriptions).
pub const FACE_NAMES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];

/// Number of distinct rolls of `k` six-faced dice (21 for two, 56 for three).
pub const fn num_rolls(k: usize) -> usize {
    match k {
        1 => 6,
        2 => 21,
        _ => 56,
    }
}

/// The rolls of `k` dice (k = 1 to 3), faces ascending, in id order.
pub fn rolls(k: usize) -> Vec<Vec<u8>> {
    let mut v: Vec<Vec<u8>> = vec![vec![]];
    for _ in 0..k {
        v = v
            .into_iter()
            .flat_map(|r| {
                let lo = r.last().copied().unwrap_or(0);
                (lo..6).map(move |f| {
                    let mut x = r.clone();
                    x.push(f);
                    x
                })
            })
            .collect();
    }
    v
}

/// The faces of roll `id` of `k` dice, ascending; unused slots are 6.
/// One to three dice read a table built at compile time: the decoding
/// loops exit after a varying count, which mispredicts at every roll.
#[inline]
pub fn roll_faces(k: usize, id: Action) -> [u8; 3] {
    const ONE: [[u8; 3]; 6] = roll_table::<6>(1);
    const TWO: [[u8; 3]; 21] = roll_table::<21>(2);
    const THREE: [[u8; 3]; 56] = roll_table::<56>(3);
    let table: &[[u8; 3]] = match k {
        1 => &ONE,
        2 => &TWO,
        3 => &THREE,
        _ => &[],
    };
    match table.get(id as usize) {
        Some(&faces) => faces,
        None => decode_roll(k, id as usize),
    }
}

/// The faces of the `N` rolls of `k` dice, by id.
const fn roll_table<const N: usize>(k: usize) -> [[u8; 3]; N] {
    let mut t = [[6u8; 3]; N];
    let mut id = 0;
    while id < N {
        t[id] = decode_roll(k, id);
        id += 1;
    }
    t
}

/// Decodes roll `id` of `k` dice: each slot skips whole blocks of rolls
/// whose face in that slot is smaller.
const fn decode_roll(k: usize, id: usize) -> [u8; 3] {
    let mut out = [6u8; 3];
    let mut left = id;
    let mut lo = 0u8;
    let mut slot = 0;
    while slot < k && slot < 3 {
        let rest = k - slot - 1;
        let mut f = lo;
        while f < 6 {
            let block = count_multisets(6 - f as usize, rest);
            if left < block {
                break;
            }
            left -= block;
            f += 1;
        }
        let f = if f < 5 { f } else { 5 };
        out[slot] = f;
        lo = f;
        slot += 1;
    }
    out
}

/// The id of a roll (faces ascending).
pub fn roll_id(faces: &[u8]) -> Action {
    let k = faces.len();
    let mut id = 0usize;
    let mut lo = 0u8;
    for (slot, &f) in faces.iter().enumerate() {
        let rest = k - slot - 1;
        for g in lo..f {
            id += count_multisets(6 - g as usize, rest);
        }
        lo = f;
    }
    id as Action
}

/// Multisets of size `k` from `n` faces.
const fn count_multisets(n: usize, k: usize) -> usize {
    // C(n + k - 1, k) for k <= 2 (enough for three dice).
    match k {
        0 => 1,
        1 => n,
        _ => n * (n + 1) / 2,
    }
}

/// A roll's name: its face letters in face order.
pub fn roll_name(faces: &[u8]) -> String {
    faces
        .iter()
        .filter(|&&f| f < 6)
        .map(|&f| FACE_LETTERS[f as usize])
        .collect()
}

/// Parses a roll name of `k` letters (any order, either case).
pub fn parse_roll(text: &str, k: usize) -> Option<Vec<u8>> {
    let mut v: Vec<u8> = text.chars().map(face_index).collect::<Option<_>>()?;
    if v.len() != k {
        return None;
    }
    v.sort_unstable();
    Some(v)
}

/// The face index of a letter (either case).
pub fn face_index(c: char) -> Option<u8> {
    Role::from_char(c).map(|r| r.index() as u8)
}

/// The roles shown by faces (face index = role index).
pub fn roles_of(faces: &[u8]) -> RoleSet {
    faces
        .iter()
        .filter(|&&f| f < 6)
        .fold(RoleSet::EMPTY, |s, &f| s.with(Role::from_index(f as usize)))
}

/// Face counts of a die given as letters (`"PNBRQK"`): the `die_faces`
/// option, 1 to 100 letters.
pub fn read_die(variant: &str, value: Option<String>) -> Result<(String, [u32; 6]), GameError> {
    let s = value.unwrap_or_else(|| "PNBRQK".to_string());
    let mut counts = [0u32; 6];
    let ok = !s.is_empty()
        && s.chars().count() <= 100
        && s.chars().all(|c| {
            c.is_ascii_uppercase() && face_index(c).map(|f| counts[f as usize] += 1).is_some()
        });
    if ok {
        Ok((s, counts))
    } else {
        Err(GameError::new(format!(
            "{variant} option die_faces must be a string of 1 to 100 faces, each one of \
             P N B R Q K (upper case), e.g. \"PNBRQK\"; got {s:?}"
        )))
    }
}

/// The exact distribution of a roll of `k` dice with the given face counts:
/// (number of orderings) x product of face counts / total^k.
pub fn outcome_table(k: usize, counts: &[u32; 6]) -> Outcomes {
    let total: u32 = counts.iter().sum();
    let denom = (total as f64).powi(k as i32);
    let mut o = Outcomes::new();
    for r in rolls(k) {
        let mut ways: f64 = r.iter().map(|&f| counts[f as usize] as f64).product();
        // Orderings of the multiset: k! / prod(multiplicity!).
        let mut orderings = [1.0, 1.0, 2.0, 6.0][k.min(3)];
        let mut i = 0;
        while i < r.len() {
            let run = r[i..].iter().take_while(|&&f| f == r[i]).count();
            orderings /= [1.0, 1.0, 2.0, 6.0][run];
            i += run;
        }
        ways *= orderings;
        if ways > 0.0 {
            o.add(roll_id(&r), ways / denom);
        }
    }
    o
}

/// Fills planes `first..first + 6` with `count[face] / scale`.
pub fn write_count_planes(
    pos: &Position,
    out: &mut [f32],
    first: usize,
    counts: &[u8; 6],
    scale: f32,
) {
    for (f, &c) in counts.iter().enumerate() {
        if c > 0 {
            fill_plane(pos, out, first + f, c as f32 / scale);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_names_and_probabilities() {
        for k in [1, 2, 3] {
            let all = rolls(k);
            assert_eq!(all.len(), num_rolls(k));
            for (i, r) in all.iter().enumerate() {
                assert_eq!(roll_id(r) as usize, i);
                assert_eq!(&roll_faces(k, i as Action)[..k], &r[..]);
                assert_eq!(parse_roll(&roll_name(r), k).as_ref(), Some(r));
            }
            let t = outcome_table(k, &[1; 6]);
            assert_eq!(t.len(), num_rolls(k));
            let sum: f64 = t.as_slice().iter().map(|x| x.1).sum();
            assert!((sum - 1.0).abs() < 1e-12);
        }
        let two = outcome_table(2, &[1; 6]);
        let p = |id| two.as_slice().iter().find(|x| x.0 == id).unwrap().1;
        assert_eq!(p(roll_id(&[0, 1])), 2.0 / 36.0);
        assert_eq!(p(roll_id(&[4, 4])), 1.0 / 36.0);
        let three = outcome_table(3, &[1; 6]);
        let p3 = |id| three.as_slice().iter().find(|x| x.0 == id).unwrap().1;
        assert_eq!(p3(roll_id(&[0, 1, 5])), 6.0 / 216.0);
        assert_eq!(p3(roll_id(&[0, 0, 5])), 3.0 / 216.0);
        assert_eq!(p3(roll_id(&[2, 2, 2])), 1.0 / 216.0);
        assert_eq!(roll_name(&[0, 1, 5]), "PNK");
        let one = outcome_table(1, &[1, 2, 0, 0, 0, 3]);
        assert_eq!(
            one.as_slice(),
            &[(0, 1.0 / 6.0), (1, 2.0 / 6.0), (5, 3.0 / 6.0)]
        );
    }
}
