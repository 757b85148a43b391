//! The action-level API shared by every variant: fixed action ids, strings,
//! validation with clear errors, returns, observations, perft.

use super::*;
use crate::board::Move;
use crate::encode::observation::{write_common, COMMON_PLANES};
use crate::notation::san::parse_move;

/// Legal actions: move ids at decision nodes, outcome ids at chance nodes,
/// none at terminal states. Sorted ascending.
pub fn legal_actions<G: Game>(g: &G) -> Vec<Action> {
    let mut v = match g.node() {
        Node::Terminal => Vec::new(),
        Node::Chance => {
            let mut o = Outcomes::new();
            g.chance_outcomes(&mut o);
            o.as_slice().iter().map(|x| x.0).collect()
        }
        Node::Decision(_) => {
            let mut ml = MoveList::new();
            g.legal_moves(&mut ml);
            let (layout, turn) = (g.layout(), g.position().turn());
            ml.iter().map(|&m| layout.encode(m, turn)).collect()
        }
    };
    v.sort_unstable();
    v
}

/// Length of the legal-action mask at this node: the number of distinct
/// actions at decision nodes, of chance outcome ids at chance nodes.
pub fn mask_len<G: Game>(g: &G) -> usize {
    match g.node() {
        Node::Chance => g.max_chance_outcomes(),
        _ => g.layout().num_actions(),
    }
}

/// The legal move behind a decision action id.
pub fn move_for_action<G: Game>(g: &G, action: Action) -> Option<Move> {
    let mut ml = MoveList::new();
    g.legal_moves(&mut ml);
    let (layout, turn) = (g.layout(), g.position().turn());
    ml.iter()
        .copied()
        .find(|&m| layout.encode(m, turn) == action)
}

fn describe_action_range<G: Game>(g: &G) -> String {
    match g.node() {
        Node::Chance => {
            let mut o = Outcomes::new();
            g.chance_outcomes(&mut o);
            let names: Vec<String> = o
                .as_slice()
                .iter()
                .map(|&(id, _)| format!("{id} ({})", g.outcome_name(id)))
                .collect();
            format!("the outcomes here are {}", names.join(", "))
        }
        Node::Decision(_) => {
            let n = legal_actions(g).len();
            format!(
                "there are {n} legal actions here (ids below {})",
                g.layout().num_actions()
            )
        }
        Node::Terminal => "the game is over".into(),
    }
}

/// The variant's explanation (see [`Game::explain_disallowed`]) for a decision
/// action that the board allows but the variant does not, if any.
fn explain_action<G: Game>(g: &G, action: Action) -> Option<String> {
    let (layout, turn) = (g.layout(), g.position().turn());
    let mv = if layout.pass_action() == Some(action) {
        Move::NULL
    } else {
        let mut ml = MoveList::new();
        g.position().legal_moves(&mut ml);
        ml.iter()
            .copied()
            .find(|&m| layout.encode(m, turn) == action)?
    };
    g.explain_disallowed(mv)
}

/// Applies an action after checking it; on error the state is unchanged.
pub fn apply_action<G: Game>(g: &mut G, action: Action) -> Result<(), GameError> {
    match g.node() {
        Node::Terminal => Err(GameError::new(format!(
            "cannot apply action {action}: the game is over ({})",
            g.termination().map(|t| t.name()).unwrap_or("terminal")
        ))),
        Node::Chance => {
            let mut o = Outcomes::new();
            g.chance_outcomes(&mut o);
            if o.as_slice().iter().any(|x| x.0 == action) {
                g.apply_outcome(action);
                Ok(())
            } else {
                Err(GameError::new(format!(
                    "action {action} is not a chance outcome at this chance node; {}",
                    describe_action_range(g)
                )))
            }
        }
        Node::Decision(_) => match move_for_action(g, action) {
            Some(m) => {
                g.play(m);
                Ok(())
            }
            None => Err(GameError::new(match explain_action(g, action) {
                Some(why) => format!("action {action} is not allowed: {why}"),
                None => format!(
                    "action {action} is not legal at this decision node{}; {}",
                    if (action as usize) < g.layout().num_actions() {
                        String::new()
                    } else {
                        " (out of range)".into()
                    },
                    describe_action_range(g)
                ),
            })),
        },
    }
}

