package e2eharness

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/fakesecret"
)

// TestNewWorld sets a world up with real git and stand-in binaries: the
// remote holds main and both agents' branches, the clone has agent-1
// checked out and agent-2 is a worktree of it, the binaries are copies,
// and the environment is the world's, with no variable of the test's own.
func TestNewWorld(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	bin := t.TempDir()
	for _, name := range binaries {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\necho "+name+" \"$@\"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(BinEnv, bin)
	t.Setenv(RootEnv, t.TempDir())
	t.Setenv("E2EHARNESS_TEST_LEAK", "1")
	w := NewWorld(t, WorldOptions{OtherWorktree: true, PathDirs: []string{"/opt/client/bin"}, Fakes: testFakes()})
	w.Env = append(w.Env, "SUITE=own")

	git := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = w.Environ()
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if refs := git(w.Remote, "for-each-ref", "--format=%(refname:short)"); refs != "agent-1\nagent-2\nmain" {
		t.Fatalf("remote refs:\n%s", refs)
	}
	if b := git(w.Work, "branch", "--show-current"); b != "agent-1" {
		t.Fatalf("clone on %q", b)
	}
	if b := git(w.Other, "branch", "--show-current"); b != "agent-2" || w.Vars["OTHER"] != w.Other {
		t.Fatalf("other worktree on %q, $OTHER %q", b, w.Vars["OTHER"])
	}
	if out := w.SwarmGuard(t, "version"); out != "swarm-guard version\n" {
		t.Fatalf("the world's swarm-guard printed %q", out)
	}
	victim, err := os.ReadFile(filepath.Join(w.Outside, "victim", "file.txt"))
	if err != nil || len(victim) == 0 {
		t.Fatalf("victim file: %v", err)
	}
	env := w.Environ("EXTRA=1")
	for _, want := range []string{"HOME=" + w.Home, "TMPDIR=" + w.Tmp, "SUITE=own", "EXTRA=1", "WORK=" + w.Work,
		"PATH=" + w.Bin + ":/opt/client/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"} {
		if !slices.Contains(env, want) {
			t.Errorf("environment lacks %s", want)
		}
	}
	if slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "E2EHARNESS_TEST_LEAK=") }) {
		t.Error("the test's own environment leaked into the world's")
	}
	if w.Vars["SECRET"] == "" || !strings.Contains(w.Vars["SECRET_LINE"], w.Vars["SECRET"]) || w.Vars["BARE_SECRET"] == "" {
		t.Errorf("fake credentials: %q %q %q", w.Vars["SECRET"], w.Vars["SECRET_LINE"], w.Vars["BARE_SECRET"])
	}
	w.Vars["Q"] = `a "b"`
	if got := w.ExpandJSON(`{"p": "$Q/$NOPE"}`); got != `{"p": "a \"b\"/$NOPE"}` {
		t.Errorf("ExpandJSON = %s", got)
	}
	if got := w.Expand(`$Q $NOPE`); got != `a "b" $NOPE` {
		t.Errorf("Expand = %s", got)
	}
}

// TestNewWorldWithoutOther: no second worktree unless asked for.
func TestNewWorldWithoutOther(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	bin := t.TempDir()
	for _, name := range binaries {
		if err := os.WriteFile(filepath.Join(bin, name), nil, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(BinEnv, bin)
	t.Setenv(RootEnv, t.TempDir())
	w := NewWorld(t, WorldOptions{Fakes: testFakes()})
	if _, ok := w.Vars["OTHER"]; ok || w.Other != "" {
		t.Fatalf("OTHER = %q", w.Other)
	}
	if _, err := os.Stat(filepath.Join(w.Root, "agent-2")); !os.IsNotExist(err) {
		t.Fatalf("agent-2 exists: %v", err)
	}
}

func testFakes() Fakes {
	aws := fakesecret.AWSAccessKeyID()
	return Fakes{Value: aws.Value, Line: aws.Line, Bare: fakesecret.GenericAPIKey().Value}
}
