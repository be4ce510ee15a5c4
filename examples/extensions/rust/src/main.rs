//! A pig extension in Rust, written against docs/extension-protocol.md alone (pig-ext/1):
//!
//! - `count_lines`, a tool that counts the lines of files, one `$/progress` per file, and stops
//!   when pig sends `$/cancel` (Escape, or `abort` over RPC);
//! - a `tool_call` gate: every `bash` command waits for `ui.confirm`, and is blocked when it is
//!   declined or when there is nobody to ask (print and JSON mode);
//! - `/words [text]`: the word count of the text, or of the last answer on the current branch;
//!   `/log-size`: how many lines and bytes of the session file this process holds. Both read
//!   the session log, which is asked for (`session.subscribe`) only when first needed.
//!
//! Threads: the main thread reads the socket and answers `ping` and `$/cancel` itself at once;
//! every other request runs on a thread of its own, so a long tool call never delays a ping.

mod peer;
mod session;
mod wire;

use serde_json::{json, Value};
use session::Mirror;
use std::io::BufReader;
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use wire::{Conn, Frame, Inflight, Parts, RpcError};

const PROTOCOL: &str = "pig-ext/1";
const NAME: &str = "pig-rust-example";

extern "C" {
    fn getpgrp() -> i32;
    fn killpg(pgrp: i32, sig: i32) -> i32;
}
const SIGKILL: i32 = 9;

struct Ext {
    conn: Conn,
    /// The id pig gave this extension in the `initialize` result.
    id: String,
    has_ui: bool,
    cwd: Mutex<PathBuf>,
    inflight: Inflight,
    mirror: Mirror,
    /// Between files of `count_lines` (PIG_RUST_EXAMPLE_PACE_MS), to watch the progress.
    pace: Duration,
    trace: bool,
}

fn main() {
    let socket = need_env("PIG_EXT_SOCKET");
    let token = need_env("PIG_EXT_TOKEN");
    // Processes this one starts must not inherit the launch token.
    std::env::remove_var("PIG_EXT_TOKEN");
    let trace = std::env::var("PIG_RUST_EXAMPLE_TRACE").map(|v| v == "1").unwrap_or(false);
    let pace = std::env::var("PIG_RUST_EXAMPLE_PACE_MS").ok().and_then(|v| v.parse().ok()).unwrap_or(0);

    let stream = UnixStream::connect(&socket).unwrap_or_else(|e| die(&format!("cannot connect to {socket}: {e}")));
    if let Some(problem) = peer::host_problem(&stream) {
        eprintln!("{NAME}: refused the host socket: {problem}");
        std::process::exit(peer::EXIT_HOST_REFUSED);
    }
    let reader = stream.try_clone().unwrap_or_else(|e| die(&format!("socket: {e}")));
    let conn = Conn::new(stream, trace).unwrap_or_else(|e| die(&format!("socket: {e}")));
    let mut reader = BufReader::with_capacity(64 * 1024, reader);

    // The handshake is sent and answered before anything else, so it is read right here.
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "token": token, "protocols": [PROTOCOL],
        "client": {"name": NAME, "version": env!("CARGO_PKG_VERSION")},
        "pid": std::process::id()}});
    if trace {
        eprintln!("-> initialize (token withheld)");
    }
    conn.send_raw_quiet(&init).unwrap_or_else(|e| die(&format!("initialize: {e}")));
    let result = match wire::read_frame(&mut reader, conn.max_frame()) {
        Ok(Some(Frame::Line(line))) => {
            if trace {
                wire::trace("<-", &String::from_utf8_lossy(&line));
            }
            handshake_result(&line)
        }
        _ => die("the host closed the connection during the handshake"),
    };
    if let Some(max) = result.get("maxFrameBytes").and_then(Value::as_u64) {
        conn.set_max_frame(max as usize);
    }
    let session = result.get("session").cloned().unwrap_or(Value::Null);
    let ext = Arc::new(Ext {
        conn,
        id: result.get("extension").and_then(Value::as_str).unwrap_or("").to_string(),
        has_ui: session.get("hasUI").and_then(Value::as_bool).unwrap_or(false),
        cwd: Mutex::new(
            session.get("cwd").and_then(Value::as_str).map(PathBuf::from).unwrap_or_else(|| std::env::current_dir().unwrap_or_default()),
        ),
        inflight: Inflight::default(),
        mirror: Mirror::new(),
        pace: Duration::from_millis(pace),
        trace,
    });

    eprintln!("{NAME} {}: pid {}, {PROTOCOL}, extension {:?}, hasUI {}", env!("CARGO_PKG_VERSION"), std::process::id(), ext.id, ext.has_ui);

    // Registration runs on its own thread: its answers come through the reader below.
    let registering = ext.clone();
    std::thread::spawn(move || register(&registering));

    read_loop(&ext, &mut reader);
    // The socket closed without `shutdown`: pig is gone (perhaps killed) and cannot end this
    // process group itself, so this process does, helpers and all.
    let group = unsafe { getpgrp() };
    if group == std::process::id() as i32 {
        eprintln!("{NAME}: the socket closed; ending process group {group}");
        unsafe {
            killpg(group, SIGKILL);
        }
    }
    // Not a group leader (started by hand, not by pig): the group is not this program's to end.
    eprintln!("{NAME}: the socket closed; exiting");
    std::process::exit(0);
}

