package validate

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// jsonLines maps the path of every value in a JSON document ("tests.3.steps",
// "hints.de") to the line where the value, or for an object member its key,
// begins. encoding/json forgets positions, and a problem without a line is
// a problem an author has to search for.
type jsonLines map[string]int

// lineOf returns the line of path, else of its nearest enclosing value that
// has one, else 1.
func (m jsonLines) lineOf(path string) int {
	for {
		if n, ok := m[path]; ok {
			return n
		}
		i := bytes.LastIndexByte([]byte(path), '.')
		if i < 0 {
			return 1
		}
		path = path[:i]
	}
}

// scanJSON records the positions of data's values. It assumes data is valid
// JSON (decode it first); on anything else it stops and keeps what it has.
func scanJSON(data []byte) jsonLines {
	s := &jsonScanner{data: data, lines: jsonLines{}, line: 1}
	s.value("")
	return s.lines
}

type jsonScanner struct {
	data  []byte
	pos   int
	line  int
	lines jsonLines
}

func (s *jsonScanner) space() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case '\n':
			s.line++
		case ' ', '\t', '\r':
		default:
			return
		}
		s.pos++
	}
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// value scans one value; its position is recorded under path unless a key
// already gave path its line.
func (s *jsonScanner) value(path string) {
	s.space()
	if s.pos >= len(s.data) {
		return
	}
	if _, ok := s.lines[path]; !ok {
		s.lines[path] = s.line
	}
	switch s.data[s.pos] {
	case '{':
		s.pos++
		for {
			s.space()
			if s.pos >= len(s.data) || s.data[s.pos] == '}' {
				s.pos++
				return
			}
			if s.data[s.pos] == ',' {
				s.pos++
				continue
			}
			keyLine := s.line
			key := s.str()
			s.lines[join(path, key)] = keyLine
			s.space()
			if s.pos < len(s.data) && s.data[s.pos] == ':' {
				s.pos++
			}
			s.value(join(path, key))
		}
	case '[':
		s.pos++
		for i := 0; ; {
			s.space()
			if s.pos >= len(s.data) || s.data[s.pos] == ']' {
				s.pos++
				return
			}
			if s.data[s.pos] == ',' {
				s.pos++
				continue
			}
			s.value(join(path, strconv.Itoa(i)))
			i++
		}
	case '"':
		s.str()
	default:
		for s.pos < len(s.data) && !bytes.ContainsRune([]byte(",]} \t\r\n"), rune(s.data[s.pos])) {
			s.pos++
		}
	}
}

// str scans a string and returns its content (escapes decoded).
func (s *jsonScanner) str() string {
	start := s.pos
	s.pos++ // the opening quote
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case '\\':
			s.pos += 2
			continue
		case '"':
			s.pos++
			var v string
			_ = json.Unmarshal(s.data[start:s.pos], &v)
			return v
		case '\n':
			s.line++ // invalid in JSON, but keep counting
		}
		s.pos++
	}
	return ""
}

// JSONLine returns the line where the value at path (keys and indexes
// joined by dots, e.g. "generate.ops.1.call") begins in the JSON document
// data, else the line of its nearest enclosing value, else 1.
func JSONLine(data []byte, path string) int { return scanJSON(data).lineOf(path) }

// lineAt returns the 1-based line of byte offset off in data.
func lineAt(data []byte, off int64) int {
	off = min(max(off, 0), int64(len(data)))
	return bytes.Count(data[:off], []byte("\n")) + 1
}
