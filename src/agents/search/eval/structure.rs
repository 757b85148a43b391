//! Chess knowledge the piece-square terms cannot express, for 8x8 boards
//! (`search:structure=1`, on in chess only): passed, doubled and isolated
//! pawns, rooks on open and half-open files, the pawn shelter in front of
//! the king, and the pieces that bear on the squares around it; with
//! `threats`, also pieces attacked by lesser ones or left undefended;
//! with `passers`, passed pawns valued by the kings' distances to the
//! square in front and by how safe their path to promotion is; with
//! `connected`, pawns defended by or beside their own pawns; with
//! `checks`, the enemy roles that can give a safe check add to the king's
//! danger.
//! Centipawns, White minus Black, tapered like the rest of the evaluation.

mod passers;

use super::structure_weights::{StructureWeights, FITTED, HAND};
use crate::board::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attack_sources, rook_attacks,
};
use crate::board::{Bitboard, Color, Position, Role, Square};
use passers::passer_quarters;

/// Attack units of a knight, bishop, rook and queen bearing on the enemy
/// king's zone (its square and the squares next to it).
const ATTACK_UNITS: [i32; 6] = [0, 2, 2, 3, 5, 0];
/// Attack units per enemy knight, bishop, rook and queen that can give a
/// safe check (`checks`): move to a square from which it checks the king
/// and that no piece, pawn or the king of the king's side attacks.
const CHECK_UNITS: [i32; 6] = [0, 3, 2, 4, 3, 0];
/// The attack units the king danger counts up to.
const ATTACK_CAP: i32 = 20;

/// Which optional structure terms are counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terms {
    /// Pieces attacked by lesser ones or left undefended.
    pub threats: bool,
    /// Passed pawns' king distances and path ([`passer_quarters`]).
    pub passers: bool,
    /// Pawns defended by or beside their own pawns ([`connected_sixteenths`]).
    pub connected: bool,
    /// Safe checks add to the king's danger ([`KingZoneAttacks::safe_checks`]).
    pub checks: bool,
    /// The fitted weights ([`FITTED`]) instead of the hand-set ones.
    pub fitted: bool,
}

impl Terms {
    /// Every optional term on, with the hand-set weights (what the Texel
    /// fits' features count).
    pub const ALL_HAND: Terms = Terms {
        threats: true,
        passers: true,
        connected: true,
        checks: true,
        fitted: false,
    };

    /// The weights the terms are counted with.
    pub fn weights(self) -> &'static StructureWeights {
        if self.fitted {
            &FITTED
        } else {
            &HAND
        }
    }
}

/// How much a passed pawn's dynamic terms weigh, by relative rank: none
/// before the fourth rank, then growing as the pawn nears promotion.
const PASSER_RANK: [i32; 8] = [0, 0, 0, 2, 7, 12, 17, 0];

const FILE_A: u64 = 0x0101_0101_0101_0101;

const fn file_mask(f: i32) -> u64 {
    if f < 0 || f > 7 {
        0
    } else {
        FILE_A << f
    }
}

const fn build_passed() -> [[u64; 64]; 2] {
    let mut t = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let files = file_mask(f - 1) | file_mask(f) | file_mask(f + 1);
        // Ranks above r (White) and below r (Black).
        let above = if r >= 7 { 0 } else { !0u64 << (8 * (r + 1)) };
        let below = if r == 0 { 0 } else { !0u64 >> (8 * (8 - r)) };
        t[0][sq] = files & above;
        t[1][sq] = files & below;
        sq += 1;
    }
    t
}

/// Squares a pawn of each colour on each square must find free of enemy
/// pawns to be passed.
static PASSED_SPAN: [[u64; 64]; 2] = build_passed();

/// The files either side of file `f` (none off the board).
fn adjacent_files(f: i32) -> u64 {
    file_mask(f - 1) | file_mask(f + 1)
}

/// The squares ahead of a pawn of `c` on `s`, on its own file.
fn file_ahead(c: Color, s: Square) -> Bitboard {
    Bitboard(PASSED_SPAN[c as usize][s as usize] & file_mask((s % 8) as i32))
}

