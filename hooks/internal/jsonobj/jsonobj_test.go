package jsonobj

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// strs are JSON string literals with every escape encoding/json knows,
// surrogate pairs, lone and reversed surrogates, invalid UTF-8 and
// multi-byte runes.
var strs = []string{
	`""`, `"plain"`, `"a\"b\\c\/d"`, `"\b\f\n\r\t"`, `"\u0041\u00e9\u65e5"`, `"\ud83d\ude00"`, `"\ud83d"`, `"\ude00\ud83d"`,
	`"\ud83dx"`, `"\ud83d\u0041"`, "\"bad \xff\xfe utf8 \xc3\"", `"é ü 日本 🙂"`, `"\u2028\u2029"`, `"\u0000"`, "\"\xed\xa0\x80\"",
}

// TestStringIsEncodingJSON compares String with json.Unmarshal into a
// string on the literals above.
func TestStringIsEncodingJSON(t *testing.T) {
	for _, lit := range strs {
		var want string
		if err := json.Unmarshal([]byte(lit), &want); err != nil {
			t.Fatalf("%s: %v", lit, err)
		}
		if got, ok := String([]byte(lit)); !ok || got != want {
			t.Errorf("String(%s) = %q, %v; want %q", lit, got, ok, want)
		}
	}
	for _, bad := range []string{`x`, `"`, `"a`, `1`, `null`, `"\x"`, `"\u12"`} {
		if _, ok := String([]byte(bad)); ok {
			t.Errorf("String(%s) is ok", bad)
		}
	}
}

// sample is a struct with every kind of field the hook decodes this way.
type sample struct {
	S   string          `json:"s"`
	P   *string         `json:"p"`
	N   int64           `json:"n"`
	B   bool            `json:"b"`
	Raw json.RawMessage `json:"raw"`
}

func decodeSample(data []byte) (sample, bool) {
	var out sample
	ok := Members(data, func(key string, raw []byte) bool {
		switch {
		case Is(key, "s"):
			return SetString(raw, &out.S)
		case Is(key, "p"):
			return SetStringPtr(raw, &out.P)
		case Is(key, "n"):
			return SetInt64(raw, &out.N)
		case Is(key, "b"):
			return SetBool(raw, &out.B)
		case Is(key, "raw"):
			out.Raw = Raw(raw)
		}
		return true
	})
	return out, ok
}

