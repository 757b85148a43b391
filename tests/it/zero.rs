//! The network-guided search (`agents::zero`): against a plain recursive
//! PUCT written here from the stated rules, chance nodes averaged with
//! their exact probabilities, virtual loss, Gumbel, and self-play runs that
//! are reproducible whatever the number of games in flight.

use dicechess::agents::zero::selfplay::{self, Config, Seat};
use dicechess::agents::zero::{search_all, Batch, Params, Tree};
use dicechess::agents::AgentSpec;
use dicechess::board::{Move, MoveList};
use dicechess::sim::game_rng;
use dicechess::variants::{api, AnyGame, Game, Node, Options, Outcomes};
use dicechess::with_game;
use std::convert::Infallible;

/// A deterministic stand-in for a network: the value is the material
/// balance seen from the observation's side (own planes 0-5 against the
/// opponent's 6-11, tanh of a tenth of the difference), the logits a hash
/// of the action id (or all zero: uniform priors).
fn toy_net(obs: &[f32], squares: usize, actions: usize, uniform: bool) -> (Vec<f32>, f32) {
    let own: f32 = obs[..6 * squares].iter().sum();
    let opp: f32 = obs[6 * squares..12 * squares].iter().sum();
    let logits = (0..actions)
        .map(|a| {
            if uniform {
                0.0
            } else {
                ((a as u64).wrapping_mul(2_654_435_761) % 1000) as f32 / 400.0
            }
        })
        .collect();
    (logits, ((own - opp) / 10.0).tanh())
}

fn answer(b: &mut Batch, squares: usize, uniform: bool, zero_value: bool) {
    b.logits.clear();
    b.values.clear();
    for i in 0..b.n {
        let (l, v) = toy_net(
            &b.obs[i * b.obs_len..(i + 1) * b.obs_len],
            squares,
            b.actions,
            uniform,
        );
        b.logits.extend(l);
        b.values.push(if zero_value { 0.0 } else { v });
    }
}

fn squares_of<G: Game>(g: &G) -> usize {
    g.position().geometry().num_squares()
}

/// The reference: one node per reached state, expanded (and valued by the
/// network) at its first visit, chance nodes expanded at once and
/// descended to the outcome lagging most behind its share.
struct RefNode {
    n: u32,
    w: f64,
    children: Option<Vec<(u32, f64, RefNode)>>,
}

impl RefNode {
    fn new() -> RefNode {
        RefNode {
            n: 0,
            w: 0.0,
            children: None,
        }
    }
}

fn ref_net<G: Game>(g: &G, p: u8, uniform: bool, zero_value: bool) -> (Vec<f32>, f64) {
    let shape = api::observation_shape(g);
    let mut obs = vec![0.0f32; shape.iter().product()];
    api::write_observation(g, p, &mut obs);
    let (l, v) = toy_net(&obs, squares_of(g), g.layout().num_actions(), uniform);
    (l, if zero_value { 0.0 } else { v as f64 })
}

