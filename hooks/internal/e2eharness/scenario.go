package e2eharness

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// Scenario is one testdata/*.txtar file of a suite. Its comment says what
// it proves; its sections are:
//
//	options    one per line: a name the suite knows, then its arguments
//	setup.sh   bash, run in the agent's worktree before the client
//	calls      the scripted model's tool calls, one per line
//	expect     what must hold afterwards, one per line
//	check.sh   bash, run in the agent's worktree at the end; must exit 0
//
// The meaning of options, calls and expectations is the suite's.
type Scenario struct {
	Name    string // the file's name without .txtar
	Doc     string // the comment above the first section
	File    string // the file's path
	Options [][]string
	Setup   string
	Calls   []string
	Expect  []string
	Check   string
}

// LoadScenarios reads every dir/*.txtar. An unknown option or section, or
// a scenario that asserts nothing (no expect and no check.sh), fails the
// test: a typo must not make a scenario pass by checking less.
func LoadScenarios(t testing.TB, dir string, knownOptions ...string) []Scenario {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios in %s (%v)", dir, err)
	}
	var out []Scenario
	for _, f := range files {
		a, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := Scenario{Name: strings.TrimSuffix(filepath.Base(f), ".txtar"), Doc: strings.TrimSpace(string(a.Comment)), File: f}
		for _, file := range a.Files {
			body := string(file.Data)
			switch file.Name {
			case "options":
				for _, l := range Lines(body) {
					o := strings.Fields(l)
					if !slices.Contains(knownOptions, o[0]) {
						t.Fatalf("%s: unknown option %q (known: %s)", f, o[0], strings.Join(knownOptions, ", "))
					}
					sc.Options = append(sc.Options, o)
				}
			case "setup.sh":
				sc.Setup = body
			case "calls":
				sc.Calls = Lines(body)
			case "expect":
				sc.Expect = Lines(body)
			case "check.sh":
				sc.Check = body
			default:
				t.Fatalf("%s: unknown section %q", f, file.Name)
			}
		}
		if len(sc.Expect) == 0 && sc.Check == "" {
			t.Fatalf("%s: a scenario must assert something (expect or check.sh)", f)
		}
		out = append(out, sc)
	}
	return out
}

// Lines returns the non-empty lines of s that are not # comments, trimmed.
func Lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

// Option returns the arguments of the scenario's first option called
// name, and whether it has one.
func (sc Scenario) Option(name string) ([]string, bool) {
	for _, o := range sc.Options {
		if o[0] == name {
			return o[1:], true
		}
	}
	return nil, false
}

// OptionValues returns the arguments of every option called name, each
// joined by spaces (an option given several times, such as env).
func (sc Scenario) OptionValues(name string) []string {
	var out []string
	for _, o := range sc.Options {
		if o[0] == name {
			out = append(out, strings.Join(o[1:], " "))
		}
	}
	return out
}