/// SAN / `pass` at decision nodes, the outcome name at chance nodes.
pub fn action_to_string<G: Game>(g: &G, action: Action) -> Result<String, GameError> {
    match g.node() {
        Node::Chance => {
            if (action as usize) < g.max_chance_outcomes() {
                Ok(g.outcome_name(action))
            } else {
                Err(GameError::new(format!(
                    "action {action} is not a chance outcome id of this variant (ids below {})",
                    g.max_chance_outcomes()
                )))
            }
        }
        Node::Decision(_) => match move_for_action(g, action) {
            Some(m) => Ok(g.san(m)),
            None => Err(GameError::new(format!(
                "action {action} is not legal here, so it has no move text; {}",
                describe_action_range(g)
            ))),
        },
        Node::Terminal => Err(GameError::new("the game is over: there are no actions")),
    }
}

/// Parses SAN, UCI (`e2e4`), long algebraic (`e2-e4`), `pass`/`0000` at
/// decision nodes and outcome names at chance nodes.
pub fn string_to_action<G: Game>(g: &G, text: &str) -> Result<Action, GameError> {
    match g.node() {
        Node::Terminal => Err(GameError::new(format!(
            "cannot parse {text:?}: the game is over"
        ))),
        Node::Chance => {
            let mut o = Outcomes::new();
            g.chance_outcomes(&mut o);
            let t = text.trim();
            // An exact name first: the luck dial names its draws by SAN,
            // where `Bxc5` and `bxc5` can both be outcomes.
            let slice = o.as_slice();
            slice
                .iter()
                .find(|&&(id, _)| g.outcome_name(id) == t)
                .or_else(|| {
                    slice
                        .iter()
                        .find(|&&(id, _)| g.outcome_name(id).eq_ignore_ascii_case(t))
                })
                .map(|x| x.0)
                .ok_or_else(|| {
                    let names: Vec<String> = o
                        .as_slice()
                        .iter()
                        .map(|&(id, _)| g.outcome_name(id))
                        .collect();
                    GameError::new(format!(
                        "{text:?} is not an outcome of this chance node; outcomes: {}",
                        names.join(", ")
                    ))
                })
        }
        Node::Decision(_) => {
            let mut ml = MoveList::new();
            g.legal_moves(&mut ml);
            let (layout, turn) = (g.layout(), g.position().turn());
            let t = text.trim();
            if t.eq_ignore_ascii_case("pass") || t == "0000" || t == "--" {
                return if ml.contains(Move::NULL) {
                    Ok(layout.encode(Move::NULL, turn))
                } else {
                    Err(GameError::new(
                        g.explain_disallowed(Move::NULL).unwrap_or_else(|| {
                            format!("passing is not allowed here ({})", g.variant())
                        }),
                    ))
                };
            }
            if let Some(parsed) = g.parse_decision(t) {
                return parsed
                    .map(|m| layout.encode(m, turn))
                    .map_err(GameError::new);
            }
            let moves: Vec<Move> = ml.iter().copied().filter(|m| !m.is_null()).collect();
            parse_move(g.position(), &moves, t)
                .map(|m| layout.encode(m, turn))
                .map_err(|e| {
                    // A move the board allows but the variant does not: say why.
                    let mut all = MoveList::new();
                    g.position().legal_moves(&mut all);
                    match parse_move(g.position(), all.as_slice(), t)
                        .ok()
                        .and_then(|m| g.explain_disallowed(m))
                    {
                        Some(why) => GameError::new(format!("{t:?} is not allowed: {why}")),
                        None => match g.explain_unparsable(t) {
                            Some(why) => {
                                GameError::new(format!("{t:?} is not a legal move here: {why}"))
                            }
                            None => GameError::new(e),
                        },
                    }
                })
        }
    }
}

/// Returns per player: +1 win, -1 loss, 0 draw, truncated or not over.
pub fn returns<G: Game>(g: &G) -> [f64; 2] {
    match g.winner() {
        Some(0) => [1.0, -1.0],
        Some(_) => [-1.0, 1.0],
        None => [0.0, 0.0],
    }
}

