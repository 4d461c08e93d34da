package toolcontent

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"
)

func files(m map[string]string) func(string) ([]byte, error) {
	return func(p string) ([]byte, error) {
		if s, ok := m[p]; ok {
			return []byte(s), nil
		}
		return nil, fs.ErrNotExist
	}
}

func newLines(c Content) []int {
	var out []int
	for i := 1; i <= strings.Count(c.Text, "\n")+1; i++ {
		if c.Introduced(i, i) {
			out = append(out, i)
		}
	}
	return out
}

func compute(t *testing.T, tool string, in any, disk map[string]string) Content {
	t.Helper()
	raw, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Compute(tool, raw, files(disk))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCompute(t *testing.T) {
	disk := map[string]string{"/r/a.go": "one\nSECRET\ntwo\ntwo\n"}
	cases := []struct {
		name, tool string
		in         any
		text       string
		lines      []int
	}{
		{"write new file", "Write", map[string]any{"file_path": "/r/new.go", "content": "x\ny\n"}, "x\ny\n", []int{1, 2, 3}},
		{"write keeps unchanged lines", "Write", map[string]any{"file_path": "/r/a.go", "content": "one\nSECRET\nthree\n"}, "one\nSECRET\nthree\n", []int{3}},
		{"edit one occurrence", "Edit", map[string]any{"file_path": "/r/a.go", "old_string": "two", "new_string": "2"}, "one\nSECRET\n2\ntwo\n", []int{3}},
		{"edit replace_all", "Edit", map[string]any{"file_path": "/r/a.go", "old_string": "two", "new_string": "2", "replace_all": true}, "one\nSECRET\n2\n2\n", []int{3, 4}},
		{"edit joining lines", "Edit", map[string]any{"file_path": "/r/a.go", "old_string": "one\n", "new_string": "one "}, "one SECRET\ntwo\ntwo\n", []int{1}},
		{"edit old_string missing", "Edit", map[string]any{"file_path": "/r/a.go", "old_string": "zzz", "new_string": "new text"}, "new text", []int{1}},
		{"edit creates file", "Edit", map[string]any{"file_path": "/r/b.go", "old_string": "", "new_string": "fresh\n"}, "fresh\n", []int{1}},
		{"multiedit in order", "MultiEdit", map[string]any{"file_path": "/r/a.go", "edits": []map[string]any{
			{"old_string": "one", "new_string": "uno"}, {"old_string": "uno\nSECRET", "new_string": "uno\nSECRET2"}}}, "uno\nSECRET2\ntwo\ntwo\n", []int{1, 2}},
		{"notebook cell", "NotebookEdit", map[string]any{"notebook_path": "/r/n.ipynb", "new_source": "print(1)"}, "print(1)", []int{1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := compute(t, tc.tool, tc.in, disk)
			if c.Text != tc.text {
				t.Fatalf("text %q, want %q", c.Text, tc.text)
			}
			if got := newLines(c); fmt.Sprint(got) != fmt.Sprint(tc.lines) {
				t.Fatalf("introduced lines %v, want %v", got, tc.lines)
			}
		})
	}
}

func TestComputeErrors(t *testing.T) {
	if _, err := Compute("Write", json.RawMessage(`{"content": 3}`), files(nil)); err == nil {
		t.Error("malformed input accepted")
	}
	big, _ := json.Marshal(map[string]string{"file_path": "/r/x", "content": strings.Repeat("a", MaxBytes+1)})
	if _, err := Compute("Write", big, files(nil)); !errors.Is(err, ErrTooLarge) {
		t.Errorf("huge content: %v", err)
	}
	if _, err := Compute("Read", json.RawMessage(`{}`), files(nil)); err == nil {
		t.Error("Read accepted")
	}
}
