package guard

import (
	"slices"
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/policy"
)

func TestWrittenFiles(t *testing.T) {
	eng := New(policy.Default())
	for cmd, want := range map[string][]string{
		"echo x > out.txt":                          {"/work/repo/out.txt"},
		"cmd 2>/dev/null | tee -a a.log b.log":      {"/work/repo/a.log", "/work/repo/b.log"},
		"cp src/a.go /tmp/b.go && mv x.txt y.txt":   {"/tmp/b.go", "/work/repo/y.txt"},
		"sed -i 's/a/b/' src/app.go":                {"/work/repo/src/app.go"},
		"cd src && cat > gen.go <<'EOF'\nx\nEOF":    {"/work/repo/src/gen.go"},
		"go test ./... && git status":               nil,
		"printf '%s' \"$TOKEN\" > config/token.txt": {"/work/repo/config/token.txt"},
	} {
		got := eng.WrittenFiles(cmd, testEnv())
		if !slices.Equal(got, want) {
			t.Errorf("WrittenFiles(%q) = %q, want %q", cmd, got, want)
		}
	}
}

// Deleting a tool's cache by hand is denied with advice naming the tool's
// own clean command, and that command is allowed as printed.
func TestCacheDeleteAdviceIsAllowed(t *testing.T) {
	eng := New(policy.Default())
	for _, tc := range []struct{ del, clean string }{
		{"rm -rf ~/.cache/go-build", "go clean -cache"},
		{"rm -rf /home/agent/go/pkg/mod/cache", "go clean -modcache"},
		{"rm -rf ~/.npm", "npm cache clean --force"},
		{"rm -rf ~/.cache/uv", "uv cache clean"},
	} {
		d := eng.CheckCommand(tc.del, testEnv())
		want := "clear the cache with its own command, which the guard allows: " + tc.clean
		if d.Rule != policy.RuleDeleteOutside || len(d.Findings) == 0 || d.Findings[0].Alternative != want {
			t.Errorf("%s: got %s %+v, want advice %q", tc.del, d.Rule, d.Findings, want)
			continue
		}
		if d := eng.CheckCommand(tc.clean, testEnv()); d.Action != "" {
			t.Errorf("the advice %q is itself denied: %s", tc.clean, d.Message())
		}
	}
}

// The file tools reach secrets too: Grep for credentials and Glob for key
// files outside the worktree are denied; the same inside it are not.
func TestCredentialSearchOutsideWorktree(t *testing.T) {
	eng := New(policy.Default())
	for _, tc := range []struct {
		tool, path, pattern string
		deny                bool
	}{
		{ToolGrep, "/home/agent", "ghp_[A-Za-z0-9]+", true},
		{ToolGrep, "/home/agent/other-project", "(?i)api_key", true},
		{ToolGrep, "/work/repo", "api_key", false},
		{ToolGrep, "/home/agent", "func main", false},
		{ToolGlob, "/home/agent", "**/id_rsa*", true},
		{ToolGlob, "", "/home/agent/**/*.pem", true},
		{ToolGlob, "/work/repo", "**/*.pem", false},
		{ToolGlob, "/home/agent", "**/*.go", false},
	} {
		d := eng.Check(tc.tool, ToolInput{Path: tc.path, Pattern: tc.pattern}, testEnv())
		if got := d.Action == policy.Deny; got != tc.deny || got && d.Rule != policy.RuleSecretFile {
			t.Errorf("%s %q in %q: got %q %s, want deny=%v", tc.tool, tc.pattern, tc.path, d.Action, d.Rule, tc.deny)
		}
	}
}

// Writes tells PostToolUse whether a worktree-wide look is needed: never
// after commands whose file effects are all known.
func TestWritesOpaque(t *testing.T) {
	eng := New(policy.Default())
	for _, tc := range []struct {
		cmd    string
		files  []string
		opaque bool
	}{
		{"ls -la && git status", nil, false},
		{"go test ./... && git diff", nil, false},
		{"grep -r TODO . | sort | uniq -c", nil, false},
		{"echo x >> notes.txt", []string{"/work/repo/notes.txt"}, false},
		{"sed -i s/a/b/ src/a.go", []string{"/work/repo/src/a.go"}, false},
		{"cp a.txt b.txt", []string{"/work/repo/b.txt"}, false},
		{"./gen", nil, true},
		{"python3 tools/gen.py", nil, true},
		{"echo x > $OUT", nil, true},
		{"make build", nil, true},
		{"/usr/bin/ls", nil, true},
	} {
		files, opaque := eng.Writes(tc.cmd, testEnv())
		if opaque != tc.opaque || strings.Join(files, " ") != strings.Join(tc.files, " ") {
			t.Errorf("%q: got %v opaque=%v, want %v opaque=%v", tc.cmd, files, opaque, tc.files, tc.opaque)
		}
	}
}

// TestWritesNothingAgreesWithWrites: the decision's WritesNothing, which
// PreToolUse leaves swarm-guard-post's record on, is exactly what Writes
// proves (no files, not opaque) for every corpus command and a few plain
// ones.
func TestWritesNothingAgreesWithWrites(t *testing.T) {
	eng := New(corpusPolicy())
	cmds := []string{"ls -la", "git status", "go test ./...", "echo x > notes.txt", "make build", "cat README.md | wc -l", "tee out.txt < in.txt"}
	for _, c := range loadCorpus(t) {
		cmds = append(cmds, c.command)
	}
	proved := 0
	for _, cmd := range cmds {
		files, opaque := eng.Writes(cmd, testEnv())
		want := !opaque && len(files) == 0
		if got := eng.CheckCommand(cmd, testEnv()).WritesNothing(); got != want {
			t.Errorf("%q: WritesNothing = %v, Writes gives files %q, opaque %v", cmd, got, files, opaque)
		}
		if want {
			proved++
		}
	}
	if proved == 0 || proved == len(cmds) {
		t.Errorf("%d of %d commands write nothing: the comparison proves nothing", proved, len(cmds))
	}
}
