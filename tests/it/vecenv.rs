//! The vectorised environment: reproducible across thread counts, histories
//! replay to the same games, bad input leaves everything unchanged.

use dicechess::agents::AgentSpec;
use dicechess::sim::vecenv::{Autoreset, Buffers, VecEnv, MAX_ENVS, NOOP_ACTION};
use dicechess::variants::{api, AnyGame, Options, VARIANTS};
use dicechess::with_game;

struct Bufs {
    obs: Vec<f32>,
    mask: Vec<bool>,
    rewards: Vec<f32>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
    player: Vec<i8>,
    termination: Vec<i8>,
    final_obs: Vec<f32>,
}

impl Bufs {
    fn new(v: &VecEnv) -> Bufs {
        let n = v.num_envs();
        Bufs {
            obs: vec![0.0; n * v.obs_len()],
            mask: vec![false; n * v.num_actions()],
            rewards: vec![0.0; n * v.reward_width()],
            terminated: vec![false; n],
            truncated: vec![false; n],
            player: vec![0; n],
            termination: vec![0; n],
            final_obs: match v.autoreset() {
                Autoreset::NextStep => Vec::new(),
                Autoreset::SameStep => vec![0.0; n * v.obs_len()],
            },
        }
    }
    fn b(&mut self) -> Buffers<'_> {
        Buffers {
            obs: &mut self.obs,
            mask: &mut self.mask,
            rewards: &mut self.rewards,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            player: &mut self.player,
            termination: &mut self.termination,
            final_obs: &mut self.final_obs,
        }
    }
}

fn opts(max_plies: i64) -> Options {
    let mut o = Options::new();
    o.insert("max_plies".into(), max_plies.into());
    o
}

/// A deterministic legal action per env: the k-th set mask bit.
fn choose(v: &VecEnv, b: &Bufs, step: usize) -> Vec<i64> {
    let na = v.num_actions();
    (0..v.num_envs())
        .map(|i| {
            let legal: Vec<usize> = (0..na).filter(|&a| b.mask[i * na + a]).collect();
            if legal.is_empty() {
                0
            } else {
                legal[(step * 7 + i * 3) % legal.len()] as i64
            }
        })
        .collect()
}

fn run(variant: &str, threads: Option<usize>, opp: Option<AgentSpec>) -> (Vec<f32>, Vec<Vec<u32>>) {
    let proto = AnyGame::new(variant, &opts(30)).unwrap();
    let mut v = VecEnv::new(proto, 40, 5, opp, threads).unwrap();
    let mut b = Bufs::new(&v);
    v.reset(None, b.b()).unwrap();
    let mut trace = Vec::new();
    for step in 0..50 {
        let a = choose(&v, &b, step);
        v.step(&a, b.b()).unwrap();
        trace.extend_from_slice(&b.rewards);
        trace.extend(b.player.iter().map(|&p| p as f32));
        trace.push(b.obs.iter().sum());
    }
    let hist = (0..40).map(|i| v.history(i).unwrap().to_vec()).collect();
    (trace, hist)
}

#[test]
fn same_results_for_any_thread_count() {
    for variant in VARIANTS {
        for opp in [None, Some("random"), Some("greedy")] {
            let opp = opp.map(|s| AgentSpec::parse(s).unwrap());
            let a = run(variant, Some(1), opp.clone());
            assert_eq!(a, run(variant, Some(2), opp.clone()), "{variant}");
            assert_eq!(a, run(variant, Some(3), opp), "{variant}");
        }
    }
}

#[test]
fn histories_replay_to_the_same_games() {
    for variant in VARIANTS {
        let proto = AnyGame::new(variant, &opts(30)).unwrap();
        let mut v = VecEnv::new(proto.clone(), 8, 9, Some(AgentSpec::Random), Some(2)).unwrap();
        let mut b = Bufs::new(&v);
        v.reset(None, b.b()).unwrap();
        for step in 0..40 {
            let a = choose(&v, &b, step);
            v.step(&a, b.b()).unwrap();
            for i in 0..8 {
                let mut g = proto.clone();
                for &x in v.history(i).unwrap() {
                    with_game!(&mut g, x2 => api::apply_action(x2, x)).unwrap();
                }
                let (fen, cp) = with_game!(&g, x => (dicechess::variants::Game::fen(x), api::current_player(x)));
                let mine = v.game(i).unwrap();
                assert_eq!(
                    fen,
                    with_game!(mine, x => dicechess::variants::Game::fen(x))
                );
                assert_eq!(cp as i8, b.player[i]);
                assert!(cp == 0 || cp == -4, "{variant}: the learner is player 0");
            }
        }
    }
}