/// The structure terms of `p` (0 off the 8x8 board), computed on their
/// own; the search gets the same value from [`super::Evaluator`], which
/// counts the king-zone attackers in its mobility loop and keeps the pawn
/// terms in a [`PawnCache`].
pub fn structure_cp(p: &Position, terms: Terms) -> f64 {
    structure_cp_with(p, terms, terms.weights())
}

/// [`structure_cp`] with the weights `w`.
pub fn structure_cp_with(p: &Position, terms: Terms, w: &StructureWeights) -> f64 {
    if !on_8x8(p) {
        return 0.0;
    }
    let occ = p.occupied();
    let mut zones = KingZoneAttacks::new(p, terms);
    for c in Color::ALL {
        for s in p.pieces(c, Role::Knight) {
            zones.add(c, Role::Knight, knight_attacks(s));
        }
        for s in p.pieces(c, Role::Bishop) {
            zones.add(c, Role::Bishop, bishop_attacks(s, occ));
        }
        for s in p.pieces(c, Role::Rook) {
            zones.add(c, Role::Rook, rook_attacks(s, occ));
        }
        for s in p.pieces(c, Role::Queen) {
            zones.add(
                c,
                Role::Queen,
                bishop_attacks(s, occ) | rook_attacks(s, occ),
            );
        }
    }
    let pawns = PawnTerms::of(p, w);
    combine(p, &pawns, &zones, super::mg_share(p), w)
}

/// The coefficient of each structure weight ([`StructureWeights::to_vec`]'s
/// order) in [`structure_cp_with`] of `p`, so that the structure value with
/// weights `w` is `features . w.to_vec()`: the value is linear in them, so
/// each coefficient is the value with that weight 1 and the others 0.
pub fn structure_features(p: &Position, terms: Terms) -> Vec<f64> {
    let n = StructureWeights::names().len();
    let mut unit = vec![0.0; n];
    (0..n)
        .map(|j| {
            unit[j] = 1.0;
            let w = StructureWeights::from_slice(&unit).expect("length is right");
            unit[j] = 0.0;
            structure_cp_with(p, terms, &w)
        })
        .collect()
}

/// Whether `p` is on the 8x8 board the terms are made for.
pub(crate) fn on_8x8(p: &Position) -> bool {
    let geo = p.geometry();
    geo.files == 8 && geo.ranks == 8
}

/// The structure terms from their parts: the pawn terms, the attacks on
/// each king's zone and the middlegame share of the taper. The weights are
/// multiples of a quarter of their unit (the fit rounds them so), so every
/// term is a multiple of 1/64 centipawn and the sums are exact in any
/// order.
pub(crate) fn combine(
    p: &Position,
    pawns: &PawnTerms,
    zones: &KingZoneAttacks,
    phase: f64,
    w: &StructureWeights,
) -> f64 {
    let all_pawns = p.by_role(Role::Pawn);
    let attacked = zones
        .maps()
        .then(|| Color::ALL.map(|c| zones.attacked(p, c)));
    let mut mg = 0.0;
    let mut eg = 0.0;
    for c in Color::ALL {
        let sign = if c == Color::White { 1.0 } else { -1.0 };
        let own = all_pawns & p.by_color(c);
        let (mut m, mut e) = pawns.terms[c as usize];
        for s in p.pieces(c, Role::Rook) {
            let file = file_mask((s % 8) as i32);
            if file & all_pawns.0 == 0 {
                m += w.rook_open[0];
                e += w.rook_open[1];
            } else if file & own.0 == 0 {
                m += w.rook_half_open[0];
                e += w.rook_half_open[1];
            }
        }
        if let Some(k) = p.king(c) {
            m += shelter(c, k, own, w);
            let checks = match (zones.terms.checks, &attacked) {
                (true, Some(attacked)) => zones.safe_checks(p, c, k, attacked),
                _ => (0, 0),
            };
            m -= zones.danger(c, checks, w);
        }
        if let (true, Some(attacked)) = (zones.terms.threats, &attacked) {
            let (tm, te) = zones.threat_terms(p, c, attacked, w);
            m += tm;
            e += te;
        }
        if zones.terms.connected {
            let (cm, ce) = pawns.connected[c as usize];
            m += cm / 16.0;
            e += ce / 16.0;
        }
        if zones.terms.passers {
            let passed = Bitboard(pawns.passed[c as usize]);
            let (pm, pe) = passer_quarters(p, c, passed, attacked.as_ref(), w);
            m += pm / 4.0;
            e += pe / 4.0;
        }
        mg += sign * m;
        eg += sign * e;
    }
    mg * phase + eg * (1.0 - phase)
}

