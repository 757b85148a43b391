//! The search's static evaluation in centipawns: tapered (middlegame to
//! endgame by material) piece-square terms computed from each piece's
//! file, relative rank and centrality, so the same terms serve the 8x8
//! boards and the 5x5 board of Fluky/Metamorph; mobility; the bishop pair;
//! plus [`Evaluate::extra`] (Cubic stocks) and [`Evaluate::search_terms`]
//! (Vegas and Random Move Number turn state). At a chance node the
//! evaluation is the exact expectation over its outcomes (a Fluky die is
//! worth the average of its faces), see [`Evaluator::at_chance`].

pub mod features;
pub mod pst;
pub mod structure;
pub mod structure_weights;
pub mod tuned;

use super::super::eval::Evaluate;
use super::utility::Utility;
use crate::board::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks,
};
use crate::board::{Bitboard, Color, Position, Role, Square};
use crate::variants::{Node, Outcomes, Player};

/// Weights, indexed by role where per role (P, N, B, R, Q, K).
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    pub mg_value: [f64; 6],
    pub eg_value: [f64; 6],
    /// Per unit of centrality (0 at the rim).
    pub mg_center: [f64; 6],
    pub eg_center: [f64; 6],
    /// Per rank advanced (pawns) / per rank above the first (king).
    pub mg_advance: [f64; 6],
    pub eg_advance: [f64; 6],
    /// Per attacked square not holding an own piece.
    pub mg_mobility: [f64; 6],
    pub eg_mobility: [f64; 6],
    pub bishop_pair: f64,
    /// For the side to move (decision nodes).
    pub tempo: f64,
}

/// The hand-set weights (the default on 8x8 boards, see [`tuned::WeightSet`];
/// `scripts/texel_tune.py` fits weights starting from these).
pub const WEIGHTS: Weights = Weights {
    mg_value: [82.0, 337.0, 365.0, 477.0, 1025.0, 0.0],
    eg_value: [94.0, 281.0, 297.0, 512.0, 936.0, 0.0],
    mg_center: [3.0, 8.0, 4.0, 1.0, 2.0, -6.0],
    eg_center: [0.0, 6.0, 4.0, 1.0, 4.0, 12.0],
    mg_advance: [5.0, 2.0, 0.0, 0.0, 0.0, -18.0],
    eg_advance: [12.0, 2.0, 0.0, 0.0, 0.0, 0.0],
    mg_mobility: [0.0, 4.0, 5.0, 2.5, 1.0, 0.0],
    eg_mobility: [0.0, 4.0, 5.0, 4.0, 2.0, 0.0],
    bishop_pair: 30.0,
    tempo: 10.0,
};

/// Chance nodes with more outcomes are valued by their own static value.
const MAX_EXPANDED_OUTCOMES: usize = 8;

/// Game-phase weight of N, B, R, Q.
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// Piece-square values (material, centrality, advance) of every colour,
/// role and square of one board geometry, middlegame and endgame, so that
/// [`board_cp`] adds one table entry per piece.
#[derive(Clone, Debug)]
pub struct SquareTable {
    files: i32,
    ranks: i32,
    /// `[colour][role][square] = (mg, eg)`.
    table: [[[(f64, f64); 64]; 6]; 2],
}

impl SquareTable {
    /// The table of `w` on a `files` x `ranks` board, with chess's
    /// per-square corrections ([`pst`]) added when `corrected` (8x8 only).
    pub fn new(w: &Weights, files: i32, ranks: i32, corrected: bool) -> SquareTable {
        let mut table = [[[(0.0, 0.0); 64]; 6]; 2];
        let corrected = corrected && files == 8 && ranks == 8;
        for c in Color::ALL {
            for r in Role::ALL {
                let i = r.index();
                for sq in 0..64i32 {
                    let t = square_terms(c, r, sq, files, ranks);
                    let (dm, de) = if corrected {
                        pst::correction(c, r, sq as u8)
                    } else {
                        (0.0, 0.0)
                    };
                    table[c as usize][i][sq as usize] = (
                        w.mg_value[i]
                            + w.mg_center[i] * t.center
                            + w.mg_advance[i] * t.mg_advance
                            + dm,
                        w.eg_value[i]
                            + w.eg_center[i] * t.center
                            + w.eg_advance[i] * t.eg_advance
                            + de,
                    );
                }
            }
        }
        SquareTable {
            files,
            ranks,
            table,
        }
    }
}

