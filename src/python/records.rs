//! Bindings of the game records (`dicechess.records` wraps them): records
//! cross as `(variant, options_json, actions, tags, seed)` tuples.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::args::{ActionId, Seed};
use crate::record::{jsonl, pgn, Record, RecordError};

type RecordTuple = (String, String, Vec<u32>, Vec<(String, String)>, Option<u64>);

fn record_from(
    variant: String,
    options_json: &str,
    actions: Vec<u32>,
    tags: Vec<(String, String)>,
    seed: Option<u64>,
) -> PyResult<Record> {
    let options = match serde_json::from_str(options_json) {
        Ok(serde_json::Value::Object(m)) => m,
        _ => return Err(PyValueError::new_err("options must be a JSON object")),
    };
    Ok(Record {
        variant,
        options,
        actions,
        tags,
        seed,
    })
}

fn to_tuple(r: Record) -> RecordTuple {
    let options = serde_json::Value::Object(r.options).to_string();
    (r.variant, options, r.actions, r.tags, r.seed)
}

fn read_error(e: RecordError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

#[pyfunction]
#[pyo3(signature = (variant, options_json, actions, tags, seed = None))]
fn _pgn_write(
    variant: String,
    options_json: &str,
    actions: Vec<ActionId>,
    tags: Vec<(String, String)>,
    seed: Option<Seed>,
) -> PyResult<String> {
    let actions = actions.into_iter().map(|a| a.0).collect();
    let r = record_from(variant, options_json, actions, tags, seed.map(|s| s.0))?;
    pgn::write(&r).map_err(|e| PyValueError::new_err(e.0))
}

/// Games `skip ..` of a PGN text, at most `take` (None: all of them).
#[pyfunction]
#[pyo3(
    signature = (text, skip = super::args::Start(0), take = None),
    text_signature = "(text, skip=0, take=None)"
)]
fn _pgn_read(
    py: Python<'_>,
    text: &str,
    skip: super::args::Start,
    take: Option<super::args::Count>,
) -> PyResult<Vec<RecordTuple>> {
    let text = text.to_string();
    let (skip, take) = (skip.0 as usize, take.map(|t| t.0 as usize));
    let recs = py
        .detach(move || pgn::read_range(&text, skip, take))
        .map_err(read_error)?;
    Ok(recs.into_iter().map(to_tuple).collect())
}

/// The record on one JSON line, numbered `line` (for errors).
#[pyfunction]
fn _jsonl_read_line(line: &str, number: super::args::Start) -> PyResult<RecordTuple> {
    let number = usize::try_from(number.0).unwrap_or(usize::MAX);
    jsonl::read_line(line, number)
        .map(to_tuple)
        .map_err(read_error)
}

#[pyfunction]
#[pyo3(signature = (variant, options_json, actions, tags, seed = None))]
fn _jsonl_write(
    variant: String,
    options_json: &str,
    actions: Vec<ActionId>,
    tags: Vec<(String, String)>,
    seed: Option<Seed>,
) -> PyResult<String> {
    let actions = actions.into_iter().map(|a| a.0).collect();
    let r = record_from(variant, options_json, actions, tags, seed.map(|s| s.0))?;
    jsonl::write_line(&r).map_err(|e| PyValueError::new_err(e.0))
}

#[pyfunction]
fn _jsonl_read(py: Python<'_>, text: &str) -> PyResult<Vec<RecordTuple>> {
    let text = text.to_string();
    let recs = py.detach(move || jsonl::read(&text)).map_err(read_error)?;
    Ok(recs.into_iter().map(to_tuple).collect())
}

/// The actions of games `start .. start+count` of a `_playouts` run (the
/// same games), for runs that save their records; the GIL released.
#[pyfunction]
#[pyo3(signature = (variant, agents, seed, start, count, threads = None, **options))]
#[allow(clippy::too_many_arguments)]
fn _recorded_playouts<'py>(
    py: Python<'py>,
    variant: &str,
    agents: (Bound<'py, PyAny>, Bound<'py, PyAny>),
    seed: super::args::Seed,
    start: super::args::Start,
    count: super::args::Count,
    threads: Option<super::args::Threads>,
    options: Option<&Bound<'_, pyo3::types::PyDict>>,
) -> PyResult<Vec<Vec<u32>>> {
    let (seed, start, count, threads) = (seed.0, start.0, count.0, super::args::threads(threads));
    super::check_batch(count)?;
    let specs = [
        super::agents::parse_spec(&agents.0)?,
        super::agents::parse_spec(&agents.1)?,
    ];
    let proto = super::new_game(variant, options)?;
    super::interrupt::detach(py, || {
        crate::sim::recorded::recorded_games(&proto, &specs, seed, start, count, threads)
    })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_pgn_write, m)?)?;
    m.add_function(wrap_pyfunction!(_pgn_read, m)?)?;
    m.add_function(wrap_pyfunction!(_jsonl_write, m)?)?;
    m.add_function(wrap_pyfunction!(_jsonl_read, m)?)?;
    m.add_function(wrap_pyfunction!(_jsonl_read_line, m)?)?;
    m.add_function(wrap_pyfunction!(_recorded_playouts, m)?)?;
    Ok(())
}
