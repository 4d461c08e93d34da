package committed

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/swarm-guard/swarm-guard/guard"
	"github.com/swarm-guard/swarm-guard/policy"
)

func engine(t testing.TB) *guard.Engine {
	return guard.New(policy.Default())
}

// examplePath is a file of the format, where a context example is put.
var examplePath = map[Format]string{
	Shell: "scripts/x.sh", Makefile: "Makefile", PackageJSON: "package.json", Justfile: "justfile", Taskfile: "Taskfile.yml",
	Dockerfile: "Dockerfile", Compose: "compose.yaml", GitHubWorkflow: ".github/workflows/ci.yml", GitHubAction: "action.yml",
	GitLabCI: ".gitlab-ci.yml", Terraform: "main.tf", Lefthook: "lefthook.yml", PreCommit: ".pre-commit-config.yaml",
}

// TestContextExamples runs every context's examples: each Report example
// is reported by its rule, each Pass example by none.
func TestContextExamples(t *testing.T) {
	eng := engine(t)
	for _, ctx := range []*Context{githubJob, gitlabJob, build, dev, hook} {
		if len(ctx.Report) < 2 || len(ctx.Pass) < 2 {
			{
				t.Errorf("context %s has %d report and %d pass examples; want 2 of each", ctx.Name, len(ctx.Report), len(ctx.Pass))
			}
		}
		for _, ex := range append(append([]Example{}, ctx.Report...), ctx.Pass...) {
			file := examplePath[ex.Format]
			c := Command{File: file, Format: ex.Format, Line: 1, Where: "example", Script: ex.Script}
			if got := contextOf(&c); got != ctx {
				t.Errorf("example %q of context %s is of format %s, which runs in %s", ex.Script, ctx.Name, ex.Format, got.Name)
				continue
			}
			if ex.Format == GitHubWorkflow {
				c.Script = ghExpressions(c.Script, &c)
			}
			fs := Judge(eng, []Command{c}, Options{})
			switch {
			case ex.Rule == "" && len(fs) > 0:
				t.Errorf("%s (%s): %q must pass, got %s: %s", ctx.Name, ex.Format, ex.Script, fs[0].Rule, fs[0].Reason)
			case ex.Rule != "" && (len(fs) == 0 || fs[0].Rule != ex.Rule):
				t.Errorf("%s (%s): %q must be reported by %s, got %v", ctx.Name, ex.Format, ex.Script, ex.Rule, fs)
			}
		}
	}
}

// TestCorpus runs the committed-file corpus (testdata/committed/<format>/
// *.txtar): each archive's comment lists `want RULE LINE` for every
// finding of its files (none: no want line), dangerous files next to
// their safe twins.
func TestCorpus(t *testing.T) {
	eng := engine(t)
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "committed", "*", "*.txtar"))
	if len(files) < 2*len(Formats) {
		t.Fatalf("found %d corpus cases; want a dangerous one and its safe twin per format (%d formats)", len(files), len(Formats))
	}
	covered := map[Format]int{}
	for _, f := range files {
		ar, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, l := range strings.Split(string(ar.Comment), "\n") {
			if rest, ok := strings.CutPrefix(l, "want "); ok {
				want = append(want, strings.TrimSpace(rest))
			}
		}
		var got []string
		for _, af := range ar.Files {
			cmds, err := Extract(af.Name, af.Data)
			if err != nil {
				got = append(got, "error "+err.Error())
				continue
			}
			if len(cmds) == 0 {
				t.Errorf("%s: %s holds no command", f, af.Name)
			}
			covered[Detect(af.Name, af.Data)]++
			for _, x := range Judge(eng, cmds, Options{}) {
				got = append(got, fmt.Sprintf("%s %d", x.Rule, x.Line))
			}
		}
		sort.Strings(want)
		sort.Strings(got)
		if strings.Join(want, "\n") != strings.Join(got, "\n") {
			t.Errorf("%s:\nwant %q\ngot  %q", f, want, got)
		}
	}
	for _, fm := range Formats {
		if covered[fm] < 2 {
			t.Errorf("format %s has %d corpus files; want a dangerous one and its safe twin", fm, covered[fm])
		}
	}
}

func TestMain(m *testing.M) { os.Exit(m.Run()) }
