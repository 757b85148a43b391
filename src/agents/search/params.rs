//! Search options and their spec syntax (`search:nodes=N,ms=T,depth=D,...`).

use std::fmt;

use super::eval::structure::Terms;
use super::eval::tuned::WeightSet;

/// The spec keys of `search`, for error messages.
pub const KEYS: &[&str] = &[
    "nodes",
    "ms",
    "depth",
    "tt_mb",
    "tt",
    "pvs",
    "aspiration",
    "lmr",
    "nmp",
    "star2",
    "check_ext",
    "killers",
    "history",
    "qsearch",
    "qchance",
    "sample",
    "uscale",
    "chance_tt",
    "weights",
    "hcap",
    "hexpand",
    "merge",
    "hking",
    "qmate",
    "futility",
    "hcheck",
    "prune",
    "see",
    "structure",
    "pst",
    "iir",
    "countermove",
    "improving",
    "adaptive",
    "conthist",
    "threats",
    "passers",
    "connected",
    "checks",
    "sweights",
    "delta",
    "keep",
    "qtt",
    "corr",
    "singular",
];

/// Deepest iteration (decisions).
pub const MAX_DEPTH: u32 = 64;
/// Node budget when the spec gives no budget at all.
pub const DEFAULT_NODES: u64 = 20_000;

/// How quiescence search treats a chance node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QChance {
    /// Value it by the static evaluation (an expectation over its outcomes).
    Stop,
    /// Take the expectation of quiescence searches of its outcomes (one
    /// chance level deep, then `Stop`): the default, so that the player who
    /// moves after the roll can still answer a hanging piece.
    Expect,
}

