package policy

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/swarm-guard/swarm-guard/policy/tomlkeys"
)

// Errors is every problem found in one policy file, in file order. Its
// message is the first problem on one line (what a hook prints); List
// gives them all (what `swarm-guard policy check` prints).
type Errors []*Error

func (es Errors) Error() string {
	if len(es) == 1 {
		return es[0].Error()
	}
	return fmt.Sprintf("%s (and %d more; swarm-guard policy check lists them all)", es[0].Error(), len(es)-1)
}

// Unwrap lets errors.As find the first *Error.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// List returns every problem of err: all of an Errors, or err itself.
func List(err error) []error {
	var es Errors
	if errors.As(err, &es) {
		return es.Unwrap()
	}
	return []error{err}
}

// diagnose finds every problem of a policy file that failed to load: a TOML
// syntax error (which stops parsing), else every unknown key, every value
// of the wrong shape and every invalid value, all in one run, so a user
// fixes the file in one round. BurntSushi/toml stops at the first type
// error and words it in Go's terms ("destination has type slice"), so the
// shape is checked here against the Policy struct instead, in the words of
// the policy reference; the keys of a wrong shape are then left out and
// the rest is decoded and its values checked.
func diagnose(data []byte, name string, base *Policy) error {
	var raw map[string]any
	if _, err := toml.NewDecoder(bytes.NewReader(stripComments(data))).Decode(&raw); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return &Error{File: name, Line: pe.Position.Line, Key: pe.LastKey, Msg: oneLine(pe.Message) + "; fix the TOML syntax"}
		}
		return &Error{File: name, Msg: oneLine(err.Error())}
	}
	lines := tomlkeys.Index(data)
	var errs []*Error
	checkTable(raw, reflect.TypeOf(Policy{}), "", &errs)
	// What is left has the right shape: its values are checked too.
	p := &Policy{Rules: map[string]Action{}}
	if base != nil {
		p = base.Clone()
	}
	var kept bytes.Buffer
	if err := toml.NewEncoder(&kept).Encode(raw); err != nil {
		return &Error{File: name, Msg: oneLine(err.Error())} // not expected: raw came from TOML
	}
	if _, err := toml.NewDecoder(&kept).Decode(p); err != nil {
		return &Error{File: name, Msg: oneLine(err.Error())} // not expected after checkTable
	}
	errs = append(errs, p.problems()...)
	if len(errs) == 0 {
		return &Error{File: name, Msg: "invalid policy; run swarm-guard policy check"} // not expected
	}
	for _, e := range errs {
		e.File = name
		if e.Line == 0 {
			e.Line = lines.Find(e.Key)
		}
	}
	sort.SliceStable(errs, func(i, j int) bool {
		if errs[i].Line != errs[j].Line {
			return errs[i].Line < errs[j].Line
		}
		return errs[i].Key < errs[j].Key
	})
	if len(errs) == 1 {
		return errs[0]
	}
	return Errors(errs)
}

// checkTable checks one TOML table against a struct type: every key known,
// every value of the expected shape. A key that is unknown or of the wrong
// shape is reported and removed from raw, so the rest can be decoded.
func checkTable(raw map[string]any, t reflect.Type, prefix string, errs *[]*Error) {
	fields := map[string]reflect.StructField{}
	var names []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if tag == "" || tag == "-" {
			continue
		}
		fields[tag] = f
		names = append(names, tag)
	}
	for key, val := range raw {
		path := key
		if prefix != "" {
			path = prefix + "." + key
		}
		f, ok := fields[key]
		if !ok {
			*errs = append(*errs, &Error{Key: path, Msg: "unknown key" + didYouMean(key, names...) + "; " + referenceHint})
			delete(raw, key)
			continue
		}
		if !checkValue(val, f.Type, path, errs) {
			delete(raw, key)
		}
	}
}

// checkValue reports whether val has the shape of t; tables inside it are
// checked and pruned by checkTable, maps lose their wrong entries.
func checkValue(val any, t reflect.Type, path string, errs *[]*Error) (ok bool) {
	ok = true
	wrong := func() {
		*errs = append(*errs, &Error{Key: path, Msg: fmt.Sprintf("expected %s, got %s", shapeOf(t, path), describe(val))})
		ok = false
	}
	switch t.Kind() {
	case reflect.String:
		if _, ok := val.(string); !ok {
			wrong()
		}
	case reflect.Bool:
		if _, ok := val.(bool); !ok {
			wrong()
		}
	case reflect.Int, reflect.Int64, reflect.Int32:
		if _, ok := val.(int64); !ok {
			wrong()
		}
	case reflect.Slice:
		switch list := val.(type) {
		case []any:
			for i, v := range list {
				if !checkValue(v, t.Elem(), fmt.Sprintf("%s[%d]", path, i), errs) {
					ok = false // the list is left out whole
				}
			}
		case []map[string]any:
			if t.Elem().Kind() != reflect.Struct {
				wrong()
				return ok
			}
			for i, v := range list {
				checkTable(v, t.Elem(), fmt.Sprintf("%s[%d]", path, i), errs)
			}
		default:
			wrong()
		}
	case reflect.Struct:
		m, isMap := val.(map[string]any)
		if !isMap {
			wrong()
			return ok
		}
		checkTable(m, t, path, errs)
	case reflect.Map:
		m, isMap := val.(map[string]any)
		if !isMap {
			wrong()
			return ok
		}
		for k, v := range m {
			if !checkValue(v, t.Elem(), path+"."+k, errs) {
				delete(m, k)
			}
		}
	}
	return ok
}

// shapeOf says what a key expects, with an example a user can copy.
func shapeOf(t reflect.Type, path string) string {
	last := path
	if i := strings.LastIndexAny(path, "."); i >= 0 {
		last = path[i+1:]
	}
	switch t.Kind() {
	case reflect.String:
		return `a string in quotes, like "deny"`
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "a whole number, like 3"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Struct {
			return fmt.Sprintf("an array of tables, written [[%s]]", path)
		}
		return fmt.Sprintf(`a list of strings in brackets, like %s = ["a", "b"]`, last)
	case reflect.Struct, reflect.Map:
		return fmt.Sprintf("a table, written [%s]", path)
	}
	return t.String()
}

// describe names a decoded TOML value in plain words.
func describe(v any) string {
	switch x := v.(type) {
	case string:
		return "the string " + strconv.Quote(x)
	case bool:
		return "the boolean " + strconv.FormatBool(x)
	case int64:
		return "the number " + strconv.FormatInt(x, 10)
	case float64:
		return "the number " + strconv.FormatFloat(x, 'g', -1, 64)
	case []any:
		return "a list"
	case []map[string]any:
		return "an array of tables"
	case map[string]any:
		return "a table"
	}
	return "a date or time" // the only other values TOML has
}

// didYouMean returns ` (did you mean "x"?)` for the closest option within a
// small edit distance of got, or "".
func didYouMean(got string, options ...string) string {
	best, bestD := "", 3
	for _, o := range options {
		if d := editDistance(strings.ToLower(got), strings.ToLower(o)); d < bestD && o != got {
			best, bestD = o, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// editDistance is the Levenshtein distance of two short strings.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
