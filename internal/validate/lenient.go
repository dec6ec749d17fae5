package validate

import (
	"bytes"
	"errors"
	"io/fs"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/kurs-course/kurs/internal/course"
)

// withoutUnknownKeys returns data, a metadata file that decodes into val
// but for keys its schema does not have, with those keys and their values
// blanked out (lines stay where they were), and the problems the strict
// decoder reports for them, all of them. ok is false when data fails for
// anything else: then the loader's one error stands.
func withoutUnknownKeys(file string, data []byte, val func() any) (clean []byte, unknown []*course.Error, ok bool) {
	clean = bytes.Clone(data)
	for range 100 {
		err := json.Unmarshal(clean, val(), json.RejectUnknownMembers(true))
		if err == nil {
			return clean, unknown, len(unknown) > 0
		}
		var sem *json.SemanticError
		if !errors.As(err, &sem) || !errors.Is(sem.Err, json.ErrUnknownName) {
			return nil, nil, false
		}
		var ce *course.Error
		if !errors.As(course.Decode(file, clean, val()), &ce) || ce.Code != course.ErrUnknownKey {
			return nil, nil, false
		}
		unknown = append(unknown, ce)
		if !blankMember(clean, int(sem.ByteOffset)) {
			return nil, nil, false
		}
	}
	return nil, nil, false
}

// blankMember overwrites the object member whose name begins at off, and
// the comma that separates it from its neighbour, with spaces, keeping
// line ends. It reports whether it found a member there.
func blankMember(data []byte, off int) bool {
	if off < 0 || off >= len(data) || data[off] != '"' {
		return false
	}
	end, ok := valueEnd(data, off) // the name
	if !ok {
		return false
	}
	end = skipSpace(data, end)
	if end >= len(data) || data[end] != ':' {
		return false
	}
	if end, ok = valueEnd(data, skipSpace(data, end+1)); !ok {
		return false
	}
	start := off
	if next := skipSpace(data, end); next < len(data) && data[next] == ',' {
		end = next + 1
	} else {
		prev := off - 1
		for prev >= 0 && isSpace(data[prev]) {
			prev--
		}
		if prev >= 0 && data[prev] == ',' {
			start = prev
		}
	}
	for i := start; i < end; i++ {
		if data[i] != '\n' {
			data[i] = ' '
		}
	}
	return true
}

// valueEnd returns the offset just past the JSON value that begins at off.
func valueEnd(data []byte, off int) (int, bool) {
	dec := jsontext.NewDecoder(bytes.NewReader(data[off:]))
	if _, err := dec.ReadValue(); err != nil {
		return 0, false
	}
	return off + int(dec.InputOffset()), true
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && isSpace(data[i]) {
		i++
	}
	return i
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// overlayFS is a course with some files read from memory instead: the
// suite.json files without their unknown keys, so that the loader reads
// what the author meant and validate goes on to check it.
type overlayFS struct {
	fs.FS
	files map[string][]byte
}

func (o overlayFS) Open(name string) (fs.File, error) {
	data, ok := o.files[name]
	if !ok {
		return o.FS.Open(name)
	}
	f, err := o.FS.Open(name)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	f.Close()
	if err != nil {
		return nil, err
	}
	return &memFile{Reader: bytes.NewReader(data), info: memInfo{FileInfo: info, size: int64(len(data))}}, nil
}

type memFile struct {
	*bytes.Reader
	info memInfo
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *memFile) Close() error               { return nil }

type memInfo struct {
	fs.FileInfo
	size int64
}

func (i memInfo) Size() int64 { return i.size }
