//! The static evaluation: material and mobility over the [`Position`], plus a
//! per-variant hook ([`Evaluate::extra`]) for state the board does not show
//! (Cubic stocks). Dice, throws and moves left are not guessed here: the
//! searches take the exact expectation over chance nodes and see every
//! decision of a multi-move turn as its own node.
//!
//! Values are from player 0's point of view in `[-1, 1]`: a win is `1`, a
//! loss `-1`, a draw or truncation `0`; evaluations stay strictly inside
//! `(-EVAL_BOUND, EVAL_BOUND)` so that proven results always dominate.

use crate::board::{Color, Position, Role};
use crate::variants::{
    chess::Chess, cubic::Cubic, cubic_checkers::CubicCheckers, fluky::Fluky,
    random_move_number::RandomMoveNumber, vegas::Vegas, Game, Player,
};

/// Evaluations lie strictly inside `(-EVAL_BOUND, EVAL_BOUND)`.
pub const EVAL_BOUND: f64 = 0.9;

/// Piece values in pawns (the king is not counted as material).
pub const PIECE_VALUES: [f64; 6] = [1.0, 3.0, 3.25, 5.0, 9.0, 0.0];

/// Weight of one square of pseudo-mobility, in pawns.
const MOBILITY_WEIGHT: f64 = 0.05;
/// Pawns that make the evaluation `tanh(1)`.
const SCALE: f64 = 8.0;

/// The `search` agent's options whose best setting depends on the
/// variant, used where the spec does not set them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchDefaults {
    /// Centipawns per unit of utility at chance nodes (`uscale`, see
    /// `agents/search/utility.rs`).
    pub uscale: f64,
    /// Chance nodes on the horizon with at most this many outcomes are
    /// expanded (`hexpand`).
    pub hexpand: u32,
    /// Mates with up to this many moves looked for at quiescence's
    /// stand-pat and the horizon's rolls (`qmate`).
    pub qmate: u32,
    /// Futility pruning one decision above the horizon (`futility`).
    pub futility: bool,
    /// Reverse futility, late-move and quiet-move futility pruning (`prune`).
    pub prune: bool,
    /// Static exchange evaluation in quiescence and ordering (`see`).
    pub see: bool,
    /// Chess structure terms in the evaluation (`structure`).
    pub structure: bool,
    /// Chess's per-square corrections in the evaluation (`pst`).
    pub pst: bool,
    /// The table keeps the game's earlier searches (`keep`).
    pub keep: bool,
}

/// The defaults of every variant that does not set its own.
pub const SEARCH_DEFAULTS: SearchDefaults = SearchDefaults {
    uscale: 400.0,
    hexpand: 8,
    qmate: 0,
    futility: false,
    prune: false,
    see: false,
    structure: false,
    pst: false,
    keep: false,
};

/// The common defaults with the table kept between a game's moves.
const KEEP_DEFAULTS: SearchDefaults = SearchDefaults {
    keep: true,
    ..SEARCH_DEFAULTS
};

/// What an agent needs from a variant beyond [`Game`]: an optional
/// evaluation term for variant state the board does not show.
pub trait Evaluate: Game {
    /// Extra White-minus-Black score in pawns (default 0).
    fn extra(&self) -> f64 {
        0.0
    }
    /// The White-minus-Black score in pawns: [`board_score`] plus
    /// [`Evaluate::extra`], unless a variant scores its board otherwise.
    fn score(&self) -> f64 {
        board_score(self.position()) + self.extra()
    }
    /// Extra White-minus-Black centipawns for the `search` agent's
    /// evaluation: turn state the board does not show (default 0).
    fn search_terms(&self) -> f64 {
        0.0
    }
    /// The `search` agent's settings for the options the spec leaves
    /// unset.
    fn search_defaults(&self) -> SearchDefaults {
        SEARCH_DEFAULTS
    }
}

