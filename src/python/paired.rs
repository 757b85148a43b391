//! Binding of `sim::paired`: games in pairs on common dice.

use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::{interrupt, records_to_dict, AgentBatch};

/// Plays pairs `start .. start+count` of a run seeded with `seed` between
/// agents A and B on common dice (game 0 of a pair: A is player 0; game 1:
/// B is player 0; both open with `opening_plies` random decisions), the GIL
/// released. Returns `{"a_first": arrays,
/// "b_first": arrays}`, each with the game arrays of `_playouts`.
#[pyfunction]
#[pyo3(
    signature = (variant, agents, seed, start, count, threads = None, opening_plies = super::args::OpeningPlies(0), **options),
    text_signature = "(variant, agents, seed, start, count, threads=None, opening_plies=0, **options)"
)]
#[allow(clippy::too_many_arguments)]
fn _paired_playouts<'py>(
    py: Python<'py>,
    variant: &str,
    agents: (Bound<'py, PyAny>, Bound<'py, PyAny>),
    seed: super::args::Seed,
    start: super::args::Start,
    count: super::args::Count,
    threads: Option<super::args::Threads>,
    opening_plies: super::args::OpeningPlies,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let b = AgentBatch::new(variant, &agents, seed, start, count, threads, 2, options)?;
    let run = || {
        crate::sim::paired::paired_playouts(
            &b.proto,
            &b.specs,
            b.seed,
            b.start,
            b.count,
            opening_plies.0,
            b.threads,
        )
    };
    interrupt::detach_keeping(py, run, |pairs| pairs_dict(py, &pairs))
}

/// The arrays of a `_paired_playouts` run.
fn pairs_dict<'py>(
    py: Python<'py>,
    pairs: &[crate::sim::paired::PairRecord],
) -> PyResult<Bound<'py, PyDict>> {
    let first: Vec<_> = pairs.iter().map(|p| p[0]).collect();
    let second: Vec<_> = pairs.iter().map(|p| p[1]).collect();
    let d = PyDict::new(py);
    d.set_item("a_first", records_to_dict(py, &first)?)?;
    d.set_item("b_first", records_to_dict(py, &second)?)?;
    Ok(d)
}

/// The actions of pairs `start .. start+count` of a `_paired_playouts` run
/// (the same games, `[A first, B first]` per pair), for runs that save
/// their games; the GIL released.
#[pyfunction]
#[pyo3(
    signature = (variant, agents, seed, start, count, threads = None, opening_plies = super::args::OpeningPlies(0), **options),
    text_signature = "(variant, agents, seed, start, count, threads=None, opening_plies=0, **options)"
)]
#[allow(clippy::too_many_arguments)]
fn _recorded_pairs<'py>(
    py: Python<'py>,
    variant: &str,
    agents: (Bound<'py, PyAny>, Bound<'py, PyAny>),
    seed: super::args::Seed,
    start: super::args::Start,
    count: super::args::Count,
    threads: Option<super::args::Threads>,
    opening_plies: super::args::OpeningPlies,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<[Vec<u32>; 2]>> {
    let b = AgentBatch::new(variant, &agents, seed, start, count, threads, 2, options)?;
    interrupt::detach(py, || {
        crate::sim::recorded::recorded_pairs(
            &b.proto,
            &b.specs,
            b.seed,
            b.start,
            b.count,
            opening_plies.0,
            b.threads,
        )
    })
}

/// Registers the functions on the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_paired_playouts, m)?)?;
    m.add_function(wrap_pyfunction!(_recorded_pairs, m)?)?;
    Ok(())
}
