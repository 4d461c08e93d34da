package guard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRealAgentCommands runs the commands real agents ran (harvested from
// public transcripts, testdata/agent-commands/commands.tsv) through the
// engine in the corpus world and reports the deny rate. Every denial must
// be judged in denials.txt (justified, or false with the reason it is
// kept), and every judged denial must still happen.
func TestRealAgentCommands(t *testing.T) {
	dir := filepath.Join("..", "testdata", "agent-commands")
	data, err := os.ReadFile(filepath.Join(dir, "commands.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	judged := map[string]string{}
	if j, err := os.ReadFile(filepath.Join(dir, "denials.txt")); err == nil {
		for _, line := range strings.Split(string(j), "\n") {
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			parts := strings.Split(line, " | ")
			if len(parts) < 4 {
				t.Fatalf("denials.txt: want `command | rule | justified|false | why`: %q", line)
			}
			judged[parts[0]] = parts[1]
		}
	}
	eng := New(corpusPolicy())
	seen := map[string]bool{}
	repos := map[string]bool{}
	denied := 0
	for i, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.SplitN(line, "\t", 3)
		if len(fields) != 3 {
			t.Fatalf("commands.tsv:%d: want repository<TAB>path<TAB>command", i+1)
		}
		cmd := fields[2]
		if seen[cmd] {
			continue
		}
		seen[cmd], repos[fields[0]] = true, true
		d := eng.CheckCommand(cmd, testEnv())
		rule, ok := judged[cmd]
		switch {
		case d.Action != "" && !ok:
			t.Errorf("commands.tsv:%d: %s denies %q (%s) and denials.txt does not judge it", i+1, d.Rule, cmd, d.Reason)
		case d.Action == "" && ok:
			t.Errorf("commands.tsv:%d: denials.txt judges %q as denied by %s, the engine allows it now: remove the entry", i+1, cmd, rule)
		case d.Action != "" && rule != d.Rule:
			t.Errorf("commands.tsv:%d: %q is denied by %s, denials.txt says %s", i+1, cmd, d.Rule, rule)
		}
		if d.Action != "" {
			denied++
		}
	}
	t.Logf("%d distinct commands from %d sources: %d denied (%.1f%%)", len(seen), len(repos), denied, 100*float64(denied)/float64(max(len(seen), 1)))
}
