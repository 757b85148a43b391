//! The generator every simulation uses, how a game's generator is seeded,
//! and the uniform index drawn from it: below the rules and the game loop
//! alike, so a variant can draw its own random decisions
//! (`Game::random_legal_move`) without depending on the game loop.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The generator every simulation uses (small, fast, portable, pinned).
pub type GameRng = Xoshiro256PlusPlus;

/// SplitMix64's finaliser: spreads a seed's bits.
pub(crate) fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The generator of game `index` in a run seeded with `seed`.
pub fn game_rng(seed: u64, index: u64) -> GameRng {
    GameRng::seed_from_u64(splitmix(splitmix(seed) ^ index))
}

/// A uniformly random index below `len` (`len` in `1..2^32`).
#[inline(always)]
pub fn uniform_index(rng: &mut GameRng, len: usize) -> usize {
    // A `u32` range: rand samples a `usize` range below 2^32 as this very
    // `u32` range (same numbers), but the `usize` version also carries the
    // 64-bit path, which made it too big to inline into the game loop.
    rng.random_range(0..len as u32) as usize
}
