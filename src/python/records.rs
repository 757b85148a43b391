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

/// Characters read from a Python text file per `read` call.
const CHUNK_CHARS: usize = 1 << 16;

/// Where a [`PgnReader`] takes its characters: a text it owns, or a Python
/// text file read [`CHUNK_CHARS`] at a time (the GIL taken for each read).
enum Source {
    Text(String, usize),
    File {
        file: Py<PyAny>,
        buf: String,
        pos: usize,
        /// Why the file could not be read on (the reader raises it).
        error: Option<PyErr>,
        done: bool,
    },
}

impl Source {
    fn refill(file: &Py<PyAny>) -> PyResult<Option<String>> {
        Python::attach(|py| {
            // Ctrl-C while a huge file is read (or skipped) stops the read.
            py.check_signals()?;
            let chunk = file.call_method1(py, "read", (CHUNK_CHARS,))?;
            let chunk = chunk.bind(py);
            let text = chunk.cast::<pyo3::types::PyString>().map_err(|_| {
                pyo3::exceptions::PyTypeError::new_err(format!(
                    "read_pgn needs a text file (open it with 'r'), got {}",
                    super::type_name(chunk)
                ))
            })?;
            let text: String = text.extract()?;
            Ok((!text.is_empty()).then_some(text))
        })
    }
}

impl Iterator for Source {
    type Item = char;

    fn next(&mut self) -> Option<char> {
        match self {
            Source::Text(text, pos) => {
                let c = text[*pos..].chars().next()?;
                *pos += c.len_utf8();
                Some(c)
            }
            Source::File {
                file,
                buf,
                pos,
                error,
                done,
            } => loop {
                if let Some(c) = buf[*pos..].chars().next() {
                    *pos += c.len_utf8();
                    return Some(c);
                }
                if *done {
                    return None;
                }
                match Source::refill(file) {
                    Ok(Some(chunk)) => {
                        *buf = chunk;
                        *pos = 0;
                    }
                    Ok(None) => *done = true,
                    Err(e) => {
                        *error = Some(e);
                        *done = true;
                    }
                }
            },
        }
    }
}

/// The games of a PGN text or text file, one record at a time
/// (`dicechess.records.iter_pgn`): it holds the game being read, never the
/// whole text, and reads no further than the game it returns.
#[pyclass(module = "dicechess._core", name = "_PgnReader")]
pub(crate) struct PgnReader {
    reader: pgn::Reader<Source>,
    /// Games still wanted (None: all).
    left: Option<usize>,
}

#[pymethods]
impl PgnReader {
    /// Games `skip ..` (at most `take`) of `source`: a `str` of PGN text, or
    /// a text file (anything with `read(n)` returning `str`).
    #[new]
    #[pyo3(
        signature = (source, skip = super::args::Start(0), take = None),
        text_signature = "(source, skip=0, take=None)"
    )]
    fn new(
        source: &Bound<'_, PyAny>,
        skip: super::args::Start,
        take: Option<super::args::Count>,
    ) -> PyResult<PgnReader> {
        let src = if let Ok(text) = source.cast::<pyo3::types::PyString>() {
            Source::Text(text.extract::<String>()?, 0)
        } else if source.hasattr("read")? {
            Source::File {
                file: source.clone().unbind(),
                buf: String::new(),
                pos: 0,
                error: None,
                done: false,
            }
        } else {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "expected PGN text (str) or a text file, got {}",
                super::type_name(source)
            )));
        };
        let skip = usize::try_from(skip.0).unwrap_or(usize::MAX);
        let left = take.map(|t| usize::try_from(t.0).unwrap_or(usize::MAX));
        Ok(PgnReader {
            reader: pgn::Reader::new(src, skip),
            left,
        })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self) -> PyResult<Option<RecordTuple>> {
        if self.left == Some(0) {
            return Ok(None);
        }
        let r = self.reader.next_record();
        // The file's own error (an exception in read, Ctrl-C) comes first.
        if let Source::File { error, .. } = self.reader.source_mut() {
            if let Some(e) = error.take() {
                self.left = Some(0);
                return Err(e);
            }
        }
        match r.map_err(read_error)? {
            Some(rec) => {
                if let Some(l) = self.left.as_mut() {
                    *l -= 1;
                }
                Ok(Some(to_tuple(rec)))
            }
            None => Ok(None),
        }
    }
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
    let b = super::AgentBatch::new(variant, &agents, seed, start, count, threads, 1, options)?;
    super::interrupt::detach(py, || {
        crate::sim::recorded::recorded_games(
            &b.proto, &b.specs, b.seed, b.start, b.count, b.threads,
        )
    })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PgnReader>()?;
    m.add("MAX_PGN_GAME_CHARS", pgn::MAX_GAME_CHARS)?;
    m.add_function(wrap_pyfunction!(_pgn_write, m)?)?;
    m.add_function(wrap_pyfunction!(_jsonl_write, m)?)?;
    m.add_function(wrap_pyfunction!(_jsonl_read_line, m)?)?;
    m.add_function(wrap_pyfunction!(_recorded_playouts, m)?)?;
    Ok(())
}
