package claude

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkPreToolUseRecord is what leaving the record for swarm-guard-post
// adds to a PreToolUse that allows a write-free Bash command (the second
// analysis of the command, Engine.Writes, and one small file written),
// in process: "record" with a tool_use_id, "no-record" the same call
// without one, which returns before either. Compare the difference with
// a whole hook process (make bench: pre-bash-allow, about 2 ms).
func BenchmarkPreToolUseRecord(b *testing.B) {
	repo := b.TempDir()
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		b.Skipf("git init: %v %s", err, out)
	}
	for _, tt := range []struct{ name, id string }{{"record", `"toolu_bench"`}, {"no-record", `""`}} {
		payload := `{"session_id":"bench","cwd":"` + repo + `","hook_event_name":"PreToolUse","tool_name":"Bash",` +
			`"tool_input":{"command":"ls -la src && git status --short"},"tool_use_id":` + tt.id + `}`
		b.Run(tt.name, func(b *testing.B) {
			getenv := func(k string) string {
				if k == "HOME" {
					return repo
				}
				return ""
			}
			os.RemoveAll(filepath.Join(repo, ".git", "swarm-guard", "post"))
			record := filepath.Join(repo, ".git", "swarm-guard", "post", "toolu_bench")
			for b.Loop() {
				resp := Handle(Runtime{Stdin: strings.NewReader(payload), Getenv: getenv, Now: time.Now})
				if resp.Exit != ExitNoDecision {
					b.Fatalf("the call was not allowed: %+v", resp)
				}
				b.StopTimer()
				os.Remove(record) // as swarm-guard-post does
				b.StartTimer()
			}
			resp := Handle(Runtime{Stdin: strings.NewReader(payload), Getenv: getenv, Now: time.Now})
			if _, err := os.Stat(record); (err == nil) != (tt.name == "record") || resp.Exit != ExitNoDecision {
				b.Fatalf("record present = %v, want %v", err == nil, tt.name == "record")
			}
		})
	}
}
