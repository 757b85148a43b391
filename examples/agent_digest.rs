//! A digest of games between an agent and `random`: every move and every
//! outcome, hashed (FNV-1a), with the agent White in even games and Black
//! in odd ones. Compare the line of a spec before and after a change (or
//! against an older commit) to check that the agent plays the same games.
//!
//! `cargo run --release --example agent_digest -- chess,vegas 'mcts:sims=200' 4`
use dicechess::agents::{Agent, AgentSpec};
use dicechess::play::{game_rng, play_out};
use dicechess::variants::{AnyGame, Options};
use dicechess::with_game;
use std::cell::RefCell;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let names = &args[1];
    let spec = &args[2];
    let games: u64 = args[3].parse().unwrap();
    for name in names.split(',') {
        let proto = AnyGame::new(name, &Options::new()).expect("variant exists");
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut plies = 0u64;
        for i in 0..games {
            let mut g = proto.clone();
            let mut rng = game_rng(7, i);
            let agents = RefCell::new([
                Agent::new(AgentSpec::parse(spec).unwrap()),
                Agent::new(AgentSpec::parse("random").unwrap()),
            ]);
            let trace = RefCell::new(Vec::<String>::new());
            let stats = with_game!(&mut g, x => {
                play_out(
                    x,
                    &mut rng,
                    |g, p, rng| {
                        let m = agents.borrow_mut()[(p as usize + i as usize) & 1].select(g, rng);
                        trace.borrow_mut().push(m.uci());
                        m
                    },
                    |_, _, o, _| trace.borrow_mut().push(format!("#{o}")),
                )
            });
            plies += stats.plies as u64;
            let trace = trace.into_inner();
            if std::env::var("TRACE").is_ok() {
                eprintln!("{name} {i}: {}", trace.join(" "));
            }
            for b in trace.join(" ").bytes() {
                h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
            }
        }
        println!("{name} {spec} games={games} plies={plies} digest={h:016x}");
    }
}
