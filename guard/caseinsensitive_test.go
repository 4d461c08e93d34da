package guard

import (
	"testing"

	"github.com/swarm-guard/swarm-guard/policy"
)

// On a file system that ignores case (macOS's default, where the darwin
// builds run) .GIT is the git directory and RM is rm; on Linux they are
// other names. Each command is judged both ways.
func TestCaseInsensitiveFileSystem(t *testing.T) {
	cases := []struct {
		cmd          string
		linux, macOS string // "allow" or the rule that denies
	}{
		{"rm -rf .GIT", "allow", policy.RuleDeleteOutside},
		{"rm -rf .git", policy.RuleDeleteOutside, policy.RuleDeleteOutside},
		{"rm -rf .Git/Hooks", "allow", policy.RuleGuardTamper},
		{"rm -rf ./Build", "allow", "allow"},
		{"echo 'exit 0' > .GIT/hooks/pre-commit", "allow", policy.RuleGuardTamper},
		{"cp /dev/null .Claude/Settings.json", "allow", policy.RuleGuardTamper},
		{"cp /dev/null .claude/notes.md", "allow", "allow"},
		{"cat .ENV", "allow", policy.RuleSecretFile},
		{"cat .env", policy.RuleSecretFile, policy.RuleSecretFile},
		{"cat README.MD", "allow", "allow"},
		{"RM -rf ~", "allow", policy.RuleDeleteOutside},
		{"Git reset --hard", "allow", policy.RuleDestructiveGit},
		{"GIT status", "allow", "allow"},
		{"rm -rf /WORK/REPO/.Git", policy.RuleDeleteOutside, policy.RuleDeleteOutside},
		{"rm -rf /Work/Repo/src", policy.RuleDeleteOutside, "allow"},
	}
	eng := New(policy.Default())
	for _, c := range cases {
		for _, nocase := range []bool{false, true} {
			env := testEnv()
			env.CaseInsensitive = nocase
			d := eng.CheckCommand(c.cmd, env)
			got := "allow"
			if d.Action != "" {
				got = d.Rule
			}
			want := c.linux
			if nocase {
				want = c.macOS
			}
			if got != want {
				t.Errorf("%q (case-insensitive %v): got %s (%s), want %s", c.cmd, nocase, got, d.Reason, want)
			}
		}
	}
}

// The file tools name paths too: Write .GIT/hooks/pre-commit is a hook.
func TestCaseInsensitiveFileTools(t *testing.T) {
	eng := New(policy.Default())
	for _, c := range []struct {
		tool, path   string
		linux, macOS string
	}{
		{ToolWrite, "/work/repo/.GIT/hooks/pre-commit", "allow", policy.RuleGuardTamper},
		{ToolEdit, "/work/repo/.Claude/settings.json", "allow", policy.RuleGuardTamper},
		{ToolRead, "/work/repo/config/.ENV", "allow", policy.RuleSecretFile},
		{ToolWrite, "/work/repo/src/Main.go", "allow", "allow"},
	} {
		for _, nocase := range []bool{false, true} {
			env := testEnv()
			env.CaseInsensitive = nocase
			p := c.path
			d := eng.Check(c.tool, ToolInput{FilePath: p}, env)
			got := "allow"
			if d.Action != "" {
				got = d.Rule
			}
			want := c.linux
			if nocase {
				want = c.macOS
			}
			if got != want {
				t.Errorf("%s %s (case-insensitive %v): got %s (%s), want %s", c.tool, c.path, nocase, got, d.Reason, want)
			}
		}
	}
}

// The same 200-byte command as BenchmarkCheckCommand200, judged as macOS
// judges it: canonCase runs on every path the command names.
func BenchmarkCheckCommand200CaseInsensitive(b *testing.B) {
	eng := New(policy.Default())
	env := testEnv()
	env.CaseInsensitive = true
	cmd := `cd /work/repo && git add -A && git commit -m "feat: parser $(date +%s)" && FOO=bar git push origin HEAD:refs/heads/agent-1 2>&1 | tee /tmp/push.log; echo "rc=${PIPESTATUS[0]}" > /tmp/push-status.txt`
	b.ReportAllocs()
	for b.Loop() {
		if d := eng.CheckCommand(cmd, env); d.Action != "" {
			b.Fatalf("unexpected decision: %s", d.Message())
		}
	}
}
