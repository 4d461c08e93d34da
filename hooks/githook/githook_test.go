package githook

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testEnv is a hook's process in dir, outside any agent session.
func testEnv(dir, stdin string, stderr *bytes.Buffer) Env {
	return Env{
		Stdin: strings.NewReader(stdin), Stderr: stderr,
		Getenv:        func(string) string { return "" },
		Workdir:       func() (string, error) { return dir, nil },
		Executable:    func() (string, error) { return "swarm-guard", nil },
		AgentAncestor: func() int { return 0 },
	}
}

func TestCommitTrailerProblem(t *testing.T) {
	for _, tc := range []struct {
		vals, humans []string
		want         string // "" or a part of the problem
	}{
		{[]string{"agent-a"}, nil, ""},
		{nil, []string{"human"}, ""},
		{nil, nil, "no Agent-Id trailer"},
		{[]string{"agent-a", "agent-b"}, nil, `2 Agent-Id trailers ("agent-a", "agent-b")`},
		{[]string{"not an id!"}, nil, "not a well-formed agent id"},
		{[]string{"agent-a"}, []string{"human"}, "both an Agent-Id and a Human trailer"},
		{nil, []string{"human", "human"}, "2 Human trailers"},
		{nil, []string{"someone"}, `Human "someone", where the only value is "human"`},
	} {
		got := commitTrailerProblem("Agent-Id", "Human", tc.vals, tc.humans)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("commitTrailerProblem(%q, %q) = %q, want %q", tc.vals, tc.humans, got, tc.want)
		}
	}
}

// A ref line git never writes blocks the push with one line that says
// what was read; no ref lines (nothing to push) passes.
func TestPrePushReadsGitsRefLines(t *testing.T) {
	dir := t.TempDir()
	var stderr bytes.Buffer
	if code := PrePush(testEnv(dir, "refs/heads/main abc\n", &stderr)); code != Blocked {
		t.Fatalf("a short ref line: exit %d, want %d", code, Blocked)
	}
	want := "swarm-guard pre-push: cannot read git's ref line \"refs/heads/main abc\" (want: <local ref> <local oid> <remote ref> <remote oid>); nothing was pushed, push again\n"
	if stderr.String() != want {
		t.Fatalf("stderr %q\nwant %q", stderr.String(), want)
	}
	stderr.Reset()
	if code := PrePush(testEnv(dir, "\n", &stderr)); code != Pass || stderr.Len() != 0 {
		t.Fatalf("no ref lines: exit %d, stderr %q; want %d and nothing", code, stderr.String(), Pass)
	}
}

// A broken policy blocks every hook, naming the fix.
func TestBrokenPolicyBlocksEveryHook(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{".git/HEAD": "ref: refs/heads/main\n", ".swarm-guard.toml": "[git\n", "msg": "subject\n"} {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	msg := filepath.Join(dir, "msg")
	hooks := map[string]func(Env) int{
		"pre-commit":         PreCommit,
		"prepare-commit-msg": func(e Env) int { return PrepareCommitMsg(e, msg, "message") },
		"commit-msg":         func(e Env) int { return CommitMsg(e, msg) },
		"pre-push":           PrePush,
	}
	for name, hook := range hooks {
		var stderr bytes.Buffer
		if code := hook(testEnv(dir, "", &stderr)); code != Blocked {
			t.Errorf("%s: exit %d, want %d", name, code, Blocked)
		}
		prefix := "swarm-guard " + name + ": the policy is broken, so every swarm-guard git hook refuses: "
		if !strings.HasPrefix(stderr.String(), prefix) || !strings.HasSuffix(stderr.String(), "; fix it (swarm-guard policy check)\n") {
			t.Errorf("%s: stderr %q", name, stderr.String())
		}
	}
}