fn need_env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| die(&format!("{name} is not set: pig starts this program (see pig-extension.json)")))
}

fn die(message: &str) -> ! {
    eprintln!("{NAME}: {message}");
    std::process::exit(1);
}

fn handshake_result(line: &[u8]) -> Value {
    let answer: Value = serde_json::from_slice(line).unwrap_or_else(|e| die(&format!("initialize answer is not JSON: {e}")));
    if let Some(error) = answer.get("error") {
        let code = error.get("code").and_then(Value::as_i64).unwrap_or(0);
        let message = error.get("message").and_then(Value::as_str).unwrap_or("");
        if code == -32002 {
            let supported = error.get("data").and_then(|d| d.get("supported")).cloned().unwrap_or(Value::Null);
            die(&format!("no common protocol version: pig supports {supported}, this program {PROTOCOL}"));
        }
        die(&format!("initialize refused ({code}): {message}"));
    }
    let result = answer.get("result").cloned().unwrap_or(Value::Null);
    let protocol = result.get("protocol").and_then(Value::as_str).unwrap_or("");
    if protocol != PROTOCOL {
        die(&format!("the host chose protocol {protocol:?}, not {PROTOCOL}"));
    }
    result
}

fn register(ext: &Ext) {
    let registration = json!({
        "extension": ext.id,
        "tools": [{
            "name": "count_lines",
            "label": "Count lines",
            "description": "Counts the lines of each of the given files.",
            "promptSnippet": "Count the lines of files",
            "parameters": {"type": "object",
                "properties": {"paths": {"type": "array", "items": {"type": "string"},
                    "description": "Files, relative to the working directory"}},
                "required": ["paths"]}
        }],
        "commands": [
            {"name": "words", "description": "Count the words of the text given, or of the last answer"},
            {"name": "log-size", "description": "Lines and bytes of the session log this extension holds"}
        ],
        "events": ["tool_call"]
    });
    let ready = match ext.conn.call("register", registration) {
        Ok(result) => {
            for d in result.get("diagnostics").and_then(Value::as_array).into_iter().flatten() {
                eprintln!("{NAME}: register: {d}");
            }
            json!({"extension": ext.id})
        }
        Err(e) => json!({"extension": ext.id, "error": {"message": format!("register failed: {e}")}}),
    };
    if let Err(e) = ext.conn.call("ready", ready) {
        eprintln!("{NAME}: ready: {e}");
    }
}

fn read_loop(ext: &Arc<Ext>, reader: &mut BufReader<UnixStream>) {
    let mut parts = Parts::default();
    loop {
        let frame = match wire::read_frame(reader, ext.conn.max_frame()) {
            Ok(Some(frame)) => frame,
            Ok(None) | Err(_) => return,
        };
        match frame {
            Frame::Line(line) => {
                if line.iter().all(|b| b.is_ascii_whitespace()) {
                    continue;
                }
                handle_text(ext, &mut parts, &line);
            }
            Frame::TooLong { head, length } => too_long(ext, &head, length),
        }
    }
}

fn too_long(ext: &Ext, head: &[u8], length: usize) {
    let error = RpcError::new(wire::FRAME_TOO_LARGE, format!("frame of {length} bytes exceeds the limit of {} bytes", ext.conn.max_frame()));
    match wire::sniff_id(head) {
        (Some(id), true) => ext.conn.respond(&id, Err(error)),
        (None, true) => {} // a notification: dropped
        (Some(id), false) => {
            ext.conn.deliver(&id, Err(error.clone()));
            ext.conn.respond(&Value::Null, Err(error));
        }
        (None, false) => ext.conn.fail_all(error),
    }
}

