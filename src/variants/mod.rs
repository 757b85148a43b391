//! Variants: the common game model (explicit chance nodes, OpenSpiel style)
//! and one file per rule set.
//!
//! A game state is a chance node (dice to roll), a decision node of player 0
//! or 1, or terminal. The [`Game`] trait is implemented once per rule set;
//! the functions in [`api`] build the action-level API (fixed action ids,
//! strings, validation) on top of it for every variant at once. The rule
//! sets themselves are listed only in [`registry`], one row per variant:
//! their modules, [`VARIANTS`], [`ROWS`] and [`AnyGame`] are generated here
//! from it.

/// The accessors every variant writes alike, for its `impl Game`: the board
/// (`self.pos`), the progress (`self.progress`) and the action layout (the
/// module's `LAYOUT`).
macro_rules! game_accessors {
    () => {
        fn progress(&self) -> &Progress {
            &self.progress
        }
        fn position(&self) -> &Position {
            &self.pos
        }
        fn layout(&self) -> ActionLayout {
            LAYOUT
        }
    };
}

pub mod api;
mod base;
mod chance_table;
mod common;
mod dice;
mod dice_rules;
pub mod endings;
pub mod identity;
mod key_list;
mod king_capture;
mod legal_cache;
pub mod luck;
pub mod orthodox;
mod progress;
pub mod registry;
pub mod snapshot;

pub use chance_table::ChanceTable;
pub use common::*;
pub use endings::{by_color_index, no_move_ending, orthodox_ending, ColorResult, Endings};
pub use progress::{PassBound, Progress, RepetitionTable};
pub use registry::{VariantRow, RELATIVES};

use crate::board::{Color, Move, MoveList, Position, RoleSet};
use crate::encode::ActionLayout;
use crate::rng::{uniform_index, GameRng};
use crate::with_game;
use serde::{de::DeserializeOwned, Serialize};