/// The coefficients of the per-square weights of a `c` `r` on `sq`.
pub(crate) struct SquareTerms {
    pub center: f64,
    pub mg_advance: f64,
    pub eg_advance: f64,
}

/// Centrality (0 at the rim) and advance (relative rank; for endgame pawns
/// its square over the last rank, so that passers count more late).
pub(crate) fn square_terms(c: Color, r: Role, sq: i32, files: i32, ranks: i32) -> SquareTerms {
    let (f, rank) = (sq % 8, sq / 8);
    let rel = if c == Color::White {
        rank
    } else {
        ranks - 1 - rank
    };
    let center = f.min(files - 1 - f) + rel.min(ranks - 1 - rel);
    let eg_advance = if r == Role::Pawn {
        (rel * rel) as f64 / (ranks - 1) as f64
    } else {
        rel as f64
    };
    SquareTerms {
        center: center as f64,
        mg_advance: rel as f64,
        eg_advance,
    }
}

/// Board terms, White minus Black, in centipawns (`sq` holds the
/// piece-square values of `w` for the position's geometry).
pub fn board_cp(p: &Position, w: &Weights, sq: &SquareTable) -> f64 {
    // Mobility counts squares: with the CPU's popcnt instruction when it
    // has one (nearly every x86-64 since 2008; wheels are built for the
    // baseline without it, where counting takes a dozen instructions).
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU supports popcnt (checked just above).
        return unsafe { board_cp_popcnt(p, w, sq) };
    }
    board_cp_body(p, w, sq, None).0
}

/// [`board_cp`] plus the chess structure terms ([`structure::structure_cp`]):
/// the pieces bearing on each king's zone are counted in the mobility loop,
/// which computes their attacks anyway, and the pawn terms come from
/// `pawns`.
fn board_structure_cp(
    p: &Position,
    w: &Weights,
    sq: &SquareTable,
    pawns: &mut structure::PawnCache,
    terms: structure::Terms,
) -> f64 {
    if !structure::on_8x8(p) {
        return board_cp(p, w, sq);
    }
    let mut zones = structure::KingZoneAttacks::new(p, terms);
    #[cfg(target_arch = "x86_64")]
    let (board, phase) = if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU supports popcnt (checked just above).
        unsafe { board_zones_popcnt(p, w, sq, &mut zones) }
    } else {
        board_cp_body(p, w, sq, Some(&mut zones))
    };
    #[cfg(not(target_arch = "x86_64"))]
    let (board, phase) = board_cp_body(p, w, sq, Some(&mut zones));
    let w = terms.weights();
    board + structure::combine(p, &pawns.get(p, w), &zones, phase, w)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn board_cp_popcnt(p: &Position, w: &Weights, sq: &SquareTable) -> f64 {
    board_cp_body(p, w, sq, None).0
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn board_zones_popcnt(
    p: &Position,
    w: &Weights,
    sq: &SquareTable,
    zones: &mut structure::KingZoneAttacks,
) -> (f64, f64) {
    board_cp_body(p, w, sq, Some(zones))
}

/// The board terms and the middlegame share of the taper; with `zones`,
/// also the pieces bearing on each king's zone.
#[inline(always)]
fn board_cp_body(
    p: &Position,
    w: &Weights,
    sq: &SquareTable,
    mut zones: Option<&mut structure::KingZoneAttacks>,
) -> (f64, f64) {
    let geo = p.geometry();
    let (files, ranks) = (geo.files as i32, geo.ranks as i32);
    debug_assert!(sq.files == files && sq.ranks == ranks);
    let occ = p.occupied();
    let mut mg = 0.0;
    let mut eg = 0.0;
    let mut phase = 0;
    for c in Color::ALL {
        let sign = if c == Color::White { 1.0 } else { -1.0 };
        // Squares a piece's mobility counts: on the board, not our own.
        let free = p.board_mask() & !p.by_color(c);
        let mut t = RoleTerms {
            p,
            w,
            sq,
            c,
            free,
            zones: zones.as_deref_mut(),
            m: 0.0,
            e: 0.0,
            phase: 0,
        };
        // One call per role with its attack function inlined (no `match`
        // on the role per piece).
        t.add(Role::Pawn, |s| pawn_attacks(c, s));
        t.add(Role::Knight, knight_attacks);
        t.add(Role::Bishop, |s| bishop_attacks(s, occ));
        t.add(Role::Rook, |s| rook_attacks(s, occ));
        t.add(Role::Queen, |s| queen_attacks(s, occ));
        t.add(Role::King, king_attacks);
        let (m, e) = (t.m, t.e);
        phase += t.phase;
        mg += sign * m;
        eg += sign * e;
    }
    let ph = taper(phase, files * ranks);
    (mg * ph + eg * (1.0 - ph), ph)
}

/// The board terms of one colour's pieces, role by role.
struct RoleTerms<'a> {
    p: &'a Position,
    w: &'a Weights,
    sq: &'a SquareTable,
    c: Color,
    /// Squares its mobility counts.
    free: Bitboard,
    zones: Option<&'a mut structure::KingZoneAttacks>,
    m: f64,
    e: f64,
    phase: i32,
}

