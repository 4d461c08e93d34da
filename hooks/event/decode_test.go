package event

import (
	"encoding/json"
	"errors"
	"io/fs"
	"reflect"
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/guard"
	"github.com/swarm-guard/swarm-guard/hooks/internal/toolcontent"
)

// jsonNames returns the JSON field names of a struct type, embedded
// structs' included.
func jsonNames(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			out = append(out, jsonNames(f.Type)...)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" {
			name = f.Name
		}
		out = append(out, name)
	}
	return out
}

// TestFileToolInputDecodedOnce: a file tool's tool_input, decoded once
// for the engine and the content check, gives each what its own decoding
// gives. guard.ToolInput and toolcontent.Body must not share a JSON name:
// encoding/json would drop both.
func TestFileToolInputDecodedOnce(t *testing.T) {
	engine := map[string]bool{}
	for _, n := range jsonNames(reflect.TypeOf(guard.ToolInput{})) {
		engine[n] = true
	}
	for _, n := range jsonNames(reflect.TypeOf(toolcontent.Body{})) {
		if engine[n] {
			t.Fatalf("guard.ToolInput and toolcontent.Body both decode %q: EngineInput would lose it", n)
		}
	}
	read := func(string) ([]byte, error) { return nil, fs.ErrNotExist }
	for _, tc := range []struct{ tool, input string }{
		{"Write", `{"file_path":"/r/a.go","content":"package a\n\"quoted\" \u00e9\n","extra":1}`},
		{"Edit", `{"file_path":"/r/a.go","old_string":"","new_string":"x\n","replace_all":false}`},
		{"MultiEdit", `{"file_path":"/r/a.go","edits":[{"old_string":"","new_string":"a\n"},{"old_string":"a","new_string":"b"}]}`},
		{"NotebookEdit", `{"notebook_path":"/r/n.ipynb","new_source":"print(1)","cell_id":"c1"}`},
	} {
		in := &Event{ToolName: tc.tool, ToolInput: json.RawMessage(tc.input)}
		ti, err := in.EngineInput()
		if err != nil {
			t.Fatal(err)
		}
		want, err := guard.DecodeToolInput(in.ToolInput)
		if err != nil || !reflect.DeepEqual(ti, want) {
			t.Errorf("%s: engine input %+v, want %+v (%v)", tc.tool, ti, want, err)
		}
		if in.File == nil {
			t.Fatalf("%s: no decoded file input", tc.tool)
		}
		got, err1 := toolcontent.FromDecoded(tc.tool, *in.File, read)
		exp, err2 := toolcontent.Compute(tc.tool, in.ToolInput, read)
		if !errors.Is(err1, err2) || got.Path != exp.Path || got.Text != exp.Text || got.Cell != exp.Cell {
			t.Errorf("%s: content %+v (%v), want %+v (%v)", tc.tool, got, err1, exp, err2)
		}
	}
	// Other tools keep the engine's own decoding and no file input.
	in := &Event{ToolName: "Bash", ToolInput: json.RawMessage(`{"command":"ls"}`)}
	if ti, err := in.EngineInput(); err != nil || ti.Command == nil || *ti.Command != "ls" || in.File != nil {
		t.Fatalf("Bash: %+v %v %v", ti, err, in.File)
	}
	// Malformed input is an error, as before.
	if _, err := (&Event{ToolName: "Write", ToolInput: json.RawMessage(`{"content":1}`)}).EngineInput(); err == nil {
		t.Fatal("a malformed Write input decoded")
	}
}