#[test]
fn bad_input_changes_nothing() {
    let proto = AnyGame::new("chess", &Options::new()).unwrap();
    assert!(VecEnv::new(proto.clone(), 0, 0, None, None).is_err());
    assert!(VecEnv::new(proto.clone(), MAX_ENVS + 1, 0, None, None).is_err());
    let mut v = VecEnv::new(proto, 3, 0, None, Some(1)).unwrap();
    let mut b = Bufs::new(&v);
    v.reset(None, b.b()).unwrap();
    let good = choose(&v, &b, 0);
    let mut bad = good.clone();
    bad[1] = 4000;
    let e = v.step(&bad, b.b()).unwrap_err();
    assert!(
        e.0.contains("env 1: action 4000 is not legal; there are 20"),
        "{e}"
    );
    assert!(v.step(&good[..2], b.b()).is_err());
    assert!((0..3).all(|i| v.history(i).unwrap().is_empty()));
    v.step(&good, b.b()).unwrap();
    assert!((0..3).all(|i| v.history(i).unwrap().len() == 1));
}

/// Env `i`'s episode replayed on its own: the chance outcomes and the
/// opponent's decisions must be exactly those a single game makes with the
/// episode's generator `game_rng(seed + i, episode)` (for "random":
/// `random_move`, the draw the built-in random opponent always made).
fn replay_with_own_opponent(v: &VecEnv, proto: &AnyGame, seed: u64, i: usize, spec: &AgentSpec) {
    use dicechess::agents::Agent;
    use dicechess::board::MoveList;
    use dicechess::sim::{game_rng, random_move, sample_outcome};
    use dicechess::variants::{Game, Node, Outcomes};
    let ep = v.episode(i).unwrap();
    let mut rng = game_rng(seed.wrapping_add(i as u64), ep);
    let mut agent = Agent::new(spec.clone());
    let mut g = proto.clone();
    for &x in v.history(i).unwrap() {
        with_game!(&mut g, g => {
            let expected = match g.node() {
                Node::Chance => Some(sample_outcome(g, &mut rng, &mut Outcomes::new())),
                Node::Decision(1) => {
                    let m = if *spec == AgentSpec::Random {
                        random_move(g, &mut rng, &mut MoveList::new())
                    } else {
                        agent.select(g, &mut rng)
                    };
                    Some(g.layout().encode(m, g.position().turn()))
                }
                _ => None, // the caller's decision
            };
            if let Some(e) = expected {
                assert_eq!(e, x, "env {i} episode {ep}: {}", g.fen());
            }
            api::apply_action(g, x).unwrap();
        });
    }
}

#[test]
fn opponents_play_as_single_games_with_the_episode_generator() {
    for spec in ["random", "greedy", "expectimax:depth=2", "mcts:sims=8"] {
        let spec = AgentSpec::parse(spec).unwrap();
        for variant in VARIANTS {
            let proto = AnyGame::new(variant, &opts(24)).unwrap();
            let mut v = VecEnv::new(proto.clone(), 6, 21, Some(spec.clone()), Some(2)).unwrap();
            assert_eq!(v.opponent(), Some(&spec));
            let mut b = Bufs::new(&v);
            v.reset(None, b.b()).unwrap();
            let mut ended = 0;
            for step in 0..30 {
                let a = choose(&v, &b, step);
                v.step(&a, b.b()).unwrap();
                ended += b
                    .terminated
                    .iter()
                    .chain(&b.truncated)
                    .filter(|&&x| x)
                    .count();
                for i in 0..6 {
                    replay_with_own_opponent(&v, &proto, 21, i, &spec);
                }
            }
            assert!(ended > 0, "{variant} {spec}: no episode ended");
        }
    }
}