/// The terms that depend on the pawns alone (passed, isolated, doubled),
/// per colour `(middlegame, endgame)`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PawnTerms {
    /// White's and Black's pawns the terms are for.
    pawns: [u64; 2],
    terms: [(f64, f64); 2],
    /// Each colour's passed pawns.
    passed: [u64; 2],
    /// Each colour's connected-pawn terms, in sixteenths of a centipawn
    /// (counted only with [`Terms::connected`]).
    connected: [(f64, f64); 2],
}

impl PawnTerms {
    pub(crate) fn of(p: &Position, w: &StructureWeights) -> PawnTerms {
        let pawns = p.by_role(Role::Pawn);
        let mut out = PawnTerms {
            pawns: [
                (pawns & p.by_color(Color::White)).0,
                (pawns & p.by_color(Color::Black)).0,
            ],
            terms: [(0.0, 0.0); 2],
            passed: [0; 2],
            connected: [(0.0, 0.0); 2],
        };
        for c in Color::ALL {
            let own = Bitboard(out.pawns[c as usize]);
            let theirs = Bitboard(out.pawns[!c as usize]);
            let (mut m, mut e) = (0.0, 0.0);
            for s in own {
                let rel = relative_rank(c, s);
                if (PASSED_SPAN[c as usize][s as usize] & theirs.0) == 0 {
                    out.passed[c as usize] |= 1 << s;
                    m += w.passed_mg[rel];
                    e += w.passed_eg[rel];
                }
                let f = (s % 8) as i32;
                if adjacent_files(f) & own.0 == 0 {
                    m += w.isolated[0];
                    e += w.isolated[1];
                }
            }
            for f in 0..8 {
                let n = (Bitboard(file_mask(f)) & own).count();
                if n > 1 {
                    m += w.doubled[0] * (n - 1) as f64;
                    e += w.doubled[1] * (n - 1) as f64;
                }
            }
            out.terms[c as usize] = (m, e);
            out.connected[c as usize] = connected_sixteenths(c, own, theirs, w);
        }
        out
    }
}

/// The connected pawns of `c` among `own`, against the enemy pawns
/// `theirs` (middlegame, endgame sixteenths of a centipawn): a pawn defended by an
/// own pawn or beside one on its rank gets its rank's connected weight
/// times `2 + phalanx - opposed`, and the support weight per defender; the
/// endgame counts it by `(r - 1) / 4` for its relative rank r counted
/// from 0, so more the further it stands.
fn connected_sixteenths(
    c: Color,
    own: Bitboard,
    theirs: Bitboard,
    w: &StructureWeights,
) -> (f64, f64) {
    let (mut m, mut e) = (0.0, 0.0);
    for s in own {
        let one = Bitboard::from_square(s);
        let support = (pawn_attack_sources(c, one) & own).count() as i32;
        let beside = Bitboard(adjacent_files((s % 8) as i32)) & Bitboard::rank(s / 8);
        let phalanx = (beside & own).any() as i32;
        if support == 0 && phalanx == 0 {
            continue;
        }
        let opposed = (file_ahead(c, s) & theirs).any() as i32;
        let rel = relative_rank(c, s);
        let v = w.connected[rel] * f64::from(2 + phalanx - opposed)
            + w.connected_support * f64::from(support);
        m += 4.0 * v;
        e += v * (rel as f64 - 1.0);
    }
    (m, e)
}

/// Pawn terms computed already, by the pawns they are for (direct-mapped;
/// a search meets few pawn structures, so most boards find theirs here).
#[derive(Default)]
pub(crate) struct PawnCache {
    /// Allocated at the first use; an empty entry stands for no pawns,
    /// whose terms are zero.
    entries: Vec<PawnTerms>,
}

