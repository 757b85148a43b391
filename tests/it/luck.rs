//! Per-roll luck (`sim::luck`): the games are those of `playouts`, results do
//! not depend on threads, a hand-checked Vegas roll, no rolls without dice.

use dicechess::agents::expectimax::Search;
use dicechess::agents::{Agent, AgentSpec};
use dicechess::sim::luck::{roll_luck, roll_values, Valuer, Valuing};
use dicechess::sim::playouts::playouts;
use dicechess::variants::vegas::Vegas;
use dicechess::variants::{api, AnyGame, Game, Node, Options, Outcomes};

fn game(variant: &str, max_plies: i64) -> AnyGame {
    let mut o = Options::new();
    o.insert("max_plies".into(), max_plies.into());
    AnyGame::new(variant, &o).unwrap()
}

fn specs(a: &str, b: &str) -> [AgentSpec; 2] {
    [AgentSpec::parse(a).unwrap(), AgentSpec::parse(b).unwrap()]
}

#[test]
fn games_are_exactly_those_of_playouts() {
    for variant in ["vegas", "fluky", "metamorph", "random_move_number"] {
        let g = game(variant, 40);
        let agents = specs("greedy", "random");
        let (luck, rolls) = roll_luck(&g, &agents, &Valuer::Expectimax(1), 11, 3, 4, Some(1), true);
        let plain = playouts(&g, &agents, 11, 3, 4, Some(1));
        let recs: Vec<_> = luck.iter().map(|x| x.record).collect();
        assert_eq!(recs, plain, "{variant}");
        // Totals agree with the per-roll rows.
        for (k, gl) in luck.iter().enumerate() {
            let mine: Vec<f64> = (0..rolls.len())
                .filter(|&i| rolls.game[i] == 3 + k as u64)
                .map(|i| rolls.luck[i])
                .collect();
            assert_eq!(mine.len(), gl.n_rolls as usize);
            assert!((mine.iter().sum::<f64>() - gl.luck_sum).abs() < 1e-9);
            assert!(gl.n_rolls <= gl.record.chance_events);
            assert!(gl.abs_luck_sum >= gl.luck_sum.abs() - 1e-12);
        }
        assert!(!rolls.is_empty(), "{variant}: no rolls in 4 games");
        for i in 0..rolls.len() {
            let want = rolls.v_actual[i] - rolls.v_expected[i];
            assert!((rolls.luck[i] - want).abs() < 1e-12);
            assert!(rolls.v_actual[i].abs() <= 1.0 && rolls.v_expected[i].abs() <= 1.0);
        }
    }
}

#[test]
fn same_for_any_thread_count_and_chunking() {
    let g = game("vegas", 30);
    let agents = specs("greedy", "greedy");
    let one = roll_luck(&g, &agents, &Valuer::Expectimax(1), 5, 0, 6, Some(1), true);
    let two = roll_luck(&g, &agents, &Valuer::Expectimax(1), 5, 0, 6, Some(2), true);
    assert_eq!(one, two);
    let (mut a, ra) = roll_luck(&g, &agents, &Valuer::Expectimax(1), 5, 0, 2, Some(2), false);
    let (b, _) = roll_luck(&g, &agents, &Valuer::Expectimax(1), 5, 2, 4, Some(1), false);
    a.extend(b);
    assert_eq!(a, one.0);
    // Without per_roll the arrays stay empty.
    assert!(ra.is_empty());
    // Rows are in game order.
    assert!(one.1.game.windows(2).all(|w| w[0] <= w[1]));
}

#[test]
fn no_rolls_without_dice() {
    for variant in ["chess", "cubic"] {
        let g = game(variant, 20);
        let (luck, rolls) = roll_luck(
            &g,
            &specs("greedy", "random"),
            &Valuer::Expectimax(1),
            0,
            0,
            3,
            Some(1),
            true,
        );
        assert!(luck.iter().all(|x| x.n_rolls == 0 && x.luck_sum == 0.0));
        assert!(rolls.is_empty());
    }
}

/// White (player 0) rolls with a back-rank mate in one for the queen: die B
/// shows Q or `*` with probability 2/6, and then Qd8# wins (value exactly 1);
/// any other roll leaves a game that is not won at once.
#[test]
fn hand_checked_vegas_roll() {
    let mut o = Options::new();
    o.insert("fen".into(), "6k1/5ppp/8/8/8/8/P7/3Q2K1 w - - 0 1".into());
    let g = Vegas::new(&o).unwrap();
    assert_eq!(g.node(), Node::Chance);
    let mut outcomes = Outcomes::new();
    g.chance_outcomes(&mut outcomes);
    let name = |id| g.outcome_name(id);
    let mating = |id| {
        let n: String = name(id);
        n.ends_with('Q') || n.ends_with('*')
    };
    let p_mate: f64 = outcomes
        .as_slice()
        .iter()
        .filter(|o| mating(o.0))
        .map(|o| o.1)
        .sum();
    assert!((p_mate - 2.0 / 6.0).abs() < 1e-12);

    let mut search = Search::new();
    // The value after each outcome, one by one.
    let mut by_outcome = Vec::new();
    for &(id, p) in outcomes.as_slice() {
        let mut child = g.clone();
        api::apply_action(&mut child, id).unwrap();
        let v = search.root_value(&child, 1);
        if mating(id) {
            assert_eq!(v, 1.0, "{} should mate at once", name(id));
        } else {
            assert!(v < 0.95, "{}: {v}", name(id));
        }
        by_outcome.push((id, p, v));
    }
    let mean: f64 = by_outcome.iter().map(|&(_, p, v)| p * v).sum();
    // The chance node's own value (Star1 over the outcomes) is the same mean.
    let mut agent = Agent::new(AgentSpec::Greedy);
    let at_chance = agent.value(&g, None).unwrap();
    assert!((at_chance - mean).abs() < 1e-9, "{at_chance} vs {mean}");

    let mut weighted = 0.0;
    for &(id, p, v) in &by_outcome {
        let (player, expected, actual) =
            roll_values(&mut Valuing::new(&Valuer::Expectimax(1)), &g, &outcomes, id).unwrap();
        assert!((expected - mean).abs() < 1e-12);
        assert_eq!(actual, v);
        let luck = actual - expected;
        if mating(id) {
            // The roll belongs to White, who decides right after it.
            assert_eq!(player, 0);
            assert!((luck - (1.0 - mean)).abs() < 1e-12);
            assert!(luck > 0.0);
        } else {
            assert!(luck < 0.0, "{}: {luck}", name(id));
        }
        weighted += p * luck;
    }
    // Luck has mean zero over the roll's own distribution.
    assert!(weighted.abs() < 1e-12);
}