fn no_mask_is_all_false(v: &VecEnv, b: &Bufs) {
    let na = v.num_actions();
    for i in 0..v.num_envs() {
        let m = &b.mask[i * na..(i + 1) * na];
        assert!(m.iter().any(|&x| x), "env {i}: an all-false mask");
        if b.player[i] == -4 {
            // A finished game: only the no-op.
            assert!(m[NOOP_ACTION] && m.iter().filter(|&&x| x).count() == 1);
        }
    }
}

#[test]
fn finished_envs_mark_only_the_noop_and_report_their_termination() {
    for variant in VARIANTS {
        for opp in [None, Some(AgentSpec::Random)] {
            let proto = AnyGame::new(variant, &opts(12)).unwrap();
            let mut v = VecEnv::new(proto, 6, 4, opp, Some(1)).unwrap();
            let mut b = Bufs::new(&v);
            v.reset(None, b.b()).unwrap();
            assert!(b.termination.iter().all(|&t| t == -1));
            let mut ended = 0;
            for step in 0..40 {
                let a = choose(&v, &b, step);
                v.step(&a, b.b()).unwrap();
                no_mask_is_all_false(&v, &b);
                for i in 0..6 {
                    let t = with_game!(v.game(i).unwrap(), g => dicechess::variants::Game::termination(g));
                    let over = b.terminated[i] || b.truncated[i];
                    assert_eq!(
                        b.termination[i],
                        if over { t.unwrap().code() as i8 } else { -1 }
                    );
                    ended += over as usize;
                }
            }
            assert!(ended > 0, "{variant}");
        }
    }
}

/// A same-step env plays the games of a next-step env given the same
/// actions: its ending steps report the next-step env's ending step (the
/// final observation in `final_obs`) with the next-step env's following
/// (reset) observation.
#[test]
fn same_step_autoreset_plays_the_next_step_games() {
    for variant in VARIANTS {
        for opp in [None, Some(AgentSpec::Random)] {
            let proto = AnyGame::new(variant, &opts(10)).unwrap();
            let mut next = VecEnv::new(proto.clone(), 1, 8, opp.clone(), Some(1)).unwrap();
            let mut same = VecEnv::new(proto, 1, 8, opp, Some(1))
                .unwrap()
                .with_autoreset(Autoreset::SameStep);
            let (mut bn, mut bs) = (Bufs::new(&next), Bufs::new(&same));
            assert_eq!(bs.final_obs.len(), same.obs_len());
            next.reset(None, bn.b()).unwrap();
            same.reset(None, bs.b()).unwrap();
            let mut ended = 0;
            for step in 0..60 {
                assert_eq!(
                    (&bn.obs, &bn.mask, &bn.player),
                    (&bs.obs, &bs.mask, &bs.player)
                );
                let a = choose(&next, &bn, step);
                next.step(&a, bn.b()).unwrap();
                same.step(&a, bs.b()).unwrap();
                assert_eq!(bn.rewards, bs.rewards);
                assert_eq!(
                    (bn.terminated[0], bn.truncated[0]),
                    (bs.terminated[0], bs.truncated[0])
                );
                assert_eq!(bn.termination, bs.termination);
                if bn.terminated[0] || bn.truncated[0] {
                    ended += 1;
                    assert_eq!(bn.obs, bs.final_obs);
                    assert_eq!(same.episode(0), Some(next.episode(0).unwrap() + 1));
                    next.step(&[0], bn.b()).unwrap(); // the no-op: the reset
                    assert!(bs.player[0] >= 0, "the next game awaits a decision");
                }
                no_mask_is_all_false(&same, &bs);
                assert!(bs.player[0] != -4, "same-step never shows a finished game");
                assert_eq!(next.history(0), same.history(0));
            }
            assert!(ended > 1, "{variant}");
        }
    }
}

