//! The luck dial (docs/rules.md, "The luck option"): any variant with the
//! rule option `luck=q` (0 < q ≤ 1). Before each decision an explicit chance
//! node tosses a coin: with probability `1 - q` the mover decides as usual
//! (`free`), with probability `q` (`random`) a second chance node draws a
//! uniformly random legal decision that is played for the mover.
//!
//! Its purpose is calibration: `chess:luck=q` is a chess whose luck is known
//! by construction, so the study can map a variant's luck measures onto the
//! `q` of its dice-free twin. Every consumer (search, MCTS, the luck
//! valuation, paired dice, records, FEN, envs, playouts) sees these nodes
//! like any die: the outcomes are listed with their exact probabilities.
//!
//! Outcome ids follow the wrapped variant's own (`0..B` where `B` is its
//! `max_chance_outcomes()`): `B` is `free`, `B + 1` is `random`, `B + 2 + j`
//! draws the `j`-th legal decision (in [`Game::legal_moves`] order) of the
//! drawn block, `B + 2 + 64 + b` draws block `b`. An outcome list holds at
//! most [`MAX_OUTCOMES`] entries, so a position with more than 64 legal
//! decisions draws in two steps: a block of up to 64 decisions (with
//! probability its size over the total), then a decision within it; every
//! legal decision stays exactly equally likely.

use super::*;
use crate::board::{Move, MoveList, Position};
use crate::encode::ActionLayout;
use serde::{de::DeserializeOwned, Deserialize, Serialize};

/// Largest number of decisions one drawing node lists (the outcome list's capacity).
const BLOCK: usize = MAX_OUTCOMES;

/// Where a luck-wrapped game stands between the wrapped game's nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LuckPhase {
    /// The wrapped game's own node (a free decision after the coin said
    /// `free`, a die of its own, or the end).
    Own,
    /// At a decision of the wrapped game: the coin is still to be tossed.
    Coin,
    /// The coin said `random`: a legal decision (or, beyond 64 of them, a
    /// block of decisions) is to be drawn.
    Draw,
    /// Beyond 64 legal decisions: block `b` was drawn, a decision within it
    /// is to be drawn.
    Block(u8),
}

/// A game of any variant with the luck dial set.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(bound(serialize = "G: Serialize", deserialize = "G: DeserializeOwned"))]
pub struct Lucky<G> {
    inner: G,
    luck: f64,
    phase: LuckPhase,
    /// The start's FEN, luck field included, when its phase is not the one
    /// the position implies (so that `options()` restarts the same game).
    start_fen: Option<String>,
}

/// The FEN field of `phase` (`luck:-`, `luck:?`, `luck:*`, `luck:*3`).
fn phase_field(phase: LuckPhase) -> String {
    match phase {
        LuckPhase::Own => "luck:-".into(),
        LuckPhase::Coin => "luck:?".into(),
        LuckPhase::Draw => "luck:*".into(),
        LuckPhase::Block(b) => format!("luck:*{}", b as u32 + 1),
    }
}

/// Splits a trailing `luck:…` field off a FEN (`None` when there is none).
pub fn split_luck_field(fen: &str) -> (&str, Option<&str>) {
    let t = fen.trim_end();
    match t.rsplit_once(char::is_whitespace) {
        Some((head, last)) if last.starts_with("luck:") => (head.trim_end(), Some(last)),
        _ => (t, None),
    }
}

/// Checks a luck level: a number in `[0, 1]`.
pub fn check_luck(q: f64) -> Result<f64, GameError> {
    if q.is_finite() && (0.0..=1.0).contains(&q) {
        Ok(q)
    } else {
        Err(GameError::new(format!(
            "option luck must be a number from 0 to 1 (the probability that a decision is \
             replaced by a uniformly random legal one), got {q}"
        )))
    }
}

