//! The registry: one row per variant, the only place that lists them.
//!
//! [`for_each_variant!`](crate::for_each_variant) holds the rows and hands
//! them to a callback macro. Everything that enumerates the variants is
//! generated from it: the variant modules, [`VARIANTS`](super::VARIANTS)
//! and [`ROWS`](super::ROWS), [`AnyGame`](super::AnyGame) and
//! [`BaseGame`](super::BaseGame) with their dispatch macros
//! ([`with_game!`](crate::with_game), [`with_base_game!`](crate::with_base_game))
//! and name dispatch, the default `Evaluate` impls (`agents/eval.rs`) and
//! Python's `variant_info()` (gym ids, the study's controls and twins, the
//! per-variant test tables).
//!
//! A group is one Rust type (one enum arm) with one row per variant name
//! it plays (Fluky's type plays `fluky` and `metamorph`):
//!
//! ```text
//! Arm(module::Type, evaluate = default | own) {
//!     "name" => { title, gym, board, chance, twin, new },
//! }
//! ```
//!
//! - `evaluate = default`: material and mobility only (`agents/eval.rs`
//!   writes the empty `impl Evaluate`); `own`: `agents/eval.rs` has an impl.
//! - `title`: how the heading of the variant's section of `docs/rules.md`
//!   starts. `gym`: the id suffix, `dicechess/<gym>-v0`. `board`: files
//!   (= ranks). `chance`: whether the game has chance nodes (false: a
//!   zero-luck control of the study). `twin`: the dice-free variant on the
//!   same board that the study calibrates it on. `new`: builds the game from
//!   its options.
//!
//! New groups go at the end: the groups' order is the enums' order, and an
//! arm's index is part of a state's serialised form (`State.key()`).

/// Relatives of the variants that are rows of options, not rule sets of
/// their own (`name:key=value,...`, as [`super::parse_variant_spec`] reads
/// them): the shared suites play them beside [`super::VARIANTS`]. One die
/// deciding the piece type is Dice Chess with `dice=1`.
pub const RELATIVES: &[&str] = &[
    "dice_chess:dice=1",
    "dice_chess:dice=1,no_move=reroll",
    "dice_chess:doubles=rolled,die_faces=PNBRQKK",
];

/// A registry row as data (the constructor aside): see the module docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantRow {
    /// The name, as in `dc.variants()`.
    pub name: &'static str,
    /// How the heading of its section in `docs/rules.md` starts.
    pub title: &'static str,
    /// The Gymnasium id suffix: `dicechess/<gym>-v0`.
    pub gym: &'static str,
    /// Files (= ranks) of the board.
    pub board: u8,
    /// Whether the game has chance nodes.
    pub chance: bool,
    /// The dice-free variant on the same board the study calibrates it on.
    pub twin: &'static str,
}

