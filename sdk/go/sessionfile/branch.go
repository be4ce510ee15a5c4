package sessionfile

import "encoding/json"

// Index maps entry ids to their line and parent, for walking branches. Build it once and
// extend it with Add as lines are appended.
type Index struct {
	byID   map[string]int
	parent []string
}

// NewIndex indexes lines.
func NewIndex(lines []json.RawMessage) *Index {
	ix := &Index{byID: make(map[string]int, len(lines))}
	ix.Add(lines)
	return ix
}

// Add indexes lines appended after the ones indexed so far. A line that is not an entry (or
// has no id) takes a place without an id; an id used twice belongs to its later line, as in pig.
func (ix *Index) Add(lines []json.RawMessage) {
	for _, line := range lines {
		var l Links
		parent := ""
		if json.Unmarshal(line, &l) == nil {
			if l.ParentID != nil {
				parent = *l.ParentID
			}
			if l.ID != "" {
				ix.byID[l.ID] = len(ix.parent)
			}
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
	path := ix.Path(leafID)
	out := make([]Entry, 0, len(path))
	for _, i := range path {
		if e, err := ParseEntry(lines[i]); err == nil {
			out = append(out, e)
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