impl RoleTerms<'_> {
    #[inline(always)]
    fn add(&mut self, r: Role, attacks: impl Fn(Square) -> Bitboard) {
        let (c, w, i) = (self.c, self.w, r.index());
        let pieces = self.p.pieces(c, r);
        self.phase += PHASE[i] * pieces.count() as i32;
        let squares = &self.sq.table[c as usize][i];
        for s in pieces {
            let (a, b) = squares[s as usize];
            self.m += a;
            self.e += b;
        }
        let mobile = w.mg_mobility[i] != 0.0 || w.eg_mobility[i] != 0.0;
        let mut mob = 0;
        // Pawns and kings are no king attackers.
        match self.zones.as_deref_mut() {
            Some(z) if !matches!(r, Role::Pawn | Role::King) => {
                for s in pieces {
                    let a = attacks(s);
                    mob += (a & self.free).count();
                    z.add(c, r, a);
                }
                if !mobile {
                    mob = 0;
                }
            }
            _ if mobile => {
                for s in pieces {
                    mob += (attacks(s) & self.free).count();
                }
            }
            _ => {}
        }
        self.m += w.mg_mobility[i] * mob as f64;
        self.e += w.eg_mobility[i] * mob as f64;
        if r == Role::Bishop && pieces.more_than_one() {
            self.m += w.bishop_pair;
            self.e += w.bishop_pair;
        }
    }
}

/// The middlegame share of the taper of `p` (see [`taper`]).
pub fn mg_share(p: &Position) -> f64 {
    let geo = p.geometry();
    let mut phase = 0;
    for c in Color::ALL {
        for r in Role::ALL {
            phase += PHASE[r.index()] * p.pieces(c, r).count() as i32;
        }
    }
    taper(phase, geo.files as i32 * geo.ranks as i32)
}

/// The middlegame share from the phase units of the non-pawn material on a
/// board of `squares`: over the full amount (24 units on 8x8 boards, 8 on
/// 5x5), at most 1. `board_cp` counts the units in its own piece loop (the
/// hot path); the feature extractor through [`mg_share`].
fn taper(phase: i32, squares: i32) -> f64 {
    let full_phase = if squares >= 64 { 24 } else { 8 };
    phase.min(full_phase) as f64 / full_phase as f64
}