/// Each colour's pawns (White, Black): what keys a pawn structure.
#[inline]
pub(crate) fn pawn_sets(p: &Position) -> [u64; 2] {
    let pawns = p.by_role(Role::Pawn);
    [
        (pawns & p.by_color(Color::White)).0,
        (pawns & p.by_color(Color::Black)).0,
    ]
}

/// A `bits`-bit slot for the pawn structure `key` ([`pawn_sets`]); tables
/// pass their own `rotate` so that their slots are not the same hash.
#[inline]
pub(crate) fn pawn_slot(key: [u64; 2], rotate: u32, bits: u32) -> usize {
    let mix =
        key[0].wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ key[1].wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    (mix.rotate_left(rotate).wrapping_mul(0x1656_67B1_9E37_79F9) >> (64 - bits)) as usize
}

/// Entries of a [`PawnCache`] (80 bytes each: 80 KiB).
const PAWN_CACHE_BITS: u32 = 10;

impl PawnCache {
    /// The pawn terms of `p` with the weights `w`, which must be the same
    /// at every call (the cache does not key on them).
    pub(crate) fn get(&mut self, p: &Position, w: &StructureWeights) -> PawnTerms {
        let key = pawn_sets(p);
        if self.entries.is_empty() {
            self.entries = vec![PawnTerms::default(); 1 << PAWN_CACHE_BITS];
        }
        let e = &mut self.entries[pawn_slot(key, 17, PAWN_CACHE_BITS)];
        if e.pawns != key {
            *e = PawnTerms::of(p, w);
        }
        *e
    }
}

/// The pieces bearing on each king's zone (its square and the squares
/// next to it), gathered while their attacks are computed anyway.
#[derive(Clone, Copy, Debug)]
pub(crate) struct KingZoneAttacks {
    /// The zone of the king of each colour (empty without a king).
    zone: [Bitboard; 2],
    /// Attack units and pieces bearing on the zone of each colour's king.
    units: [i32; 2],
    attackers: [i32; 2],
    /// The optional terms counted; the threat, passer and check terms use
    /// the squares each colour's knights, bishops, rooks, queens, and
    /// pieces (no pawns or king) attack.
    terms: Terms,
    by_knight: [Bitboard; 2],
    by_bishop: [Bitboard; 2],
    by_rook: [Bitboard; 2],
    by_queen: [Bitboard; 2],
    by_piece: [Bitboard; 2],
}

impl KingZoneAttacks {
    pub(crate) fn new(p: &Position, terms: Terms) -> KingZoneAttacks {
        let zone = |c: Color| p.king(c).map_or(Bitboard(0), |k| king_attacks(k).with(k));
        KingZoneAttacks {
            zone: [zone(Color::White), zone(Color::Black)],
            units: [0; 2],
            attackers: [0; 2],
            terms,
            by_knight: [Bitboard(0); 2],
            by_bishop: [Bitboard(0); 2],
            by_rook: [Bitboard(0); 2],
            by_queen: [Bitboard(0); 2],
            by_piece: [Bitboard(0); 2],
        }
    }

    /// A piece of `by` and role `r` attacking `attacks`.
    #[inline(always)]
    pub(crate) fn add(&mut self, by: Color, r: Role, attacks: Bitboard) {
        let king = !by as usize;
        if (attacks & self.zone[king]).any() {
            self.units[king] += ATTACK_UNITS[r.index()];
            self.attackers[king] += 1;
        }
        if self.maps() {
            let c = by as usize;
            match r {
                Role::Knight => self.by_knight[c] |= attacks,
                Role::Bishop => self.by_bishop[c] |= attacks,
                Role::Rook => self.by_rook[c] |= attacks,
                Role::Queen => self.by_queen[c] |= attacks,
                _ => {}
            }
            self.by_piece[c] |= attacks;
        }
    }

    /// Whether the pieces' attack maps are gathered (for the threat,
    /// passer or check terms).
    #[inline(always)]
    fn maps(&self) -> bool {
        self.terms.threats || self.terms.passers || self.terms.checks
    }

    /// The squares the pawns of `c` attack, and those any piece of `c`
    /// attacks (for the threat terms).
    fn attacked(&self, p: &Position, c: Color) -> (Bitboard, Bitboard) {
        let pawns = pawn_attack_sources(!c, p.pieces(c, Role::Pawn));
        let king = p.king(c).map_or(Bitboard(0), king_attacks);
        (pawns, pawns | king | self.by_piece[c as usize])
    }

