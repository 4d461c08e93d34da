package guard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/swarm-guard/swarm-guard/policy"
)

// TestTaskRunners runs the cases of testdata/runners/*.txtar: each archive
// holds a "cases" file (corpus lines) and the worktree files the runners
// read (Makefile, package.json, justfile, Taskfile.yml), placed under the
// corpus world's worktree /work/repo.
func TestTaskRunners(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "runners", "*.txtar"))
	if len(files) == 0 {
		t.Fatal("no testdata/runners/*.txtar")
	}
	eng := New(corpusPolicy())
	for _, f := range files {
		ar, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		world := fakeFiles{}
		var cases string
		for _, af := range ar.Files {
			if af.Name == "cases" {
				cases = string(af.Data)
				continue
			}
			world["/work/repo/"+af.Name] = string(af.Data)
		}
		n := 0
		for i, line := range strings.Split(cases, "\n") {
			if strings.TrimSpace(line) == "" {
				continue
			}
			head, cmd, ok := strings.Cut(line, " :: ")
			if !ok {
				t.Fatalf("%s: cases line %d: want `verdict:rule :: command`", f, i+1)
			}
			c := parseHead(t, filepath.Base(f), i+1, head)
			c.command = cmd
			env := testEnv()
			env.ReadFile = world.read
			d := eng.CheckCommand(cmd, env)
			got := string(d.Action)
			if got == "" {
				got = "allow"
			}
			switch {
			case got != c.verdict:
				t.Errorf("%v\n\tgot %s (%s): %s", c, got, d.Rule, d.Reason)
			case c.verdict != "allow" && c.rule != "" && d.Rule != c.rule:
				t.Errorf("%v\n\tdenied by %s instead: %s", c, d.Rule, d.Reason)
			}
			n++
		}
		if n < 10 {
			t.Errorf("%s has %d cases; want at least 10", f, n)
		}
	}
}

// A denial from inside a runner says which target or script it came from.
func TestTaskRunnerNamesTheSource(t *testing.T) {
	env := testEnv()
	env.ReadFile = fakeFiles{"/work/repo/Makefile": "clean:\n\trm -rf ~/\n"}.read
	d := New(policy.Default()).CheckCommand("make clean", env)
	if d.Rule != policy.RuleDeleteOutside || !strings.Contains(d.Reason, "(run by make target clean of Makefile)") {
		t.Fatalf("got %s: %s", d.Rule, d.Reason)
	}
}

// make imports the environment: $(HOME) in a recipe is the home directory
// (unknown when the hook does not know it), not an empty variable that
// turns rm -rf $(HOME)/ into rm -rf /.
func TestMakeHomeIsTheHomeDirectory(t *testing.T) {
	for _, tc := range []struct{ home, want string }{
		{"/home/agent", "rm deletes /home/agent,"},
		{"", "only known at run time"},
	} {
		env := testEnv()
		env.Home = tc.home
		env.ReadFile = fakeFiles{"/work/repo/Makefile": "wipe:\n\trm -rf $(HOME)/\n"}.read
		d := New(policy.Default()).CheckCommand("make wipe", env)
		if d.Rule != policy.RuleDeleteOutside || !strings.Contains(d.Reason, tc.want) {
			t.Errorf("home %q: got %s: %s; want a reason with %q", tc.home, d.Rule, d.Reason, tc.want)
		}
	}
}

var _ = os.ReadFile
