//! Regression tests of issue 72 (hardening, third round): non-ASCII text
//! in every parser, record readers that refuse what they cannot read whole.

use dicechess::record::{jsonl, pgn};
use dicechess::variants::{api, AnyGame, Game, Node, Options, VARIANTS};
use dicechess::with_game;

/// Characters of 2, 3 and 4 bytes in UTF-8 (and one combining mark), so
/// that any byte index a parser computes from ASCII assumptions lands
/// inside one of them somewhere.
const WIDE: [char; 6] = ['é', '€', '\u{301}', '🂡', '一', '\u{fe0f}'];

/// `text` with each wide character inserted at and substituted for each
/// character position (and a few whole hostile strings).
fn hostile_variants(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    for &w in &WIDE {
        for i in 0..=chars.len() {
            let mut ins = chars.clone();
            ins.insert(i, w);
            out.push(ins.iter().collect());
            if i < chars.len() {
                let mut sub = chars.clone();
                sub[i] = w;
                out.push(sub.iter().collect());
            }
        }
        out.push(format!("{w}1"));
        out.push(format!("{w}{w}"));
        out.push(format!("{w}1{w}2"));
    }
    out
}

/// A small deterministic generator for walking games (xorshift64).
fn next(state: &mut u64) -> usize {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state as usize
}

/// Every variant's move and outcome parser, at every kind of node of a
/// random game, on legal texts with wide characters spliced in: an error or
/// a legal action, never a panic (issue 72, defect 1: Cubic Checkers split
/// `"€1"` at byte 2), and the state unchanged.
#[test]
fn move_text_with_non_ascii_characters_never_panics() {
    for v in VARIANTS {
        let mut g = AnyGame::new(v, &Options::new()).unwrap();
        let mut rng = 0x9e37_79b9_7f4a_7c15u64 ^ v.len() as u64;
        for _ in 0..40 {
            let node = with_game!(&g, x => x.node());
            let actions = match node {
                Node::Terminal => break,
                Node::Chance => {
                    let mut o = dicechess::variants::Outcomes::new();
                    with_game!(&g, x => x.chance_outcomes(&mut o));
                    o.as_slice().iter().map(|x| x.0).collect::<Vec<_>>()
                }
                Node::Decision(_) => with_game!(&g, x => api::legal_actions(x)),
            };
            let before = with_game!(&g, x => x.fen());
            // A few legal texts per node keep the test quick.
            for k in 0..actions.len().min(4) {
                let a = actions[(k * 7 + next(&mut rng)) % actions.len()];
                let text = with_game!(&g, x => api::action_to_string(x, a)).unwrap();
                for t in hostile_variants(&text) {
                    if let Ok(b) = with_game!(&g, x => api::string_to_action(x, &t)) {
                        assert!(actions.contains(&b), "{v}: {t:?} parsed to {b}, not legal");
                    }
                    assert_eq!(with_game!(&g, x => x.fen()), before, "{v}: {t:?}");
                }
            }
            let a = actions[next(&mut rng) % actions.len()];
            with_game!(&mut g, x => api::apply_action(x, a)).unwrap();
        }
    }
}

/// FENs with wide characters spliced in, for every variant: an error or a
/// game, never a panic.
#[test]
fn fens_with_non_ascii_characters_never_panic() {
    for v in VARIANTS {
        let g = AnyGame::new(v, &Options::new()).unwrap();
        let fen = with_game!(&g, x => x.fen());
        for t in hostile_variants(&fen) {
            let mut o = Options::new();
            o.insert("fen".into(), t.clone().into());
            let _ = AnyGame::new(v, &o);
        }
    }
}

/// Agent specs and records with wide characters: errors, never panics.
#[test]
fn specs_and_records_with_non_ascii_characters_never_panic() {
    for spec in [
        "search:nodes=20",
        "mcts:sims=10",
        "expectimax:depth=1",
        "random",
    ] {
        for t in hostile_variants(spec) {
            let _ = dicechess::agents::AgentSpec::parse(&t);
        }
    }
    for v in ["chess", "cubic_checkers", "cubic", "vegas", "fluky"] {
        let text = format!("[Variant \"{v}\"]\n\n1. 🂡 *\n");
        assert!(pgn::read(&text).is_err(), "{v}");
        for t in hostile_variants(&format!("[Variant \"{v}\"]\n1. e4 *")) {
            let _ = pgn::read(&t);
        }
        let line = format!("{{\"variant\": \"{v}\", \"actions\": []}}");
        for t in hostile_variants(&line) {
            let _ = jsonl::read(&t);
        }
    }
}

