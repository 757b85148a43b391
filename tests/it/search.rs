//! The `search` agent: tactics per variant family (mates in 1-3, winning
//! captures, a roll whose expectation decides), exactness (the pruned
//! search with and without table equals a plain expectimax at fixed depth),
//! determinism of node budgets, and spec errors.

use crate::common::{apply_named, search, walk_random_game};
use dicechess::agents::search::eval::Evaluator;
use dicechess::agents::search::{terminal_value, Engine, Params, MATE};
use dicechess::agents::{eval::Evaluate, Agent, AgentSpec};
use dicechess::board::MoveList;
use dicechess::sim::game_rng;
use dicechess::variants::{
    api, chess::Chess, cubic::Cubic, fluky::Fluky, gardner::Gardner,
    random_move_number::RandomMoveNumber, vegas::Vegas, Game, Node, Options, Outcomes, Player,
};

fn opts(pairs: &[(&str, &str)]) -> Options {
    let mut o = Options::new();
    for (k, v) in pairs {
        o.insert(k.to_string(), (*v).into());
    }
    o
}

fn chess(fen: &str) -> Chess {
    Chess::new(&opts(&[("fen", fen)])).unwrap()
}

/// Chess middlegames from master games (as in the speed bench).
const MIDDLEGAMES: [&str; 4] = [
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
    "r2q1rk1/1p1nbppp/p2pbn2/4p3/4P3/1NN1BP2/PPPQ2PP/R3KB1R w KQ - 1 10",
    "r1bqr1k1/pp1n1pbp/2pp1np1/4p3/2PPP3/2N2NP1/PP3PBP/R1BQR1K1 w - - 0 10",
    "2rq1rk1/pb1nbppp/1p2pn2/2pp4/2PP4/1PN1PN2/PB2BPPP/2RQ1RK1 w - - 0 11",
];

/// Chess positions and the move that wins (a capture, mates in 1-3).
const CHESS_TACTICS: [(&str, &str); 5] = [
    ("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1", "Rxd5"),
    ("r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1", "Ra1#"),
    ("1k6/ppp5/8/8/8/8/5PPP/3R2K1 w - - 0 1", "Rd8#"),
    ("6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", "Rg1+"),
    ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", "Ra6+"),
];

fn best_san<G: Evaluate>(g: &G, spec: &str) -> String {
    g.san(search(g, spec).best)
}

// ---------------------------------------------------------------- tactics