impl<G: Game> Lucky<G> {
    /// Wraps `inner` with luck `q` (checked by [`check_luck`]; `q > 0`).
    /// `field`: the FEN's `luck:` field, if it had one; without it a
    /// decision starts with the coin to toss.
    pub fn new(inner: G, q: f64, field: Option<&str>) -> Result<Lucky<G>, GameError> {
        let q = check_luck(q)?;
        let mut g = Lucky {
            inner,
            luck: q,
            phase: LuckPhase::Own,
            start_fen: None,
        };
        g.settle();
        if let Some(f) = field {
            let phase = g.parse_field(f)?;
            if phase != g.phase {
                g.phase = phase;
                g.start_fen = Some(g.fen());
            }
        }
        Ok(g)
    }

    /// The wrapped game.
    pub fn inner(&self) -> &G {
        &self.inner
    }
    /// The luck level `q`.
    pub fn luck(&self) -> f64 {
        self.luck
    }
    /// The phase between the wrapped game's nodes.
    pub fn phase(&self) -> LuckPhase {
        self.phase
    }

    fn parse_field(&self, f: &str) -> Result<LuckPhase, GameError> {
        let at_decision = matches!(self.inner.node(), Node::Decision(_));
        let bad = |why: &str| {
            GameError::new(format!(
                "FEN field {f:?}: {why} (allowed: luck:- for the game's own node, and at a \
                 decision luck:? for the coin to toss, luck:* for a random decision to draw, \
                 luck:*N for one to draw from block N of 64 when there are more than 64)"
            ))
        };
        let phase = match f.strip_prefix("luck:") {
            Some("-") => return Ok(LuckPhase::Own),
            Some("?") => LuckPhase::Coin,
            Some("*") => LuckPhase::Draw,
            Some(rest) => {
                let Some(k) = rest.strip_prefix('*').and_then(|k| k.parse::<usize>().ok()) else {
                    return Err(bad("unreadable"));
                };
                let n = self.decisions(&mut MoveList::new());
                if n <= BLOCK || k == 0 || k > n.div_ceil(BLOCK) {
                    return Err(bad(&format!(
                        "there is no block {k} of {n} legal decisions"
                    )));
                }
                LuckPhase::Block((k - 1) as u8)
            }
            None => return Err(bad("unreadable")),
        };
        if at_decision {
            Ok(phase)
        } else {
            Err(bad("the coin and the draw come only before a decision"))
        }
    }

    /// The phase the wrapped game's node implies: the coin before each decision.
    #[inline]
    fn settle(&mut self) {
        self.phase = match self.inner.node() {
            Node::Decision(_) => LuckPhase::Coin,
            _ => LuckPhase::Own,
        };
    }

    /// The wrapped game's legal decisions into `ml`; their number.
    #[inline]
    fn decisions(&self, ml: &mut MoveList) -> usize {
        self.inner.legal_moves(ml);
        ml.len()
    }

    /// First outcome id past the wrapped game's.
    #[inline]
    fn base(&self) -> Action {
        self.inner.max_chance_outcomes() as Action
    }
}