fn handle_text(ext: &Arc<Ext>, parts: &mut Parts, line: &[u8]) {
    if ext.trace {
        wire::trace("<-", &String::from_utf8_lossy(line));
    }
    let message: Value = match serde_json::from_slice(line) {
        Ok(v) => v,
        Err(e) => return ext.conn.respond(&Value::Null, Err(RpcError::new(wire::PARSE_ERROR, format!("not JSON: {e}")))),
    };
    let id = message.get("id").cloned();
    let valid_id = matches!(id, None | Some(Value::Number(_)) | Some(Value::String(_)));
    if !message.is_object() || !valid_id {
        return ext.conn.respond(&Value::Null, Err(RpcError::new(wire::INVALID_REQUEST, "not a request or response object")));
    }
    let method = message.get("method").and_then(Value::as_str).map(str::to_string);
    let params = message.get("params").cloned().unwrap_or_else(|| json!({}));
    match (method, id) {
        (Some(method), id) => dispatch(ext, parts, &method, params, id),
        (None, Some(id)) => {
            let reply = match message.get("error") {
                Some(e) => Err(RpcError {
                    code: e.get("code").and_then(Value::as_i64).unwrap_or(wire::HANDLER_FAILED),
                    message: e.get("message").and_then(Value::as_str).unwrap_or("").to_string(),
                    data: e.get("data").cloned(),
                }),
                None => Ok(message.get("result").cloned().unwrap_or(Value::Null)),
            };
            ext.conn.deliver(&id, reply);
        }
        (None, None) => ext.conn.respond(&Value::Null, Err(RpcError::new(wire::INVALID_REQUEST, "neither method nor id"))),
    }
}

fn dispatch(ext: &Arc<Ext>, parts: &mut Parts, method: &str, params: Value, id: Option<Value>) {
    match method {
        "$/part" => match parts.add(&params, ext.conn.max_frame()) {
            Ok(Some(whole)) => handle_text(ext, parts, whole.as_bytes()),
            Ok(None) => {}
            Err(e) => ext.conn.respond(&Value::Null, Err(e)),
        },
        "ping" => {
            if ext.trace && ext.inflight.count() > 0 {
                eprintln!("{NAME}: ping answered with {} request(s) in flight", ext.inflight.count());
            }
            if let Some(id) = id {
                ext.conn.respond(&id, Ok(json!({})));
            }
        }
        "$/cancel" => {
            if let Some(target) = params.get("id") {
                ext.inflight.cancel(target);
            }
        }
        "shutdown" => {
            eprintln!("{NAME}: shutdown ({})", params.get("reason").and_then(Value::as_str).unwrap_or(""));
            std::process::exit(0);
        }
        "state" => {
            if let Some(cwd) = params.get("cwd").and_then(Value::as_str) {
                *ext.cwd.lock().unwrap() = PathBuf::from(cwd);
            }
        }
        "session.appended" | "session.leaf" | "session.replaced" => ext.mirror.on_change(method, &params),
        "check.mirror" => {
            if let Some(id) = id {
                ext.conn.respond(&id, Ok(ext.mirror.check_mirror()));
            }
        }
        _ => match id {
            // Requests run on threads of their own; the reader goes straight back to the socket.
            Some(id) => {
                let cancel = ext.inflight.start(&id);
                let ext = ext.clone();
                let method = method.to_string();
                std::thread::spawn(move || {
                    let reply = serve(&ext, &method, &params, &id, &cancel);
                    ext.inflight.finish(&id);
                    ext.conn.respond(&id, reply);
                });
            }
            None => {} // observe-only events and notifications this extension does not use
        },
    }
}

fn serve(ext: &Ext, method: &str, params: &Value, id: &Value, cancel: &wire::Cancel) -> Result<Value, RpcError> {
    match method {
        // Every event request is answered, also one nobody here handles: null, "nothing to say".
        "event" => match params.get("event").and_then(Value::as_str) {
            Some("tool_call") => Ok(gate(ext, params.get("payload").unwrap_or(&Value::Null))),
            _ => Ok(Value::Null),
        },
        "tool.execute" => match params.get("name").and_then(Value::as_str) {
            Some("count_lines") => count_lines(ext, params.get("args").unwrap_or(&Value::Null), id, cancel),
            other => Err(RpcError::new(wire::METHOD_NOT_FOUND, format!("no tool {other:?} here"))),
        },
        "command.run" => {
            let args = params.get("args").and_then(Value::as_str).unwrap_or("");
            match params.get("name").and_then(Value::as_str) {
                Some("words") => words(ext, args),
                Some("log-size") => log_size(ext),
                other => Err(RpcError::new(wire::METHOD_NOT_FOUND, format!("no command {other:?} here"))),
            }
        }
        "command.complete" => Ok(json!({"items": null})),
        _ => Err(RpcError::new(wire::METHOD_NOT_FOUND, format!("method not found: {method}"))),
    }
}

