package sessionfile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// DefaultMaxLine is the longest line Scan and Read accept unless told otherwise: 512 MiB, the
// largest message pig's extension protocol reassembles. bufio.Scanner's own default (64 KB)
// is far too small for a session line holding a big tool result or an image.
const DefaultMaxLine = 512 << 20

// ErrNotSession is returned for a file whose first line is not a session header.
var ErrNotSession = errors.New("not a session file: the first line is not a session header")

// splitLF splits on LF only: a CR before it stays part of the line, so the bytes are exact.
func splitLF(data []byte, atEOF bool) (int, []byte, error) {
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		return i + 1, data[:i], nil
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}

// Scan calls fn with each line of r (without its LF) in order, blank lines included. The
// slice is only valid during the call. maxLine <= 0 means DefaultMaxLine; a longer line is an
// error naming its line number. torn is true for a last line that does not end in LF.
func Scan(r io.Reader, maxLine int, fn func(number int, line []byte, torn bool) error) error {
	if maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	counter := &countingReader{r: r}
	sc := bufio.NewScanner(counter)
	// The limit is the larger of max and the first buffer's capacity.
	first := 256 << 10
	if first > maxLine+1 {
		first = maxLine + 1
	}
	sc.Buffer(make([]byte, 0, first), maxLine+1)
	sc.Split(splitLF)
	var consumed int64
	number := 0
	for sc.Scan() {
		number++
		line := sc.Bytes()
		consumed += int64(len(line)) + 1
		torn := consumed > counter.n
		if err := fn(number, line, torn); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return fmt.Errorf("line %d is longer than %d bytes", number+1, maxLine)
		}
		return err
	}
	return nil
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// File is a session file as read: the header line and every non-blank line after it, each
// with its exact bytes (copies, owned by the File).
type File struct {
	Header json.RawMessage
	Lines  []json.RawMessage
	// Torn is true when the last line does not end in LF (a write that was cut off).
	Torn bool
}

// Read reads a whole session file from r. maxLine <= 0 means DefaultMaxLine.
func Read(r io.Reader, maxLine int) (*File, error) {
	f := &File{}
	err := Scan(r, maxLine, func(number int, line []byte, torn bool) error {
		if number == 1 {
			if !isHeader(line) {
				return ErrNotSession
			}
			f.Header = append(json.RawMessage(nil), line...)
			return nil
		}
		if len(bytes.TrimSpace(line)) == 0 {
			return nil
		}
		f.Lines = append(f.Lines, append(json.RawMessage(nil), line...))
		f.Torn = torn
		return nil
	})
	if err != nil {
		return nil, err
	}
	if f.Header == nil {
		return nil, ErrNotSession
	}
	return f, nil
}

// Open reads the session file at path.
func Open(path string) (*File, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	f, err := Read(file, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

func isHeader(line []byte) bool {
	var h struct {
		Type string `json:"type"`
	}
	return json.Unmarshal(line, &h) == nil && h.Type == "session"
}

// LeafID is the id of the last entry in the file: where pig and Pi resume a session.
func (f *File) LeafID() string {
	return LastID(f.Lines)
}

// Branch is the active branch: the entries from the root to the leaf.
func (f *File) Branch() []Entry {
	return Branch(f.Lines, f.LeafID())
}

// LastID is the id of the last line that is an entry with an id ("" when there is none).
func LastID(lines []json.RawMessage) string {
	for i := len(lines) - 1; i >= 0; i-- {
		var l Links
		if json.Unmarshal(lines[i], &l) == nil && l.ID != "" {
			return l.ID
		}
	}
	return ""
}