#[test]
fn chess_mates_in_one_two_and_three() {
    let g = chess("1k6/ppp5/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    let r = search(&g, "search:depth=3");
    assert_eq!(g.san(r.best), "Rd8#");
    assert_eq!(r.value, MATE - 1.0);
    // Mate in two (Black to move: player 1).
    let g = chess("6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1");
    let r = search(&g, "search:depth=4");
    assert_eq!(g.san(r.best), "Rg1+");
    assert_eq!(r.value, MATE - 3.0);
    let g = chess("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1");
    let r = search(&g, "search:depth=4");
    assert_eq!(g.san(r.best), "Nf6+");
    assert_eq!(r.value, MATE - 3.0);
    // Mates in three.
    for (fen, first) in [
        (
            "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
            "Bc5+",
        ),
        ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", "Ra6+"),
    ] {
        let g = chess(fen);
        let r = search(&g, "search:depth=6");
        assert_eq!(r.value, MATE - 5.0, "{fen}: {}", g.san(r.best));
        assert_eq!(g.san(r.best), first, "{fen}");
        assert!(r.pv.len() >= 3, "{fen}: pv {:?}", r.pv);
    }
}

#[test]
fn chess_winning_capture_within_a_node_budget() {
    let g = chess("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1");
    assert_eq!(best_san(&g, "search:nodes=2000"), "Rxd5");
    let g = chess("r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1");
    assert_eq!(best_san(&g, "search:nodes=2000"), "Ra1#");
}

/// Chess's pruning (`prune`: reverse futility, late-move and quiet-move
/// futility; `see`: losing captures out of quiescence) reaches deeper on
/// the same node budget (the tactics above are found with it on), and it
/// and the structure terms (`structure`) stay off where the variant does
/// not turn them on.
#[test]
fn chess_pruning_reaches_deeper_at_equal_nodes() {
    let (mut on, mut off) = (0, 0);
    for fen in MIDDLEGAMES {
        let g = chess(fen);
        on += search(&g, "search:nodes=100000").depth;
        off += search(&g, "search:nodes=100000,prune=0,see=0").depth;
    }
    assert!(on >= off + 4, "depths {on} with pruning, {off} without");
    // Outside chess the defaults leave both off: equal trees.
    let g = Fluky::new("fluky", &opts(&[])).unwrap();
    let a = search(&g, "search:nodes=3000");
    let b = search(
        &g,
        "search:nodes=3000,prune=0,see=0,structure=0,iir=0,countermove=0,improving=0,adaptive=0,conthist=0,delta=0",
    );
    assert_eq!(
        (a.best, a.value.to_bits(), a.nodes),
        (b.best, b.value.to_bits(), b.nodes)
    );
}

/// Delta pruning (`delta`): quiescence skips a capture whose victim, with
/// a margin, cannot lift the stand-pat to alpha. At a fixed depth it
/// visits fewer nodes on middlegames and finds the same tactics.
#[test]
fn delta_pruning_saves_quiescence_nodes_and_keeps_the_tactics() {
    let (mut on, mut off) = (0, 0);
    for fen in MIDDLEGAMES {
        let g = chess(fen);
        on += search(&g, "search:depth=6,delta=1").nodes;
        off += search(&g, "search:depth=6,delta=0").nodes;
    }
    assert!(on < off, "nodes {on} with delta pruning, {off} without");
    for (fen, best) in CHESS_TACTICS {
        let g = chess(fen);
        assert_eq!(best_san(&g, "search:nodes=5000,delta=1"), best, "{fen}");
    }
}

/// Dice Chess (two dice) turns the structure terms on (since 2026-12-04),
/// but not chess's pruning.
#[test]
fn dice_chess_evaluates_with_the_structure_terms() {
    use dicechess::variants::dice_chess::DiceChess;
    let mut d = DiceChess::new(&Options::new()).unwrap();
    for roll in ["PN", "PN", "PN"] {
        apply_named(&mut d, roll);
        let a = search(&d, "search:nodes=3000");
        let on = search(&d, "search:nodes=3000,structure=1,prune=0,see=0");
        let off = search(&d, "search:nodes=3000,structure=0");
        assert_eq!(
            (a.best, a.value.to_bits(), a.nodes),
            (on.best, on.value.to_bits(), on.nodes)
        );
        assert_ne!(a.value.to_bits(), off.value.to_bits(), "{roll}");
        d.play(a.best);
        while !matches!(d.node(), Node::Chance) {
            let b = search(&d, "search:nodes=500");
            d.play(b.best);
        }
    }
}

#[test]
fn cubic_mate_and_capture() {
    let g = Cubic::new(&opts(&[("fen", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")])).unwrap();
    assert_eq!(best_san(&g, "search:depth=3"), "Ra8#");
    let g = Cubic::new(&opts(&[("fen", "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1")])).unwrap();
    assert_eq!(best_san(&g, "search:nodes=5000"), "Rxd5");
}

#[test]
fn vegas_mate_and_capture_after_the_roll() {
    let mut g = Vegas::new(&opts(&[("fen", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")])).unwrap();
    apply_named(&mut g, "RR");
    assert_eq!(best_san(&g, "search:depth=3"), "Ra8#");
    let mut g = Vegas::new(&opts(&[("fen", "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1")])).unwrap();
    apply_named(&mut g, "RN");
    assert_eq!(best_san(&g, "search:nodes=5000"), "Rxd5");
}

#[test]
fn fluky_capture_whose_expectation_decides() {
    // The white rook die takes the black rook die; what it becomes is
    // rolled afterwards (a chance node), and the expectation still wins.
    let g = Fluky::new("fluky", &opts(&[("fen", "2k2/5/r4/5/R1K2 w - - 0 1")])).unwrap();
    for spec in [
        "search:depth=2",
        "search:nodes=5000",
        "search:nodes=5000,star2=0",
    ] {
        assert_eq!(best_san(&g, spec), "Rxa3", "{spec}");
    }
}

#[test]
fn rmnc_multi_move_turn_keeps_the_sign() {
    // Player 1 commands White after a colour switch and has 4 moves: the
    // mate must be found by the player, not the colour.
    let mut g =
        RandomMoveNumber::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 throw 0 0 wb 566 2", 1000)
            .unwrap();
    apply_named(&mut g, "6");
    apply_named(&mut g, "4");
    assert_eq!(g.node(), Node::Decision(1));
    let r = search(&g, "search:depth=3");
    assert_eq!(g.san(r.best), "Ra8#");
    assert!(r.value > MATE - 2.0);
}

// ---------------------------------------------------------------- exactness

/// Plain expectimax with the engine's leaf rules and no pruning: the value
/// for `pov` of `g` with `depth` decisions left (chance nodes average in
/// the evaluator's utility).
fn brute<G: Evaluate>(
    ev: &mut Evaluator,
    g: &G,
    depth: i32,
    pov: Player,
    ply: usize,
    chain: u32,
) -> f64 {
    match g.node() {
        Node::Terminal => terminal_value(g, pov, ply),
        Node::Chance => {
            if depth <= 0 || chain >= 4 {
                return ev.at_chance(g, pov, |c| terminal_value(c, pov, ply + 1));
            }
            let mut o = Outcomes::new();
            g.chance_outcomes(&mut o);
            let mut sum = 0.0;
            for &(id, p) in o.as_slice() {
                if p > 0.0 {
                    let mut c = g.clone();
                    c.apply_outcome(id);
                    let v = brute(ev, &c, depth, pov, ply + 1, chain + 1);
                    sum += p * ev.utility.utility(v);
                }
            }
            ev.utility.centipawns(sum)
        }
        Node::Decision(p) => {
            if depth <= 0 {
                return ev.static_value(g, pov);
            }
            let mut ml = MoveList::new();
            g.legal_moves(&mut ml);
            let vals = ml.iter().map(|&m| {
                let mut c = g.clone();
                c.play(m);
                brute(ev, &c, depth - 1, pov, ply + 1, 0)
            });
            let vals: Vec<f64> = vals.collect();
            if p == pov {
                vals.into_iter().fold(f64::NEG_INFINITY, f64::max)
            } else {
                vals.into_iter().fold(f64::INFINITY, f64::min)
            }
        }
    }
}

fn exact_params(depth: u32, tt: bool, star2: bool, pvs: bool) -> Params {
    Params {
        tt,
        star2,
        pvs,
        qsearch: false,
        killers: true,
        history: true,
        ..Params::plain(depth)
    }
}

fn check_exact<G: Evaluate>(g: &G, max_depth: u32) {
    let Node::Decision(me) = g.node() else {
        panic!("not a decision node")
    };
    for depth in 1..=max_depth {
        let want = brute(
            &mut Evaluator::with_set(Params::default().weights),
            g,
            depth as i32,
            me,
            0,
            0,
        );
        for (tt, star2, pvs) in [
            (false, false, false),
            (true, false, false),
            (true, true, false),
            (true, true, true),
            (false, true, true),
        ] {
            let p = exact_params(depth, tt, star2, pvs);
            let r = Engine::new(p).search(g, &mut game_rng(1, 0), (None, None, None), None);
            assert!(
                (r.value - want).abs() < 1e-6,
                "{} depth {depth} tt={tt} star2={star2} pvs={pvs}: {} != {want}",
                g.fen(),
                r.value
            );
        }
    }
}

#[test]
fn pruned_search_with_and_without_table_equals_plain_expectimax() {
    check_exact(
        &chess("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"),
        3,
    );
    check_exact(
        &Cubic::new(&opts(&[("fen", "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1")])).unwrap(),
        3,
    );
    check_exact(
        &Fluky::new("fluky", &opts(&[("fen", "2k2/5/r4/5/R1K2 w - - 0 1")])).unwrap(),
        3,
    );
    check_exact(
        &Fluky::new(
            "metamorph",
            &opts(&[("fen", "2k2/1p3/r4/5/R1K2 w - - 0 1")]),
        )
        .unwrap(),
        2,
    );
    // Rolls with the optional face (`*`): passing is one of the decisions,
    // at the root and below it (it is `Move::NULL`, which the search must
    // not mistake for "no move left out"; it did from 3bbdbac to 83e3e35).
    for (fen, roll) in [
        ("4k3/8/8/3q4/8/8/4P3/3RK3 w - - 0 1", "PN"),
        ("4k3/8/8/3q4/8/8/4P3/3RK3 w - - 0 1", "P*"),
        // Every move of Black's king leaves the centre: after a roll
        // with the optional face, its best reply is the pass.
        ("8/8/5N2/8/3k1P2/8/8/4K3 w - - 0 1", "P*"),
    ] {
        let mut v = Vegas::new(&opts(&[("fen", fen)])).unwrap();
        apply_named(&mut v, roll);
        check_exact(&v, 2);
    }
    let mut r =
        RandomMoveNumber::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 throw 0 0 wb 566 2", 1000)
            .unwrap();
    apply_named(&mut r, "6");
    apply_named(&mut r, "2");
    check_exact(&r, 3);
}

/// The same exactness for the variants added later, whose search keys carry
/// their own state (Cubic Checkers' flags, paused cubes and jumps; the dice
/// games' rolls and dice left).
#[test]
fn pruned_search_equals_plain_expectimax_in_the_newer_variants() {
    use dicechess::variants::cubic_checkers::CubicCheckers;
    use dicechess::variants::dice_chess::DiceChess;
    use dicechess::variants::dice_chess3::DiceChess3;
    use dicechess::variants::gardner::Gardner;
    check_exact(&Gardner::new(&Options::new()).unwrap(), 3);
    // Cubic Checkers from the start and from positions of a random game
    // (jumps allowed, cubes paused, multi-jumps under way).
    let mut g = CubicCheckers::new(&Options::new()).unwrap();
    check_exact(&g, 2);
    let mut rng = game_rng(3, 0);
    let mut ml = MoveList::new();
    for ply in 0..60 {
        if g.node() == Node::Terminal {
            break;
        }
        if ply % 12 == 11 {
            check_exact(&g, 2);
        }
        let m = dicechess::sim::random_move(&g, &mut rng, &mut ml);
        g.play(m);
    }
    let mut d = DiceChess::new(&Options::new()).unwrap();
    apply_named(&mut d, "PN");
    check_exact(&d, 2);
    let mut d3 = DiceChess3::new(&Options::new()).unwrap();
    apply_named(&mut d3, "PNK");
    check_exact(&d3, 2);
}

/// Chance nodes recur within one search (a move allowed by several rolls
/// leads to the same next roll), so the table stores them: the value stays
/// exact (with the table in `check_exact`) and the search is cheaper
/// (798 against 133,529 nodes when measured). Merging outcomes that lead
/// to one state (`merge`, the default) finds most of these recurrences
/// before the table does (470 nodes with or without chance entries), so
/// the table is measured without it.
#[test]
fn chance_nodes_in_the_table_keep_the_value_and_save_nodes() {
    use dicechess::variants::dice_chess::DiceChess;
    let mut d = DiceChess::new(&opts(&[("fen", "r3k3/8/8/8/8/8/8/R3K3 w - - 0 1")])).unwrap();
    apply_named(&mut d, "RK");
    check_exact(&d, 2);
    // The default search, with and without chance entries.
    let with = search(&d, "search:depth=2,merge=0");
    let without = search(&d, "search:depth=2,chance_tt=0,merge=0");
    assert!(
        with.nodes * 10 < without.nodes,
        "{} nodes with chance entries, {} without",
        with.nodes,
        without.nodes
    );
}

// ---------------------------------------------------------------- determinism

#[test]
fn node_budget_search_is_deterministic_across_runs_and_threads() {
    let g = chess("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let first = search(&g, "search:nodes=20000");
    assert_eq!(first.nodes, 20000);
    let runs: Vec<(u16, u64, u64)> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..4)
            .map(|_| {
                s.spawn(|| {
                    let r = search(&g, "search:nodes=20000");
                    (r.best.0, r.value.to_bits(), r.nodes)
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for r in runs {
        assert_eq!(r, (first.best.0, first.value.to_bits(), first.nodes));
    }
    // An agent reused across moves gives what a fresh one gives.
    let spec = AgentSpec::parse("search:nodes=5000").unwrap();
    let mut reused = Agent::new(spec.clone());
    let other = chess("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1");
    reused.select(&other, &mut game_rng(3, 0));
    let a = reused.select(&g, &mut game_rng(5, 0));
    let b = Agent::new(spec).select(&g, &mut game_rng(5, 0));
    assert_eq!(a, b);
}

/// `keep`: a later search of the game starts from what the earlier ones
/// stored (here the same position again: fewer nodes for the same depth);
/// after `new_game` the agent searches as a fresh one does, and without
/// `keep` every search does. Chess keeps by default; Gardner does not.
#[test]
fn a_kept_table_serves_the_next_search_of_the_game_only() {
    fn info<G: Evaluate>(g: &G, a: &mut Agent) -> (u16, u64, u32, u64) {
        let r = a.search_info(g, &mut game_rng(5, 0), (None, None, None), None, None);
        let r = r.unwrap();
        (r.best.0, r.value.to_bits(), r.depth, r.nodes)
    }
    let agent = |s: &str| Agent::new(AgentSpec::parse(s).unwrap());
    let g = chess(MIDDLEGAMES[0]);
    let fresh = info(&g, &mut agent("search:depth=6"));
    let mut plain = agent("search:depth=6,keep=0");
    assert_eq!(info(&g, &mut plain), fresh);
    assert_eq!(info(&g, &mut plain), fresh);
    for spec in ["search:depth=6,keep=1", "search:depth=6"] {
        let mut kept = agent(spec);
        assert_eq!(info(&g, &mut kept), fresh);
        let again = info(&g, &mut kept);
        assert_eq!(again.2, 6);
        assert!(
            again.3 < fresh.3 / 2,
            "{spec}: nodes {} again against {} the first time",
            again.3,
            fresh.3
        );
        kept.new_game();
        assert_eq!(info(&g, &mut kept), fresh, "{spec}");
    }
    // Gardner's default is off: the same search twice is the same search.
    let gardner = Gardner::new(&Options::new()).unwrap();
    let mut a = agent("search:depth=6");
    let first = info(&gardner, &mut a);
    assert_eq!(info(&gardner, &mut a), first);
    let mut kept = agent("search:depth=6,keep=1");
    assert_eq!(info(&gardner, &mut kept), first);
    assert!(info(&gardner, &mut kept).3 < first.3);
}

// ---------------------------------------------------------------- specs

#[test]
fn search_specs_parse_print_and_reject() {
    for s in [
        "search",
        "search:nodes=100",
        "search:ms=50",
        "search:depth=4",
        "search:nodes=1000,ms=20,depth=3",
        "search:nodes=64,tt_mb=2,lmr=0,nmp=0,star2=0,qchance=stop,sample=8",
        "search:nodes=64,hcap=0,hexpand=0",
        "search:nodes=64,qmate=0,hexpand=8",
        "search:nodes=64,qmate=2",
        "search:nodes=64,hcheck=0,futility=1",
        "search:nodes=64,futility=0",
        "search:nodes=64,prune=0,see=1",
        "search:nodes=64,structure=0",
        "search:nodes=64,keep=1",
        "search:nodes=64,keep=0",
        "search:nodes=64,qtt=1",
        "search:nodes=64,corr=1",
        "search:nodes=64,iir=0,countermove=0,improving=0,adaptive=0",
        "search:nodes=64,conthist=1,threats=0",
    ] {
        let spec = AgentSpec::parse(s).unwrap();
        assert_eq!(spec.to_string(), s);
        assert_eq!(AgentSpec::parse(&spec.to_string()).unwrap(), spec);
    }
    for (s, why) in [
        ("search:nodes=-1", "nodes must be an integer"),
        ("search:ms=abc", "ms must be an integer"),
        ("search:depth=0", "depth must be an integer"),
        ("search:speed=3", "unknown parameter \"speed\""),
        ("search:lmr=2", "lmr must be 0 or 1"),
        ("search:hexpand=-1", "hexpand must be an integer"),
        ("search:qmate=3", "qmate must be an integer from 0 to 2"),
        ("search:futility=2", "futility must be 0 or 1"),
        ("search:hcheck=yes", "hcheck must be 0 or 1"),
        ("search:see=2", "see must be 0 or 1"),
        ("search:prune=x", "prune must be 0 or 1"),
        ("search:iir=2", "iir must be 0 or 1"),
        ("search:adaptive=on2", "adaptive must be 0 or 1"),
        ("search:conthist=-1", "conthist must be 0 or 1"),
        ("search:threats=yes", "threats must be 0 or 1"),
        ("search:passers=2", "passers must be 0 or 1"),
        ("search:connected=x", "connected must be 0 or 1"),
        ("search:checks=-1", "checks must be 0 or 1"),
        ("search:delta=2", "delta must be 0 or 1"),
        ("search:keep=2", "keep must be 0 or 1"),
    ] {
        let e = AgentSpec::parse(s).unwrap_err().to_string();
        assert!(e.contains(why), "{s}: {e}");
        assert!(e.contains("nodes, ms, depth"), "{s}: {e}");
    }
}

/// Search keys tell apart states that share a board but differ in the
/// variant's own state (a key without it would merge them in the table).
#[test]
fn search_keys_include_the_variant_state() {
    use dicechess::variants::cubic_checkers::CubicCheckers;
    use dicechess::variants::dice_chess::DiceChess;
    use dicechess::variants::dice_chess3::DiceChess3;
    use std::collections::BTreeSet;
    let board = "1n1r1r1n/b1b1b1b1/8/8/8/8/1B1B1B1B/N1R1R1N1";
    let keys: BTreeSet<u64> = [
        "w - - 0 1",
        "w R - 0 1",
        "w Rr - 0 1",
        "w - c1 0 1",
        "w - - 5 3",
    ]
    .iter()
    .map(|rest| {
        let fen = format!("{board} {rest}");
        CubicCheckers::new(&opts(&[("fen", &fen)]))
            .unwrap_or_else(|e| panic!("{fen}: {e}"))
            .search_key()
    })
    .collect();
    assert_eq!(keys.len(), 5);
    let d = DiceChess::new(&Options::new()).unwrap();
    let rolled = |name: &str| {
        let mut x = d.clone();
        apply_named(&mut x, name);
        x.search_key()
    };
    let keys: BTreeSet<u64> = [d.search_key(), rolled("PN"), rolled("PB"), rolled("QQ")].into();
    assert_eq!(keys.len(), 4);
    let d3 = DiceChess3::new(&Options::new()).unwrap();
    let rolled3 = |name: &str| {
        let mut x = d3.clone();
        apply_named(&mut x, name);
        x
    };
    let mut after = rolled3("PPN");
    let e4 = api::string_to_action(&after, "e3").unwrap();
    api::apply_action(&mut after, e4).unwrap();
    let keys: BTreeSet<u64> = [
        d3.search_key(),
        rolled3("PNK").search_key(),
        rolled3("PPN").search_key(),
        after.search_key(),
    ]
    .into();
    assert_eq!(keys.len(), 4);
}

/// Futility pruning one decision above the horizon (`futility`) skips a
/// move that ends the turn when its static value, an upper bound of its
/// wide horizon value, cannot reach alpha: at a fixed depth the value is
/// unchanged, on positions of random Dice Chess and Vegas games, and the
/// search visits fewer nodes.
#[test]
fn futility_pruning_keeps_the_value_and_saves_nodes() {
    use dicechess::variants::dice_chess::DiceChess;
    // (searches compared, nodes with futility, nodes without)
    let mut totals = (0, 0, 0);
    // Depth 3 in one game (the slow one), depth 2 in all.
    let mut d = DiceChess::new(&Options::new()).unwrap();
    compare_futility(&mut d, 1, &[2, 3], &mut totals);
    let mut d = DiceChess::new(&Options::new()).unwrap();
    compare_futility(&mut d, 2, &[2], &mut totals);
    let mut v = Vegas::new(&Options::new()).unwrap();
    compare_futility(&mut v, 3, &[2], &mut totals);
    let (checked, nodes_on, nodes_off) = totals;
    assert!(checked >= 10, "only {checked} searches compared");
    assert!(
        nodes_on < nodes_off,
        "futility pruning saved no nodes: {nodes_on} against {nodes_off}"
    );
}

/// Searches every tenth state of the first 60 of a random game (seed
/// `seed`) that is a decision node at each of `depths`, with and without
/// `futility`, asserting equal values and adding to `totals`.
fn compare_futility<G: Evaluate>(
    g: &mut G,
    seed: u64,
    depths: &[u32],
    totals: &mut (u32, u64, u64),
) {
    walk_random_game(g, seed, 0, |g, step| {
        if step >= 60 || step % 10 != 9 || !matches!(g.node(), Node::Decision(_)) {
            return;
        }
        for &depth in depths {
            let [on, off] = [true, false].map(|f| {
                let p = Params {
                    futility: Some(f),
                    ..Params::plain(depth)
                };
                Engine::new(p).search(g, &mut game_rng(1, 0), (None, None, None), None)
            });
            assert!(
                (on.value - off.value).abs() < 1e-6,
                "{} step {step} depth {depth}: {} != {}",
                g.fen(),
                on.value,
                off.value
            );
            totals.0 += 1;
            totals.1 += on.nodes;
            totals.2 += off.nodes;
        }
    });
}

/// `qtt`: quiescence's results in the table change no value of a
/// fixed-depth search without pruning (a stored bound is a bound of the
/// same quiescence), and they save nodes.
#[test]
fn quiescence_results_in_the_table_keep_the_value() {
    fn saved_nodes<G: Evaluate>(g: &G, max_depth: u32) -> i64 {
        let mut saved = 0;
        for depth in 1..=max_depth {
            let run = |qtt: bool| {
                let p = Params {
                    tt: true,
                    qtt,
                    ..Params::plain(depth)
                };
                Engine::new(p).search(g, &mut game_rng(1, 0), (None, None, None), None)
            };
            let (a, b) = (run(false), run(true));
            assert!(
                (a.value - b.value).abs() < 1e-9,
                "{} depth {depth}: {} with qtt, {} without",
                g.fen(),
                b.value,
                a.value
            );
            saved += a.nodes as i64 - b.nodes as i64;
        }
        saved
    }
    let mut saved = 0;
    for fen in MIDDLEGAMES.iter().chain(&[
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "6k1/5ppp/8/8/8/2q5/5PPP/3R2K1 w - - 0 1",
    ]) {
        saved += saved_nodes(&chess(fen), 4);
    }
    assert!(saved > 0, "{saved} nodes saved in chess");
    // A decision state of a random game's middle, in two dice variants.
    fn middle<G: Game + Clone>(mut g: G) -> G {
        let mut at = None;
        walk_random_game(&mut g, 2, 0, |s, step| {
            if at.is_none() && step >= 20 && matches!(s.node(), Node::Decision(_)) {
                at = Some(s.clone());
            }
        });
        at.expect("a decision after 20 steps")
    }
    saved_nodes(&middle(Cubic::new(&Options::new()).unwrap()), 3);
    saved_nodes(&middle(Fluky::new("fluky", &Options::new()).unwrap()), 3);
}

/// Correction history (`corr`, with `prune`): the chess tactics are still
/// found; outside chess (no `prune`) it changes nothing.
#[test]
fn corrected_static_values_keep_the_tactics() {
    for (fen, best) in CHESS_TACTICS {
        let g = chess(fen);
        assert_eq!(best_san(&g, "search:nodes=20000,corr=1"), best, "{fen}");
    }
    // It searches other trees in chess ...
    let g = chess(MIDDLEGAMES[1]);
    let (a, b) = (
        search(&g, "search:nodes=20000,corr=1"),
        search(&g, "search:nodes=20000"),
    );
    assert_ne!((a.best, a.value.to_bits()), (b.best, b.value.to_bits()));
    // ... and the same ones where the variant does not prune.
    assert_same_fluky_search("corr=1", "corr=0");
}

/// The options `a` and `b` search the same tree in Fluky, where chess's
/// pruning is off (3,000 nodes from the start).
fn assert_same_fluky_search(a: &str, b: &str) {
    let g = Fluky::new("fluky", &opts(&[])).unwrap();
    let (a, b) = (
        search(&g, &format!("search:nodes=3000,{a}")),
        search(&g, &format!("search:nodes=3000,{b}")),
    );
    assert_eq!(
        (a.best, a.value.to_bits(), a.nodes),
        (b.best, b.value.to_bits(), b.nodes)
    );
}

/// Singular extensions (on by default, with `prune`): the
/// tactics stand, the trees in chess differ from `singular=0`, and where
/// the variant does not prune nothing does.
#[test]
fn singular_extensions_keep_the_tactics() {
    for (fen, best) in CHESS_TACTICS {
        let g = chess(fen);
        assert_eq!(best_san(&g, "search:nodes=20000"), best, "{fen}");
    }
    let mut changed = 0;
    for fen in MIDDLEGAMES {
        let g = chess(fen);
        let (a, b) = (
            search(&g, "search:depth=9"),
            search(&g, "search:depth=9,singular=0"),
        );
        changed += (a.nodes != b.nodes) as usize;
    }
    assert!(changed > 0, "singular=0 searched the same trees");
    assert_same_fluky_search("singular=1", "singular=0");
}

/// `search_reporting` reports every completed iteration in order, the last
/// report is the result, and reporting does not change the search (the
/// same nodes and move as without it); a `false` from the report stops the
/// search at that iteration's result.
#[test]
fn iterations_are_reported_without_changing_the_search() {
    let g = chess(MIDDLEGAMES[1]);
    let limits = (Some(60_000), None, None);
    let plain = Engine::new(Params::default()).search(&g, &mut game_rng(3, 0), limits, None);
    let mut seen = Vec::new();
    let mut report = |r: &dicechess::agents::search::SearchResult| {
        seen.push(r.clone());
        true
    };
    let reported = Engine::new(Params::default()).search_reporting(
        &g,
        &mut game_rng(3, 0),
        limits,
        None,
        Some(&mut report),
    );
    assert_eq!((reported.best, reported.nodes), (plain.best, plain.nodes));
    assert_eq!(reported.value.to_bits(), plain.value.to_bits());
    let depths: Vec<u32> = seen.iter().map(|r| r.depth).collect();
    assert_eq!(depths, (1..=plain.depth).collect::<Vec<_>>());
    assert!(seen.windows(2).all(|w| w[0].nodes < w[1].nodes));
    for r in &seen {
        assert!(!r.pv.is_empty() && r.pv[0] == r.best && r.pv.len() <= r.depth as usize + 1);
    }
    // The budget ran out in the iteration after the last one reported.
    assert!(plain.stopped);
    assert_eq!(seen.last().unwrap().depth, reported.depth);
    // Stop after depth 3: the result is depth 3's.
    let mut until3 = |r: &dicechess::agents::search::SearchResult| r.depth < 3;
    let stopped = Engine::new(Params::default()).search_reporting(
        &g,
        &mut game_rng(3, 0),
        (None, None, Some(20)),
        None,
        Some(&mut until3),
    );
    assert!(stopped.stopped);
    assert_eq!(stopped.depth, 3);
    assert_eq!(stopped.best, seen[2].best);
    assert_eq!(stopped.nodes, seen[2].nodes);
}

/// `search_rolls` on chance nodes of random games of every variant: one
/// entry per outcome with its probability, the probabilities summing to
/// one, a search exactly where a decision follows, nodes adding up, and the
/// expectation between the least and the greatest roll's value (the utility
/// map is increasing).
#[test]
fn every_chance_node_analysed_roll_by_roll() {
    use dicechess::variants::{AnyGame, ROWS, VARIANTS};
    use dicechess::with_game;

    fn check<G: Evaluate>(v: &str, x: &G) {
        let mut o = Outcomes::new();
        x.chance_outcomes(&mut o);
        let mut e = Engine::new(Params::default());
        let r = e.search_rolls(x, &mut game_rng(2, 0), (Some(300), None, None), |_, _| true);
        assert_eq!(r.rolls.len(), o.as_slice().len(), "{v}");
        assert!(!r.stopped, "{v}");
        let total: f64 = r.rolls.iter().map(|y| y.probability).sum();
        assert!((total - 1.0).abs() < 1e-9, "{v}: {total}");
        for y in &r.rolls {
            let mut after = x.clone();
            after.apply_outcome(y.outcome);
            let decides = matches!(after.node(), Node::Decision(_));
            assert_eq!(y.search.is_some(), decides, "{v}");
            if let Some(s) = &y.search {
                assert_eq!(y.nodes, s.nodes, "{v}");
                assert!(s.nodes <= 300, "{v}");
            }
        }
        assert_eq!(r.nodes, r.rolls.iter().map(|y| y.nodes).sum::<u64>(), "{v}");
        let lo = r
            .rolls
            .iter()
            .map(|y| y.value)
            .fold(f64::INFINITY, f64::min);
        let hi = r
            .rolls
            .iter()
            .map(|y| y.value)
            .fold(f64::NEG_INFINITY, f64::max);
        assert!(
            lo - 1e-6 <= r.value && r.value <= hi + 1e-6,
            "{v}: {lo} {} {hi}",
            r.value
        );
    }

    let mut dice_variants = 0;
    for (i, v) in VARIANTS.iter().enumerate() {
        let mut g = AnyGame::new(v, &Options::new()).unwrap();
        let mut analysed = 0;
        with_game!(&mut g, x => {
            walk_random_game(x, 11, i as u64, |s, _| {
                if analysed < 3 && matches!(s.node(), Node::Chance) {
                    check(v, s);
                    analysed += 1;
                }
            });
        });
        if analysed > 0 {
            assert_eq!(
                analysed, 3,
                "{v}: a game with dice rolls at least three times"
            );
            dice_variants += 1;
        }
    }
    // Every variant whose registry row has chance.
    assert_eq!(dice_variants, ROWS.iter().filter(|r| r.chance).count());
}
