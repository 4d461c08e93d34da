package history

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadTestdata reads a transcript with every kind of line a real
// directory holds (prompts, tool results that mention tool_use, several
// calls in one line, a subagent's sidechain file) and the kinds it must
// survive (not JSON, a JSON list, another format's object, a last line
// cut off mid-write), and an audit log.
func TestReadTestdata(t *testing.T) {
	files, err := Files([]string{"testdata"})
	if err != nil {
		t.Fatal(err)
	}
	var st Stats
	var got []string
	if err := ReadFiles(files, &st, func(c *Call) {
		got = append(got, fmt.Sprintf("%s %s %s cwd=%s project=%s agent=%s recorded=%s", filepath.ToSlash(c.Source), c.Tool, c.Input, c.Cwd, c.Project, c.Agent, c.Recorded))
	}); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`testdata/4f35aa00-1111-2222-3333-444455556666/subagents/agent-def456.jsonl:2 mcp__github__merge_pull_request {"pullNumber":3} cwd=/home/dev/repo project=/home/dev/repo agent=4f35aa00/def456 recorded=`,
		`testdata/audit.jsonl:1 Bash {"command":"git push --force origin agent-7"} cwd=/home/dev/repo project=/home/dev/repo agent=agent-7 recorded=deny`,
		`testdata/audit.jsonl:3 Edit {"file_path":"/home/dev/repo/a.go"} cwd=/home/dev/repo project=/home/dev/repo agent=agent-7 recorded=allow`,
		`testdata/session.jsonl:2 Bash {"command":"git status"} cwd=/home/dev/repo project=/home/dev/repo agent=4f35aa00 recorded=`,
		`testdata/session.jsonl:2 Bash {"command":"git reset --hard HEAD~1"} cwd=/home/dev/repo project=/home/dev/repo agent=4f35aa00 recorded=`,
		`testdata/session.jsonl:5 Write {"file_path":"/home/dev/.bashrc","content":"x"} cwd=/home/dev/repo/src project=/home/dev/repo agent=4f35aa00 recorded=`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var problems []string
	for _, p := range st.Problems {
		problems = append(problems, p.Kind+" "+filepath.ToSlash(p.Source))
	}
	wantProblems := []string{
		"foreign testdata/audit.jsonl:5",
		"truncated testdata/audit.jsonl:6",
		"corrupt testdata/session.jsonl:4",
		"foreign testdata/session.jsonl:6",
		"foreign testdata/session.jsonl:7",
		"truncated testdata/session.jsonl:9",
	}
	if strings.Join(problems, "\n") != strings.Join(wantProblems, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(problems, "\n"), strings.Join(wantProblems, "\n"))
	}
	if st.Files != 3 || st.Calls != len(want) {
		t.Errorf("stats: %d files, %d calls; want 3 and %d", st.Files, st.Calls, len(want))
	}
}

// TestGenerate: the generated history reads back as exactly n calls, a
// fifth of them a subagent's.
func TestGenerate(t *testing.T) {
	var buf bytes.Buffer
	if err := Generate(&buf, 1000, "/work/repo"); err != nil {
		t.Fatal(err)
	}
	var st Stats
	side := 0
	if err := Read(&buf, "gen.jsonl", Transcript, &st, func(c *Call) {
		if strings.Contains(c.Agent, "/") {
			side++
		}
	}); err != nil {
		t.Fatal(err)
	}
	if st.Calls != 1000 || side != 333 || len(st.Problems) != 0 {
		t.Errorf("generated: %d calls, %d sidechain, problems %v", st.Calls, side, st.Problems)
	}
}

// FuzzRead: any bytes, as a transcript or an audit log, are read without a
// panic; every line is a call, a known line or a named problem.
func FuzzRead(f *testing.F) {
	for _, name := range []string{"testdata/session.jsonl", "testdata/audit.jsonl"} {
		f.Add(mustRead(f, name), name == "testdata/audit.jsonl")
	}
	f.Add([]byte("{\"type\":\"assistant\",\"cwd\":\"/\",\"message\":{\"content\":[{\"type\":\"tool_use\",\"name\":\"Bash\",\"input\":null}]}}\n"), false)
	f.Add([]byte("\xff\xfe{\n\n\r\n{}"), true)
	f.Fuzz(func(t *testing.T, data []byte, isAudit bool) {
		format := Transcript
		if isAudit {
			format = Audit
		}
		var st Stats
		calls := 0
		if err := Read(bytes.NewReader(data), "f.jsonl", format, &st, func(c *Call) {
			calls++
			if c.Tool == "" || c.Cwd == "" || len(c.Input) == 0 {
				t.Fatalf("a call without tool, cwd or input: %+v", c)
			}
		}); err != nil {
			t.Fatal(err)
		}
		if calls != st.Calls {
			t.Fatalf("%d calls emitted, %d counted", calls, st.Calls)
		}
		for _, p := range st.Problems {
			if !strings.HasPrefix(p.Source, "f.jsonl:") || p.Detail == "" {
				t.Fatalf("problem without a place or detail: %+v", p)
			}
		}
	})
}

func mustRead(f *testing.F, name string) []byte {
	data, err := os.ReadFile(name)
	if err != nil {
		f.Fatal(err)
	}
	return data
}

// TestEveryTruncation reads the testdata cut at every byte, as a file
// being written is read: never an error, never a call without tool, cwd
// or input, and a cut inside a record is a named problem, never a call.
func TestEveryTruncation(t *testing.T) {
	for _, name := range []string{"testdata/session.jsonl", "testdata/audit.jsonl"} {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		format := FormatOf(name)
		for i := 0; i <= len(data); i++ {
			var st Stats
			if err := Read(bytes.NewReader(data[:i]), "f.jsonl", format, &st, func(c *Call) {
				if c.Tool == "" || c.Cwd == "" || len(c.Input) == 0 {
					t.Fatalf("%s cut at %d: a call without tool, cwd or input: %+v", name, i, c)
				}
			}); err != nil {
				t.Fatalf("%s cut at %d: %v", name, i, err)
			}
		}
	}
}