/// Boards valued already, by Zobrist key (direct-mapped): the outcomes of
/// a roll leave the board as it was, so in Vegas and the Dice Chess games
/// 70-94% of the boards a search values were valued before (about half in
/// Fluky, 8-28% in chess; 4k-16k entries).
struct BoardCache {
    /// `(hash, occupied squares, value)`; allocated at the first use.
    entries: Vec<(u64, u64, f64)>,
    /// The entry read or written last (the outcomes of one roll are valued
    /// one after the other).
    last: (u64, u64, f64),
}

/// Entries of a [`BoardCache`] (24 bytes each: 192 KiB, within a core's L2;
/// 768 KiB saved more instructions and no time).
const BOARD_CACHE_BITS: u32 = 13;

impl BoardCache {
    fn slot(p: &Position) -> usize {
        (p.hash() >> (64 - BOARD_CACHE_BITS)) as usize
    }
    /// The value stored for `p`'s board. A hit needs the 64-bit key and
    /// the occupancy to agree (a zeroed entry can only match an empty board
    /// with key 0, whose value is 0).
    fn get(&mut self, p: &Position) -> Option<f64> {
        let key = (p.hash(), p.occupied().0);
        if (self.last.0, self.last.1) == key {
            return Some(self.last.2);
        }
        let &e = self.entries.get(Self::slot(p))?;
        if (e.0, e.1) == key {
            self.last = e;
            return Some(e.2);
        }
        None
    }
    fn put(&mut self, p: &Position, v: f64) {
        if self.entries.is_empty() {
            self.entries = vec![(0, 0, 0.0); 1 << BOARD_CACHE_BITS];
        }
        self.last = (p.hash(), p.occupied().0, v);
        self.entries[Self::slot(p)] = self.last;
    }
    /// Forgets every value (the weights changed).
    fn clear(&mut self) {
        self.entries.clear();
        self.last = (0, 0, 0.0);
    }
}

/// Evaluates states for a player, caching the boards evaluated.
pub struct Evaluator {
    weights: Weights,
    /// Where `weights` come from per board size (`None`: fixed weights).
    set: Option<tuned::WeightSet>,
    /// Piece-square values of `weights` for the last geometry evaluated.
    squares: Option<SquareTable>,
    boards: BoardCache,
    outcomes: Outcomes,
    /// How values are averaged at chance nodes.
    pub utility: Utility,
    /// Whether boards get the chess structure terms ([`structure`]).
    structure: bool,
    /// Whether 8x8 boards get chess's per-square corrections ([`pst`]).
    pst: bool,
    /// The optional structure terms (threats, passers, connected pawns).
    terms: structure::Terms,
    /// Their pawn terms by pawn structure.
    pawns: structure::PawnCache,
}

impl Evaluator {
    pub fn new(weights: Weights) -> Evaluator {
        Evaluator {
            weights,
            set: None,
            squares: None,
            boards: BoardCache {
                entries: Vec::new(),
                last: (0, 0, 0.0),
            },
            outcomes: Outcomes::new(),
            utility: Utility::new(crate::agents::eval::SEARCH_DEFAULTS.uscale),
            structure: false,
            pst: false,
            terms: structure::Terms::default(),
            pawns: structure::PawnCache::default(),
        }
    }

    /// Turns the chess structure terms on or off (forgetting the boards
    /// valued the other way).
    pub fn set_structure(&mut self, on: bool) {
        if self.structure != on {
            self.structure = on;
            self.boards.clear();
        }
    }

    /// Sets the optional structure terms (forgetting the boards valued the
    /// other way).
    pub fn set_terms(&mut self, terms: structure::Terms) {
        if self.terms != terms {
            self.terms = terms;
            self.boards.clear();
            // Its entries were valued with the previous terms' weights.
            self.pawns = structure::PawnCache::default();
        }
    }

    /// Turns chess's per-square corrections on or off (forgetting the
    /// piece-square table and the boards valued the other way).
    pub fn set_pst(&mut self, on: bool) {
        if self.pst != on {
            self.pst = on;
            self.squares = None;
            self.boards.clear();
        }
    }