fn ref_simulate<G: Game>(node: &mut RefNode, g: &mut G, c: f64, uniform: bool, zero: bool) -> f64 {
    let v0 = match g.node() {
        Node::Terminal => api::returns(g)[0],
        Node::Chance => {
            if node.children.is_none() {
                let mut o = Outcomes::new();
                g.chance_outcomes(&mut o);
                node.children = Some(
                    o.as_slice()
                        .iter()
                        .map(|&(id, p)| (id, p, RefNode::new()))
                        .collect(),
                );
            }
            let total = node.n as f64 + 1.0;
            let kids = node.children.as_mut().unwrap();
            let mut best = 0;
            let mut best_s = f64::NEG_INFINITY;
            for (i, (_, p, k)) in kids.iter().enumerate() {
                let s = p * total - k.n as f64;
                if s > best_s {
                    best = i;
                    best_s = s;
                }
            }
            g.apply_outcome(kids[best].0);
            ref_simulate(&mut kids[best].2, g, c, uniform, zero)
        }
        Node::Decision(p) => {
            if node.children.is_none() {
                let (logits, v) = ref_net(g, p, uniform, zero);
                let mut ml = MoveList::new();
                g.legal_moves(&mut ml);
                let (layout, turn) = (g.layout(), g.position().turn());
                let ls: Vec<f64> = ml
                    .iter()
                    .map(|&m| logits[layout.encode(m, turn) as usize] as f64)
                    .collect();
                let max = ls.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                let sum: f64 = ls.iter().map(|l| (l - max).exp()).sum();
                node.children = Some(
                    ml.iter()
                        .zip(&ls)
                        .map(|(m, l)| (m.0 as u32, (l - max).exp() / sum, RefNode::new()))
                        .collect(),
                );
                let v0 = if p == 0 { v } else { -v };
                node.n += 1;
                node.w += v0;
                return v0;
            }
            let sign = if p == 0 { 1.0 } else { -1.0 };
            let parent_q = sign * node.w / node.n as f64;
            let sqrt_n = (node.n as f64).sqrt();
            let kids = node.children.as_mut().unwrap();
            let mut best = 0;
            let mut best_s = f64::NEG_INFINITY;
            for (i, (_, prior, k)) in kids.iter().enumerate() {
                let q = if k.n == 0 {
                    parent_q
                } else {
                    sign * k.w / k.n as f64
                };
                let s = q + c * prior * sqrt_n / (1.0 + k.n as f64);
                if s > best_s {
                    best = i;
                    best_s = s;
                }
            }
            g.play(Move(kids[best].0 as u16));
            ref_simulate(&mut kids[best].2, g, c, uniform, zero)
        }
    };
    node.n += 1;
    node.w += v0;
    v0
}

fn reference<G: Game>(root: &G, sims: u32, c: f64, uniform: bool, zero: bool) -> (Vec<u32>, f64) {
    let mut node = RefNode::new();
    for _ in 0..sims {
        let mut g = root.clone();
        ref_simulate(&mut node, &mut g, c, uniform, zero);
    }
    let visits = node
        .children
        .map(|k| k.iter().map(|x| x.2.n).collect())
        .unwrap_or_default();
    (visits, node.w / node.n as f64)
}

fn ours<G: Game>(root: &G, params: &Params, uniform: bool, zero: bool) -> Tree<G> {
    let shape = api::observation_shape(root);
    let mut batch = Batch::new(shape.iter().product(), root.layout().num_actions());
    let squares = squares_of(root);
    let mut rngs = vec![game_rng(1, 0)];
    let mut trees = search_all(vec![root.clone()], params, &mut rngs, &mut batch, |b| {
        answer(b, squares, uniform, zero);
        Ok::<(), Infallible>(())
    })
    .unwrap();
    trees.pop().unwrap()
}

/// Decision nodes of `variant` after random walks of several lengths.
fn positions(variant: &str) -> Vec<AnyGame> {
    let mut out = Vec::new();
    for (seed, plies) in [(1u64, 0u32), (2, 3), (3, 8), (4, 20), (5, 40)] {
        let mut g = AnyGame::new(variant, &Options::new()).unwrap();
        let mut rng = game_rng(seed, 0);
        let mut ml = MoveList::new();
        let mut o = Outcomes::new();
        let mut made = 0;
        loop {
            let stop = with_game!(&mut g, x => match x.node() {
                Node::Terminal => true,
                Node::Chance => {
                    let a = dicechess::sim::sample_outcome(x, &mut rng, &mut o);
                    x.apply_outcome(a);
                    false
                }
                Node::Decision(_) => {
                    if made >= plies {
                        true
                    } else {
                        let m = dicechess::play::random_move(x, &mut rng, &mut ml);
                        x.play(m);
                        made += 1;
                        false
                    }
                }
            });
            if stop {
                break;
            }
        }
        if with_game!(&g, x => matches!(x.node(), Node::Decision(_))) {
            out.push(g);
        }
    }
    out
}

