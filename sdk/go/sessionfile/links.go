package sessionfile

import (
	"encoding/json"
	"strconv"

	"github.com/pig-coding-agent/pig/sdk/go/internal/jsonscan"
)

// quickLinks reads the top-level "id" and "parentId" of a JSON object line without decoding
// the rest: it walks the bytes, skipping strings and nested values, and stops once it has both
// (pig and Pi write them first). ok is false when the line is not shaped as expected; the
// caller then decodes it properly.
func quickLinks(line []byte) (id, parent string, hasID, ok bool) {
	i := jsonscan.SkipSpace(line, 0)
	if i >= len(line) || line[i] != '{' {
		return "", "", false, false
	}
	i++
	seenID, seenParent := false, false
	for {
		i = jsonscan.SkipSpace(line, i)
		if i >= len(line) {
			return "", "", false, false
		}
		if line[i] == '}' {
			return id, parent, seenID, true
		}
		if line[i] == ',' {
			i++
			continue
		}
		if line[i] != '"' {
			return "", "", false, false
		}
		keyStart := i
		i = jsonscan.SkipString(line, i)
		if i < 0 {
			return "", "", false, false
		}
		key := line[keyStart:i]
		i = jsonscan.SkipSpace(line, i)
		if i >= len(line) || line[i] != ':' {
			return "", "", false, false
		}
		i = jsonscan.SkipSpace(line, i+1)
		valueStart := i
		i = jsonscan.SkipValue(line, i)
		if i < 0 {
			return "", "", false, false
		}
		value := line[valueStart:i]
		switch string(key) {
		case `"id"`:
			s, good := stringValue(value)
			if !good {
				return "", "", false, false
			}
			id, seenID = s, true
		case `"parentId"`:
			if string(value) != "null" {
				s, good := stringValue(value)
				if !good {
					return "", "", false, false
				}
				parent = s
			}
			seenParent = true
		}
		if seenID && seenParent {
			return id, parent, true, true
		}
	}
}

func stringValue(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' {
		return "", false
	}
	for _, b := range v[1 : len(v)-1] {
		if b == '\\' {
			s, err := strconv.Unquote(string(v))
			if err != nil {
				var out string
				if json.Unmarshal(v, &out) != nil {
					return "", false
				}
				return out, true
			}
			return s, true
		}
	}
	return string(v[1 : len(v)-1]), true
}