// agree fails when decodeSample says ok on data and json.Unmarshal fails,
// or their answers differ.
func agree(t *testing.T, data []byte) {
	t.Helper()
	got, ok := decodeSample(data)
	var want sample
	err := json.Unmarshal(data, &want)
	if !ok {
		return // the caller falls back to encoding/json
	}
	if err != nil {
		t.Fatalf("%q: Members ok, json.Unmarshal: %v", data, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\n got %+v\nwant %+v", data, got, want)
	}
}

func TestMembersAgreeWithEncodingJSON(t *testing.T) {
	inputs := []string{
		`{}`, ` { } `, `{"s":"x"}`, `{"S":"x"}`, `{"ſ":"x"}`, `{"\u0073":"x"}`, `{"s":"x","s":null}`, `{"s":null}`, `{"s":1}`,
		`{"p":"x"}`, `{"p":null}`, `{"p":"x","p":null}`, `{"p":"a","p":"b"}`, `{"n":12}`, `{"n":-0}`, `{"n":1.5}`, `{"n":1e3}`,
		`{"n":99999999999999999999}`, `{"n":null}`, `{"n":"1"}`, `{"b":true}`, `{"b":false}`, `{"b":null}`, `{"b":"true"}`,
		`{"raw":null}`, `{"raw":{"a":[1,{"b":"}"}],"c":"\"]"}}`, `{"raw" : [ 1 , 2 ] , "s" : "y" }`, `{"raw":"str"}`, `{"raw":-1.5e+3}`,
		`{"other":{"s":"nested"},"s":"top"}`, `{"other":["}",{"]":"{"}],"s":"ok"}`, `[]`, `null`, `"s"`, `{"s":"x"} x`, `{"s":"x"`,
		"{\"s\":\"\xff\"}", `{"s":"\ud800"}`, `{"k":true,"p":"\n"}`, "{\t\"s\"\r\n:\n\"w\"\n}",
	}
	for _, lit := range strs {
		inputs = append(inputs, `{"s":`+lit+`,"p":`+lit+`}`, `{`+lit+`:1,"s":"k"}`)
	}
	for _, in := range inputs {
		agree(t, []byte(in))
	}
}

func FuzzMembers(f *testing.F) {
	for _, s := range []string{`{"s":"x","p":null,"n":3,"b":true,"raw":{"a":[1,"]"]}}`, `{"S":"\u00e9\ud83d\ude00","other":[{}]}`, `{"n":1.5}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		agree(t, data)
	})
}

// TestAppendStringIsEncodingJSON compares AppendString with json.Marshal
// of a string on tricky and random strings.
func TestAppendStringIsEncodingJSON(t *testing.T) {
	in := []string{"", "plain", `q " b \ s /`, "\b\f\n\r\t\x00\x1f\x7f", "<a>&", "\u2028\u2029", "bad \xff \xc3", "é 日本 🙂", "\xed\xa0\x80"}
	for _, lit := range strs {
		var s string
		if json.Unmarshal([]byte(lit), &s) == nil {
			in = append(in, s)
		}
	}
	for _, s := range in {
		checkAppendString(t, s)
	}
}

func checkAppendString(t *testing.T, s string) {
	t.Helper()
	want, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := AppendString(nil, s); string(got) != string(want) {
		t.Fatalf("AppendString(%q) = %s, want %s", s, got, want)
	}
}

func FuzzAppendString(f *testing.F) {
	f.Add("a\"b\\c\n<\u2028\xff")
	f.Fuzz(checkAppendString)
}

// validInputs are JSON texts, valid and not, for Valid against json.Valid.
var validInputs = []string{
	``, ` `, `{}`, `[]`, `""`, `0`, `-0`, `01`, `-`, `1.`, `1.5`, `.5`, `1e5`, `1E+5`, `1e-`, `1e`, `-01`, `123abc`, `true`, `tru`, `truex`,
	`null`, `nul`, `false`, `[1,]`, `[,1]`, `{"a":1,}`, `{"a" 1}`, `{a:1}`, `{"a":1 "b":2}`, `"\u12"`, `"\u12g4"`, `"\uABCD"`, `"\x"`,
	"\"\x1f\"", "\"\x7f\xff\"", `"\/\b\f\n\r\t\"\\"`, ` [ 1 , { "a" : [ ] } ] `, `[1] [2]`, `{"a":"b"} x`, "\t\n\r{}\r\n", `[[[[]]]]`,
	`[1,2`, `{"a":`, `"abc`, `"abc\`, `{"a":{"b":{"c":"}"}}}`, `-1.2e-3`, `1.2.3`, `+1`, `[true,false,null]`, "{\"\xff\":1}",
}

func TestValidIsEncodingJSONs(t *testing.T) {
	for _, s := range validInputs {
		if got, want := Valid([]byte(s)), json.Valid([]byte(s)); got != want {
			t.Errorf("Valid(%q) = %v, json.Valid says %v", s, got, want)
		}
	}
	deep := func(n int) []byte {
		return []byte(strings.Repeat("[", n) + strings.Repeat("]", n))
	}
	for _, n := range []int{9999, 10000, 10001} {
		if got, want := Valid(deep(n)), json.Valid(deep(n)); got != want {
			t.Errorf("Valid(%d nested arrays) = %v, json.Valid says %v", n, got, want)
		}
	}
}

func FuzzValid(f *testing.F) {
	for _, s := range validInputs {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := Valid(data), json.Valid(data); got != want {
			t.Fatalf("Valid(%q) = %v, json.Valid says %v", data, got, want)
		}
	})
}
