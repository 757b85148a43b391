//! Saved states (Python's pickle): a state is saved as its variant, its
//! complete options and its action history, and restored by replaying that
//! history through the checked action API. Bytes from anywhere (corrupted,
//! truncated, hand-edited) therefore give either a state that a real game
//! reaches, with every invariant the rules keep, or a clear error; nothing
//! read from the bytes is trusted as game state.

use super::{api, Action, AnyGame, Game, GameError, Options};
use crate::with_game;
use serde::{Deserialize, Serialize};

/// The first bytes of a saved state (format version 1).
pub const MAGIC: &[u8; 4] = b"DCS1";

#[derive(Serialize, Deserialize)]
struct Saved {
    variant: String,
    /// The options as a JSON object.
    options: String,
    history: Vec<Action>,
}

/// The options a state was created with: the game's own complete options,
/// plus any given option it does not report (so that
/// `AnyGame::new(variant, &complete_options(..))` starts the same game).
pub fn complete_options(g: &AnyGame, given: &Options) -> Options {
    let mut o = with_game!(g, x => x.options());
    for (k, v) in given {
        if !v.is_null() && !o.contains_key(k) {
            o.insert(k.clone(), v.clone());
        }
    }
    o
}

/// The bytes of a state of `variant` created with `options` (complete, see
/// [`complete_options`]) after the actions `history`.
pub fn save(variant: &str, options: &Options, history: &[Action]) -> Vec<u8> {
    let saved = Saved {
        variant: variant.to_string(),
        options: serde_json::Value::Object(options.clone()).to_string(),
        history: history.to_vec(),
    };
    let mut out = MAGIC.to_vec();
    // Serialising strings and integers into a Vec cannot fail.
    out.extend(postcard::to_stdvec(&saved).unwrap_or_default());
    out
}

/// The state saved in `bytes` by [`save`], rebuilt by replaying its history
/// from its options: `(game, options, history)`.
pub fn restore(bytes: &[u8]) -> Result<(AnyGame, Options, Vec<Action>), GameError> {
    let not_saved =
        |why: String| GameError::new(format!("not a serialised dicechess state: {why}"));
    let body = bytes
        .strip_prefix(MAGIC.as_slice())
        .ok_or_else(|| not_saved("it does not start with DCS1".into()))?;
    let saved: Saved = postcard::from_bytes(body).map_err(|e| not_saved(e.to_string()))?;
    let options = match serde_json::from_str(&saved.options) {
        Ok(serde_json::Value::Object(m)) => m,
        _ => return Err(not_saved("its options are not a JSON object".into())),
    };
    let mut game = AnyGame::new(&saved.variant, &options)
        .map_err(|e| not_saved(format!("its variant or options are refused: {e}")))?;
    for (k, &a) in saved.history.iter().enumerate() {
        with_game!(&mut game, g => api::apply_action(g, a)).map_err(|e| {
            not_saved(format!(
                "action {k} of its history ({a}) cannot be replayed: {e}"
            ))
        })?;
    }
    let options = complete_options(&game, &options);
    Ok((game, options, saved.history))
}

/// FNV-1a over the postcard bytes of a state: no allocation.
struct KeyHasher(u64);

impl postcard::ser_flavors::Flavor for KeyHasher {
    type Output = u64;
    #[inline]
    fn try_push(&mut self, b: u8) -> postcard::Result<()> {
        self.0 = (self.0 ^ b as u64).wrapping_mul(0x0000_0100_0000_01B3);
        Ok(())
    }
    #[inline]
    fn try_extend(&mut self, data: &[u8]) -> postcard::Result<()> {
        for &b in data {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x0000_0100_0000_01B3);
        }
        Ok(())
    }
    fn finalize(self) -> postcard::Result<u64> {
        Ok(self.0)
    }
}

/// A 64-bit key of the full state (everything that is serialised).
pub fn state_key<G: serde::Serialize>(g: &G) -> u64 {
    postcard::serialize_with_flavor(g, KeyHasher(0xCBF2_9CE4_8422_2325)).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_game_replays_and_bad_bytes_are_refused() {
        let mut o = Options::new();
        o.insert(
            "fen".into(),
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".to_string().into(),
        );
        let g = AnyGame::new("chess", &o).unwrap();
        let opts = complete_options(&g, &o);
        assert_eq!(opts["fen"], o["fen"]);
        let bytes = save("chess", &opts, &[]);
        let (back, opts2, hist) = restore(&bytes).unwrap();
        assert_eq!(opts2, opts);
        assert!(hist.is_empty());
        assert_eq!(
            with_game!(&back, x => x.fen()),
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
        );
        // Every truncation and every single-byte change: an error or a state
        // that replays (never a panic).
        for n in 0..bytes.len() {
            assert!(restore(&bytes[..n]).is_err());
        }
        for i in 0..bytes.len() {
            for x in [0u8, 1, 0x7f, 0x80, 0xff] {
                let mut b = bytes.clone();
                b[i] = x;
                let _ = restore(&b);
            }
        }
        // A history with an illegal action.
        assert!(restore(&save("chess", &opts, &[4000])).is_err());
    }
}
