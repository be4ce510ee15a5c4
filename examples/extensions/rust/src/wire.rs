//! The connection: newline-delimited JSON-RPC over the Unix socket (docs/extension-protocol.md §1).
//! Writes from any thread go through one lock, one whole frame at a time; requests this side
//! sends wait on a channel that the reader thread fills when the answer arrives.

use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::{self, BufRead, Write};
use std::os::unix::net::UnixStream;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Condvar, Mutex};
use std::time::Duration;

pub const DEFAULT_MAX_FRAME_BYTES: usize = 8 * 1024 * 1024;
/// A reassembled `$/part` message may be this many frames long (§1).
const MAX_PART_FRAMES: usize = 64;
const MAX_OPEN_STREAMS: usize = 16;

pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const METHOD_NOT_FOUND: i64 = -32601;
pub const INVALID_PARAMS: i64 = -32602;
pub const HANDLER_FAILED: i64 = -32000;
pub const FRAME_TOO_LARGE: i64 = -32003;
pub const CANCELLED: i64 = -32800;

#[derive(Debug, Clone)]
pub struct RpcError {
    pub code: i64,
    pub message: String,
    pub data: Option<Value>,
}

impl RpcError {
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        RpcError { code, message: message.into(), data: None }
    }
}

impl std::fmt::Display for RpcError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.message, self.code)
    }
}

type Reply = Result<Value, RpcError>;

pub struct Conn {
    writer: Mutex<UnixStream>,
    next_id: AtomicU64,
    next_stream: AtomicU64,
    pending: Mutex<HashMap<u64, mpsc::Sender<Reply>>>,
    max_frame: AtomicUsize,
    trace: bool,
}

impl Conn {
    pub fn new(stream: UnixStream, trace: bool) -> io::Result<Conn> {
        Ok(Conn {
            writer: Mutex::new(stream),
            next_id: AtomicU64::new(1),
            next_stream: AtomicU64::new(1),
            pending: Mutex::new(HashMap::new()),
            max_frame: AtomicUsize::new(DEFAULT_MAX_FRAME_BYTES),
            trace,
        })
    }

    pub fn max_frame(&self) -> usize {
        self.max_frame.load(Ordering::Relaxed)
    }

    /// The host states the limit in the `initialize` result; both directions use it from then on.
    pub fn set_max_frame(&self, bytes: usize) {
        self.max_frame.store(bytes.max(1024), Ordering::Relaxed);
    }

    /// Writes one message; one longer than the frame limit goes as `$/part` slices.
    pub fn send(&self, message: &Value) -> io::Result<()> {
        self.send_text(message.to_string())
    }

    fn send_text(&self, text: String) -> io::Result<()> {
        if self.trace {
            trace("->", &text);
        }
        let max = self.max_frame();
        if text.len() <= max {
            return self.write_line(&text);
        }
        let stream = self.next_stream.fetch_add(1, Ordering::Relaxed);
        // Each part's own JSON wrapping and escaping must fit too: slices of a quarter of the
        // limit leave room even when every byte of a slice needs escaping as \" or \\.
        let budget = (max / 4).max(256);
        let mut rest = text.as_str();
        while !rest.is_empty() {
            let mut cut = budget.min(rest.len());
            while !rest.is_char_boundary(cut) {
                cut -= 1;
            }
            let (slice, tail) = rest.split_at(cut);
            rest = tail;
            let part = json!({"jsonrpc": "2.0", "method": "$/part",
                "params": {"stream": stream, "data": slice, "final": rest.is_empty()}});
            self.write_line(&part.to_string())?;
        }
        Ok(())
    }

    /// Writes one message without tracing it (the handshake carries the token).
    pub fn send_raw_quiet(&self, message: &Value) -> io::Result<()> {
        self.write_line(&message.to_string())
    }

    fn write_line(&self, text: &str) -> io::Result<()> {
        let mut frame = Vec::with_capacity(text.len() + 1);
        frame.extend_from_slice(text.as_bytes());
        frame.push(b'\n');
        let mut w = self.writer.lock().unwrap();
        w.write_all(&frame)
    }

