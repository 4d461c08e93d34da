package wire

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// TestHandEncodingDecodesAsEncodingJSON: what the Encoder writes by hand
// decodes to the value encoding/json's encoding decodes to.
func TestHandEncodingDecodesAsEncodingJSON(t *testing.T) {
	vals := []any{
		Request{Version: Version, Root: "/r/<x>&\"y\"", GitleaksAllow: true}, Request{},
		NewBlock("a.go", "", 1, []byte("package a\n\tkey := \"v\" // <&> \u2028 é\n")), NewBlock("b", "abc123", 7, nil),
		NewBlock("bin", "", 1, []byte("\xff\xfe invalid")), Block{File: "", Line: -1, Text: "\x00\x1f"},
	}
	var buf bytes.Buffer
	enc := NewEncoder(&buf)
	for _, v := range vals {
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.Flush(); err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSuffix(buf.Bytes(), []byte("\n")), []byte("\n"))
	if len(lines) != len(vals) {
		t.Fatalf("%d lines for %d values", len(lines), len(vals))
	}
	for i, v := range vals {
		want, _ := json.Marshal(v)
		got := reflect.New(reflect.TypeOf(v))
		exp := reflect.New(reflect.TypeOf(v))
		if err := json.Unmarshal(lines[i], got.Interface()); err != nil {
			t.Fatalf("%s: %v", lines[i], err)
		}
		if err := json.Unmarshal(want, exp.Interface()); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Elem().Interface(), exp.Elem().Interface()) {
			t.Fatalf("%s decodes to %+v, want %+v", lines[i], got.Elem(), exp.Elem())
		}
	}
}

func TestDecodeResultIsEncodingJSON(t *testing.T) {
	for _, s := range []string{
		`{"version":1,"findings":[]}`, `{"version":1,"findings":null}`, `{"version":1}`, `{"version":2,"findings":[],"error":"broken .gitleaks.toml"}`,
		`{"version":1,"findings":[{"file":"a","line":3,"rule":"r","preview":"p"}]}`, `{"version":"1"}`, `{"version":1.5}`, `{"version":null}`,
		`{"version":99999999999999999999}`, `{"error":1}`, `{}`, `null`, `[]`, ``, `{"version":1`, `{"findings":[],"findings":null}`,
	} {
		got, gotErr := DecodeResult([]byte(s))
		var want Result
		wantErr := json.Unmarshal([]byte(s), &want)
		if (gotErr == nil) != (wantErr == nil) || !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: %+v %v, want %+v %v", s, got, gotErr, want, wantErr)
		}
	}
}
