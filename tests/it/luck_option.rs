//! The luck dial (`luck=q`, docs/rules.md "The luck option"): the coin before
//! every decision, the exact draw of a random legal decision (in two steps
//! beyond 64 of them), FEN and options round trips, the option's errors,
//! and agents playing it.

use crate::common::walk_random_game;
use dicechess::agents::{play_game, Agent, AgentSpec};
use dicechess::board::MoveList;
use dicechess::sim::game_rng;
use dicechess::variants::{api, AnyGame, Game, Node, Options, Outcomes, VARIANTS};
use dicechess::with_game;

fn opts(pairs: &[(&str, serde_json::Value)]) -> Options {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

fn lucky(variant: &str, q: f64) -> AnyGame {
    AnyGame::new(variant, &opts(&[("luck", q.into())])).unwrap()
}

fn outcomes_of(g: &AnyGame) -> Vec<(u32, f64)> {
    let mut o = Outcomes::new();
    with_game!(g, x => x.chance_outcomes(&mut o));
    o.as_slice().to_vec()
}

fn apply(g: &mut AnyGame, name: &str) {
    with_game!(g, x => {
        let a = api::string_to_action(x, name).unwrap_or_else(|e| panic!("{name}: {e}"));
        api::apply_action(x, a).unwrap();
    });
}

/// Chess with luck 0.1: the start is the coin (free 0.9, random 0.1); free
/// leaves White to decide; random lists the 20 legal moves at 1/20 each, and
/// drawing one plays it for White, after which Black's coin is tossed.
#[test]
fn the_coin_and_the_draw_at_the_start_of_chess() {
    let mut g = lucky("chess", 0.1);
    assert_eq!(with_game!(&g, x => x.node()), Node::Chance);
    let coin = outcomes_of(&g);
    let names: Vec<String> = coin
        .iter()
        .map(|&(id, _)| with_game!(&g, x => x.outcome_name(id)))
        .collect();
    assert_eq!(names, ["free", "random"]);
    assert!((coin[0].1 - 0.9).abs() < 1e-12 && (coin[1].1 - 0.1).abs() < 1e-12);

    let mut free = g.clone();
    apply(&mut free, "free");
    assert_eq!(with_game!(&free, x => x.node()), Node::Decision(0));
    assert_eq!(with_game!(&free, x => api::legal_actions(x)).len(), 20);

    apply(&mut g, "random");
    let draw = outcomes_of(&g);
    assert_eq!(draw.len(), 20);
    assert!(draw.iter().all(|&(_, p)| (p - 0.05).abs() < 1e-12));
    apply(&mut g, "Nf3");
    let fen = with_game!(&g, x => x.fen());
    assert_eq!(
        fen,
        "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1 luck:?"
    );
    assert_eq!(with_game!(&g, x => x.plies()), 1);
}

/// With more than 64 legal moves the draw takes a block first (probability
/// its size over the total), then a move within it: every one of the 218
/// moves of this position is drawn with probability exactly 1/218.
#[test]
fn beyond_64_decisions_every_one_stays_equally_likely() {
    let fen = "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1";
    let g = AnyGame::new("chess", &opts(&[("luck", 0.5.into()), ("fen", fen.into())])).unwrap();
    let mut g = g;
    apply(&mut g, "random");
    assert_eq!(with_game!(&g, x => x.fen()), format!("{fen} luck:*"));
    let blocks = outcomes_of(&g);
    assert_eq!(blocks.len(), 4);
    let mut seen = std::collections::HashMap::new();
    for &(b, pb) in &blocks {
        let mut h = g.clone();
        with_game!(&mut h, x => x.apply_outcome(b));
        assert!(with_game!(&h, x => x.fen())
            .ends_with(&format!(" luck:*{}", b as usize - blocks[0].0 as usize + 1)));
        with_game!(&h, x => x.check_invariants()).unwrap();
        // The FEN with the block reads back to the same node.
        let back = AnyGame::new(
            "chess",
            &opts(&[
                ("luck", 0.5.into()),
                ("fen", with_game!(&h, x => x.fen()).into()),
            ]),
        )
        .unwrap();
        assert_eq!(outcomes_of(&back), outcomes_of(&h));
        for (m, pm) in outcomes_of(&h) {
            let name = with_game!(&h, x => x.outcome_name(m));
            *seen.entry(name).or_insert(0.0) += pb * pm;
        }
    }
    assert_eq!(seen.len(), 218);
    for (name, p) in seen {
        assert!((p - 1.0 / 218.0).abs() < 1e-12, "{name}: {p}");
    }
}

/// Luck 1: the coin has one outcome, every decision is random.
#[test]
fn luck_one_leaves_no_free_decision() {
    let g = lucky("gardner", 1.0);
    let coin = outcomes_of(&g);
    assert_eq!(coin.len(), 1);
    assert_eq!(with_game!(&g, x => x.outcome_name(coin[0].0)), "random");
    assert_eq!(coin[0].1, 1.0);
}

/// Random games of every variant with luck: the invariants hold at every
/// state, every chance node's probabilities sum to 1, every FEN reads back
/// to the same state (the same FEN and the same outcomes), and the options
/// restart the game.
#[test]
fn every_variant_with_luck_keeps_its_invariants_and_reads_back() {
    for &v in VARIANTS {
        for (i, q) in [0.25, 0.9].into_iter().enumerate() {
            let mut g = lucky(v, q);
            let start = with_game!(&g, x => x.options());
            let restarted = AnyGame::new(v, &start).unwrap();
            assert_eq!(
                with_game!(&restarted, x => x.fen()),
                with_game!(&g, x => x.fen())
            );
            with_game!(&mut g, x => {
                walk_random_game(x, 7, i as u64, |s, step| {
                    s.check_invariants()
                        .unwrap_or_else(|e| panic!("{v} luck {q} step {step}: {e}"));
                    if s.node() == Node::Chance {
                        let mut o = Outcomes::new();
                        s.chance_outcomes(&mut o);
                        let total: f64 = o.as_slice().iter().map(|x| x.1).sum();
                        assert!((total - 1.0).abs() < 1e-9, "{v}: {total}");
                        assert!(o
                            .as_slice()
                            .iter()
                            .all(|&(id, p)| (id as usize) < s.max_chance_outcomes() && p > 0.0));
                    }
                    if step % 7 == 0 {
                        let fen = s.fen();
                        let mut o = s.options();
                        o.insert("fen".into(), fen.clone().into());
                        o.remove("luck");
                        o.insert("luck".into(), q.into());
                        let back = AnyGame::new(v, &o)
                            .unwrap_or_else(|e| panic!("{v} luck {q}: {fen}: {e}"));
                        if s.node() != Node::Terminal {
                            assert_eq!(with_game!(&back, x => x.fen()), fen, "{v}");
                            assert_eq!(
                                with_game!(&back, x => x.node()),
                                s.node(),
                                "{v}: {fen}"
                            );
                        }
                    }
                });
            });
        }
    }
}

/// The share of random decisions in random playouts is q (a 5-sigma band).
#[test]
fn random_decisions_come_at_rate_q() {
    let q = 0.3;
    let (mut coins, mut random) = (0u32, 0u32);
    for i in 0..40 {
        let mut g = lucky("chess", q);
        let AnyGame::Lucky(ref mut x) = g else {
            panic!("not wrapped")
        };
        let base = x.inner().max_chance_outcomes() as u32;
        let actions = walk_random_game(x, 3, i, |_, _| {});
        let mut replay = lucky("chess", q);
        for a in actions {
            let at_coin = with_game!(&replay, y => y.fen()).ends_with("luck:?");
            if at_coin {
                coins += 1;
                random += (a == base + 1) as u32;
            }
            with_game!(&mut replay, y => api::apply_action(y, a)).unwrap();
        }
    }
    let n = coins as f64;
    let rate = random as f64 / n;
    let sigma = (q * (1.0 - q) / n).sqrt();
    assert!(coins > 1000, "{coins}");
    assert!((rate - q).abs() < 5.0 * sigma, "{rate} over {coins} coins");
}

/// Bad luck values, specs and conflicting options are refused with a message.
#[test]
fn bad_luck_options_are_refused() {
    for (variant, o, needle) in [
        ("chess", opts(&[("luck", (-0.1).into())]), "from 0 to 1"),
        ("chess", opts(&[("luck", 1.5.into())]), "from 0 to 1"),
        (
            "chess",
            opts(&[("luck", "lots".into())]),
            "must be a number",
        ),
        ("chess:luck=2", Options::new(), "from 0 to 1"),
        ("chess:luck", Options::new(), "key=value"),
        ("chess:luck=0.1", opts(&[("luck", 0.2.into())]), "but"),
        (
            "chess:lucky=0.1",
            Options::new(),
            "every variant also takes luck",
        ),
        ("chess:luck=0.1,luck=0.2", Options::new(), "twice"),
        (
            "chess",
            opts(&[
                ("luck", 0.1.into()),
                (
                    "fen",
                    format!("{} luck:*9", dicechess::variants::chess::START_FEN).into(),
                ),
            ]),
            "no block 9",
        ),
        (
            "chess",
            opts(&[
                ("luck", 0.1.into()),
                (
                    "fen",
                    format!("{} luck:x", dicechess::variants::chess::START_FEN).into(),
                ),
            ]),
            "unreadable",
        ),
    ] {
        let err = AnyGame::new(variant, &o)
            .err()
            .unwrap_or_else(|| panic!("{variant} {o:?}"));
        assert!(err.0.contains(needle), "{variant} {o:?}: {err}");
    }
    // Luck 0 is the plain variant.
    assert!(matches!(lucky("chess", 0.0), AnyGame::Chess(_)));
    assert!(matches!(
        AnyGame::new("gardner:luck=0.2", &Options::new()).unwrap(),
        AnyGame::Lucky(_)
    ));
}

/// Every agent kind plays chess and Gardner with luck to the end, and the
/// same seed gives the same game.
#[test]
fn agents_play_games_with_luck() {
    for (v, specs) in [
        ("gardner", ["search:nodes=200", "mcts:sims=16"]),
        ("chess", ["expectimax:depth=1", "search:nodes=100"]),
    ] {
        let play = |seed: u64| {
            let mut g = lucky(v, 0.2);
            let mut agents = specs.map(|s| Agent::new(AgentSpec::parse(s).unwrap()));
            let mut rng = game_rng(seed, 0);
            with_game!(&mut g, x => {
                play_game(x, &mut agents, &mut rng);
                assert_eq!(x.node(), Node::Terminal, "{v}");
                x.fen()
            })
        };
        assert_eq!(play(5), play(5));
    }
    let mut ml = MoveList::new();
    let g = lucky("chess", 0.2);
    with_game!(&g, x => x.legal_moves(&mut ml));
    assert!(ml.is_empty(), "no decisions at the coin");
}

/// Draws are named by SAN, matched exactly before ignoring case: `Bxc5` and
/// `bxc5` are both drawable here and each name reaches its own move.
#[test]
fn draw_names_that_differ_in_case_reach_their_own_moves() {
    let fen = "4k3/8/8/2p5/1P6/8/5B2/4K3 w - - 0 1";
    let mut g = AnyGame::new("chess", &opts(&[("luck", 0.5.into()), ("fen", fen.into())])).unwrap();
    apply(&mut g, "random");
    for (name, after) in [
        ("Bxc5", "4k3/8/8/2B5/1P6/8/8/4K3 b - - 0 1"),
        ("bxc5", "4k3/8/8/2P5/8/8/5B2/4K3 b - - 0 1"),
    ] {
        let mut h = g.clone();
        apply(&mut h, name);
        assert_eq!(with_game!(&h, x => x.fen()), format!("{after} luck:?"));
    }
}

/// A start whose coin was already tossed (`luck:-`) at the default position:
/// the game's own options restart it there, not at the coin.
#[test]
fn options_restart_a_start_after_the_coin() {
    let fen = format!("{} luck:-", dicechess::variants::chess::START_FEN);
    let g = AnyGame::new(
        "chess",
        &opts(&[("luck", 0.2.into()), ("fen", fen.clone().into())]),
    )
    .unwrap();
    assert_eq!(with_game!(&g, x => x.node()), Node::Decision(0));
    let again = AnyGame::new("chess", &with_game!(&g, x => x.options())).unwrap();
    assert_eq!(with_game!(&again, x => x.fen()), fen);
}