    pub fn respond(&self, id: &Value, reply: Reply) {
        // serde_json's maps are sorted by key, which would put "error" before "id"; a receiver
        // reads the id of an oversized frame from its first 256 bytes (§1), so it goes first.
        let (key, body) = match reply {
            Ok(result) => ("result", result),
            Err(e) => {
                let mut error = json!({"code": e.code, "message": e.message});
                if let Some(data) = e.data {
                    error["data"] = data;
                }
                ("error", error)
            }
        };
        let text = format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"{key}\":{body}}}");
        // A write that fails means the socket is gone; the reader sees that and ends the process.
        let _ = self.send_text(text);
    }

    pub fn notify(&self, method: &str, params: Value) {
        let _ = self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and blocks this thread until its answer arrives (the reader thread goes on).
    pub fn call(&self, method: &str, params: Value) -> Reply {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = mpsc::channel();
        self.pending.lock().unwrap().insert(id, tx);
        let sent = self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        if let Err(e) = sent {
            self.pending.lock().unwrap().remove(&id);
            return Err(RpcError::new(HANDLER_FAILED, format!("socket write failed: {e}")));
        }
        rx.recv().unwrap_or_else(|_| Err(RpcError::new(HANDLER_FAILED, "the connection closed")))
    }

    /// Hands a response to the thread waiting for it.
    pub fn deliver(&self, id: &Value, reply: Reply) {
        let waiter = id.as_u64().and_then(|n| self.pending.lock().unwrap().remove(&n));
        match waiter {
            Some(tx) => {
                let _ = tx.send(reply);
            }
            None => eprintln!("pig-rust-example: a response to no open request (id {id})"),
        }
    }

    /// Fails every open request (a response was lost and its id cannot be known).
    pub fn fail_all(&self, error: RpcError) {
        for (_, tx) in self.pending.lock().unwrap().drain() {
            let _ = tx.send(Err(error.clone()));
        }
    }
}

pub fn trace(direction: &str, text: &str) {
    const LIMIT: usize = 400;
    if text.len() <= LIMIT {
        eprintln!("{direction} {text}");
    } else {
        let mut cut = LIMIT;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        eprintln!("{direction} {}… ({} bytes)", &text[..cut], text.len());
    }
}

/// One line read from the socket.
pub enum Frame {
    Line(Vec<u8>),
    /// Longer than the limit: dropped up to its LF; the first 256 bytes are kept to find its id.
    TooLong { head: Vec<u8>, length: usize },
}

/// Reads lines split on the byte 0x0A only, before any UTF-8 decoding, never holding more than
/// the frame limit of one line in memory. `None` at end of stream.
pub fn read_frame(reader: &mut impl BufRead, max: usize) -> io::Result<Option<Frame>> {
    let mut line: Vec<u8> = Vec::new();
    let mut length = 0usize;
    let mut too_long = false;
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            // End of stream; a last line without its LF is not a whole frame.
            return Ok(None);
        }
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        length += chunk.len();
        if !too_long {
            if length > max + 1 {
                too_long = true;
                let keep = 256usize.saturating_sub(line.len()).min(chunk.len());
                line.extend_from_slice(&chunk[..keep]);
                line.truncate(256);
            } else {
                line.extend_from_slice(chunk);
            }
        }
        let consumed = done.unwrap_or(buf.len());
        reader.consume(consumed);
        if done.is_some() {
            if line.last() == Some(&b'\r') && !too_long {
                line.pop();
                length -= 1;
            }
            if !too_long && length > max {
                too_long = true;
                line.truncate(256);
            }
            return Ok(Some(if too_long { Frame::TooLong { head: line, length } } else { Frame::Line(line) }));
        }
    }
}

