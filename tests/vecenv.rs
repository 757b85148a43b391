//! The vectorised environment: reproducible across thread counts, histories
//! replay to the same games, bad input leaves everything unchanged.

use dicechess::sim::vecenv::{Buffers, Opponent, VecEnv, MAX_ENVS};
use dicechess::variants::{api, AnyGame, Options, VARIANTS};
use dicechess::with_game;

struct Bufs {
    obs: Vec<f32>,
    mask: Vec<bool>,
    rewards: Vec<f32>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
    player: Vec<i8>,
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

fn run(variant: &str, threads: Option<usize>, opp: Option<Opponent>) -> (Vec<f32>, Vec<Vec<u32>>) {
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
        for opp in [None, Some(Opponent::Random)] {
            let a = run(variant, Some(1), opp);
            assert_eq!(a, run(variant, Some(2), opp), "{variant}");
            assert_eq!(a, run(variant, Some(3), opp), "{variant}");
        }
    }
}

#[test]
fn histories_replay_to_the_same_games() {
    for variant in VARIANTS {
        let proto = AnyGame::new(variant, &opts(30)).unwrap();
        let mut v = VecEnv::new(proto.clone(), 8, 9, Some(Opponent::Random), Some(2)).unwrap();
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