/// Budgets and feature switches of one search.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// Stop after this many nodes (exact and deterministic).
    pub nodes: Option<u64>,
    /// Stop after this many milliseconds (for play).
    pub ms: Option<u64>,
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Transposition table size in megabytes.
    pub tt_mb: u32,
    pub tt: bool,
    pub pvs: bool,
    pub aspiration: bool,
    pub lmr: bool,
    /// Null-move pruning (only where the variant offers a null move).
    pub nmp: bool,
    /// Star2 probing at chance nodes (Star1 is always on).
    pub star2: bool,
    pub check_ext: bool,
    pub killers: bool,
    pub history: bool,
    pub qsearch: bool,
    pub qchance: QChance,
    /// At chance nodes with more outcomes, search this many sampled
    /// outcomes (with replacement, seeded by the state; 0 = always exact).
    pub sample: u32,
    /// Centipawns per unit of utility when chance nodes average values
    /// (0: average centipawns as they are; `None`: the variant's own,
    /// [`crate::agents::eval::Evaluate::search_defaults`]).
    pub uscale: Option<f64>,
    /// Chance nodes in the transposition table too.
    pub chance_tt: bool,
    /// The evaluation's weights (hand-set or Texel-tuned).
    pub weights: WeightSet,
    /// Wide chance nodes on the horizon value each outcome with its
    /// mover's best capture (`horizon.rs`), not by the static value alone.
    pub hcap: bool,
    /// Chance nodes on the horizon with at most this many outcomes take
    /// the expectation of a quiescence search per outcome (`qchance=expect`);
    /// wider ones are valued as `hcap` says (`None`: the variant's own).
    pub hexpand: Option<u32>,
    /// Chance nodes search outcomes that lead to one state (equal search
    /// keys) once, with their probabilities summed.
    pub merge: bool,
    /// With `hcap`, a wide horizon roll that lets its mover take the king
    /// in two moves, one die each (three-dice DiceChess), is valued as the
    /// king's capture (`horizon.rs`).
    pub hking: bool,
    /// With `hcap`, a wide horizon roll that cannot answer a check passes
    /// the turn and is followed by the checker's roll, which may take the
    /// king (Dice Chess, `horizon.rs`).
    pub hcheck: bool,
    /// Quiescence's stand-pat looks for a mate with up to this many of
    /// the mover's moves left in the turn (`threats.rs`): 0 never, 1 a
    /// mate in one move, 2 also a mate with two moves in a row (`None`:
    /// the variant's own). The wide horizon's rolls are valued with the
    /// same mates.
    pub qmate: Option<u32>,
    /// Futility pruning one decision above the horizon: a move that ends
    /// the turn without check and hands the roll to the other player is not
    /// searched when its static value (an upper bound of its horizon
    /// value) cannot reach alpha (`None`: the variant's own).
    pub futility: Option<bool>,
    /// Reverse futility, late-move and quiet-move futility pruning at
    /// non-PV nodes near the leaves, the pruning of alternating-move chess
    /// engines (`None`: the variant's own; on in chess only).
    pub prune: Option<bool>,
    /// Quiescence skips captures that lose material by static exchange
    /// evaluation, and the main search orders them after the quiet moves
    /// (`None`: the variant's own; on in chess only: with dice, the
    /// recaptures an exchange counts may not be allowed).
    pub see: Option<bool>,
    /// The evaluation adds passed, doubled and isolated pawns, rooks on
    /// open files, king shelter and attackers near the king
    /// (`eval/structure.rs`; `None`: the variant's own; on in chess and in
    /// Dice Chess).
    pub structure: Option<bool>,
    /// The piece-square values get chess's per-square corrections fitted
    /// on the engine's games (`eval/pst.rs`; `None`: the variant's own).
    pub pst: Option<bool>,
    /// With `prune`: a node without a table move searches one decision
    /// less deep (internal iterative reduction: its ordering is a guess).
    pub iir: bool,
    /// With `prune`: the quiet move that last refuted the previous move is
    /// tried after the killers (the countermove heuristic).
    pub countermove: bool,
    /// With `prune`: whether the mover's static value rose since its last
    /// decision decides how much quiet moves are pruned and reduced.
    pub improving: bool,
    /// With `prune`: late-move reductions one less in a principal variation
    /// and for killers and countermoves, one more for a bad history (and,
    /// with `improving`, a falling static value); null-move reductions grow
    /// with the static value's excess over beta.
    pub adaptive: bool,
    /// With `prune`: quiet moves are also ordered by how they fared after
    /// the same two previous decisions (continuation histories).
    pub conthist: bool,
    /// With `structure`: the evaluation adds pieces attacked by pawns,
    /// rooks and queens attacked by minor pieces, queens by rooks, and
    /// attacked pieces left undefended.
    pub threats: bool,
    /// With `structure`: passed pawns also count the kings' distances to
    /// the square in front and how safe their path to promotion is.
    pub passers: bool,
    /// With `structure`: pawns defended by or beside their own pawns count
    /// more, by rank.
    pub connected: bool,
    /// With `structure`: each enemy role that can give a safe check (from
    /// a square the king's side does not attack) adds to the king's danger.
    pub checks: bool,
    /// With `structure`: the structure terms' weights fitted on the
    /// engine's own games (`sweights=fitted`) instead of the hand-set ones
    /// (`sweights=hand`). Fitted by default since 2026-12-03 (+11 Elo over
    /// 1,800 paired games, docs/search-measurements.md).
    pub fitted_structure: bool,
    /// With `prune` and `see`: quiescence skips a capture whose victim,
    /// with a margin, cannot lift the stand-pat to alpha (delta pruning).
    pub delta: bool,
    /// The table keeps what earlier searches of this engine stored (the
    /// previous moves of the game), aged out by replacement, instead of
    /// starting every search from a forgotten table (`None`: the
    /// variant's own; on in chess, Cubic, Cubic Checkers and Fluky).
    pub keep: Option<bool>,
    /// Quiescence probes and stores the transposition table too (its
    /// results at their own, non-positive depths; the static value and
    /// the best capture kept with them).
    pub qtt: bool,
    /// With `prune`: singular extensions. A table move whose stored lower
    /// bound no other move comes near in a reduced search is searched one
    /// decision deeper; when another move also beats beta, the node cuts
    /// (multi-cut). On by default since 2026-12-06: 0.552 [0.524, 0.580]
    /// over 1,200 paired games at 20,000 nodes (docs/search-measurements.md).
    pub singular: bool,
    /// With `prune`: static values are corrected by how far searches of
    /// positions with the same pawns found them off (correction history).
    pub corr: bool,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            nodes: None,
            ms: None,
            depth: None,
            tt_mb: 16,
            tt: true,
            pvs: true,
            aspiration: true,
            lmr: true,
            nmp: true,
            star2: true,
            check_ext: true,
            killers: true,
            history: true,
            qsearch: true,
            qchance: QChance::Expect,
            sample: 0,
            uscale: None,
            chance_tt: true,
            weights: WeightSet::Default,
            hcap: true,
            hexpand: None,
            merge: true,
            hking: true,
            hcheck: true,
            qmate: None,
            futility: None,
            prune: None,
            see: None,
            structure: None,
            pst: None,
            iir: true,
            countermove: true,
            improving: true,
            adaptive: true,
            conthist: false,
            threats: true,
            passers: true,
            connected: true,
            checks: true,
            fitted_structure: true,
            delta: false,
            keep: None,
            qtt: false,
            corr: false,
            singular: true,
        }
    }
}

