package sessionfile

import (
	"encoding/json"
	"strconv"
)

// quickLinks reads the top-level "id" and "parentId" of a JSON object line without decoding
// the rest: it walks the bytes, skipping strings and nested values, and stops once it has both
// (pig and Pi write them first). ok is false when the line is not shaped as expected; the
// caller then decodes it properly.
func quickLinks(line []byte) (id, parent string, hasID, ok bool) {
	i := skipSpace(line, 0)
	if i >= len(line) || line[i] != '{' {
		return "", "", false, false
	}
	i++
	seenID, seenParent := false, false
	for {
		i = skipSpace(line, i)
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
		i = skipString(line, i)
		if i < 0 {
			return "", "", false, false
		}
		key := line[keyStart:i]
		i = skipSpace(line, i)
		if i >= len(line) || line[i] != ':' {
			return "", "", false, false
		}
		i = skipSpace(line, i+1)
		valueStart := i
		i = skipValue(line, i)
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

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// skipString returns the index after the string starting at b[i] (a quote), or -1.
func skipString(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// skipValue returns the index after the JSON value starting at b[i], or -1.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				j = skipString(b, j)
				if j < 0 {
					return -1
				}
				j--
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	default:
		j := i
		for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\n' && b[j] != '\r' && b[j] != '\t' {
			j++
		}
		if j == i {
			return -1
		}
		return j
	}
}