/// The deciding player, `-1` at chance nodes, `-4` at terminal states
/// (OpenSpiel's constants).
pub fn current_player<G: Game>(g: &G) -> i32 {
    match g.node() {
        Node::Chance => -1,
        Node::Decision(p) => p as i32,
        Node::Terminal => -4,
    }
}

/// Plane names of the variant's observation tensor.
pub fn observation_planes<G: Game>(g: &G) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = COMMON_PLANES.to_vec();
    v.extend_from_slice(g.extra_planes());
    v
}

/// `(planes, ranks, files)` of the observation tensor.
pub fn observation_shape<G: Game>(g: &G) -> [usize; 3] {
    let geo = g.position().geometry();
    [
        observation_planes(g).len(),
        geo.ranks as usize,
        geo.files as usize,
    ]
}

/// Writes the observation tensor for `player` (`out` has the full shape).
pub fn write_observation<G: Game>(g: &G, player: Player, out: &mut [f32]) {
    let view = g.color_of(player);
    let to_move = g.node() == Node::Decision(player);
    let frac = g.plies() as f32 / g.max_plies().max(1) as f32;
    write_common(g.position(), out, view, to_move, g.repetitions(), frac);
    let n = g.position().geometry().num_squares();
    g.write_extra_planes(view, &mut out[COMMON_PLANES.len() * n..]);
}

/// The deepest perft [`perft`] accepts (deeper counts take hours).
pub const MAX_PERFT_DEPTH: u32 = 12;

/// Perft of a game of any variant: for orthodox chess the standard count
/// of the board's move tree (draw rules ignored, as published perft counts
/// are), for every other variant [`game_perft`]. Depths above
/// [`MAX_PERFT_DEPTH`] are an error.
pub fn perft(g: &AnyGame, depth: u32) -> Result<u64, GameError> {
    if depth > MAX_PERFT_DEPTH {
        return Err(GameError::new(format!(
            "depth must be at most {MAX_PERFT_DEPTH}, got {depth}"
        )));
    }
    Ok(match g {
        AnyGame::Chess(c) => crate::perft::perft(c.position(), depth),
        #[allow(unreachable_patterns)]
        other => crate::with_game!(other, x => game_perft(x, depth)),
    })
}

/// Leaf count of the full game tree to `depth` actions (chance outcomes
/// count as plies and branch); terminal states are leaves.
pub fn game_perft<G: Game>(g: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth > 1 && crate::interrupt::requested() {
        return 0; // discarded by the interrupted caller
    }
    match g.node() {
        Node::Terminal => 1,
        Node::Chance => {
            let mut o = Outcomes::new();
            g.chance_outcomes(&mut o);
            o.as_slice()
                .iter()
                .map(|&(id, _)| {
                    let mut c = g.clone();
                    c.apply_outcome(id);
                    game_perft(&c, depth - 1)
                })
                .sum()
        }
        Node::Decision(_) => {
            let mut ml = MoveList::new();
            g.legal_moves(&mut ml);
            if depth == 1 {
                return ml.len() as u64;
            }
            ml.iter()
                .map(|&m| {
                    let mut c = g.clone();
                    c.play(m);
                    game_perft(&c, depth - 1)
                })
                .sum()
        }
    }
}

pub use crate::board::text::board_diagram;

/// `str(state)`: the board, whose turn it is, variant state and the FEN.
pub fn pretty<G: Game>(g: &G) -> String {
    let mut s = board_diagram(g.position());
    for line in status_lines(g) {
        s.push('\n');
        s.push_str(&line);
    }
    s.push_str("\nfen: ");
    s.push_str(&g.fen());
    s
}

/// The lines of `str(state)` between the board and the FEN: whose turn it
/// is (or the result), then the variant's state (dice, stocks, ...).
pub fn status_lines<G: Game>(g: &G) -> Vec<String> {
    let status = match g.node() {
        Node::Terminal => format!(
            "game over: {}{}",
            g.termination().map(|t| t.name()).unwrap_or("?"),
            match g.winner() {
                Some(p) => format!(", player {p} ({}) wins", g.color_of(p).name()),
                None => String::new(),
            }
        ),
        Node::Chance => format!("chance node: {} to roll", g.roller().name()),
        Node::Decision(p) => format!("player {p} ({}) to move", g.position().turn().name()),
    };
    let mut lines = vec![status];
    lines.extend(g.describe_state());
    lines
}
