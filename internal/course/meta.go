package course

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"reflect"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/kurs-course/kurs/internal/spell"
)

// schemas are the JSON Schemas of the metadata files; docs/schema/ holds
// the same files for readers and editors.
//
//go:embed schema/*.json
var schemas embed.FS

// Schemas returns the JSON Schemas of the metadata files by name:
// "exercise.schema.json" and "lesson.schema.json".
func Schemas() map[string][]byte {
	out := map[string][]byte{}
	entries, _ := schemas.ReadDir("schema")
	for _, d := range entries {
		out[d.Name()], _ = schemas.ReadFile("schema/" + d.Name())
	}
	return out
}

// Error is a problem in one file of a course, found while loading it. The
// loader reports at most one per file: the first, so that no mistake is
// followed by others it caused.
type Error struct {
	// File is relative to the course's root, slash-separated.
	File string
	// Line is 1-based; 0 means the file as a whole.
	Line int
	// Code names the problem for messages in other languages (the
	// validate package's problem kinds); Args fill them in as name-value
	// pairs.
	Code string
	Args []any
	// Msg says what is wrong, in English.
	Msg string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return e.File + ": " + e.Msg
}

// Codes of Error.
const (
	ErrJSON        = "json"         // not valid JSON; Args: Err
	ErrUnknownKey  = "unknown_key"  // a key the file's schema does not have; Args: Key
	ErrType        = "wrong_type"   // a value of the wrong JSON type; Args: Key, Want, Got
	ErrValue       = "wrong_value"  // a value the key does not take; Args: Key, Err
	ErrMissing     = "missing_file" // a file every lesson or exercise needs
	ErrIDMismatch  = "id_mismatch"  // the id differs from the folder; Args: ID, Dir
	ErrIDInvalid   = "id_invalid"   // an exercise id that is no Go package name; Args: ID
	ErrKind        = "kind"         // no or an unknown kind; Args: Got
	ErrListedTwice = "listed_twice" // two lessons list one exercise; Args: Exercise, Lesson
	ErrMarkdown    = "markdown"     // a Markdown file not laid out as it must be; Args: What, Got
	ErrQuizPoints  = "quiz_points"  // a quiz's points differ from its number of cases; Args: Points, Cases
)

// Decode decodes the JSON document data, the course file name, into v:
// an unknown key, a value of the wrong type and a duplicate key are errors,
// each an *Error with the line it is on. Only the first is reported.
func Decode(name string, data []byte, v any) error {
	err := json.Unmarshal(data, v, json.RejectUnknownMembers(true))
	if err == nil {
		return nil
	}
	e := &Error{File: name, Line: 1}
	var sem *json.SemanticError
	var syn *jsontext.SyntacticError
	switch {
	case errors.As(err, &sem):
		e.Line = lineAt(data, sem.ByteOffset)
		key := strings.TrimPrefix(string(sem.JSONPointer), "/")
		switch {
		case errors.Is(sem.Err, json.ErrUnknownName):
			key = key[strings.LastIndexByte(key, '/')+1:]
			near := nearKey(key, sem.GoType)
			e.Code, e.Args = ErrUnknownKey, []any{"Key", key, "Near", near}
			e.Msg = fmt.Sprintf("unknown key %q", key)
			if near != "" {
				e.Msg += fmt.Sprintf(" (did you mean %q?)", near)
			}
		case sem.Err == nil && sem.GoType != nil:
			want, got := jsonType(sem.GoType), kindName(sem.JSONKind)
			e.Code, e.Args = ErrType, []any{"Key", key, "Want", want, "Got", got}
			e.Msg = fmt.Sprintf("%q must be %s, not %s", key, want, got)
		default:
			msg := err.Error()
			if sem.Err != nil {
				msg = sem.Err.Error()
			}
			e.Code, e.Args = ErrValue, []any{"Key", key, "Err", msg}
			e.Msg = fmt.Sprintf("%q: %s", key, msg)
		}
	case errors.As(err, &syn):
		e.Line = lineAt(data, syn.ByteOffset)
		msg := strings.TrimPrefix(syn.Err.Error(), "jsontext: ")
		e.Code, e.Args, e.Msg = ErrJSON, []any{"Err", msg}, "not valid JSON: "+msg
	default:
		e.Code, e.Args, e.Msg = ErrJSON, []any{"Err", err.Error()}, "not valid JSON: "+err.Error()
	}
	return e
}

// jsonType names the JSON type a Go type is written as.
func jsonType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Uint, reflect.Uint64, reflect.Float64, reflect.Float32:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Pointer:
		return jsonType(t.Elem())
	}
	return t.String()
}

// kindName names the JSON type of a value.
func kindName(k jsontext.Kind) string {
	switch k {
	case '"':
		return "a string"
	case '0':
		return "a number"
	case 't', 'f':
		return "true or false"
	case 'n':
		return "null"
	case '[':
		return "an array"
	case '{':
		return "an object"
	}
	return "another value"
}

// Form returns a new value of the strict form that the loader decodes the
// metadata file base into ("lesson.json", "exercise.json" or
// "suite.json"), for a tool that reads such a file as the loader does;
// nil for any other name.
func Form(base string) any {
	switch base {
	case "lesson.json":
		return &lessonMeta{}
	case "exercise.json":
		return &exerciseMeta{}
	case "suite.json":
		return &Suite{}
	}
	return nil
}

// keysOf returns the JSON keys of the struct type t (through pointers,
// slices and maps).
func keysOf(t reflect.Type) []string {
	for t != nil && (t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map) {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	var keys []string
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		keys = append(keys, name)
	}
	return keys
}

// nearKey returns the key of the object type t that the unknown key is
// likely a typo of ("points" for "pionts"), or "".
func nearKey(key string, t reflect.Type) string {
	best, bestD := "", -1
	for _, k := range keysOf(t) {
		if d := spell.Distance(key, k); spell.Near(key, k) && (bestD < 0 || d < bestD) {
			best, bestD = k, d
		}
	}
	return best
}

// lineAt returns the 1-based line of byte offset off in data.
func lineAt(data []byte, off int64) int {
	off = min(max(off, 0), int64(len(data)))
	return bytes.Count(data[:off], []byte("\n")) + 1
}

// readStrict reads the course file name (a path from the course's root) and
// decodes it with Decode.
func readStrict(fsys fs.FS, name string, v any) error {
	data, err := fs.ReadFile(fsys, name)
	if errors.Is(err, fs.ErrNotExist) {
		return &Error{File: name, Code: ErrMissing, Msg: "this file is missing"}
	}
	if err != nil {
		return &Error{File: name, Code: ErrJSON, Args: []any{"Err", err.Error()}, Msg: err.Error()}
	}
	return Decode(name, data, v)
}

// lineOfKey returns the line of the first "key": in the JSON document
// name, else 1. It finds the place of a value that decoded fine but is
// wrong, such as an id that differs from its folder.
func lineOfKey(fsys fs.FS, name, key string) int {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return 1
	}
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.ReadToken()
		if err != nil {
			return 1
		}
		if tok.Kind() == '"' && dec.StackDepth() == 1 && string(dec.StackPointer()) == "/"+key {
			return lineAt(data, dec.InputOffset())
		}
	}
}
