package sdk

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"unicode/utf8"
)

// DefaultMaxFrameBytes is the frame limit until the host states its own in `initialize`.
const DefaultMaxFrameBytes = 8 << 20

const (
	maxOpenParts = 16
	partsFactor  = 64
	// idWindow is how much of an over-long line is kept to find its id (docs §1).
	idWindow = 256
)

// frame is one JSON-RPC message in either direction.
type frame struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *RPCError       `json:"error,omitempty"`
	// whole is the full text of a big answer not decoded yet (see bigMessage).
	whole []byte
}

// result decodes the answer's result into v.
func (f *frame) result(v any) error {
	if f.whole == nil {
		if len(f.Result) == 0 {
			return nil
		}
		return json.Unmarshal(f.Result, v)
	}
	var answer struct {
		Result json.RawMessage `json:"result"`
		Error  *RPCError       `json:"error"`
	}
	if err := json.Unmarshal(f.whole, &answer); err != nil {
		return err
	}
	if answer.Error != nil {
		return answer.Error
	}
	return json.Unmarshal(answer.Result, v)
}

func (f *frame) hasID() bool { return len(f.ID) > 0 && string(f.ID) != "null" }

// RPCError is an error answer of the protocol (docs §1, "Error codes").
type RPCError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *RPCError) Error() string { return fmt.Sprintf("%s (%d)", e.Message, e.Code) }

// Error codes of pig-ext/1.
const (
	CodeParse          = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeHandlerFailed  = -32000
	CodeUnauthorized   = -32001
	CodeNoProtocol     = -32002
	CodeFrameTooLarge  = -32003
	CodeCancelled      = -32800
)

// writer serialises frames onto the connection, one whole line per write, cutting messages
// longer than the frame limit into `$/part` notifications.
type writer struct {
	mu       sync.Mutex
	w        io.Writer
	maxFrame int
	stream   int
}

func encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	// HTML escaping would turn one byte of <, > or & into six and skew the part sizes.
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

func (w *writer) setMaxFrame(n int) {
	w.mu.Lock()
	w.maxFrame = n
	w.mu.Unlock()
}

func (w *writer) send(f *frame) error {
	f.JSONRPC = "2.0"
	data, err := encode(f)
	if err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(data) <= w.maxFrame {
		_, err = w.w.Write(append(data, '\n'))
		return err
	}
	if len(data) > partsFactor*w.maxFrame {
		return fmt.Errorf("message of %d bytes exceeds the limit of %d bytes", len(data), partsFactor*w.maxFrame)
	}
	w.stream++
	// Escaping a slice as a JSON string at most doubles it (quotes, backslashes, U+2028/9).
	step := (w.maxFrame - idWindow) / 2
	for start := 0; start < len(data); {
		end := start + step
		if end >= len(data) {
			end = len(data)
		} else {
			for end > start && !utf8.RuneStart(data[end]) {
				end--
			}
		}
		part := map[string]any{"stream": w.stream, "data": string(data[start:end]), "final": end == len(data)}
		line, err := encode(&frame{JSONRPC: "2.0", Method: "$/part", Params: mustRaw(part)})
		if err != nil {
			return err
		}
		if _, err := w.w.Write(append(line, '\n')); err != nil {
			return err
		}
		start = end
	}
	return nil
}

func mustRaw(v any) json.RawMessage {
	data, err := encode(v)
	if err != nil {
		panic(err)
	}
	return data
}

// reader splits the connection on LF bytes and reassembles `$/part` streams.
type reader struct {
	r        *bufio.Reader
	maxFrame func() int
	parts    map[string]*bytes.Buffer
}

func newReader(r io.Reader, maxFrame func() int) *reader {
	return &reader{r: bufio.NewReaderSize(r, 1<<20), maxFrame: maxFrame, parts: map[string]*bytes.Buffer{}}
}

// oversize describes a line dropped for its length.
type oversize struct {
	size      int
	head      []byte
	isRequest bool
	id        json.RawMessage
}

// next returns the next message: a frame, an over-long line, or a line that is not JSON
// (raw non-nil, frame nil). Blank lines are skipped. It returns io.EOF when the socket closes.
func (rd *reader) next() (*frame, *oversize, error) {
	for {
		line, over, err := rd.line()
		if err != nil {
			return nil, nil, err
		}
		if over != nil {
			return nil, over, nil
		}
		line = bytes.TrimRight(line, "\r \t")
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		f, over, err := rd.decode(line)
		if err != nil {
			return nil, nil, err
		}
		if f == nil && over == nil {
			continue // a part of a stream not yet final
		}
		return f, over, nil
	}
}