/// The top-level `id` of a message from its first bytes, and whether it has a `method`: a plain
/// scan, good enough for encoders that write `id` before `params`/`result`.
pub fn sniff_id(head: &[u8]) -> (Option<Value>, bool) {
    let text = String::from_utf8_lossy(head);
    let has_method = text.contains("\"method\"");
    let id = text.find("\"id\"").and_then(|at| {
        let rest = text[at + 4..].trim_start().strip_prefix(':')?.trim_start();
        if let Some(quoted) = rest.strip_prefix('"') {
            let end = quoted.find('"')?;
            return Some(Value::String(quoted[..end].to_string()));
        }
        let digits: String = rest.chars().take_while(|c| c.is_ascii_digit() || *c == '-').collect();
        digits.parse::<i64>().ok().map(Value::from)
    });
    (id, has_method)
}

/// Reassembles `$/part` streams (§1).
#[derive(Default)]
pub struct Parts {
    open: HashMap<String, String>,
}

impl Parts {
    /// Adds one part; returns the whole message once its final part arrived.
    pub fn add(&mut self, params: &Value, max_frame: usize) -> Result<Option<String>, RpcError> {
        let stream = params.get("stream").map(|s| s.to_string()).unwrap_or_default();
        let data = params.get("data").and_then(Value::as_str).unwrap_or("");
        let last = params.get("final").and_then(Value::as_bool).unwrap_or(false);
        if !self.open.contains_key(&stream) && self.open.len() >= MAX_OPEN_STREAMS {
            return Err(RpcError::new(FRAME_TOO_LARGE, "too many $/part streams open"));
        }
        let text = self.open.entry(stream.clone()).or_default();
        text.push_str(data);
        if text.len() > MAX_PART_FRAMES * max_frame {
            self.open.remove(&stream);
            return Err(RpcError::new(FRAME_TOO_LARGE, "reassembled message exceeds the limit"));
        }
        if last {
            return Ok(self.open.remove(&stream));
        }
        Ok(None)
    }
}

/// A request's cancellation flag: set by `$/cancel`, waited on by the work.
#[derive(Default)]
pub struct Cancel {
    cancelled: Mutex<bool>,
    wake: Condvar,
}

impl Cancel {
    pub fn cancel(&self) {
        *self.cancelled.lock().unwrap() = true;
        self.wake.notify_all();
    }

    pub fn is_cancelled(&self) -> bool {
        *self.cancelled.lock().unwrap()
    }

    /// Sleeps up to `pause`, waking at once on cancellation; true when cancelled.
    pub fn wait(&self, pause: Duration) -> bool {
        let guard = self.cancelled.lock().unwrap();
        let (guard, _) = self.wake.wait_timeout_while(guard, pause, |c| !*c).unwrap();
        *guard
    }
}

/// The open requests from the host, by id, so `$/cancel {id}` finds its work.
#[derive(Default)]
pub struct Inflight {
    open: Mutex<HashMap<String, Arc<Cancel>>>,
}

impl Inflight {
    pub fn start(&self, id: &Value) -> Arc<Cancel> {
        let cancel = Arc::new(Cancel::default());
        self.open.lock().unwrap().insert(id.to_string(), cancel.clone());
        cancel
    }

    pub fn finish(&self, id: &Value) {
        self.open.lock().unwrap().remove(&id.to_string());
    }

    pub fn cancel(&self, id: &Value) {
        if let Some(c) = self.open.lock().unwrap().get(&id.to_string()) {
            c.cancel();
        }
    }

