//! State identity for `State.__eq__`, `__hash__` and `key()`.
//!
//! Two states are equal when everything that decides the game from here on
//! is equal: the variant and its rule options (start FEN and `max_plies`
//! included), the board (pieces, side to move, castling, en passant, the
//! fifty-move and fullmove counters), the variant's state (dice rolled,
//! dice left, stocks, turn state, paused cubes, ...), and the progress
//! counters: plies, turns without a decision, the result, and the
//! repetition keys recorded since the last irreversible move (they decide
//! threefold repetition). The action history is not part of it: two move
//! orders reaching the same full state give equal states.
//!
//! Concretely the full state is the state's serialised form (postcard),
//! which holds exactly the fields above; the key is 64-bit FNV-1a over
//! those bytes, so it is the same on every run and platform, and changes
//! only when a release changes a variant's state layout.

use super::{snapshot, AnyGame};

/// The full state's bytes (see the module docs).
pub fn state_bytes(g: &AnyGame) -> Vec<u8> {
    // Serialising plain data into a Vec cannot fail.
    postcard::to_stdvec(g).unwrap_or_default()
}

/// Whether two states are equal by full state.
pub fn same_state(a: &AnyGame, b: &AnyGame) -> bool {
    a.variant() == b.variant() && state_bytes(a) == state_bytes(b)
}

/// The stable 64-bit key of the full state: equal states, equal keys.
pub fn state_key(g: &AnyGame) -> u64 {
    snapshot::state_key(g)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::{api, Game, Options};
    use crate::with_game;

    fn game(variant: &str) -> AnyGame {
        AnyGame::new(variant, &Options::new()).unwrap()
    }

    #[test]
    fn transpositions_are_equal_and_other_states_differ() {
        let mut a = game("chess");
        let mut b = game("chess");
        for m in ["e3", "Nf6", "d3"] {
            let x = with_game!(&a, g => api::string_to_action(g, m)).unwrap();
            with_game!(&mut a, g => api::apply_action(g, x)).unwrap();
        }
        for m in ["d3", "Nf6", "e3"] {
            let x = with_game!(&b, g => api::string_to_action(g, m)).unwrap();
            with_game!(&mut b, g => api::apply_action(g, x)).unwrap();
        }
        assert!(same_state(&a, &b));
        assert_eq!(state_key(&a), state_key(&b));
        assert!(!same_state(&a, &game("chess")));
        // The key of the start position is fixed (stable across runs).
        assert_eq!(state_key(&game("chess")), state_key(&game("chess")));
    }

    #[test]
    fn different_rolls_give_different_keys() {
        for v in ["vegas", "dice_chess", "dice_chess3", "random_move_number"] {
            let g = game(v);
            let outcomes = with_game!(&g, x => {
                let mut o = crate::variants::Outcomes::new();
                x.chance_outcomes(&mut o);
                o.as_slice().to_vec()
            });
            assert!(outcomes.len() > 1, "{v} starts at a chance node");
            // Some outcome ids give the same dice (one roll in two orders):
            // keys must tell apart exactly the different resulting states.
            let mut keys = Vec::new();
            let mut shown = Vec::new();
            for &(a, _) in &outcomes {
                let mut h = g.clone();
                with_game!(&mut h, x => api::apply_action(x, a)).unwrap();
                keys.push(state_key(&h));
                shown.push(with_game!(&h, x => (x.fen(), x.describe_state())));
            }
            keys.sort_unstable();
            keys.dedup();
            shown.sort();
            shown.dedup();
            assert!(keys.len() > 1, "{v}");
            assert_eq!(keys.len(), shown.len(), "{v}");
        }
    }
}