#[test]
fn puct_matches_the_reference_with_uniform_priors_and_zero_values() {
    for variant in ["gardner", "fluky", "dice_chess", "chess"] {
        for g in positions(variant) {
            with_game!(&g, x => {
                let params = Params { sims: 120, ..Params::default() };
                let t = ours(x, &params, true, true);
                let got: Vec<u32> = t.root_children().iter().map(|c| c.2).collect();
                let (want, value) = reference(x, 120, params.c_puct, true, true);
                assert_eq!(got, want, "{variant} {}", x.fen());
                assert!((t.root_value() - value).abs() < 1e-12);
                assert_eq!(got.iter().sum::<u32>(), 119, "the root's own evaluation is one simulation");
            });
        }
    }
}

#[test]
fn puct_matches_the_reference_with_a_network() {
    for variant in ["gardner", "fluky", "vegas", "dice_chess3", "cubic_checkers"] {
        for g in positions(variant) {
            with_game!(&g, x => {
                let params = Params { sims: 150, c_puct: 1.5, ..Params::default() };
                let t = ours(x, &params, false, false);
                let got: Vec<u32> = t.root_children().iter().map(|c| c.2).collect();
                let (want, value) = reference(x, 150, 1.5, false, false);
                assert_eq!(got, want, "{variant} {}", x.fen());
                assert!((t.root_value() - value).abs() < 1e-9, "{} vs {value}", t.root_value());
            });
        }
    }
}

#[test]
fn chance_nodes_are_visited_in_proportion_to_their_exact_probabilities() {
    // After a move in Fluky the die is rolled: every chance node's outcomes
    // keep visits within one of p * N.
    for variant in ["fluky", "dice_chess", "dice_chess3"] {
        for g in positions(variant) {
            with_game!(&g, x => {
                let params = Params { sims: 400, ..Params::default() };
                let t = ours(x, &params, false, false);
                let checked = t.chance_strata_error();
                assert!(checked.0 > 0, "{variant}: no chance node was expanded");
                assert!(checked.1 <= 1.0 + 1e-9, "{variant}: an outcome strays {} visits from p * N", checked.1);
            });
        }
    }
}

#[test]
fn virtual_loss_spreads_a_trees_leaves_and_spends_the_budget() {
    let g = AnyGame::new("gardner", &Options::new()).unwrap();
    with_game!(&g, x => {
        let params = Params { sims: 200, leaves_per_tree: 8, ..Params::default() };
        let t = ours(x, &params, false, false);
        let visits: Vec<u32> = t.root_children().iter().map(|c| c.2).collect();
        assert_eq!(visits.iter().sum::<u32>(), 199);
        assert!(visits.iter().filter(|&&v| v > 0).count() >= 3);
    });
}