    pub fn count(&self) -> usize {
        self.open.lock().unwrap().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn frames(input: &[u8], max: usize) -> Vec<Result<String, (String, usize)>> {
        let mut reader = std::io::BufReader::with_capacity(7, Cursor::new(input.to_vec()));
        let mut out = Vec::new();
        while let Some(frame) = read_frame(&mut reader, max).unwrap() {
            out.push(match frame {
                Frame::Line(l) => Ok(String::from_utf8(l).unwrap()),
                Frame::TooLong { head, length } => Err((String::from_utf8_lossy(&head).into_owned(), length)),
            });
        }
        out
    }

    #[test]
    fn lines_end_only_at_lf_and_a_cr_before_it_is_dropped() {
        let input = "{\"a\":\"x\u{2028}y\rz\"}\r\n\n{\"b\":1}\n{\"unterminated\"".as_bytes();
        assert_eq!(frames(input, 1024), vec![Ok("{\"a\":\"x\u{2028}y\rz\"}".to_string()), Ok(String::new()), Ok("{\"b\":1}".to_string())]);
    }

    #[test]
    fn a_line_over_the_limit_keeps_its_first_256_bytes_and_the_next_line_reads_normally() {
        let long = format!("{{\"jsonrpc\":\"2.0\",\"id\":42,\"method\":\"x\",\"params\":{{\"p\":\"{}\"}}}}", "a".repeat(2000));
        let input = format!("{long}\n{{\"ok\":true}}\n");
        let out = frames(input.as_bytes(), 1000);
        assert_eq!(out.len(), 2);
        let (head, length) = out[0].clone().unwrap_err();
        assert_eq!((head.len(), length), (256, long.len()));
        assert_eq!(sniff_id(head.as_bytes()), (Some(Value::from(42)), true));
        assert_eq!(out[1], Ok("{\"ok\":true}".to_string()));
    }

    #[test]
    fn ids_are_sniffed_as_numbers_or_strings() {
        assert_eq!(sniff_id(br#"{"jsonrpc":"2.0","id":"t-1","result":{"#), (Some(Value::from("t-1")), false));
        assert_eq!(sniff_id(br#"{"jsonrpc":"2.0","method":"event","params":{"#), (None, true));
    }

    #[test]
    fn parts_reassemble_per_stream_and_refuse_a_seventeenth() {
        let mut parts = Parts::default();
        let part = |stream: u64, data: &str, last: bool| json!({"stream": stream, "data": data, "final": last});
        assert_eq!(parts.add(&part(1, "{\"a\":", false), 1024).unwrap(), None);
        assert_eq!(parts.add(&part(2, "[1,", false), 1024).unwrap(), None);
        assert_eq!(parts.add(&part(1, "1}", true), 1024).unwrap(), Some("{\"a\":1}".to_string()));
        for s in 3..=17 {
            assert!(parts.add(&part(s, "x", false), 1024).unwrap().is_none());
        }
        assert_eq!(parts.add(&part(18, "x", false), 1024).unwrap_err().code, FRAME_TOO_LARGE);
        assert_eq!(parts.add(&part(2, "2]", true), 1024).unwrap(), Some("[1,2]".to_string()));
    }

    #[test]
    fn a_long_message_goes_out_as_parts_that_rebuild_it() {
        let (a, b) = UnixStream::pair().unwrap();
        let conn = Conn::new(a, false).unwrap();
        conn.set_max_frame(1024);
        let text = "é\"\\".repeat(2000);
        let message = json!({"jsonrpc": "2.0", "method": "ui.notify", "params": {"message": text}});
        conn.send(&message).unwrap();
        drop(conn);
        let mut reader = std::io::BufReader::new(b);
        let mut parts = Parts::default();
        let mut whole = None;
        while let Some(Frame::Line(line)) = read_frame(&mut reader, 1024).unwrap() {
            assert!(line.len() <= 1024);
            let part: Value = serde_json::from_slice(&line).unwrap();
            assert_eq!(part["method"], "$/part");
            whole = parts.add(&part["params"], 1024).unwrap().or(whole);
        }
        let rebuilt: Value = serde_json::from_str(&whole.unwrap()).unwrap();
        assert_eq!(rebuilt, message);
    }

    #[test]
    fn responses_put_the_id_first() {
        let (a, b) = UnixStream::pair().unwrap();
        let conn = Conn::new(a, false).unwrap();
        conn.respond(&Value::from(7), Err(RpcError::new(CANCELLED, "cancelled")));
        drop(conn);
        let mut reader = std::io::BufReader::new(b);
        let line = match read_frame(&mut reader, 1024).unwrap() {
            Some(Frame::Line(l)) => String::from_utf8(l).unwrap(),
            _ => panic!("no frame"),
        };
        assert_eq!(line, r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32800,"message":"cancelled"}}"#);
    }
}
