//! A digest of random playouts, to check that a speed change keeps the
//! games identical: every outcome, every move and each game's final FEN and
//! result, hashed (FNV-1a) over the same seeds as `benches/playouts.rs`.
//!
//! `cargo run --release --example playout_digest -- dice_chess3,vegas 500`
//! prints one line per variant; compare the lines before and after. A
//! third argument plays that many runs (seeds) of the games, as the
//! benchmark's 5: its plies divide a callgrind count of `--only V GAMES`.

use dicechess::agents::digest::Fnv1a;
use dicechess::board::MoveList;
use dicechess::play::{game_rng, play_out, random_move};
use dicechess::variants::{AnyGame, Game, Options};
use dicechess::with_game;
use std::cell::RefCell;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let names = args.get(1).map_or("dice_chess3", String::as_str);
    let games: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(500);
    // Runs 0..reps of the benchmark's seeds (it plays 5).
    let reps: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    for name in names.split(',') {
        let proto = AnyGame::new(name, &Options::new()).expect("variant exists");
        let mut h = Fnv1a::default();
        let mut plies = 0u64;
        for (rep, i) in (0..reps).flat_map(|r| (0..games).map(move |i| (r, i))) {
            let mut g = proto.clone();
            let mut rng = game_rng(rep, i);
            let mut buf = MoveList::new();
            let mut trace: Vec<u8> = Vec::new();
            let stats = with_game!(&mut g, x => {
                let moves = RefCell::new(Vec::new());
                let s = play_out(
                    x,
                    &mut rng,
                    |g, _, rng| {
                        let m = random_move(g, rng, &mut buf);
                        moves.borrow_mut().push(m.uci());
                        m
                    },
                    |_, _, o, _| moves.borrow_mut().push(format!("#{o}")),
                );
                trace.extend(moves.into_inner().join(" ").bytes());
                let end = format!(" | {} | {:?} {:?}", x.fen(), x.termination(), x.winner());
                trace.extend(end.bytes());
                s
            });
            plies += stats.plies as u64;
            h.eat(&trace);
        }
        println!(
            "{name}: {reps} x {games} games, {plies} plies, digest {:016x}",
            h.0
        );
    }
}