#[test]
fn gumbel_root_spends_the_budget_on_its_sampled_actions_and_returns_a_policy() {
    let g = AnyGame::new("gardner", &Options::new()).unwrap();
    with_game!(&g, x => {
        let params = Params { sims: 64, gumbel_m: 4, ..Params::default() };
        let t = ours(x, &params, false, false);
        let visits: Vec<u32> = t.root_children().iter().map(|c| c.2).collect();
        assert_eq!(visits.iter().sum::<u32>(), 63);
        assert_eq!(visits.iter().filter(|&&v| v > 0).count(), 4, "{visits:?}");
        let pi = t.improved_policy(&params);
        assert!((pi.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        let m = t.choose(&params, 0.0, &mut game_rng(0, 0));
        let chosen = t.root_children().iter().position(|c| c.0 == m).unwrap();
        assert!(visits[chosen] > 0, "the decision is one of the sampled actions");
    });
}

fn run(variant: &str, parallel: usize, seats: [Seat; 2], paired: bool) -> selfplay::Output {
    let g = AnyGame::new(variant, &Options::new()).unwrap();
    let cfg = Config {
        params: Params {
            sims: 12,
            dirichlet_alpha: 0.3,
            ..Params::default()
        },
        games: 6,
        start: 0,
        parallel,
        seed: 7,
        temperature_plies: 6,
        opening_plies: 0,
        paired,
        record: true,
        seats,
        net_params: Vec::new(),
        value_chance: None,
    };
    with_game!(&g, x => {
        let squares = squares_of(x);
        let (out, err) = selfplay::play(x, &cfg, 1, |_, b| { answer(b, squares, false, false); Ok::<(), Infallible>(()) }, |_| Ok(true));
        assert!(err.is_none() && !out.interrupted);
        out
    })
}

#[test]
fn self_play_is_the_same_whatever_the_games_in_flight() {
    for variant in ["gardner", "fluky"] {
        let a = run(variant, 1, [Seat::Net(0), Seat::Net(0)], false);
        let b = run(variant, 4, [Seat::Net(0), Seat::Net(0)], false);
        assert_eq!(a.games.len(), 6);
        let key = |o: &selfplay::Output| {
            let mut v: Vec<(u64, u32, i8)> = o
                .games
                .iter()
                .map(|g| (g.index, g.record.plies, g.record.winner))
                .collect();
            v.sort();
            v
        };
        assert_eq!(key(&a), key(&b), "{variant}");
        // The same samples, game by game.
        let samples = |o: &selfplay::Output, game: u64| {
            let idx: Vec<usize> = (0..o.samples()).filter(|&i| o.game[i] == game).collect();
            let pol: Vec<u32> = idx
                .iter()
                .flat_map(|&i| {
                    o.policy[i * (o.policy.len() / o.samples())
                        ..(i + 1) * (o.policy.len() / o.samples())]
                        .iter()
                        .map(|x| x.to_bits())
                })
                .collect();
            (idx.len(), pol)
        };
        for game in 0..6 {
            assert_eq!(samples(&a, game), samples(&b, game));
        }
        assert!(b.batches < a.batches, "games in flight share network calls");
        // Value targets are the deciding player's final return.
        for i in 0..a.samples() {
            let g = a.games.iter().find(|g| g.index == a.game[i]).unwrap();
            let want = if a.player[i] == 0 {
                g.return0
            } else {
                -g.return0
            };
            assert_eq!(a.z[i] as f64, want);
        }
    }
}

#[test]
fn a_match_against_a_builtin_agent_seats_both_colours_on_common_dice() {
    let o = run(
        "fluky",
        3,
        [
            Seat::Net(0),
            Seat::Agent(AgentSpec::parse("random").unwrap()),
        ],
        true,
    );
    assert_eq!(o.games.len(), 6);
    for g in &o.games {
        assert_eq!(g.seat_of_player0 as u64, g.index % 2);
    }
    // Only the network's decisions are samples: every sample's player is
    // the network's seat in its game.
    for i in 0..o.samples() {
        let g = o.games.iter().find(|g| g.index == o.game[i]).unwrap();
        let net_player = g.seat_of_player0; // seat 0 plays player 0 when seat_of_player0 == 0
        assert_eq!(o.player[i], net_player);
    }
}

/// A run of `games` games with chance valuation and per-network budgets.
fn run_valued(
    variant: &str,
    games: u64,
    value_chance: Option<usize>,
    net_params: Vec<Params>,
    seats: [Seat; 2],
) -> selfplay::Output {
    let (name, opt) = variant.split_once(':').unwrap_or((variant, ""));
    let mut options = Options::new();
    if let Some((k, v)) = opt.split_once('=') {
        options.insert(k.into(), serde_json::json!(v.parse::<f64>().unwrap()));
    }
    let g = AnyGame::new(name, &options).unwrap();
    let cfg = Config {
        params: Params {
            sims: 8,
            ..Params::default()
        },
        games,
        start: 0,
        parallel: 16,
        seed: 11,
        temperature_plies: 4,
        opening_plies: 0,
        paired: true,
        record: false,
        seats,
        net_params,
        value_chance,
    };
    let nets = 2;
    with_game!(&g, x => {
        let squares = squares_of(x);
        let (out, err) = selfplay::play(x, &cfg, nets, |_, b| { answer(b, squares, false, false); Ok::<(), Infallible>(()) }, |_| Ok(true));
        assert!(err.is_none() && !out.interrupted);
        out
    })
}

fn by_index(o: &selfplay::Output) -> Vec<&selfplay::FinishedGame> {
    let mut v: Vec<_> = o.games.iter().collect();
    v.sort_by_key(|g| g.index);
    v
}

#[test]
fn valuing_chance_events_leaves_the_games_as_they_are() {
    for variant in ["fluky", "gardner:luck=0.2", "dice_chess"] {
        let seats = [Seat::Net(0), Seat::Net(1)];
        let plain = run_valued(variant, 8, None, Vec::new(), seats.clone());
        let valued = run_valued(variant, 8, Some(1), Vec::new(), seats);
        for (a, b) in by_index(&plain).iter().zip(by_index(&valued)) {
            assert_eq!(
                (a.index, a.record.plies, a.record.winner, a.return0),
                (b.index, b.record.plies, b.record.winner, b.return0),
                "{variant}"
            );
            assert_eq!(
                b.valued, b.record.chance_events,
                "{variant}: every event valued"
            );
            assert_eq!(a.valued, 0);
            assert_eq!(a.luck0, 0.0);
        }
        let luck: f64 = valued.games.iter().map(|g| g.luck0.abs()).sum();
        assert!(luck > 0.0, "{variant}: chance moved the values");
    }
}

/// Each event's luck is the value drawn minus its expectation, so its mean
/// over many events is 0 up to sampling: within 4 standard errors.
#[test]
fn luck_has_mean_zero() {
    // The luck dial: a random move changes the material the toy network values.
    let o = run_valued(
        "gardner:luck=0.5",
        160,
        Some(0),
        Vec::new(),
        [Seat::Net(0), Seat::Net(0)],
    );
    let events: u32 = o.games.iter().map(|g| g.valued).sum();
    let sums: Vec<f64> = o.games.iter().map(|g| g.luck0).collect();
    let mean_per_game = sums.iter().sum::<f64>() / sums.len() as f64;
    let var = sums
        .iter()
        .map(|x| (x - mean_per_game).powi(2))
        .sum::<f64>()
        / (sums.len() - 1) as f64;
    let se = (var / sums.len() as f64).sqrt();
    assert!(events > 1000, "{events} events");
    assert!(se > 0.0);
    assert!(
        mean_per_game.abs() < 4.0 * se,
        "mean {mean_per_game} se {se}"
    );
    // Player 0's luck, not the mover's: it goes with player 0's result.
    let r: Vec<f64> = o.games.iter().map(|g| g.return0).collect();
    let mr = r.iter().sum::<f64>() / r.len() as f64;
    let cov: f64 = sums
        .iter()
        .zip(&r)
        .map(|(l, x)| (l - mean_per_game) * (x - mr))
        .sum();
    assert!(cov > 0.0, "luck and result covary: {cov}");
}

#[test]
fn each_network_searches_with_its_own_budget() {
    let seats = [Seat::Net(0), Seat::Net(1)];
    let p = |sims| Params {
        sims,
        ..Params::default()
    };
    let same = run_valued("gardner", 4, None, vec![p(8), p(8)], seats.clone());
    let default = run_valued("gardner", 4, None, Vec::new(), seats.clone());
    assert_eq!(same.leaves, default.leaves, "params (8 sims) for both");
    let stronger = run_valued("gardner", 4, None, vec![p(64), p(8)], seats);
    let decisions: u64 = stronger.games.iter().map(|g| g.record.plies as u64).sum();
    // About (64 + 8) / 2 leaves a decision, against 8 for the same budgets.
    assert!(
        stronger.leaves > 3 * decisions * 8,
        "{} leaves, {decisions} decisions",
        stronger.leaves
    );
}