impl Params {
    /// Every pruning and extension off: a plain alpha-beta (with Star1)
    /// whose value at a fixed depth does not depend on move order or table.
    pub fn plain(depth: u32) -> Params {
        Params {
            depth: Some(depth),
            tt: false,
            pvs: false,
            aspiration: false,
            lmr: false,
            nmp: false,
            star2: false,
            check_ext: false,
            futility: Some(false),
            prune: Some(false),
            structure: Some(false),
            pst: Some(false),
            see: Some(false),
            iir: false,
            ..Params::default()
        }
    }

    /// The optional structure terms these options count (with `structure`)
    /// and their weights.
    pub fn structure_terms(&self) -> Terms {
        Terms {
            threats: self.threats,
            passers: self.passers,
            connected: self.connected,
            checks: self.checks,
            fitted: self.fitted_structure,
        }
    }

    /// The effective node budget (the default when no budget is given).
    pub fn node_limit(&self) -> Option<u64> {
        if self.nodes.is_none() && self.ms.is_none() && self.depth.is_none() {
            Some(DEFAULT_NODES)
        } else {
            self.nodes
        }
    }

    /// Parses the parameters after `search:` as key/value pairs (already
    /// split and checked for duplicates). Errors say which key and why.
    pub fn parse(kv: &[(&str, &str)]) -> Result<Params, String> {
        let mut p = Params::default();
        for &(k, v) in kv {
            let int = |min: u64, max: u64| -> Result<u64, String> {
                match v.parse::<i64>() {
                    Ok(n) if n >= min as i64 && n as u64 <= max => Ok(n as u64),
                    _ => Err(format!(
                        "{k} must be an integer from {min} to {max}, got {v:?}"
                    )),
                }
            };
            let flag = || -> Result<bool, String> {
                match v {
                    "1" | "true" | "on" => Ok(true),
                    "0" | "false" | "off" => Ok(false),
                    _ => Err(format!("{k} must be 0 or 1 (or on/off), got {v:?}")),
                }
            };
            match k {
                "nodes" => p.nodes = Some(int(1, 1 << 40)?),
                "ms" => p.ms = Some(int(1, 86_400_000)?),
                "depth" => p.depth = Some(int(1, MAX_DEPTH as u64)? as u32),
                "tt_mb" => p.tt_mb = int(1, 4096)? as u32,
                "tt" => p.tt = flag()?,
                "pvs" => p.pvs = flag()?,
                "aspiration" => p.aspiration = flag()?,
                "lmr" => p.lmr = flag()?,
                "nmp" => p.nmp = flag()?,
                "star2" => p.star2 = flag()?,
                "check_ext" => p.check_ext = flag()?,
                "killers" => p.killers = flag()?,
                "history" => p.history = flag()?,
                "chance_tt" => p.chance_tt = flag()?,
                "hcap" => p.hcap = flag()?,
                "merge" => p.merge = flag()?,
                "hking" => p.hking = flag()?,
                "hcheck" => p.hcheck = flag()?,
                "qmate" => p.qmate = Some(int(0, 2)? as u32),
                "futility" => p.futility = Some(flag()?),
                "prune" => p.prune = Some(flag()?),
                "see" => p.see = Some(flag()?),
                "structure" => p.structure = Some(flag()?),
                "pst" => p.pst = Some(flag()?),
                "iir" => p.iir = flag()?,
                "countermove" => p.countermove = flag()?,
                "improving" => p.improving = flag()?,
                "adaptive" => p.adaptive = flag()?,
                "conthist" => p.conthist = flag()?,
                "threats" => p.threats = flag()?,
                "passers" => p.passers = flag()?,
                "connected" => p.connected = flag()?,
                "checks" => p.checks = flag()?,
                "delta" => p.delta = flag()?,
                "singular" => p.singular = flag()?,
                "keep" => p.keep = Some(flag()?),
                "qtt" => p.qtt = flag()?,
                "corr" => p.corr = flag()?,
                "qsearch" => p.qsearch = flag()?,
                "qchance" => {
                    p.qchance = match v {
                        "stop" => QChance::Stop,
                        "expect" => QChance::Expect,
                        _ => return Err(format!("qchance must be stop or expect, got {v:?}")),
                    }
                }
                "sample" => p.sample = int(0, 1 << 16)? as u32,
                "hexpand" => p.hexpand = Some(int(0, 1 << 16)? as u32),
                "uscale" => {
                    let u = int(0, 1_000_000)? as f64;
                    p.uscale = Some(u);
                    if u > 0.0 && u < 10.0 {
                        return Err(format!(
                            "uscale must be 0 (off) or from 10 to 1000000, got {v:?}"
                        ));
                    }
                }
                "weights" => p.weights = WeightSet::parse(v)?,
                "sweights" => {
                    p.fitted_structure = match v {
                        "hand" => false,
                        "fitted" => true,
                        _ => return Err(format!("sweights must be hand or fitted, got {v:?}")),
                    }
                }
                _ => return Err(format!("unknown parameter {k:?} for search")),
            }
        }
        Ok(p)
    }
}