/// An action id outside the action space raises even with
/// `lose_on_illegal` (issue 72, defect 8): only an in-space illegal action
/// is a policy's loss.
#[test]
fn out_of_space_actions_raise_even_when_illegal_actions_lose() {
    use dicechess::sim::episode::{Episode, Side};
    let start = AnyGame::new("chess", &Options::new()).unwrap();
    let n = with_game!(&start, x => x.layout().num_actions()) as i64;
    let mut e = Episode::new(start.clone(), Side::Both, None, true).unwrap();
    e.reset(&start, 0, 0);
    for bad in [-1, n, 1_000_000_000, i64::MAX, i64::MIN] {
        assert!(e.play(bad).is_err(), "{bad}");
        assert!(!e.over(), "{bad}");
    }
    // In the space but illegal: the mover's loss.
    e.play(0).unwrap();
    assert!(e.over());
}

/// A PGN cut short (inside its tags or its moves) is an error where the
/// text ends, not a game of fewer moves (issue 72, defect 11).
#[test]
fn pgn_cut_short_is_an_error_with_line_and_column() {
    let e = pgn::read("[Event \"?\"]\n[Site \"?\"]").unwrap_err();
    assert_eq!((e.line, e.column), (2, 11), "{e}");
    assert!(e.message.contains("after its tags"), "{e}");
    let e = pgn::read("[Event \"?\"]\n\n1. e4 e5\n").unwrap_err();
    assert_eq!((e.line, e.column), (4, 1), "{e}");
    assert!(e.message.contains("after its moves"), "{e}");
    // A whole game, then a cut one: still an error.
    assert!(pgn::read("1. e4 *\n\n[Event \"?\"]\n").is_err());
    assert_eq!(pgn::read("1. e4 *\n").unwrap().len(), 1);
    assert!(pgn::read("").unwrap().is_empty());
}

/// A JSON Lines field that is not one of the record's (a misspelling) is
/// an error naming it and its column, not a default (issue 72, defect 11).
#[test]
fn jsonl_unknown_fields_are_errors_with_their_column() {
    let good = r#"{"variant":"chess","options":{"max_plies":200},"actions":[]}"#;
    let rec = jsonl::read_line(good, 3).unwrap();
    assert_eq!(rec.options["max_plies"], 200);
    let bad = good.replace("\"options\"", "\"optoins\"");
    let e = jsonl::read_line(&bad, 3).unwrap_err();
    assert_eq!((e.line, e.column), (3, 20), "{e}");
    assert!(e.message.contains("unknown field \"optoins\""), "{e}");
    // A line cut short is not JSON: an error with its column.
    let e = jsonl::read(&format!("{good}\n{}", &good[..30])).unwrap_err();
    assert_eq!(e.line, 2, "{e}");
}

/// A range of games reads only what it needs: the games before are only
/// tokenised, nothing after the last one is read (issue 72, defect 7: a
/// 6 MB text of 3,000,000 empty games took 63 s and 3.77 GB for game 1).
#[test]
fn a_range_of_pgn_games_reads_only_up_to_the_last_one_wanted() {
    let bomb = "* ".repeat(3_000_000);
    let recs = pgn::read_range(&bomb, 2_999_999, Some(5)).unwrap();
    assert_eq!(recs.len(), 1);
    assert_eq!(pgn::read_range(&bomb, 0, Some(2)).unwrap().len(), 2);
    assert!(pgn::read_range(&bomb, 0, Some(0)).unwrap().is_empty());
    // The third game is illegal and the text then cut: never read.
    let text = "1. e4 *\n1. d4 *\n1. e4 e5 2. Ke3 *\n[Event";
    let recs = pgn::read_range(text, 1, Some(1)).unwrap();
    assert_eq!(recs.len(), 1);
    assert!(pgn::read_range(text, 0, None).is_err());
}