/// `tool_call`: a bash command runs only when someone said yes.
fn gate(ext: &Ext, payload: &Value) -> Value {
    if payload.get("toolName").and_then(Value::as_str) != Some("bash") {
        return Value::Null;
    }
    let command = payload.get("input").and_then(|i| i.get("command")).and_then(Value::as_str).unwrap_or("");
    if !ext.has_ui {
        return json!({"block": true, "reason": format!("Blocked without confirmation: {command}")});
    }
    match ext.conn.call("ui.confirm", json!({"title": "Run this command?", "message": command})) {
        Ok(answer) if answer.get("confirmed").and_then(Value::as_bool) == Some(true) => Value::Null,
        Ok(_) => json!({"block": true, "reason": "The user declined this command."}),
        Err(e) => json!({"block": true, "reason": format!("Could not ask about this command: {}", e.message)}),
    }
}

fn count_lines(ext: &Ext, args: &Value, id: &Value, cancel: &wire::Cancel) -> Result<Value, RpcError> {
    let paths: Vec<String> = args
        .get("paths")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(|p| p.as_str().map(str::to_string)).collect())
        .ok_or_else(|| RpcError::new(wire::INVALID_PARAMS, "paths: expected an array of strings"))?;
    let cwd = ext.cwd.lock().unwrap().clone();
    let mut counts = serde_json::Map::new();
    let mut report = Vec::new();
    for (index, path) in paths.iter().enumerate() {
        if (index > 0 && !ext.pace.is_zero() && cancel.wait(ext.pace)) || cancel.is_cancelled() {
            eprintln!("{NAME}: count_lines cancelled after {index} of {} files", paths.len());
            return Err(RpcError::new(wire::CANCELLED, format!("Cancelled after {index} of {} files", paths.len())));
        }
        let bytes = match std::fs::read(cwd.join(path)) {
            Ok(b) => b,
            Err(e) => {
                return Ok(json!({"content": [{"type": "text", "text": format!("{path}: {e}")}], "isError": true}));
            }
        };
        let newlines = bytes.iter().filter(|&&b| b == b'\n').count();
        let lines = if bytes.is_empty() { 0 } else { newlines + usize::from(bytes.last() != Some(&b'\n')) };
        counts.insert(path.clone(), json!(lines));
        report.push(format!("{path}: {lines}"));
        ext.conn.notify("$/progress", json!({"id": id, "value": {
            "content": [{"type": "text", "text": format!("{}/{}: {path}", index + 1, paths.len())}],
            "details": {"counts": counts}}}));
    }
    Ok(json!({"content": [{"type": "text", "text": report.join("\n")}], "details": {"counts": counts}}))
}

fn words(ext: &Ext, args: &str) -> Result<Value, RpcError> {
    let mut text = args.trim().to_string();
    if text.is_empty() {
        let log = ext.mirror.log(&ext.conn)?;
        text = session::branch(&log)
            .iter()
            .rev()
            .filter(|e| e.get("type").and_then(Value::as_str) == Some("message"))
            .filter_map(|e| e.get("message"))
            .find(|m| m.get("role").and_then(Value::as_str) == Some("assistant"))
            .map(session::text_of)
            .unwrap_or_default();
    }
    let n = text.split_whitespace().count();
    let message = format!("{n} word{}", if n == 1 { "" } else { "s" });
    ext.conn.call("ui.notify", json!({"message": message, "type": "info"}))?;
    Ok(json!({}))
}

/// What this process holds of the session log, as the file's own lines (LF-terminated): the
/// same as the file's size when the copy is exact.
fn log_size(ext: &Ext) -> Result<Value, RpcError> {
    let log = ext.mirror.log(&ext.conn)?;
    let lines = 1 + log.lines.len();
    let bytes = log.header.len() + 1 + log.lines.iter().map(|l| l.len() + 1).sum::<usize>();
    let message = format!("session log: {lines} lines, {bytes} bytes");
    ext.conn.call("ui.notify", json!({"message": message, "type": "info"}))?;
    Ok(json!({}))
}
