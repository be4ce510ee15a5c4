//! The session log, replicated lazily (docs/extension-protocol.md §5): nothing is asked for
//! until a handler first needs it; then one `session.subscribe`, and from there the
//! `session.appended` / `session.leaf` / `session.replaced` notifications keep the copy current.
//! Every entry is kept as the exact text of its line in the session file.

use crate::wire::{Conn, RpcError};
use serde_json::{json, Value};
use std::sync::{Condvar, Mutex};

#[derive(Clone, Default)]
pub struct Log {
    pub header: String,
    pub lines: Vec<String>,
    pub leaf: Option<String>,
}

enum State {
    Unsubscribed,
    /// The request is out; changes that arrive before its answer was handled wait here.
    Subscribing(Vec<(String, Value)>),
    Live(Log),
}

pub struct Mirror {
    state: Mutex<State>,
    changed: Condvar,
}

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_string)).collect())
        .unwrap_or_default()
}

fn leaf_of(params: &Value) -> Option<String> {
    params.get("leafId").and_then(Value::as_str).map(str::to_string)
}

fn snapshot(params: &Value) -> Log {
    Log {
        header: params.get("header").and_then(Value::as_str).unwrap_or("").to_string(),
        lines: strings(params.get("entries")),
        leaf: leaf_of(params),
    }
}

fn apply(log: &mut Log, method: &str, params: &Value) {
    match method {
        "session.appended" => {
            log.lines.extend(strings(params.get("entries")));
            log.leaf = leaf_of(params);
        }
        "session.leaf" => log.leaf = leaf_of(params),
        "session.replaced" => *log = snapshot(params),
        _ => {}
    }
}

impl Mirror {
    pub fn new() -> Mirror {
        Mirror { state: Mutex::new(State::Unsubscribed), changed: Condvar::new() }
    }

    /// A change notification from the reader thread. Before the first subscribe there is none to
    /// get (the host sends them only to subscribers).
    pub fn on_change(&self, method: &str, params: &Value) {
        let mut state = self.state.lock().unwrap();
        match &mut *state {
            State::Unsubscribed => {}
            State::Subscribing(held) => held.push((method.to_string(), params.clone())),
            State::Live(log) => apply(log, method, params),
        }
    }

    /// The copy as exact lines, without subscribing: `check.mirror` (docs/extension-protocol.md §12).
    pub fn check_mirror(&self) -> Value {
        match &*self.state.lock().unwrap() {
            State::Live(log) => json!({ "subscribed": true, "header": log.header, "entries": log.lines, "leafId": log.leaf }),
            _ => json!({ "subscribed": false }),
        }
    }

    /// The log as it is now, subscribing on the first call.
    pub fn log(&self, conn: &Conn) -> Result<Log, RpcError> {
        let mut state = self.state.lock().unwrap();
        loop {
            match &*state {
                State::Live(log) => return Ok(log.clone()),
                State::Subscribing(_) => state = self.changed.wait(state).unwrap(),
                State::Unsubscribed => break,
            }
        }
        *state = State::Subscribing(Vec::new());
        drop(state);
        let answer = conn.call("session.subscribe", json!({}));
        let mut state = self.state.lock().unwrap();
        let held = match std::mem::replace(&mut *state, State::Unsubscribed) {
            State::Subscribing(held) => held,
            _ => Vec::new(),
        };
        let result = match answer {
            Ok(result) => {
                let mut log = snapshot(&result);
                for (method, params) in &held {
                    apply(&mut log, method, params);
                }
                *state = State::Live(log.clone());
                Ok(log)
            }
            Err(e) => Err(e),
        };
        self.changed.notify_all();
        result
    }
}

/// The entries of the active branch, root first, parsed.
pub fn branch(log: &Log) -> Vec<Value> {
    let entries: Vec<Value> = log.lines.iter().filter_map(|l| serde_json::from_str(l).ok()).collect();
    let by_id: std::collections::HashMap<&str, &Value> =
        entries.iter().filter_map(|e| e.get("id").and_then(Value::as_str).map(|id| (id, e))).collect();
    let mut path = Vec::new();
    let mut at = log.leaf.as_deref();
    while let Some(id) = at {
        let entry = match by_id.get(id) {
            Some(e) => *e,
            None => break,
        };
        path.push(entry.clone());
        at = entry.get("parentId").and_then(Value::as_str);
        if path.len() > entries.len() {
            break; // a cycle in a damaged file
        }
    }
    path.reverse();
    path
}

/// The text of a message's content (a string, or the text blocks of an array).
pub fn text_of(message: &Value) -> String {
    match message.get("content") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(blocks)) => blocks
            .iter()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join(" "),
        _ => String::new(),
    }
}
