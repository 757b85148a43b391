//! Games in pairs on common dice (`sim::paired`): the same dice for both
//! games of a pair, seats swapped, results independent of threads.

use dicechess::agents::AgentSpec;
use dicechess::board::MoveList;
use dicechess::play::{game_rng, play_out_with_dice, random_move, CommonDice};
use dicechess::sim::paired::paired_playouts;
use dicechess::variants::{AnyGame, Options};
use dicechess::with_game;

fn spec(s: &str) -> AgentSpec {
    AgentSpec::parse(s).unwrap()
}

fn game(variant: &str, max_plies: i64) -> AnyGame {
    let mut o = Options::new();
    o.insert("max_plies".into(), max_plies.into());
    AnyGame::new(variant, &o).unwrap()
}

/// The dice a game drew, with its own random decisions (`decisions_seed`).
fn dice_drawn(proto: &AnyGame, seed: u64, stream: u64, decisions_seed: u64) -> Vec<u32> {
    let mut g = proto.clone();
    let mut rng = game_rng(decisions_seed, 0);
    let mut dice = CommonDice::new(seed, stream);
    let mut moves = MoveList::new();
    let mut drawn = Vec::new();
    with_game!(&mut g, x => {
        play_out_with_dice(x, &mut rng, &mut dice, |g, _, rng| random_move(g, rng, &mut moves),
            |_, _, o, _| drawn.push(o));
    });
    drawn
}

#[test]
fn games_on_one_stream_draw_the_same_dice() {
    // Vegas and Fluky roll from one fixed distribution, so two different
    // games on one stream draw the same outcomes roll for roll.
    for variant in ["vegas", "fluky"] {
        let g = game(variant, 80);
        let a = dice_drawn(&g, 5, 3, 1);
        let b = dice_drawn(&g, 5, 3, 2);
        let n = a.len().min(b.len());
        assert!(n > 10, "{variant}: only {n} rolls");
        assert_eq!(a[..n], b[..n], "{variant}");
        // Another stream gives other dice.
        let c = dice_drawn(&g, 5, 4, 1);
        let m = a.len().min(c.len());
        assert_ne!(a[..m], c[..m], "{variant}");
    }
}

#[test]
fn the_same_agent_in_both_seats_plays_the_same_game_twice() {
    for variant in ["vegas", "fluky", "random_move_number", "chess"] {
        let g = game(variant, 60);
        for s in ["random", "greedy"] {
            let pairs = paired_playouts(&g, &[spec(s), spec(s)], 9, 0, 6, 0, Some(2));
            for (k, p) in pairs.iter().enumerate() {
                assert_eq!(p[0], p[1], "{variant} {s} pair {k}");
            }
        }
        // Different agents: the seats matter.
        let pairs = paired_playouts(&g, &[spec("greedy"), spec("random")], 9, 0, 6, 0, Some(2));
        assert!(pairs.iter().any(|p| p[0] != p[1]), "{variant}");
    }
}

#[test]
fn pairs_do_not_depend_on_threads_or_chunking() {
    let g = game("vegas", 80);
    let agents = [spec("greedy"), spec("random")];
    let one = paired_playouts(&g, &agents, 4, 0, 10, 0, Some(1));
    let mut two = paired_playouts(&g, &agents, 4, 0, 3, 0, Some(2));
    two.extend(paired_playouts(&g, &agents, 4, 3, 7, 0, Some(2)));
    assert_eq!(one, two);
    assert_ne!(one, paired_playouts(&g, &agents, 5, 0, 10, 0, Some(1)));
}

#[test]
fn random_openings_vary_the_pairs_and_are_shared_within_a_pair() {
    // Greedy against itself in chess, 4 random plies: the pairs differ, yet
    // both games of a pair open alike (the same agent in both seats plays
    // the same game twice).
    let g = game("chess", 80);
    let same = [spec("greedy"), spec("greedy")];
    let opened = paired_playouts(&g, &same, 3, 0, 8, 4, Some(2));
    assert!(opened.iter().any(|p| p != &opened[0]));
    for (k, p) in opened.iter().enumerate() {
        assert_eq!(p[0], p[1], "pair {k}");
    }
    // Different agents, with openings: reproducible whatever the threads.
    let agents = [spec("greedy"), spec("random")];
    let one = paired_playouts(&g, &agents, 3, 0, 6, 4, Some(1));
    assert_eq!(one, paired_playouts(&g, &agents, 3, 0, 6, 4, Some(2)));
    // An opening longer than the game: both games are random play alike.
    let long = paired_playouts(&game("chess", 10), &agents, 3, 0, 4, 50, Some(1));
    for p in &long {
        assert_eq!(p[0], p[1]);
    }
}
