package guard

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// globNames is a directory's content for the pattern tables: the names
// the guard protects next to names that merely look like them.
var globNames = []string{".git", ".github", ".gitignore", ".env", ".env.local", ".envrc", "env", "pre-commit",
	"pre-push", "a-b", "]x", "!x", "x!", "Ab", "ab", "*star", "q?", "src", "[abc", "hooks"}

// globPatterns are words an agent can write to reach those names.
var globPatterns = []string{".[[:alpha:]]it", "[.]git", "?git", ".[!e]it", ".[^e]it", ".g[[:lower:]]t", "*", ".*",
	"[]x]x", "[!a]*", `\*star`, "[[:upper:]]b", ".e[[:alnum:]]v*", "pre-[!x]ommit", "pre-[[:alpha:]]ommit", "[a-]-b",
	"[!.]*", ".[a-z]*", ".g*", ".??v", "[abc", `q\?`, "*[[:punct:]]*", ".git*", "[[:space:]]*", "*-*"}

// TestGlobsMatchBash expands each pattern with real bash in a directory
// holding globNames and checks that patternMatch (what a glob argument can
// reach) agrees name by name.
func TestGlobsMatchBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not found")
	}
	dir := t.TempDir()
	for _, n := range globNames {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, pat := range globPatterns {
		cmd := exec.Command(bash, "-c", `shopt -s nullglob; for f in `+pat+`; do printf '%s\n' "$f"; done`)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("bash %q: %v: %s", pat, err, out)
		}
		want := bashLines(string(out))
		var got []string
		for _, n := range globNames {
			if patternMatch("/w/"+pat, "/w/"+n, false) {
				got = append(got, n)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%q\n\tbash:   %q\n\tengine: %q", pat, want, got)
		}
	}
}

// TestFindNamesMatchFind does the same for find -name, whose wildcards
// match a leading dot.
func TestFindNamesMatchFind(t *testing.T) {
	find, err := exec.LookPath("find")
	if err != nil {
		t.Skip("find not found")
	}
	dir := t.TempDir()
	for _, n := range globNames {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, pat := range globPatterns {
		cmd := exec.Command(find, ".", "-mindepth", "1", "-maxdepth", "1", "-name", pat, "-printf", "%f\n")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Skipf("find -printf: %v: %s", err, out) // BSD find has no -printf
		}
		want := bashLines(string(out))
		var got []string
		for _, n := range globNames {
			if nameMatch(pat, n) {
				got = append(got, n)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("find -name %q\n\tfind:   %q\n\tengine: %q", pat, want, got)
		}
	}
}

func bashLines(s string) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		if l != "" && l != "." && l != ".." { // bash before 5.2 lists . and .. for .*
			out = append(out, l)
		}
	}
	slices.Sort(out)
	return out
}