/// The rules of one variant as a state machine with explicit chance nodes.
///
/// Implementations must not allocate in `legal_moves`, `play`,
/// `chance_outcomes` and `apply_outcome` (hot loops call them per ply).
pub trait Game: Clone + Send + Sync + Serialize + DeserializeOwned + 'static {
    /// The variant's name as in `dc.variants()`.
    fn variant(&self) -> &'static str;
    /// What kind of node this state is. The default suits games without
    /// chance: the side to move decides until the game has a result.
    fn node(&self) -> Node {
        match self.progress().result {
            Some(_) => Node::Terminal,
            None => Node::Decision(self.position().turn() as Player),
        }
    }
    /// The board.
    fn position(&self) -> &Position;
    /// The action space of this variant (fixed for a variant and its options).
    fn layout(&self) -> ActionLayout;

    /// Legal decisions at a decision node: moves, plus [`Move::NULL`] where
    /// passing is a real choice. Empty elsewhere.
    fn legal_moves(&self, out: &mut MoveList);
    /// Applies a decision from `legal_moves` (unchecked).
    fn play(&mut self, mv: Move);
    /// A uniformly random decision of [`Game::legal_moves`] at a decision
    /// node (`buf` is scratch), the draw of random playouts
    /// (`play::random_move`). The default lists the legal moves and
    /// draws one index ([`crate::rng::uniform_index`]); a variant may draw
    /// differently (other numbers from `rng`) if every legal decision stays
    /// exactly equally likely, e.g. by testing only the candidates it draws.
    #[inline]
    fn random_legal_move(&self, rng: &mut GameRng, buf: &mut MoveList) -> Move {
        self.legal_moves(buf);
        debug_assert!(!buf.is_empty(), "decision node without legal decisions");
        buf[uniform_index(rng, buf.len())]
    }

    /// The outcomes of the chance node with their exact probabilities
    /// (summing to 1). Outcome ids are the actions at chance nodes.
    fn chance_outcomes(&self, out: &mut Outcomes) {
        out.clear();
    }
    /// At a chance node, the outcomes as a table the game keeps, where
    /// they are the same at every chance node: the playout loop reads it in
    /// place of a copy from [`Game::chance_outcomes`] (the same outcomes,
    /// sampled with the same result). `None` (the default): no such table.
    #[inline(always)]
    fn chance_table(&self) -> Option<&ChanceTable> {
        None
    }
    /// Applies a chance outcome from `chance_outcomes` (unchecked).
    fn apply_outcome(&mut self, _outcome: Action) {}
    /// The name of a chance outcome id (`"P"`, `"BQ"`, `"6"`).
    fn outcome_name(&self, outcome: Action) -> String {
        outcome.to_string()
    }
    /// Number of distinct chance outcome ids (0 for games without chance).
    fn max_chance_outcomes(&self) -> usize {
        0
    }

    /// Plies, repetitions and the result, kept the same way by every variant.
    fn progress(&self) -> &Progress;
    /// Why the game ended, if it did.
    fn termination(&self) -> Option<Termination> {
        self.progress().result.map(|r| r.0)
    }
    /// The winning player, if the game ended with a win.
    fn winner(&self) -> Option<Player> {
        self.progress().result.and_then(|r| r.1)
    }
    /// SAN of a legal decision with this variant's check suffixes; `pass`
    /// for [`Move::NULL`].
    fn san(&self, mv: Move) -> String;
    /// FEN, extended with whatever state this variant needs.
    fn fen(&self) -> String;
    /// Player decisions made so far (moves and voluntary passes).
    fn plies(&self) -> u32 {
        self.progress().plies
    }
    /// The `max_plies` option.
    fn max_plies(&self) -> u32 {
        self.progress().max_plies
    }
    /// The colour a player commands (player 0 is White unless a variant
    /// says otherwise).
    fn color_of(&self, player: Player) -> Color {
        if player == 0 {
            Color::White
        } else {
            Color::Black
        }
    }
    /// How often the current repetition key was recorded before.
    fn repetitions(&self) -> u32 {
        self.progress().rep_count.saturating_sub(1)
    }
    /// Names of the variant's observation planes after the common ones.
    fn extra_planes(&self) -> &'static [&'static str] {
        &[]
    }
    /// Writes the extra planes (`out` starts at the first extra plane).
    fn write_extra_planes(&self, _view: Color, _out: &mut [f32]) {}
    /// Lines describing variant state for `str(state)` (dice, stocks, …).
    fn describe_state(&self) -> Vec<String> {
        Vec::new()
    }
    /// At a chance node, the colour whose dice are rolled (named by the
    /// status line of `str(state)`): the side to move, where a roll comes
    /// before a move; Fluky rolls the die of the side that just moved.
    fn roller(&self) -> Color {
        self.position().turn()
    }
    /// Why a decision is not allowed here although the board's orthodox
    /// rules allow it: `mv` is a legal move of [`Position::legal_moves`] that
    /// is not in [`Game::legal_moves`], or [`Move::NULL`] for a pass that is
    /// not allowed. Used by [`api`] in error messages (e.g. Vegas names the
    /// rolled dice). `None` leaves the generic message.
    fn explain_disallowed(&self, _mv: Move) -> Option<String> {
        None
    }
    /// Why `text` is not a legal decision here, when the variant can say
    /// more than "illegal" (e.g. "no knight in White's stock"). Consulted by
    /// [`api::string_to_action`] only after parsing failed.
    fn explain_unparsable(&self, _text: &str) -> Option<String> {
        None
    }
    /// The decision `text` denotes, for variants whose notation is not
    /// chess's (Cubic Checkers): `Some(Err(why))` when it denotes none.
    /// `None` (the default) leaves parsing to SAN/UCI/long algebraic.
    fn parse_decision(&self, _text: &str) -> Option<Result<Move, String>> {
        None
    }
    /// Checks internal invariants (tests call this on random games).
    fn check_invariants(&self) -> Result<(), String> {
        self.position().check_hash()
    }
    /// The options this state was created with (complete, defaults filled).
    fn options(&self) -> Options;
    /// Variant state beyond the board (dice, turn state) for `State`'s
    /// properties; none by default.
    fn extras(&self) -> Extras {
        Extras::default()
    }
    /// A 64-bit key of everything that decides the game's future from here
    /// (board, dice, stocks, turn state, whose decision), for search
    /// transposition tables. The default hashes the whole serialised state
    /// (correct but slow, and history-dependent); variants override it with
    /// Zobrist keys.
    fn search_key(&self) -> u64 {
        snapshot::state_key(self)
    }
    /// The state after the player to move passes, for null-move pruning;
    /// `None` (the default) where that is not sound (chance, multi-move turns).
    fn search_null(&self) -> Option<Self> {
        None
    }
    /// Plays `mv` for the search: the same state as `play`, but a variant
    /// may skip work that only pays off when every position's moves are
    /// listed (random playouts do; the search cuts most nodes before
    /// listing them).
    fn search_play(&mut self, mv: Move) {
        self.play(mv)
    }
    /// Legal moves that include every capture and promotion (quiescence
    /// keeps only those); the default lists every legal move, a variant may
    /// leave out moves that are neither.
    fn search_tactical_candidates(&self, out: &mut MoveList) {
        self.legal_moves(out)
    }
    /// At a chance node whose outcomes are rolls of piece dice (the board
    /// stays as it is and the side to move in [`Game::position`] moves
    /// next): the roles whose pieces outcome `outcome` lets move first.
    /// The search's horizon (`hcap`) values a roll's threats from it
    /// without playing the roll; `None` (the default) where outcomes are
    /// not such rolls.
    fn search_roll_roles(&self, _outcome: Action) -> Option<RoleSet> {
        None
    }
    /// At such a roll, when its mover makes one move per die (three-dice
    /// DiceChess): how many dice of each face (role index) it shows, so
    /// that the horizon can see a king taken in two moves. `None` (the
    /// default) where a roll makes one move.
    fn search_roll_dice(&self, _outcome: Action) -> Option<[u8; 6]> {
        None
    }
    /// At a decision node of such a turn: the dice its mover has still to
    /// play, by face (role index), so that the quiescence search can see a
    /// king taken with two of them. `None` (the default) elsewhere.
    fn search_dice_left(&self) -> Option<[u8; 6]> {
        None
    }
    /// At a decision node of a variant whose board's own legal moves and
    /// checkmate decide the game (chess rules, no die choosing the piece):
    /// the moves its mover makes in a row from here, this one included (a
    /// Random Move Number Chess turn). 0, the default, where that does not
    /// hold: the search then never looks for mates by the board alone.
    fn search_moves_left(&self) -> u32 {
        0
    }
}

