package sessionfile

import (
	"encoding/json"
	"runtime"
	"sync"
)

// Index maps entry ids to their line and parent, for walking branches. Build it once and
// extend it with Add as lines are appended.
type Index struct {
	byID   map[string]int
	parent []string
	// Trusted lines are known to be whole entries (pig sent them): only their links are read.
	// Otherwise (a file read from disk) a line must be valid JSON to take an id.
	Trusted bool
}

// NewIndex indexes lines read from a file.
func NewIndex(lines []json.RawMessage) *Index {
	ix := &Index{byID: make(map[string]int, len(lines))}
	ix.Add(lines)
	return ix
}

// Add indexes lines appended after the ones indexed so far. A line that is not an entry (or
// has no id) takes a place without an id; an id used twice belongs to its later line, as in pig.
func (ix *Index) Add(lines []json.RawMessage) {
	for _, line := range lines {
		id, parent, hasID, ok := quickLinks(line)
		if ok && !ix.Trusted && !json.Valid(line) {
			id, parent, hasID = "", "", false
		} else if !ok {
			var l Links
			id, parent, hasID = "", "", false
			if json.Unmarshal(line, &l) == nil {
				id, hasID = l.ID, l.ID != ""
				if l.ParentID != nil {
					parent = *l.ParentID
				}
			}
		}
		if hasID && id != "" {
			ix.byID[id] = len(ix.parent)
		}
		ix.parent = append(ix.parent, parent)
	}
}

// Len is the number of lines indexed.
func (ix *Index) Len() int { return len(ix.parent) }

// Path is the line numbers (0-based) from the root to leafID. A parent no entry has ends the
// walk (the entry is a root), and so does a cycle.
func (ix *Index) Path(leafID string) []int {
	var path []int
	seen := map[int]bool{}
	for id := leafID; id != ""; {
		i, ok := ix.byID[id]
		if !ok || seen[i] {
			break
		}
		seen[i] = true
		path = append(path, i)
		id = ix.parent[i]
	}
	for l, r := 0, len(path)-1; l < r; l, r = l+1, r-1 {
		path[l], path[r] = path[r], path[l]
	}
	return path
}

// Branch flattens the entries from the root to leafID; lines that do not parse are left out.
func Branch(lines []json.RawMessage, leafID string) []Entry {
	return BranchOf(lines, NewIndex(lines), leafID)
}

// BranchOf is Branch with an index already built for lines.
func BranchOf(lines []json.RawMessage, ix *Index, leafID string) []Entry {
	return ParseLines(lines, ix.Path(leafID))
}

// ParseLines flattens lines[i] for each i of path, in order, leaving out lines that do not
// parse. A long path is parsed on every core.
func ParseLines(lines []json.RawMessage, path []int) []Entry {
	parsed := make([]Entry, len(path))
	good := make([]bool, len(path))
	workers := runtime.GOMAXPROCS(0)
	if len(path) < 1000 || workers < 2 {
		workers = 1
	}
	var wg sync.WaitGroup
	chunk := (len(path) + workers - 1) / workers
	for w := 0; w < workers; w++ {
		from, to := w*chunk, (w+1)*chunk
		if to > len(path) {
			to = len(path)
		}
		if from >= to {
			break
		}
		wg.Add(1)
		go func(from, to int) {
			defer wg.Done()
			for k := from; k < to; k++ {
				if e, err := ParseEntry(lines[path[k]]); err == nil {
					parsed[k], good[k] = e, true
				}
			}
		}(from, to)
	}
	wg.Wait()
	out := parsed[:0]
	for k := range parsed {
		if good[k] {
			out = append(out, parsed[k])
		}
	}
	return out
}

// Lines turns strings (such as the lines pig sends) into raw lines.
func Lines(texts []string) []json.RawMessage {
	out := make([]json.RawMessage, len(texts))
	for i, t := range texts {
		out[i] = json.RawMessage(t)
	}
	return out
}
