//! A digest of games between an agent and `random`: every move and every
//! outcome, hashed (FNV-1a), with the agent White in even games and Black
//! in odd ones ([`dicechess::agents::digest::agent_digest`]). Compare the
//! line of a spec before and after a change (or against an older commit) to
//! check that the agent plays the same games; `TRACE=1` prints the games.
//!
//! `cargo run --release --example agent_digest -- chess,vegas 'mcts:sims=200' 4`
use dicechess::agents::digest::agent_digest;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let names = &args[1];
    let spec = &args[2];
    let games: u64 = args[3].parse().unwrap();
    for name in names.split(',') {
        let d = agent_digest(name, spec, games).unwrap_or_else(|e| panic!("{name}: {e}"));
        if std::env::var("TRACE").is_ok() {
            for (i, t) in d.traces.iter().enumerate() {
                eprintln!("{name} {i}: {t}");
            }
        }
        println!(
            "{name} {spec} games={games} plies={} digest={:016x}",
            d.plies, d.hash
        );
    }
}