    /// The threat terms of `c` against the other colour's pieces
    /// `(middlegame, endgame)`, given both colours' [`Self::attacked`].
    fn threat_terms(
        &self,
        p: &Position,
        c: Color,
        attacked: &[(Bitboard, Bitboard); 2],
        w: &StructureWeights,
    ) -> (f64, f64) {
        let (our_pawns, ours) = attacked[c as usize];
        let theirs = attacked[!c as usize].1;
        let them = p.by_color(!c);
        let targets = them & !p.by_role(Role::Pawn) & !p.by_role(Role::King);
        let majors = them & (p.by_role(Role::Rook) | p.by_role(Role::Queen));
        let queens = them & p.by_role(Role::Queen);
        let terms = [
            (w.threat_by_pawn, our_pawns & targets),
            (
                w.threat_by_minor,
                (self.by_knight[c as usize] | self.by_bishop[c as usize]) & majors,
            ),
            (w.threat_by_rook, self.by_rook[c as usize] & queens),
            (w.hanging, ours & targets & !theirs),
        ];
        let (mut m, mut e) = (0.0, 0.0);
        for ([wm, we], on) in terms {
            let n = on.count() as f64;
            m += wm * n;
            e += we * n;
        }
        (m, e)
    }

    /// The safe checks against the king of `c` on `k`, given both colours'
    /// [`Self::attacked`]: the enemy roles (knight, bishop, rook, queen)
    /// with a piece that can move to a square from which it checks the
    /// king, not occupied by the enemy and not attacked by `c`, as
    /// `(roles, attack units)`.
    fn safe_checks(
        &self,
        p: &Position,
        c: Color,
        k: Square,
        attacked: &[(Bitboard, Bitboard); 2],
    ) -> (i32, i32) {
        let them = !c as usize;
        let occ = p.occupied();
        let safe = !attacked[c as usize].1 & !p.by_color(!c);
        let diagonal = bishop_attacks(k, occ) & safe;
        let straight = rook_attacks(k, occ) & safe;
        let checks = [
            (
                Role::Knight,
                knight_attacks(k) & safe & self.by_knight[them],
            ),
            (Role::Bishop, diagonal & self.by_bishop[them]),
            (Role::Rook, straight & self.by_rook[them]),
            (Role::Queen, (diagonal | straight) & self.by_queen[them]),
        ];
        let (mut roles, mut units) = (0, 0);
        for (r, on) in checks {
            if on.any() {
                roles += 1;
                units += CHECK_UNITS[r.index()];
            }
        }
        (roles, units)
    }

    /// The middlegame penalty for the pieces bearing on the zone of the
    /// king of `c`, plus `checks` (roles with a safe check, their attack
    /// units): none for one piece or check alone.
    fn danger(&self, c: Color, checks: (i32, i32), w: &StructureWeights) -> f64 {
        if self.attackers[c as usize] + checks.0 < 2 {
            return 0.0;
        }
        let u = (self.units[c as usize] + checks.1).min(ATTACK_CAP) as f64;
        w.attack_weight * u * u
    }
}

fn relative_rank(c: Color, s: Square) -> usize {
    let r = (s / 8) as usize;
    if c == Color::White {
        r
    } else {
        7 - r
    }
}

/// Own pawns in front of a king on its first two ranks.
fn shelter(c: Color, k: Square, own: Bitboard, w: &StructureWeights) -> f64 {
    if relative_rank(c, k) > 1 {
        return 0.0;
    }
    let (kf, kr) = ((k % 8) as i32, (k / 8) as i32);
    let step = if c == Color::White { 1 } else { -1 };
    let mut v = 0.0;
    for f in (kf - 1).max(0)..=(kf + 1).min(7) {
        let at = |dr: i32| {
            let r = kr + step * dr;
            (0..8).contains(&r) && own.contains((r * 8 + f) as Square)
        };
        v += if at(1) {
            w.shelter_near
        } else if at(2) {
            w.shelter_far
        } else {
            w.shelter_none
        };
    }
    v
}

#[cfg(test)]
mod tests;