/// Mixes variant state `x` into a search key `h` (splitmix64 finaliser).
#[inline]
pub fn mix_key(h: u64, x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    h ^ z ^ (z >> 31)
}

/// The variants' modules, rows, names, [`AnyGame`] and [`BaseGame`], from
/// the registry.
macro_rules! declare_variants {
    ([] $($arm:ident ($module:ident :: $ty:ident, evaluate = $_eval:ident) {
        $($name:literal => {
            title: $title:literal, gym: $gym:literal, board: $board:literal,
            chance: $chance:literal, twin: $twin:literal, new: $new:expr $(,)?
        })+
    })*) => {
        $(pub mod $module;)*

        /// The registry's rows, in the order of [`VARIANTS`].
        pub const ROWS: &[VariantRow] = &SORTED_ROWS;
        const SORTED_ROWS: [VariantRow; [$($($name),+),*].len()] = registry::sorted([$($(
            VariantRow {
                name: $name,
                title: $title,
                gym: $gym,
                board: $board,
                chance: $chance,
                twin: $twin,
            },
        )+)*]);

        /// Every variant name, as `dc.variants()` lists them (sorted).
        pub const VARIANTS: &[&str] = &registry::names(SORTED_ROWS);

        /// A game of any variant: matched once per call, never per move
        /// inside hot loops (those are generic over [`Game`]). A variant
        /// with the luck dial set (`luck > 0`) is the [`AnyGame::Lucky`]
        /// wrapper of its plain game.
        #[derive(Clone, serde::Serialize, serde::Deserialize)]
        pub enum AnyGame {
            $($arm($module::$ty),)*
            Lucky(luck::Lucky<BaseGame>),
        }

        /// The variants as they are written, without the luck dial: the
        /// game a [`luck::Lucky`] wraps. It is a [`Game`] that dispatches
        /// every call (`base.rs`; a match per call: luck games are for
        /// calibration, not the hot loops of the plain variants, which are
        /// generic over each concrete game).
        #[derive(Clone, serde::Serialize, serde::Deserialize)]
        pub enum BaseGame {
            $($arm($module::$ty),)*
        }

        impl BaseGame {
            /// Creates a game of `variant` with options (keyword → JSON value).
            pub fn new(variant: &str, options: &Options) -> Result<BaseGame, GameError> {
                match variant {
                    $($($name => Ok(BaseGame::$arm(($new)(options)?)),)+)*
                    _ => Err(GameError::new(format!(
                        "unknown variant {variant:?}; known variants: {}",
                        VARIANTS.join(", ")
                    ))),
                }
            }

            /// The plain game's null move, in its own arm.
            fn search_null_in_arm(&self) -> Option<BaseGame> {
                match self {
                    $(BaseGame::$arm(g) => g.search_null().map(BaseGame::$arm),)*
                }
            }
        }

        /// A plain game as a game of any variant (its own arm).
        impl From<BaseGame> for AnyGame {
            fn from(base: BaseGame) -> AnyGame {
                match base {
                    $(BaseGame::$arm(g) => AnyGame::$arm(g),)*
                }
            }
        }
    };
}
crate::for_each_variant!([declare_variants]);

