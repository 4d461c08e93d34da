package wire

import (
	"bytes"
	"encoding/json"
	"io"
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

// TestDecoderReadsWhatEncoderWrites: a stream written by the Encoder
// reads back value for value, blocks of text and of bytes alike, and
// each line decodes as json.Unmarshal decodes it.
func TestDecoderReadsWhatEncoderWrites(t *testing.T) {
	req := Request{Version: Version, Root: "/r/é", GitleaksAllow: true}
	blocks := []Block{
		NewBlock("a.go", "", 1, []byte("package a\n\tkey := \"v\" // <&> \u2028\n")), NewBlock("b", "abc123", 7, nil),
		NewBlock("bin", "", 3, []byte("\xff\xfe invalid")), {File: "x", Line: -2, Text: "\x00"},
	}
	var buf bytes.Buffer
	enc := NewEncoder(&buf)
	if err := enc.Encode(req); err != nil {
		t.Fatal(err)
	}
	for _, b := range blocks {
		if err := enc.Encode(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.Flush(); err != nil {
		t.Fatal(err)
	}
	buf.WriteString("\n  \n") // blank lines are skipped
	dec := NewDecoder(&buf)
	if got, err := dec.Request(); err != nil || got != req {
		t.Fatalf("request %+v, %v", got, err)
	}
	for _, want := range blocks {
		got, err := dec.Block()
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("block %+v, %v; want %+v", got, err, want)
		}
	}
	if _, err := dec.Block(); err != io.EOF {
		t.Fatalf("after the last block: %v", err)
	}
	for _, line := range []string{
		`{"file":"a","line":1,"text":"t"}`, `{"file":"a","line":1.5}`, `{"line":"x"}`, `{"data":"AAE="}`, `{"data":"!!"}`, `{"file":null,"line":null}`,
		`{"line":99999999999999999999}`, `[]`, `x`, `{"text":"a","text":null}`, `{"commit":"c","Text":"upper"}`,
	} {
		var got, want Block
		gotErr := decodeBlock([]byte(line), &got)
		wantErr := json.Unmarshal([]byte(line), &want)
		if (gotErr == nil) != (wantErr == nil) || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: %+v %v, want %+v %v", line, got, gotErr, want, wantErr)
		}
	}
	for _, line := range []string{`{"version":1,"root":"/r","gitleaks_allow":true}`, `{"version":"1"}`, `{"root":1}`, `{"gitleaks_allow":"yes"}`, `{}`} {
		var got, want Request
		gotErr := decodeRequest([]byte(line), &got)
		wantErr := json.Unmarshal([]byte(line), &want)
		if (gotErr == nil) != (wantErr == nil) || got != want {
			t.Fatalf("%s: %+v %v, want %+v %v", line, got, gotErr, want, wantErr)
		}
	}
}

// TestResultAppendJSON: a result without findings, written by hand,
// decodes to the value encoding/json's encoding decodes to; one with
// findings is left to encoding/json.
func TestResultAppendJSON(t *testing.T) {
	for _, r := range []Result{
		{Version: Version, Findings: []Finding{}}, {Version: Version}, {},
		{Version: 2, Findings: []Finding{}, Error: "broken .gitleaks.toml: line 3 <x> & \"y\" \u2028 \x00 \xff é"},
	} {
		got, ok := r.AppendJSON(nil)
		if !ok {
			t.Fatalf("%+v: not written", r)
		}
		want, _ := json.Marshal(r)
		var a, b Result
		if err := json.Unmarshal(got, &a); err != nil {
			t.Fatalf("%s: %v", got, err)
		}
		if err := json.Unmarshal(want, &b); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%s decodes to %+v, want %+v", got, a, b)
		}
		if d, err := DecodeResult(got); err != nil || !reflect.DeepEqual(d, b) {
			t.Fatalf("DecodeResult(%s) = %+v, %v; want %+v", got, d, err, b)
		}
	}
	if _, ok := (Result{Findings: []Finding{{File: "a"}}}).AppendJSON(nil); ok {
		t.Error("a result with findings written by hand")
	}
}

// TestDecoderReadsLongLines: a line longer than the reader's buffer, and
// a stream read again after Reset, decode whole.
func TestDecoderReadsLongLines(t *testing.T) {
	long := bytes.Repeat([]byte("x\"y\\z é\n"), 40<<10) // 320 KB of text, more escaped
	var buf bytes.Buffer
	enc := NewEncoder(&buf)
	for _, v := range []any{Request{Version: Version, Root: "/r"}, NewBlock("a", "", 1, long), NewBlock("b", "", 2, []byte("short"))} {
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.Flush(); err != nil {
		t.Fatal(err)
	}
	stream := buf.Bytes()
	dec := NewDecoder(bytes.NewReader(nil))
	for round := 0; round < 2; round++ {
		dec.Reset(bytes.NewReader(stream))
		if req, err := dec.Request(); err != nil || req.Root != "/r" {
			t.Fatalf("round %d: request %+v, %v", round, req, err)
		}
		if b, err := dec.Block(); err != nil || b.Text != string(long) || b.File != "a" {
			t.Fatalf("round %d: long block %q… (%d bytes), %v", round, b.File, len(b.Text), err)
		}
		if b, err := dec.Block(); err != nil || b.Text != "short" || b.Line != 2 {
			t.Fatalf("round %d: block after the long one %+v, %v", round, b, err)
		}
		if _, err := dec.Block(); err != io.EOF {
			t.Fatalf("round %d: %v at the end, want io.EOF", round, err)
		}
	}
}
