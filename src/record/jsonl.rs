//! JSON Lines records, one game per line, for bulk storage:
//! `{"variant", "options", "seed", "actions", "result", "termination",
//! "tags"}`. `actions` are the action ids of every decision and chance
//! outcome; `result` and `termination` are checked when read.

use super::tokens::error_at;
use super::{result_token, termination_name, Record, RecordError};
use crate::variants::GameError;
use serde_json::{json, Map, Value};

/// One line (without the newline) for a record; replays it to fill in the
/// result and the complete options.
pub fn write_line(rec: &Record) -> Result<String, GameError> {
    let g = rec.replay()?;
    let tags: Map<String, Value> = rec
        .tags
        .iter()
        .map(|(n, v)| (n.clone(), Value::String(v.clone())))
        .collect();
    let v = json!({
        "variant": rec.variant,
        "options": Value::Object(rec.complete_options()?),
        "seed": rec.seed,
        "actions": rec.actions,
        "result": result_token(&g),
        "termination": termination_name(&g),
        "tags": tags,
    });
    Ok(v.to_string())
}

/// The fields of a line.
const FIELDS: [&str; 7] = [
    "variant",
    "options",
    "seed",
    "actions",
    "result",
    "termination",
    "tags",
];

/// The record on one line (`line` is its 1-based number, for errors).
pub fn read_line(text: &str, line: usize) -> Result<Record, RecordError> {
    let err = |column: usize, m: String| error_at(line, column, m);
    let v: Value =
        serde_json::from_str(text).map_err(|e| err(e.column().max(1), format!("not JSON: {e}")))?;
    let Value::Object(obj) = v else {
        return Err(err(1, "expected a JSON object (one game per line)".into()));
    };
    // A misspelt field would otherwise read as absent (e.g. default options).
    if let Some(k) = obj.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        let key = serde_json::to_string(k).unwrap_or_default();
        let column = text.find(&key).map_or(1, |i| text[..i].chars().count() + 1);
        return Err(err(
            column,
            format!("unknown field {key}; the fields are {}", FIELDS.join(", ")),
        ));
    }
    let field = |name: &str| obj.get(name).filter(|v| !v.is_null());
    let variant = match field("variant") {
        Some(Value::String(s)) => s.clone(),
        _ => return Err(err(1, "expected field \"variant\": a variant name".into())),
    };
    let options = match field("options") {
        None => Map::new(),
        Some(Value::Object(m)) => m.clone(),
        Some(_) => return Err(err(1, "field \"options\" must be an object".into())),
    };
    let actions = match field("actions") {
        Some(Value::Array(a)) => a
            .iter()
            .map(|x| x.as_u64().and_then(|n| u32::try_from(n).ok()))
            .collect::<Option<Vec<u32>>>()
            .ok_or_else(|| {
                err(
                    1,
                    "field \"actions\" must hold action ids (integers)".into(),
                )
            })?,
        _ => {
            return Err(err(
                1,
                "expected field \"actions\": an array of action ids".into(),
            ))
        }
    };
    let seed = match field("seed") {
        None => None,
        Some(s) => Some(
            s.as_u64()
                .ok_or_else(|| err(1, "field \"seed\" must be a non-negative integer".into()))?,
        ),
    };
    let tags = match field("tags") {
        None => Vec::new(),
        Some(Value::Object(m)) => m
            .iter()
            .map(|(k, v)| v.as_str().map(|s| (k.clone(), s.to_string())))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| err(1, "field \"tags\" must map names to strings".into()))?,
        Some(_) => return Err(err(1, "field \"tags\" must be an object".into())),
    };
    let mut rec = Record {
        variant,
        options,
        actions,
        tags,
        seed,
    };
    let g = rec.replay().map_err(|e| err(1, e.0))?;
    rec.options = rec.complete_options().map_err(|e| err(1, e.0))?;
    if let Some(r) = field("result") {
        if r.as_str() != Some(result_token(&g)) {
            return Err(err(
                1,
                format!(
                    "field \"result\" is {r} but the actions end with {}",
                    result_token(&g)
                ),
            ));
        }
    }
    if let Some(t) = obj.get("termination") {
        let actual = termination_name(&g);
        if t.as_str() != actual {
            return Err(err(
                1,
                format!("field \"termination\" is {t} but the actions end with {actual:?}"),
            ));
        }
    }
    Ok(rec)
}

/// Every record of a JSON Lines text (blank lines skipped).
pub fn read(text: &str) -> Result<Vec<Record>, RecordError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| read_line(l, i + 1))
        .collect()
}