    /// An evaluator with the weights of `set` for each board size.
    pub fn with_set(set: tuned::WeightSet) -> Evaluator {
        let mut e = Evaluator::new(set.weights(8, 8));
        e.set = Some(set);
        e
    }

    /// The middlegame value of a piece of `role` (centipawns) under the
    /// weights of the board evaluated last.
    pub fn piece_value(&self, role: Role) -> f64 {
        self.weights.mg_value[role.index()]
    }

    /// White-minus-Black centipawns of a non-terminal state, without tempo.
    fn white_cp<G: Evaluate>(&mut self, g: &G) -> f64 {
        let p = g.position();
        let extra = 100.0 * g.extra() + g.search_terms();
        let geo = p.geometry();
        let (files, ranks) = (geo.files as i32, geo.ranks as i32);
        let sq = match &self.squares {
            Some(t) if t.files == files && t.ranks == ranks => t,
            _ => {
                if let Some(set) = self.set {
                    self.weights = set.weights(files, ranks);
                }
                self.boards.clear();
                self.squares
                    .insert(SquareTable::new(&self.weights, files, ranks, self.pst))
            }
        };
        let (structure, terms) = (self.structure, self.terms);
        let pawns = &mut self.pawns;
        let mut board = |p: &Position| {
            if structure {
                board_structure_cp(p, &self.weights, sq, pawns, terms)
            } else {
                board_cp(p, &self.weights, sq)
            }
        };
        if let Some(v) = self.boards.get(p) {
            debug_assert_eq!(v.to_bits(), board(p).to_bits());
            return v + extra;
        }
        let v = board(p);
        self.boards.put(p, v);
        v + extra
    }

    /// The static value of `g`'s board for `pov`, without the tempo a
    /// decision node adds: what [`Evaluator::static_value`] gives at a
    /// chance node.
    pub fn board_value<G: Evaluate>(&mut self, g: &G, pov: Player) -> f64 {
        let white = self.white_cp(g);
        if g.color_of(pov) == Color::White {
            white
        } else {
            -white
        }
    }

    /// The static value of a non-terminal, non-chance state for `pov`.
    pub fn static_value<G: Evaluate>(&mut self, g: &G, pov: Player) -> f64 {
        let mut v = self.board_value(g, pov);
        if let Node::Decision(p) = g.node() {
            v += if p == pov {
                self.weights.tempo
            } else {
                -self.weights.tempo
            };
        }
        v
    }

    /// Whether chance node `g` has more than `expand` outcomes (more than
    /// a horizon expands).
    pub fn is_wide<G: Evaluate>(&mut self, g: &G, expand: u32) -> bool {
        g.chance_outcomes(&mut self.outcomes);
        self.outcomes.len() > expand as usize
    }

    /// The static value of a chance node for `pov`: the exact expectation
    /// (in utility, see [`Utility`]) of the static values of its outcomes
    /// (`terminal` values the
    /// outcomes that end the game; outcomes that are chance nodes again
    /// are valued statically).
    pub fn at_chance<G: Evaluate>(
        &mut self,
        g: &G,
        pov: Player,
        terminal: impl Fn(&G) -> f64,
    ) -> f64 {
        let mut o = std::mem::take(&mut self.outcomes);
        g.chance_outcomes(&mut o);
        if o.len() > MAX_EXPANDED_OUTCOMES {
            // Many outcomes (Vegas rolls: the board stays as it is): the
            // state's own static value, not 30 copies of it.
            self.outcomes = o;
            return self.static_value(g, pov);
        }
        let mut sum = 0.0;
        let mut memo = self.utility.memo();
        for &(id, p) in o.as_slice() {
            if p <= 0.0 {
                continue;
            }
            let mut child = g.clone();
            child.apply_outcome(id);
            let v = if matches!(child.node(), Node::Terminal) {
                terminal(&child)
            } else {
                self.static_value(&child, pov)
            };
            sum += p * memo.utility(v);
        }
        self.outcomes = o;
        self.utility.centipawns(sum)
    }
}

#[cfg(test)]
mod tests;