#[test]
fn one_seed_per_env() {
    let proto = AnyGame::new("fluky", &opts(16)).unwrap();
    let seeds = [7u64, 100, 3];
    let mut v = VecEnv::new(proto.clone(), 3, 0, None, Some(1)).unwrap();
    let mut b = Bufs::new(&v);
    v.reset_seeds(&seeds, b.b()).unwrap();
    assert!(v
        .reset_seeds(&seeds[..2], b.b())
        .unwrap_err()
        .0
        .contains("expected 3 seeds"));
    let mut singles: Vec<(VecEnv, Bufs)> = seeds
        .iter()
        .map(|&s| {
            let mut e = VecEnv::new(proto.clone(), 1, s, None, Some(1)).unwrap();
            let mut bb = Bufs::new(&e);
            e.reset(None, bb.b()).unwrap();
            (e, bb)
        })
        .collect();
    for step in 0..50 {
        let a = choose(&v, &b, step);
        v.step(&a, b.b()).unwrap();
        for (i, (e, bb)) in singles.iter_mut().enumerate() {
            e.step(&a[i..i + 1], bb.b()).unwrap();
            assert_eq!(v.history(i), e.history(0));
            assert_eq!(v.env_seed(i), Some(seeds[i]));
        }
    }
    // A reset without a seed restarts every env from its own seed.
    v.reset(None, b.b()).unwrap();
    assert_eq!(v.env_seed(1), Some(100));
}

#[test]
fn same_step_results_for_any_thread_count() {
    let trace = |variant: &str, threads: usize| {
        let proto = AnyGame::new(variant, &opts(12)).unwrap();
        let mut v = VecEnv::new(proto, 40, 2, Some(AgentSpec::Random), Some(threads))
            .unwrap()
            .with_autoreset(Autoreset::SameStep);
        let mut b = Bufs::new(&v);
        v.reset(None, b.b()).unwrap();
        let mut t = Vec::new();
        for step in 0..40 {
            let a = choose(&v, &b, step);
            v.step(&a, b.b()).unwrap();
            t.extend_from_slice(&b.rewards);
            t.extend(b.termination.iter().map(|&x| x as f32));
            t.extend_from_slice(&b.final_obs);
            t.push(b.obs.iter().sum());
        }
        t
    };
    for variant in ["chess", "fluky", "vegas"] {
        assert_eq!(trace(variant, 1), trace(variant, 3), "{variant}");
    }
}

#[test]
fn search_opponents_get_tables_their_budget_can_fill() {
    use dicechess::sim::episode::{opponent_bytes, sized_for_episode};
    let tt_mb = |s: &str| match sized_for_episode(AgentSpec::parse(s).unwrap()) {
        AgentSpec::Search(p) => p.tt_mb,
        _ => unreachable!(),
    };
    assert_eq!(tt_mb("search:nodes=20"), 1);
    assert_eq!(tt_mb("search:nodes=512"), 8);
    // From 1,024 nodes (and the default budget) the default 16 MiB table.
    assert_eq!(tt_mb("search:nodes=1024"), 16);
    assert_eq!(tt_mb("search"), 16);
    assert_eq!(tt_mb("search:nodes=100000,tt_mb=4"), 4);
    // No node budget: the spec's table, whatever its size.
    assert_eq!(tt_mb("search:ms=50,tt_mb=64"), 64);
    let random = AgentSpec::parse("random").unwrap();
    assert_eq!(sized_for_episode(random.clone()), random);
    assert!(opponent_bytes(&AgentSpec::parse("search:nodes=20").unwrap()) <= 2 << 20);
    assert!(opponent_bytes(&AgentSpec::parse("search:ms=9,tt_mb=4096").unwrap()) > 4 << 30);
}

#[test]
fn envs_that_cannot_fit_are_refused_before_allocating() {
    let proto = AnyGame::new("chess", &Options::new()).unwrap();
    for spec in ["search:ms=100,tt_mb=4096", "search:depth=3,tt_mb=512"] {
        let spec = AgentSpec::parse(spec).unwrap();
        let e = match VecEnv::new(proto.clone(), MAX_ENVS, 0, Some(spec), None) {
            Err(e) => e,
            Ok(_) => panic!("{MAX_ENVS} envs with a 512 MiB table each accepted"),
        };
        assert!(
            e.0.contains("need about") && e.0.contains("search table"),
            "{e}"
        );
    }
    // The 512 envs with a 20-node search fit (about 1.5 MB each).
    let spec = AgentSpec::parse("search:nodes=20").unwrap();
    assert!(VecEnv::new(proto, 512, 0, Some(spec), None).is_ok());
}