impl fmt::Display for Params {
    /// The canonical spec string: budgets given, then options that differ
    /// from their defaults.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = Params::default();
        let mut parts: Vec<String> = Vec::new();
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        if let Some(n) = self.ms {
            parts.push(format!("ms={n}"));
        }
        if let Some(n) = self.depth {
            parts.push(format!("depth={n}"));
        }
        if self.tt_mb != d.tt_mb {
            parts.push(format!("tt_mb={}", self.tt_mb));
        }
        let flags = [
            ("tt", self.tt, d.tt),
            ("pvs", self.pvs, d.pvs),
            ("aspiration", self.aspiration, d.aspiration),
            ("lmr", self.lmr, d.lmr),
            ("nmp", self.nmp, d.nmp),
            ("star2", self.star2, d.star2),
            ("check_ext", self.check_ext, d.check_ext),
            ("killers", self.killers, d.killers),
            ("history", self.history, d.history),
            ("qsearch", self.qsearch, d.qsearch),
            ("chance_tt", self.chance_tt, d.chance_tt),
            ("hcap", self.hcap, d.hcap),
            ("merge", self.merge, d.merge),
            ("hking", self.hking, d.hking),
            ("hcheck", self.hcheck, d.hcheck),
            ("iir", self.iir, d.iir),
            ("countermove", self.countermove, d.countermove),
            ("improving", self.improving, d.improving),
            ("adaptive", self.adaptive, d.adaptive),
            ("conthist", self.conthist, d.conthist),
            ("threats", self.threats, d.threats),
            ("passers", self.passers, d.passers),
            ("connected", self.connected, d.connected),
            ("checks", self.checks, d.checks),
            ("delta", self.delta, d.delta),
            ("qtt", self.qtt, d.qtt),
            ("corr", self.corr, d.corr),
            ("singular", self.singular, d.singular),
        ];
        for (k, v, dv) in flags {
            if v != dv {
                parts.push(format!("{k}={}", v as u8));
            }
        }
        if self.qchance != d.qchance {
            parts.push("qchance=stop".into());
        }
        if self.sample != d.sample {
            parts.push(format!("sample={}", self.sample));
        }
        // Unset (the default) is the variant's own setting; any setting
        // the spec gave is printed, even one equal to a variant's.
        if let Some(q) = self.qmate {
            parts.push(format!("qmate={q}"));
        }
        if let Some(on) = self.futility {
            parts.push(format!("futility={}", on as u8));
        }
        if let Some(on) = self.prune {
            parts.push(format!("prune={}", on as u8));
        }
        if let Some(on) = self.see {
            parts.push(format!("see={}", on as u8));
        }
        if let Some(on) = self.structure {
            parts.push(format!("structure={}", on as u8));
        }
        if let Some(on) = self.pst {
            parts.push(format!("pst={}", on as u8));
        }
        if let Some(on) = self.keep {
            parts.push(format!("keep={}", on as u8));
        }
        if let Some(h) = self.hexpand {
            parts.push(format!("hexpand={h}"));
        }
        if let Some(u) = self.uscale {
            parts.push(format!("uscale={u}"));
        }
        if self.weights != d.weights {
            parts.push(format!("weights={}", self.weights.name()));
        }
        if self.fitted_structure != d.fitted_structure {
            let w = if self.fitted_structure {
                "fitted"
            } else {
                "hand"
            };
            parts.push(format!("sweights={w}"));
        }
        if parts.is_empty() {
            f.write_str("search")
        } else {
            write!(f, "search:{}", parts.join(","))
        }
    }
}