/// Hands the registry's rows to the macro `$callback` (a path in brackets),
/// after `$args` in brackets: `$callback! { [$args] Arm(module::Type,
/// evaluate = ..) { "name" => { .. } .. } .. }`.
#[doc(hidden)]
#[macro_export]
macro_rules! for_each_variant {
    ([$($callback:tt)*] $($args:tt)*) => {
        $($callback)*! {
            [$($args)*]
            Chess(chess::Chess, evaluate = own) {
                "chess" => {
                    title: "Chess", gym: "Chess", board: 8, chance: false, twin: "chess",
                    new: $crate::variants::chess::Chess::new,
                }
            }
            Cubic(cubic::Cubic, evaluate = own) {
                "cubic" => {
                    title: "Cubic Chess", gym: "Cubic", board: 8, chance: false, twin: "chess",
                    new: $crate::variants::cubic::Cubic::new,
                }
            }
            CubicCheckers(cubic_checkers::CubicCheckers, evaluate = own) {
                "cubic_checkers" => {
                    title: "Cubic Checkers", gym: "CubicCheckers", board: 8, chance: false,
                    twin: "chess",
                    new: $crate::variants::cubic_checkers::CubicCheckers::new,
                }
            }
            Vegas(vegas::Vegas, evaluate = own) {
                "vegas" => {
                    title: "Vegas Fun Chess", gym: "Vegas", board: 8, chance: true, twin: "chess",
                    new: $crate::variants::vegas::Vegas::new,
                }
            }
            Fluky(fluky::Fluky, evaluate = own) {
                "fluky" => {
                    title: "Fluky Chess", gym: "Fluky", board: 5, chance: true, twin: "gardner",
                    new: |o| $crate::variants::fluky::Fluky::new("fluky", o),
                }
                "metamorph" => {
                    title: "Metamorph Chess", gym: "Metamorph", board: 5, chance: true,
                    twin: "gardner",
                    new: |o| $crate::variants::fluky::Fluky::new("metamorph", o),
                }
            }
            Gardner(gardner::Gardner, evaluate = default) {
                "gardner" => {
                    title: "Gardner minichess", gym: "Gardner", board: 5, chance: false,
                    twin: "gardner",
                    new: $crate::variants::gardner::Gardner::new,
                }
            }
            RandomMoveNumber(random_move_number::RandomMoveNumber, evaluate = own) {
                "random_move_number" => {
                    title: "Random Move Number Chess", gym: "RandomMoveNumber", board: 8,
                    chance: true, twin: "chess",
                    new: $crate::variants::random_move_number::RandomMoveNumber::new,
                }
            }
            DiceChess(dice_chess::DiceChess, evaluate = own) {
                "dice_chess" => {
                    title: "Dice Chess, two dice", gym: "DiceChess", board: 8, chance: true,
                    twin: "chess",
                    new: $crate::variants::dice_chess::DiceChess::new,
                }
            }
            DiceChess3(dice_chess3::DiceChess3, evaluate = own) {
                "dice_chess3" => {
                    title: "DiceChess, three dice", gym: "DiceChess3", board: 8, chance: true,
                    twin: "chess",
                    new: $crate::variants::dice_chess3::DiceChess3::new,
                }
            }
        }
    };
}

/// Calls `$body` with `$g` bound to the concrete game inside an
/// [`AnyGame`](crate::variants::AnyGame) (a match once per call).
#[macro_export]
macro_rules! with_game {
    ($any:expr, $g:ident => $body:expr) => {
        $crate::for_each_variant!([$crate::__dispatch] AnyGame Lucky; $any, $g => $body)
    };
}

/// Calls `$body` with `$g` bound to the concrete game inside a
/// [`BaseGame`](crate::variants::BaseGame).
#[macro_export]
macro_rules! with_base_game {
    ($any:expr, $g:ident => $body:expr) => {
        $crate::for_each_variant!([$crate::__dispatch] BaseGame; $any, $g => $body)
    };
}

/// The match of `with_game!` / `with_base_game!`: one arm per group, plus
/// the enum's extra arms (`Lucky`).
#[doc(hidden)]
#[macro_export]
macro_rules! __dispatch {
    ([$enum:ident $($extra:ident)*; $any:expr, $g:ident => $body:expr]
     $($arm:ident $_group:tt $_rows:tt)*) => {
        match $any {
            $($crate::variants::$enum::$arm($g) => $body,)*
            $($crate::variants::$enum::$extra($g) => $body,)*
        }
    };
}

/// `rows` in the order of their names (the order of `dc.variants()`).
pub const fn sorted<const N: usize>(mut rows: [VariantRow; N]) -> [VariantRow; N] {
    // Insertion sort: `const fn` has no `sort`, and N is ten.
    let mut i = 1;
    while i < N {
        let mut j = i;
        while j > 0 && name_before(rows[j].name, rows[j - 1].name) {
            let t = rows[j];
            rows[j] = rows[j - 1];
            rows[j - 1] = t;
            j -= 1;
        }
        i += 1;
    }
    rows
}

/// The names of `rows`, in order.
pub const fn names<const N: usize>(rows: [VariantRow; N]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = rows[i].name;
        i += 1;
    }
    out
}

/// Whether `a` sorts before `b` (bytewise, as `str`'s `Ord`).
const fn name_before(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut i = 0;
    while i < a.len() && i < b.len() {
        if a[i] != b[i] {
            return a[i] < b[i];
        }
        i += 1;
    }
    a.len() < b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_sort_as_str_does() {
        let row = |name| VariantRow {
            name,
            title: "",
            gym: "",
            board: 8,
            chance: false,
            twin: "",
        };
        let words = [
            "dice_chess3",
            "dice_chess",
            "chess",
            "cubic_checkers",
            "cubic",
            "a",
            "b",
        ];
        let got = names(sorted(words.map(row)));
        let mut want = words;
        want.sort();
        assert_eq!(got, want);
    }
}