impl Evaluate for Chess {
    /// The pruning of alternating-move engines: every decision is the
    /// other player's reply, and every recapture an exchange counts is
    /// allowed; the structure terms and the per-square corrections fitted
    /// on chess games (`pst`: 0.5425 [0.514, 0.571] over 1,200 paired games
    /// at 20,000 nodes against the same search without them); the table
    /// kept between the moves of a game (`keep`: 0.5875 [0.562, 0.613]
    /// over 800 paired games at 20,000 nodes, docs/search-measurements.md).
    fn search_defaults(&self) -> SearchDefaults {
        SearchDefaults {
            prune: true,
            see: true,
            structure: true,
            pst: true,
            keep: true,
            ..SEARCH_DEFAULTS
        }
    }
}
impl Evaluate for Fluky {
    /// The table kept between the moves of a game (`keep`: 0.5225
    /// [0.505, 0.540] over 400 paired games at 10,000 nodes).
    fn search_defaults(&self) -> SearchDefaults {
        KEEP_DEFAULTS
    }
}
impl Evaluate for Vegas {
    /// A free move (the previous move gave check) is worth a tempo.
    fn search_terms(&self) -> f64 {
        match (self.is_free_move(), self.position().turn()) {
            (false, _) => 0.0,
            (true, Color::White) => 25.0,
            (true, Color::Black) => -25.0,
        }
    }
}
impl Evaluate for RandomMoveNumber {
    /// Throws on the horizon valued with their captures, passes and mates
    /// instead of a quiescence search each (the search reaches a ply
    /// deeper), and mates with the moves a throw gives looked for there
    /// and at quiescence's stand-pat: 0.746 against `expectimax:depth=2`
    /// at 10,000 nodes over four seeds of 200 games, against 0.62 with the
    /// expanded horizon. Chance nodes average on a flatter utility scale,
    /// so that a throw's mate weighs more against material: 0.8325 with
    /// 1600 cp on the same seeds (0.824 with 800, 0.79 with 3200 on one
    /// seed; docs/search-measurements.md).
    fn search_defaults(&self) -> SearchDefaults {
        SearchDefaults {
            uscale: 1600.0,
            hexpand: 0,
            qmate: 2,
            ..SEARCH_DEFAULTS
        }
    }
    /// Each move left in the current turn beyond this one is worth a tempo.
    fn search_terms(&self) -> f64 {
        let extra = self.moves_left().saturating_sub(1) as f64 * 20.0;
        if self.position().turn() == Color::White {
            extra
        } else {
            -extra
        }
    }
}
impl Evaluate for crate::variants::dice_chess::DiceChess {
    /// Futility pruning one decision above the horizon: the same values
    /// at a fixed depth with 0.53x the nodes at depth 3, so that 10,000
    /// nodes complete depth 3 in about half the positions (with `hcheck`,
    /// 0.772 against `expectimax:depth=2` over three seeds); chess's
    /// structure terms (since 2026-12-04: 0.527 head to head over 1,600
    /// paired games at 10,000 nodes, 0.783 against `expectimax:depth=2` on
    /// the same three seeds, at 0.91x the nodes a second; docs/search-measurements.md).
    fn search_defaults(&self) -> SearchDefaults {
        SearchDefaults {
            futility: true,
            structure: true,
            ..SEARCH_DEFAULTS
        }
    }
}
impl Evaluate for crate::variants::dice_chess3::DiceChess3 {
    /// Flatter than chess's: a king lost to the next roll weighs more
    /// against material (measured: `search:nodes=10000,uscale=800` against
    /// `expectimax:depth=2`, 0.76 and 0.78 on two seeds of 200 games, 0.73
    /// and 0.735 with 400; docs/search-measurements.md).
    fn search_defaults(&self) -> SearchDefaults {
        SearchDefaults {
            uscale: 800.0,
            ..SEARCH_DEFAULTS
        }
    }
}
impl Evaluate for Cubic {
    /// Stocked pieces can be rolled in later: counted at 80% of their value.
    fn extra(&self) -> f64 {
        let mut s = 0.0;
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            let v = PIECE_VALUES[role.index()] * 0.8;
            s += v
                * (self.stock_count(Color::White, role) as f64
                    - self.stock_count(Color::Black, role) as f64);
        }
        s
    }
    /// The table kept between the moves of a game (`keep`: 0.566
    /// [0.533, 0.599] over 400 paired games at 20,000 nodes).
    fn search_defaults(&self) -> SearchDefaults {
        KEEP_DEFAULTS
    }
}

/// `impl Evaluate` for the variants whose registry row says `evaluate =
/// default` (material and mobility, the search's common defaults); the
/// others have theirs above.
macro_rules! default_evaluations {
    ([] $($_arm:ident ($module:ident :: $ty:ident, evaluate = $eval:ident) $_rows:tt)*) => {
        $(default_evaluation!($eval $module::$ty);)*
    };
}
macro_rules! default_evaluation {
    (default $module:ident :: $ty:ident) => {
        impl Evaluate for crate::variants::$module::$ty {}
    };
    (own $($_:tt)*) => {};
}
crate::for_each_variant!([default_evaluations]);

