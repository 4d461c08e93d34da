package e2eharness

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestLoadScenarios reads a scenario's sections, comment and options; a
// comment line and blank lines are not calls.
func TestLoadScenarios(t *testing.T) {
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "force-push.txtar"), []byte(`A force push is denied.
-- options --
env A=1 B
env C=2
alone
-- setup.sh --
git commit --allow-empty -qm x
-- calls --
# the push
shell {"command": "git push --force"}

-- expect --
1 contains force-push
-- check.sh --
true
`), 0o644))
	scs := LoadScenarios(t, dir, "env", "alone")
	if len(scs) != 1 {
		t.Fatalf("%d scenarios", len(scs))
	}
	sc := scs[0]
	if sc.Name != "force-push" || sc.Doc != "A force push is denied." || sc.File != filepath.Join(dir, "force-push.txtar") {
		t.Fatalf("name %q doc %q file %q", sc.Name, sc.Doc, sc.File)
	}
	if !slices.Equal(sc.Calls, []string{`shell {"command": "git push --force"}`}) || !slices.Equal(sc.Expect, []string{"1 contains force-push"}) {
		t.Fatalf("calls %q expect %q", sc.Calls, sc.Expect)
	}
	if sc.Setup != "git commit --allow-empty -qm x\n" || sc.Check != "true\n" {
		t.Fatalf("setup %q check %q", sc.Setup, sc.Check)
	}
	if args, ok := sc.Option("env"); !ok || !slices.Equal(args, []string{"A=1", "B"}) {
		t.Fatalf("Option(env) = %q %v", args, ok)
	}
	if _, ok := sc.Option("alone"); !ok {
		t.Fatal("Option(alone) not found")
	}
	if _, ok := sc.Option("skip"); ok {
		t.Fatal("Option(skip) found")
	}
	if got := sc.OptionValues("env"); !slices.Equal(got, []string{"A=1 B", "C=2"}) {
		t.Fatalf("OptionValues(env) = %q", got)
	}
}
