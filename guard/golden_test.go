package guard

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/guard/rules"
	"github.com/swarm-guard/swarm-guard/policy"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/golden/ from the engine")

// goldenDir holds every full decision the engine makes on the corpus, one
// file per source of cases (testdata/golden/corpus/g01-force-push.txt for
// testdata/corpus/g01-force-push.txt, golden/packs/aws.txt for the aws
// pack's examples, golden/rules/force-push.txt ...), so that a change of
// one sentence rewrites the files of the cases it touches, not one file
// of thousands of lines.
var goldenDir = filepath.Join("..", "testdata", "golden")

// goldenFile is the golden file of a section: the part of its name before
// a ":" (packs/aws.go:s3-delete -> packs/aws.txt), with one .txt ending.
func goldenFile(section string) string {
	name, _, _ := strings.Cut(section, ":")
	name = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(name, ".txt"), ".txtar"), ".go")
	if strings.HasSuffix(section, ".txtar") || strings.Contains(section, ".txtar:") {
		name += ".txtar"
	}
	return name + ".txt"
}

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
func goldenDecisions(t *testing.T) map[string]*bytes.Buffer {
	files := map[string]*bytes.Buffer{}
	var b *bytes.Buffer
	section := ""
	block := func(file, command string, d Decision) {
		if file != section {
			section = file
			name := goldenFile(file)
			if b = files[name]; b == nil {
				b = &bytes.Buffer{}
				b.WriteString("# Full decisions of the engine. Generated: go test ./guard -run TestGoldenDecisions -update-golden\n")
				files[name] = b
			}
			fmt.Fprintf(b, "\n== %s\n", file)
		}
		if strings.Contains(command, "\n") {
			fmt.Fprintf(b, "$ %q\n", command)
		} else {
			fmt.Fprintf(b, "$ %s\n", command)
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
				fmt.Fprintf(b, "  %s: %s\n", name, oneLine(v))
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
	return files
}

// TestGoldenDecisions pins every full decision (verdict, rule, reason,
// trigger, instead, findings) on the corpus, so a change that moves
// engine code shows every message it changes as a diff of
// testdata/golden/.
func TestGoldenDecisions(t *testing.T) {
	got := goldenDecisions(t)
	var have []string
	err := filepath.WalkDir(goldenDir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(goldenDir, p)
			have = append(have, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if *updateGolden {
		for _, name := range have {
			if got[name] == nil {
				if err := os.Remove(filepath.Join(goldenDir, name)); err != nil {
					t.Fatal(err)
				}
			}
		}
		for name, b := range got {
			p := filepath.Join(goldenDir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	const fix = "If the change is deliberate, rewrite the golden files and review their diff before committing:\n" +
		"\tgo test ./guard -run TestGoldenDecisions -update-golden && git diff testdata/golden"
	for _, name := range have {
		if got[name] == nil {
			t.Errorf("%s holds no case any more.\n%s", filepath.Join(goldenDir, name), fix)
		}
	}
	names := make([]string, 0, len(got))
	for name := range got {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		p := filepath.Join(goldenDir, filepath.FromSlash(name))
		want, err := os.ReadFile(p)
		if err != nil {
			t.Errorf("%v; create it with: go test ./guard -run TestGoldenDecisions -update-golden", err)
			continue
		}
		if diff := firstDifferences(got[name].Bytes(), want); diff != "" {
			t.Errorf("the engine's decisions differ from %s:\n%s\n\n%s", p, diff, fix)
		}
	}
}

// firstDifferences lists the first ten lines that differ, "" for none.
func firstDifferences(got, want []byte) string {
	if bytes.Equal(got, want) {
		return ""
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
	return strings.Join(diff, "\n")
}