/// Splits a variant spec `name:key=value,key=value` (the options written
/// after the name, as the CLI and the study take them) into the name and
/// its options. Values are read as JSON (numbers, `true`/`false`, `null`,
/// quoted strings), anything else as a string.
pub fn parse_variant_spec(spec: &str) -> Result<(String, Options), GameError> {
    let mut options = Options::new();
    let Some((name, rest)) = spec.split_once(':') else {
        return Ok((spec.to_string(), options));
    };
    for part in rest.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((k, v)) = part.split_once('=') else {
            return Err(GameError::new(format!(
                "variant spec {spec:?}: option {part:?} is not key=value \
                 (write e.g. \"chess:luck=0.1\" or \"chess:luck=0.1,max_plies=300\")"
            )));
        };
        let (k, v) = (k.trim(), v.trim());
        if k.is_empty() {
            return Err(GameError::new(format!(
                "variant spec {spec:?}: option {part:?} has no name"
            )));
        }
        let value = serde_json::from_str(v).unwrap_or_else(|_| serde_json::Value::from(v));
        if options.insert(k.to_string(), value).is_some() {
            return Err(GameError::new(format!(
                "variant spec {spec:?} sets option {k:?} twice"
            )));
        }
    }
    Ok((name.trim().to_string(), options))
}

impl AnyGame {
    /// Creates a game of `variant` with options (keyword → JSON value).
    /// `variant` may carry options itself (`"chess:luck=0.1"`, see
    /// [`parse_variant_spec`]); an option set both ways must agree. The
    /// option `luck` (every variant, default 0) sets the luck dial.
    pub fn new(variant: &str, options: &Options) -> Result<AnyGame, GameError> {
        let (name, mut opts) = parse_variant_spec(variant)?;
        for (k, v) in options {
            match opts.get(k) {
                Some(w) if w != v => {
                    return Err(GameError::new(format!(
                        "option {k:?} is {w} in the variant spec {variant:?} but {v} \
                         among the options"
                    )))
                }
                _ => {
                    opts.insert(k.clone(), v.clone());
                }
            }
        }
        let luck = match opts.remove("luck") {
            None | Some(serde_json::Value::Null) => 0.0,
            Some(v) => luck::check_luck(v.as_f64().ok_or_else(|| {
                GameError::new(format!("option luck must be a number from 0 to 1, got {v}"))
            })?)?,
        };
        let mut field = None;
        if luck > 0.0 {
            if let Some(serde_json::Value::String(fen)) = opts.get("fen") {
                let (head, f) = luck::split_luck_field(fen);
                field = f.map(str::to_string);
                let head = head.to_string();
                opts.insert("fen".into(), head.into());
            }
        }
        let base = BaseGame::new(&name, &opts).map_err(|e| {
            if e.0.starts_with("unknown option") {
                GameError::new(format!("{e}; every variant also takes luck"))
            } else {
                e
            }
        })?;
        if luck > 0.0 {
            return Ok(AnyGame::Lucky(luck::Lucky::new(
                base,
                luck,
                field.as_deref(),
            )?));
        }
        Ok(base.into())
    }
    /// The variant's name.
    pub fn variant(&self) -> &'static str {
        with_game!(self, g => g.variant())
    }
}