// bigMessage is the size above which a reassembled answer is not decoded on the reading
// goroutine: its id is read from its start and the whole text goes to whoever waits for it.
const bigMessage = 1 << 20

// partFrame is a frame read with its `$/part` params in one pass (the common case for big data).
type partFrame struct {
	Method string `json:"method"`
	Params struct {
		Stream json.RawMessage `json:"stream"`
		Data   string          `json:"data"`
		Final  bool            `json:"final"`
	} `json:"params"`
}

func (rd *reader) decode(line []byte) (*frame, *oversize, error) {
	if bytes.Contains(line[:min(len(line), idWindow)], []byte(`"$/part"`)) {
		var pf partFrame
		if err := json.Unmarshal(line, &pf); err == nil && pf.Method == "$/part" {
			return rd.part(pf)
		}
	}
	var f frame
	if err := json.Unmarshal(line, &f); err != nil {
		return &frame{Method: "", Error: &RPCError{Code: CodeParse, Message: "the line is not JSON"}}, nil, nil
	}
	return &f, nil, nil
}

func (rd *reader) part(pf partFrame) (*frame, *oversize, error) {
	p := pf.Params
	key := string(p.Stream)
	buf, open := rd.parts[key]
	if !open {
		if len(rd.parts) >= maxOpenParts {
			return &frame{Error: &RPCError{Code: CodeFrameTooLarge, Message: "too many open $/part streams"}}, nil, nil
		}
		buf = &bytes.Buffer{}
		rd.parts[key] = buf
	}
	buf.WriteString(p.Data)
	limit := partsFactor * rd.maxFrame()
	if buf.Len() > limit {
		delete(rd.parts, key)
		return &frame{Error: &RPCError{Code: CodeFrameTooLarge, Message: fmt.Sprintf("message of over %d bytes exceeds the limit of %d bytes", buf.Len(), limit)}}, nil, nil
	}
	if !p.Final {
		return nil, nil, nil
	}
	delete(rd.parts, key)
	whole := buf.Bytes()
	if len(whole) > bigMessage {
		if isRequest, id := scanHead(whole[:idWindow]); !isRequest && id != nil {
			return &frame{ID: id, whole: whole}, nil, nil
		}
	}
	return rd.decode(whole)
}

func min(a, b int) int {
	if a < b {
		return a
	}
	return b
}

// line reads one line; a line longer than the frame limit is consumed and described instead.
func (rd *reader) line() ([]byte, *oversize, error) {
	limit := rd.maxFrame()
	var acc []byte
	var over *oversize
	for {
		chunk, err := rd.r.ReadSlice('\n')
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			if errors.Is(err, io.EOF) && (len(chunk) > 0 || len(acc) > 0) && over == nil {
				return append(acc, chunk...), nil, nil
			}
			return nil, nil, err
		}
		complete := err == nil
		if complete {
			chunk = chunk[:len(chunk)-1]
		}
		if over == nil {
			if len(acc)+len(chunk) <= limit {
				if complete && acc == nil {
					// The reader's buffer is reused by the next read: copy.
					return append([]byte(nil), chunk...), nil, nil
				}
				acc = append(acc, chunk...)
			} else {
				head := append(acc, chunk...)
				if len(head) > idWindow {
					head = head[:idWindow]
				}
				over = &oversize{head: append([]byte(nil), head...), size: len(acc)}
				acc = nil
			}
		}
		if over != nil {
			over.size += len(chunk)
		}
		if complete {
			if over != nil {
				over.isRequest, over.id = scanHead(over.head)
				return nil, over, nil
			}
			return acc, nil, nil
		}
	}
}

// scanHead finds the top-level "id" and whether there is a "method" in the start of a line.
func scanHead(head []byte) (bool, json.RawMessage) {
	isRequest := bytes.Contains(head, []byte(`"method"`))
	i := bytes.Index(head, []byte(`"id"`))
	if i < 0 {
		return isRequest, nil
	}
	rest := bytes.TrimLeft(head[i+4:], " \t")
	if len(rest) == 0 || rest[0] != ':' {
		return isRequest, nil
	}
	rest = bytes.TrimLeft(rest[1:], " \t")
	if len(rest) > 0 && rest[0] == '"' {
		if end := bytes.IndexByte(rest[1:], '"'); end >= 0 {
			return isRequest, json.RawMessage(rest[:end+2])
		}
		return isRequest, nil
	}
	end := 0
	for end < len(rest) && (rest[end] == '-' || (rest[end] >= '0' && rest[end] <= '9')) {
		end++
	}
	if end == 0 || end == len(rest) {
		return isRequest, nil
	}
	if _, err := strconv.Atoi(string(rest[:end])); err != nil {
		return isRequest, nil
	}
	return isRequest, json.RawMessage(rest[:end])
}