/// Every call dispatched to the concrete game.
impl Evaluate for crate::variants::BaseGame {
    fn extra(&self) -> f64 {
        crate::with_base_game!(self, g => g.extra())
    }
    fn score(&self) -> f64 {
        crate::with_base_game!(self, g => g.score())
    }
    fn search_terms(&self) -> f64 {
        crate::with_base_game!(self, g => g.search_terms())
    }
    fn search_defaults(&self) -> SearchDefaults {
        crate::with_base_game!(self, g => g.search_defaults())
    }
}

/// The luck dial changes no evaluation: the wrapped variant's, but for
/// the pruning of alternating-move engines (`prune`), which assumes that
/// every decision answers the other player's (here a coin comes between).
impl<G: Evaluate> Evaluate for crate::variants::luck::Lucky<G> {
    fn extra(&self) -> f64 {
        self.inner().extra()
    }
    fn score(&self) -> f64 {
        self.inner().score()
    }
    fn search_terms(&self) -> f64 {
        self.inner().search_terms()
    }
    fn search_defaults(&self) -> SearchDefaults {
        SearchDefaults {
            prune: false,
            ..self.inner().search_defaults()
        }
    }
}

impl Evaluate for CubicCheckers {
    /// The table kept between the moves of a game (`keep`: 0.549
    /// [0.515, 0.583] over 400 paired games at 20,000 nodes).
    fn search_defaults(&self) -> SearchDefaults {
        KEEP_DEFAULTS
    }
    /// Cubes by the jumps that remove them (P 1 … R 4); cubes jumped in the
    /// move in progress and the capture the side to move is about to make
    /// (one point per cube: each jump demotes one step); the right to jump;
    /// a little diagonal mobility.
    fn score(&self) -> f64 {
        let p = self.position();
        let occ = p.occupied();
        let mut s = 0.0;
        for (c, sign) in [(Color::White, 1.0), (Color::Black, -1.0)] {
            let mut side = 0.0;
            for (i, r) in [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook]
                .iter()
                .enumerate()
            {
                side += (i + 1) as f64 * p.pieces(c, *r).count() as f64;
            }
            if self.jumps_enabled(c) {
                side += 1.0;
            }
            let mut mob = 0u32;
            for sq in p.by_color(c) {
                mob += (p.role_attacks(c, Role::Bishop, sq, occ) & !occ).count();
            }
            side += MOBILITY_WEIGHT * mob as f64;
            s += sign * side;
        }
        let mover = if p.turn() == Color::White { 1.0 } else { -1.0 };
        let jumped = self.jump().map_or(0, |j| j.jumped().count());
        s + mover * (jumped + self.max_capture()) as f64
    }
}

/// Material plus pseudo-mobility (attacked squares not occupied by own
/// pieces), White minus Black, in pawns.
pub fn board_score(p: &Position) -> f64 {
    let occ = p.occupied();
    let mut s = 0.0;
    for (c, sign) in [(Color::White, 1.0), (Color::Black, -1.0)] {
        let own = p.by_color(c);
        let mut side = 0.0;
        for r in Role::ALL {
            let pieces = p.pieces(c, r);
            side += PIECE_VALUES[r.index()] * pieces.count() as f64;
            if r != Role::Pawn && r != Role::King {
                let mut mob = 0u32;
                for sq in pieces {
                    mob += (p.role_attacks(c, r, sq, occ) & !own).count();
                }
                side += MOBILITY_WEIGHT * mob as f64;
            }
        }
        s += sign * side;
    }
    s
}

/// The value of a finished game for player 0: 1 win, -1 loss, 0 otherwise.
pub fn terminal_value<G: Game>(g: &G) -> f64 {
    match g.winner() {
        Some(0) => 1.0,
        Some(_) => -1.0,
        None => 0.0,
    }
}

/// The static evaluation for player 0 in `(-EVAL_BOUND, EVAL_BOUND)`
/// (terminal states get their exact value).
pub fn evaluate<G: Evaluate>(g: &G) -> f64 {
    if g.termination().is_some() {
        return terminal_value(g);
    }
    let white = g.score();
    let v = EVAL_BOUND * (white / SCALE).tanh();
    if g.color_of(0 as Player) == Color::White {
        v
    } else {
        -v
    }
}
