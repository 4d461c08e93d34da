package guard

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/guard/rules"
	"github.com/swarm-guard/swarm-guard/policy"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/golden/decisions.txt from the engine")

// goldenPath holds every full decision the engine makes on the corpus.
var goldenPath = filepath.Join("..", "testdata", "golden", "decisions.txt")

// goldenDecisions renders the full decision for every corpus case
// (testdata/corpus/* and the packs' examples), every example of the rule
// catalog (guard/rules), every MCP case and every row of the peers'
// differences, one block per case in load order:
//
//	== corpus/g01-force-push.txt
//	$ git push --force
//	deny force-push
//	  reason: …
//	  trigger: …
//	  instead: …
//	  findings: deny:force-push ask:remote-code
//
// Cases are named by file and command, not line number, so adding a case
// changes only its own block. The trigger is left out when it is the whole
// command.
func goldenDecisions(t *testing.T) []byte {
	var b bytes.Buffer
	b.WriteString("# Full decisions of the engine on the corpus, the MCP cases and the peers'\n")
	b.WriteString("# differences. Generated: go test ./guard -run TestGoldenDecisions -update-golden\n")
	section := ""
	block := func(file, command string, d Decision) {
		if file != section {
			section = file
			fmt.Fprintf(&b, "\n== %s\n", file)
		}
		if strings.Contains(command, "\n") {
			fmt.Fprintf(&b, "$ %q\n", command)
		} else {
			fmt.Fprintf(&b, "$ %s\n", command)
		}
		verdict := string(d.Action)
		if verdict == "" {
			verdict = "allow"
		}
		b.WriteString(verdict)
		if d.Rule != "" {
			b.WriteString(" " + d.Rule)
		}
		b.WriteString("\n")
		field := func(name, v string) {
			if v != "" {
				fmt.Fprintf(&b, "  %s: %s\n", name, oneLine(v))
			}
		}
		field("reason", d.Reason)
		if oneLine(d.Trigger) != oneLine(command) {
			field("trigger", d.Trigger)
		}
		field("instead", d.Alternative)
		if len(d.Findings) > 1 {
			var fs []string
			for _, f := range d.Findings {
				s := string(f.Action) + ":" + f.Rule
				if f.AllowedBy != "" {
					s += "(allowed by " + f.AllowedBy + ")"
				}
				fs = append(fs, s)
			}
			field("findings", strings.Join(fs, " "))
		}
	}

	corpus := New(corpusPolicy())
	for _, c := range loadCorpus(t) {
		file := c.file
		if !strings.HasPrefix(file, "packs/") {
			file = "corpus/" + file
		}
		block(file, c.command, corpus.CheckCommand(c.command, testEnv()))
	}
	for _, r := range rules.All() {
		for _, ex := range append(append([]string{}, r.Deny...), r.Allow...) {
			block("rules/"+r.ID, ex, checkExample(corpus, ex))
		}
	}
	def := New(policy.Default())
	for _, c := range loadMCPCases(t) {
		tool, input, _ := strings.Cut(c.command, " ")
		block("mcp/cases.txt", c.command, def.CheckMCP(tool, []byte(input), testEnv()))
	}
	for _, r := range loadPeerDifferences(t) {
		block("peers/differences.txt", r.command, def.CheckCommand(r.command, testEnv()))
	}
	return b.Bytes()
}

// TestGoldenDecisions pins every full decision (verdict, rule, reason,
// trigger, instead, findings) on the corpus, so a change that moves
// engine code shows every message it changes as a diff of
// testdata/golden/decisions.txt.
func TestGoldenDecisions(t *testing.T) {
	got := goldenDecisions(t)
	if *updateGolden {
		if err := os.MkdirAll(filepath.Dir(goldenPath), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(goldenPath, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatalf("%v; create it with: go test ./guard -run TestGoldenDecisions -update-golden", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	var diff []string
	for i := 0; i < len(gl) || i < len(wl); i++ {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			diff = append(diff, fmt.Sprintf("line %d:\n\tgolden: %s\n\tengine: %s", i+1, w, g))
			if len(diff) == 10 {
				diff = append(diff, "…")
				break
			}
		}
	}
	t.Errorf("the engine's decisions differ from %s:\n%s\n\n"+
		"If the change is deliberate, rewrite the golden file and review its diff before committing:\n"+
		"\tgo test ./guard -run TestGoldenDecisions -update-golden && git diff testdata/golden",
		goldenPath, strings.Join(diff, "\n"))
}