#[test]
fn single_outcome_chance_nodes_are_not_rolls() {
    let g = Vegas::new(&Options::new()).unwrap();
    let mut one = Outcomes::new();
    one.add(0, 1.0);
    let mut valuing = Valuing::new(&Valuer::Expectimax(1));
    assert_eq!(roll_values(&mut valuing, &g, &one, 0), None);
}

/// The roll's outcomes share one search table; each value is still the one
/// a fresh search of that state gives.
#[test]
fn shared_table_gives_fresh_search_values() {
    use dicechess::sim::{game_rng, random_move, sample_outcome};
    let g0 = Vegas::new(&Options::new()).unwrap();
    let mut checked = 0;
    for seed in 0..3 {
        let mut g = g0.clone();
        let mut rng = game_rng(seed, 0);
        let (mut moves, mut outcomes) = (Default::default(), Outcomes::new());
        for _ in 0..40 {
            match g.node() {
                Node::Terminal => break,
                Node::Chance => {
                    let a = sample_outcome(&g, &mut rng, &mut outcomes);
                    let mut shared = Valuing::new(&Valuer::Expectimax(1));
                    let (_, expected, actual) = roll_values(&mut shared, &g, &outcomes, a).unwrap();
                    let mut mean = 0.0;
                    for &(id, p) in outcomes.as_slice() {
                        let mut child = g.clone();
                        child.apply_outcome(id);
                        let v = Search::new().root_value(&child, 1);
                        mean += p * v;
                        if id == a {
                            assert!((v - actual).abs() < 1e-12);
                        }
                    }
                    assert!((mean - expected).abs() < 1e-12, "{mean} vs {expected}");
                    checked += 1;
                    g.apply_outcome(a);
                }
                Node::Decision(_) => {
                    let m = random_move(&g, &mut rng, &mut moves);
                    g.play(m);
                }
            }
        }
    }
    assert!(checked > 30);
}

/// The search engine as the luck evaluator: the mating rolls of the
/// hand-checked Vegas position are worth exactly 1 (a mate is found within
/// the budget), every value is in [-1, 1], luck has mean zero over the roll,
/// and the values are the same on a second run (no randomness, no state
/// carried between rolls that changes them).
#[test]
fn search_valued_luck_of_the_hand_checked_roll() {
    let mut o = Options::new();
    o.insert("fen".into(), "6k1/5ppp/8/8/8/8/P7/3Q2K1 w - - 0 1".into());
    let g = Vegas::new(&o).unwrap();
    let mut outcomes = Outcomes::new();
    g.chance_outcomes(&mut outcomes);
    let spec = AgentSpec::parse("search:nodes=400").unwrap();
    let valuer = Valuer::from_spec(&spec).unwrap();
    let mut weighted = 0.0;
    for &(id, p) in outcomes.as_slice() {
        let mut a = Valuing::new(&valuer);
        let (player, expected, actual) = roll_values(&mut a, &g, &outcomes, id).unwrap();
        let again = roll_values(&mut Valuing::new(&valuer), &g, &outcomes, id).unwrap();
        assert_eq!((player, expected, actual), again);
        assert!((-1.0..=1.0).contains(&actual) && (-1.0..=1.0).contains(&expected));
        let n: String = g.outcome_name(id);
        if n.ends_with('Q') || n.ends_with('*') {
            assert_eq!(actual, 1.0, "{n}: the mate in one is found");
        } else {
            assert!(actual < 1.0, "{n}: {actual}");
        }
        weighted += p * (actual - expected);
    }
    assert!(weighted.abs() < 1e-12);
}

#[test]
fn luck_evaluators_from_specs() {
    let parse = |s: &str| Valuer::from_spec(&AgentSpec::parse(s).unwrap());
    assert_eq!(parse("greedy"), Ok(Valuer::Expectimax(1)));
    assert_eq!(parse("expectimax:depth=3"), Ok(Valuer::Expectimax(3)));
    assert!(matches!(parse("search:nodes=64"), Ok(Valuer::Search(_))));
    assert!(parse("search:ms=10").unwrap_err().contains("time budget"));
    assert!(parse("random").unwrap_err().contains("luck evaluator"));
    // The same games whatever values them: the evaluator draws nothing
    // from the game generator.
    let g = AnyGame::new("vegas", &Options::new()).unwrap();
    let agents = specs("greedy", "random");
    let (by_depth, _) = roll_luck(&g, &agents, &Valuer::Expectimax(1), 2, 0, 2, Some(1), false);
    let (by_search, _) = roll_luck(
        &g,
        &agents,
        &parse("search:nodes=32").unwrap(),
        2,
        0,
        2,
        Some(1),
        false,
    );
    for (a, b) in by_depth.iter().zip(&by_search) {
        assert_eq!(a.record, b.record);
        assert_eq!(a.n_rolls, b.n_rolls);
    }
}
