//! MCTS options and their spec syntax
//! (`mcts:sims=N,nodes=N,ms=T,c=X,select=puct|uct,leaf=qsearch|static|material,chance=stratified|sample,rollout=none|random|greedy,rollout_plies=M`).

use std::fmt;

/// The spec keys of `mcts`, for error messages.
pub const KEYS: &[&str] = &[
    "sims",
    "nodes",
    "ms",
    "c",
    "select",
    "leaf",
    "chance",
    "rollout",
    "rollout_plies",
];

/// How a decision node picks the child to descend to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Select {
    /// `Q + c * P * sqrt(N) / (1 + n)` with priors `P` from the evaluation.
    Puct,
    /// `Q + c * sqrt(ln N / n)`, unvisited children first (no priors).
    Uct,
}

/// How a new leaf is valued before it is backed up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leaf {
    /// The search engine's quiescence search (captures, promotions, evasions).
    Qsearch,
    /// The static evaluation.
    Static,
    /// The first-wave material evaluation ([`crate::agents::eval::evaluate`],
    /// what `expectimax` and `greedy` use), mapped from `[-1, 1]` to `[0, 1]`.
    Material,
}

/// How a chance node is descended through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chance {
    /// Expanded when first reached; a descent takes the outcome whose visits
    /// lag most behind its share (the default).
    Stratified,
    /// A leaf at its first visit, like a decision; later descents draw the
    /// outcome from its distribution with the caller's generator (the
    /// first-wave MCTS).
    Sample,
}

/// What a leaf does before it is evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rollout {
    /// Evaluate the leaf itself (the default).
    None,
    /// Play `rollout_plies` uniformly random decisions first.
    Random,
    /// Play `rollout_plies` greedy (one-ply expectimax) decisions first.
    Greedy,
}

/// MCTS parameters: budgets (the first reached stops; at least one) and
/// options.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// Simulations (exact and deterministic).
    pub sims: Option<u32>,
    /// Evaluated states (static evaluations, quiescence nodes, terminal
    /// states reached in the tree), checked between simulations (exact and
    /// deterministic).
    pub nodes: Option<u64>,
    /// Milliseconds (for play; not reproducible).
    pub ms: Option<u64>,
    pub c: f64,
    pub select: Select,
    pub leaf: Leaf,
    pub chance: Chance,
    pub rollout: Rollout,
    pub rollout_plies: u32,
}

impl Params {
    /// `sims` simulations with every option at its default.
    pub fn with_sims(sims: u32) -> Params {
        Params {
            sims: Some(sims),
            nodes: None,
            ms: None,
            c: 1.4,
            select: Select::Puct,
            leaf: Leaf::Qsearch,
            chance: Chance::Stratified,
            rollout: Rollout::None,
            rollout_plies: 40,
        }
    }

    /// Parses the parameters after `mcts:` as key/value pairs (already
    /// split and checked for duplicates and unknown keys). Errors say which
    /// key and why.
    pub fn parse(kv: &[(&str, &str)]) -> Result<Params, String> {
        let mut p = Params::with_sims(1);
        p.sims = None;
        for &(k, v) in kv {
            let int = |min: u64, max: u64| -> Result<u64, String> {
                match v.parse::<i64>() {
                    Ok(n) if n >= min as i64 && n as u64 <= max => Ok(n as u64),
                    _ => Err(format!(
                        "{k} must be an integer from {min} to {max}, got {v:?}"
                    )),
                }
            };
            match k {
                "sims" => p.sims = Some(int(1, 10_000_000)? as u32),
                "nodes" => p.nodes = Some(int(1, 1 << 40)?),
                "ms" => p.ms = Some(int(1, 86_400_000)?),
                "c" => {
                    p.c = match v.parse::<f64>() {
                        Ok(x) if x.is_finite() && x > 0.0 => x,
                        _ => return Err(format!("c must be a positive number, got {v:?}")),
                    }
                }
                "select" => {
                    p.select = match v {
                        "puct" => Select::Puct,
                        "uct" => Select::Uct,
                        _ => return Err(format!("select must be puct or uct, got {v:?}")),
                    }
                }
                "leaf" => {
                    p.leaf = match v {
                        "qsearch" => Leaf::Qsearch,
                        "static" => Leaf::Static,
                        "material" => Leaf::Material,
                        _ => {
                            return Err(format!(
                                "leaf must be qsearch, static or material, got {v:?}"
                            ))
                        }
                    }
                }
                "chance" => {
                    p.chance = match v {
                        "stratified" => Chance::Stratified,
                        "sample" => Chance::Sample,
                        _ => return Err(format!("chance must be stratified or sample, got {v:?}")),
                    }
                }
                "rollout" => {
                    p.rollout = match v {
                        "none" => Rollout::None,
                        "random" => Rollout::Random,
                        "greedy" => Rollout::Greedy,
                        _ => {
                            return Err(format!(
                                "rollout must be none, random or greedy, got {v:?}"
                            ))
                        }
                    }
                }
                "rollout_plies" => p.rollout_plies = int(0, 10_000)? as u32,
                _ => return Err(format!("unknown parameter {k:?} for mcts")),
            }
        }
        if p.sims.is_none() && p.nodes.is_none() && p.ms.is_none() {
            return Err("mcts needs a budget: sims=N, nodes=N and/or ms=T".into());
        }
        Ok(p)
    }
}

impl fmt::Display for Params {
    /// The canonical spec string: the budgets given, then every option
    /// (`chance` only when it is `sample`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        if let Some(n) = self.sims {
            parts.push(format!("sims={n}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        if let Some(n) = self.ms {
            parts.push(format!("ms={n}"));
        }
        parts.push(format!("c={}", self.c));
        parts.push(
            match self.select {
                Select::Puct => "select=puct",
                Select::Uct => "select=uct",
            }
            .into(),
        );
        parts.push(
            match self.leaf {
                Leaf::Qsearch => "leaf=qsearch",
                Leaf::Static => "leaf=static",
                Leaf::Material => "leaf=material",
            }
            .into(),
        );
        // Only when not the default: the canonical specs of earlier runs
        // (study records, saved results) stay what they were.
        if self.chance == Chance::Sample {
            parts.push("chance=sample".into());
        }
        parts.push(
            match self.rollout {
                Rollout::None => "rollout=none",
                Rollout::Random => "rollout=random",
                Rollout::Greedy => "rollout=greedy",
            }
            .into(),
        );
        parts.push(format!("rollout_plies={}", self.rollout_plies));
        write!(f, "mcts:{}", parts.join(","))
    }
}