impl<G: Game> Game for Lucky<G> {
    fn variant(&self) -> &'static str {
        self.inner.variant()
    }
    fn node(&self) -> Node {
        match self.phase {
            LuckPhase::Own => self.inner.node(),
            _ => Node::Chance,
        }
    }
    fn position(&self) -> &Position {
        self.inner.position()
    }
    fn layout(&self) -> ActionLayout {
        self.inner.layout()
    }
    fn legal_moves(&self, out: &mut MoveList) {
        if self.phase == LuckPhase::Own {
            self.inner.legal_moves(out);
        } else {
            out.clear();
        }
    }
    fn play(&mut self, mv: Move) {
        self.inner.play(mv);
        self.settle();
    }
    fn random_legal_move(&self, rng: &mut GameRng, buf: &mut MoveList) -> Move {
        self.inner.random_legal_move(rng, buf)
    }
    fn chance_outcomes(&self, out: &mut Outcomes) {
        out.clear();
        let base = self.base();
        match self.phase {
            LuckPhase::Own => self.inner.chance_outcomes(out),
            LuckPhase::Coin => {
                if self.luck < 1.0 {
                    out.add(base, 1.0 - self.luck);
                }
                out.add(base + 1, self.luck);
            }
            LuckPhase::Draw => {
                let n = self.decisions(&mut MoveList::new());
                if n <= BLOCK {
                    for j in 0..n {
                        out.add(base + 2 + j as Action, 1.0 / n as f64);
                    }
                } else {
                    for b in 0..n.div_ceil(BLOCK) {
                        let size = BLOCK.min(n - b * BLOCK);
                        out.add(base + 2 + (BLOCK + b) as Action, size as f64 / n as f64);
                    }
                }
            }
            LuckPhase::Block(b) => {
                let n = self.decisions(&mut MoveList::new());
                let size = BLOCK.min(n - b as usize * BLOCK);
                for j in 0..size {
                    out.add(base + 2 + j as Action, 1.0 / size as f64);
                }
            }
        }
    }
    fn chance_table(&self) -> Option<&ChanceTable> {
        match self.phase {
            LuckPhase::Own => self.inner.chance_table(),
            _ => None,
        }
    }
    fn apply_outcome(&mut self, outcome: Action) {
        let base = self.base();
        match self.phase {
            LuckPhase::Own => {
                self.inner.apply_outcome(outcome);
                self.settle();
            }
            LuckPhase::Coin => {
                self.phase = if outcome == base {
                    LuckPhase::Own
                } else {
                    LuckPhase::Draw
                };
            }
            LuckPhase::Draw | LuckPhase::Block(_) => {
                let j = outcome.saturating_sub(base + 2) as usize;
                let mut ml = MoveList::new();
                let n = self.decisions(&mut ml);
                let index = match self.phase {
                    LuckPhase::Draw if n > BLOCK => {
                        self.phase = LuckPhase::Block((j - BLOCK) as u8);
                        return;
                    }
                    LuckPhase::Block(b) => b as usize * BLOCK + j,
                    _ => j,
                };
                debug_assert!(index < n, "luck draw {index} of {n} decisions");
                self.inner.play(ml[index.min(n - 1)]);
                self.settle();
            }
        }
    }
    fn outcome_name(&self, outcome: Action) -> String {
        let base = self.base();
        if outcome < base {
            return self.inner.outcome_name(outcome);
        }
        match outcome - base {
            0 => "free".into(),
            1 => "random".into(),
            k if (k as usize) < 2 + BLOCK => {
                let j = k as usize - 2;
                let index = match self.phase {
                    LuckPhase::Block(b) => b as usize * BLOCK + j,
                    _ => j,
                };
                let mut ml = MoveList::new();
                let n = self.decisions(&mut ml);
                if index < n && matches!(self.phase, LuckPhase::Draw | LuckPhase::Block(_)) {
                    self.inner.san(ml[index])
                } else {
                    format!("draw{}", j + 1)
                }
            }
            k => format!("block{}", k as usize - 2 - BLOCK + 1),
        }
    }
    fn max_chance_outcomes(&self) -> usize {
        self.inner.max_chance_outcomes() + 2 + 2 * BLOCK
    }
    fn progress(&self) -> &Progress {
        self.inner.progress()
    }
    fn termination(&self) -> Option<Termination> {
        self.inner.termination()
    }
    fn winner(&self) -> Option<Player> {
        self.inner.winner()
    }
    fn san(&self, mv: Move) -> String {
        self.inner.san(mv)
    }
    fn fen(&self) -> String {
        format!("{} {}", self.inner.fen(), phase_field(self.phase))
    }
    fn plies(&self) -> u32 {
        self.inner.plies()
    }
    fn max_plies(&self) -> u32 {
        self.inner.max_plies()
    }
    fn color_of(&self, player: Player) -> crate::board::Color {
        self.inner.color_of(player)
    }
    fn repetitions(&self) -> u32 {
        self.inner.repetitions()
    }
    fn extra_planes(&self) -> &'static [&'static str] {
        self.inner.extra_planes()
    }
    fn write_extra_planes(&self, view: crate::board::Color, out: &mut [f32]) {
        self.inner.write_extra_planes(view, out)
    }
    fn roller(&self) -> crate::board::Color {
        match self.phase {
            LuckPhase::Own => self.inner.roller(),
            _ => self.position().turn(),
        }
    }
    fn describe_state(&self) -> Vec<String> {
        let mut lines = self.inner.describe_state();
        let what = match self.phase {
            LuckPhase::Own => return lines,
            LuckPhase::Coin => "the luck coin is to be tossed".to_string(),
            LuckPhase::Draw => "a random legal decision is to be drawn".to_string(),
            LuckPhase::Block(b) => format!(
                "a random legal decision is to be drawn from block {}",
                b + 1
            ),
        };
        lines.push(format!("luck {}: {what}", self.luck));
        lines
    }
    fn explain_disallowed(&self, mv: Move) -> Option<String> {
        self.inner.explain_disallowed(mv)
    }
    fn explain_unparsable(&self, text: &str) -> Option<String> {
        self.inner.explain_unparsable(text)
    }
    fn parse_decision(&self, text: &str) -> Option<Result<Move, String>> {
        self.inner.parse_decision(text)
    }
    fn check_invariants(&self) -> Result<(), String> {
        self.inner.check_invariants()?;
        let at_decision = matches!(self.inner.node(), Node::Decision(_));
        match self.phase {
            LuckPhase::Own => Ok(()),
            _ if !at_decision => Err(format!(
                "luck phase {:?} while the wrapped game is at {:?}",
                self.phase,
                self.inner.node()
            )),
            LuckPhase::Block(b) => {
                let n = self.decisions(&mut MoveList::new());
                if n > BLOCK && (b as usize) < n.div_ceil(BLOCK) {
                    Ok(())
                } else {
                    Err(format!("luck block {b} of {n} decisions"))
                }
            }
            _ => Ok(()),
        }
    }
    fn options(&self) -> Options {
        let mut o = self.inner.options();
        if let Some(fen) = &self.start_fen {
            o.insert("fen".into(), fen.clone().into());
        }
        o.insert("luck".into(), serde_json::json!(self.luck));
        o
    }
    fn extras(&self) -> Extras {
        self.inner.extras()
    }
    fn search_key(&self) -> u64 {
        let phase = match self.phase {
            LuckPhase::Own => 0,
            LuckPhase::Coin => 1,
            LuckPhase::Draw => 2,
            LuckPhase::Block(b) => 3 + b as u64,
        };
        mix_key(self.inner.search_key(), phase)
    }
    // search_null: none (a coin precedes every decision).
    fn search_play(&mut self, mv: Move) {
        self.inner.search_play(mv);
        self.settle();
    }
    fn search_tactical_candidates(&self, out: &mut MoveList) {
        if self.phase == LuckPhase::Own {
            self.inner.search_tactical_candidates(out);
        } else {
            out.clear();
        }
    }
    fn search_roll_roles(&self, outcome: Action) -> Option<crate::board::RoleSet> {
        match self.phase {
            LuckPhase::Own => self.inner.search_roll_roles(outcome),
            _ => None,
        }
    }
    fn search_roll_dice(&self, outcome: Action) -> Option<[u8; 6]> {
        match self.phase {
            LuckPhase::Own => self.inner.search_roll_dice(outcome),
            _ => None,
        }
    }
    fn search_dice_left(&self) -> Option<[u8; 6]> {
        match self.phase {
            LuckPhase::Own => self.inner.search_dice_left(),
            _ => None,
        }
    }
    // search_moves_left: 0 (the default): a coin precedes every decision,
    // so the board's mates are not the game's.
}
