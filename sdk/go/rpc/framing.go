package rpc

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/pig-coding-agent/pig/sdk/go/internal/jsonscan"
)

// ErrLineTooLong is the reading error for a line over Options.MaxLineBytes.
var ErrLineTooLong = errors.New("pig rpc: a line from pig is longer than the limit")

// lineReader splits pig's output on LF only. Lines are gathered from bufio's buffer as they
// come, so their length is bounded by memory (or max), not by a scanner's buffer: a
// get_messages answer holding an image is one line of many megabytes.
type lineReader struct {
	r   *bufio.Reader
	max int
	buf []byte
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 256<<10), max: max}
}

// next returns the next line without its LF (and a CR before it). The slice is only valid
// until the following call. A last line without LF is returned before io.EOF.
func (lr *lineReader) next() ([]byte, error) {
	// Memory a huge line took is given back once it has been handled.
	if cap(lr.buf) > 4<<20 {
		lr.buf = nil
	}
	lr.buf = lr.buf[:0]
	for {
		chunk, err := lr.r.ReadSlice('\n')
		if lr.max > 0 && len(lr.buf)+len(chunk) > lr.max+1 {
			return nil, fmt.Errorf("%w (%d bytes)", ErrLineTooLong, lr.max)
		}
		lr.buf = append(lr.buf, chunk...)
		switch {
		case err == nil:
			line := lr.buf[:len(lr.buf)-1]
			return bytes.TrimSuffix(line, []byte("\r")), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(lr.buf) > 0:
			return bytes.TrimSuffix(lr.buf, []byte("\r")), nil
		default:
			return nil, err
		}
	}
}

// topFields splits a JSON object into its members' raw values without checking how deeply
// they nest: encoding/json refuses values nested more than 10,000 levels, and get_tree's
// answer nests one level per entry of a long branch. Each value is decoded (and so checked)
// on its own later. Only the members in want are kept.
func topFields(line []byte, want map[string]*json.RawMessage) error {
	i := jsonscan.SkipSpace(line, 0)
	if i >= len(line) || line[i] != '{' {
		return errors.New("not a JSON object")
	}
	i = jsonscan.SkipSpace(line, i+1)
	if i < len(line) && line[i] == '}' {
		return nil
	}
	for {
		if i >= len(line) || line[i] != '"' {
			return errors.New("malformed JSON object")
		}
		end := jsonscan.SkipString(line, i)
		if end < 0 {
			return errors.New("malformed JSON string")
		}
		var key string
		if err := json.Unmarshal(line[i:end], &key); err != nil {
			return err
		}
		i = jsonscan.SkipSpace(line, end)
		if i >= len(line) || line[i] != ':' {
			return errors.New("malformed JSON object")
		}
		i = jsonscan.SkipSpace(line, i+1)
		end = jsonscan.SkipValue(line, i)
		if end < 0 {
			return errors.New("malformed JSON value")
		}
		if target, ok := want[key]; ok {
			*target = line[i:end]
		}
		i = jsonscan.SkipSpace(line, end)
		if i < len(line) && line[i] == ',' {
			i = jsonscan.SkipSpace(line, i+1)
			continue
		}
		if i < len(line) && line[i] == '}' {
			return nil
		}
		return errors.New("malformed JSON object")
	}
}

// encodeLine marshals v as one line: JSON escapes every control character, U+2028 and
// U+2029, so the only LF is the one that ends it.
func encodeLine(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
