package install

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/hooks/clientconfig"
)

// fakeBinary writes a stand-in for swarm-guard that logs its arguments
// and stdin to log and exits with the code in $FAKE_EXIT.
func fakeBinary(t *testing.T, dir, log string) string {
	t.Helper()
	path := filepath.Join(dir, "bin dir", "swarm-guard")
	script := "#!/bin/sh\n{ echo \"ours: $*\"; cat; } >>" + shellQuote(log) + "\nexit ${FAKE_EXIT:-0}\n"
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func runHook(t *testing.T, path string, stdin string, env []string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(path, args...)
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), stderr.String()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, stderr.String()
}

func TestHookScriptsRun(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	for _, hook := range HookNames {
		t.Run(hook, func(t *testing.T) {
			dir := t.TempDir()
			log := filepath.Join(dir, "log")
			bin := fakeBinary(t, dir, log)
			path := filepath.Join(dir, "hooks", hook)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, HookScript(hook, bin), 0o755); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command("sh", "-n", path).CombinedOutput(); err != nil {
				t.Fatalf("sh -n: %v\n%s", err, out)
			}
			stdin := "refs/heads/x 1 refs/heads/x 0\n"
			wantStdin := ""
			if hook == "pre-push" {
				wantStdin = stdin // only pre-push hands its input on
			}

			// Alone: the binary gets the hook name and git's arguments.
			code, _ := runHook(t, path, stdin, nil, "arg one", "two")
			got, _ := os.ReadFile(log)
			if code != 0 || !strings.HasPrefix(string(got), "ours: git-hook "+hook+" arg one two\n") {
				t.Fatalf("alone: exit %d, log %q", code, got)
			}
			os.Remove(log)

			// Chained: theirs runs after ours with the same arguments and stdin.
			theirs := "#!/bin/sh\n{ echo \"theirs: $*\"; cat; } >>" + shellQuote(log) + "\nexit ${THEIR_EXIT:-0}\n"
			if err := os.WriteFile(path+ChainSuffix, []byte(theirs), 0o755); err != nil {
				t.Fatal(err)
			}
			code, _ = runHook(t, path, stdin, nil, "a b")
			got, _ = os.ReadFile(log)
			want := "ours: git-hook " + hook + " a b\n" + wantStdin + "theirs: a b\n" + wantStdin
			if hook != "pre-push" {
				// Outside pre-push, git gives hooks no input; the test's
				// stdin reaches whichever reads first.
				want = "ours: git-hook " + hook + " a b\n" + stdin + "theirs: a b\n"
			}
			if code != 0 || string(got) != want {
				t.Fatalf("chained: exit %d, log\n%q, want\n%q", code, got, want)
			}
			os.Remove(log)

			// A failure of either fails the hook; ours failing skips theirs.
			if code, _ := runHook(t, path, stdin, []string{"THEIR_EXIT=3"}); code != 3 {
				t.Fatalf("theirs failing: exit %d, want 3", code)
			}
			os.Remove(log)
			if code, _ := runHook(t, path, stdin, []string{"FAKE_EXIT=1"}); code != 1 {
				t.Fatalf("ours failing: exit %d, want 1", code)
			}
			if got, _ := os.ReadFile(log); strings.Contains(string(got), "theirs") {
				t.Fatalf("theirs ran after ours failed: %q", got)
			}

			// The binary gone and none found by the lookup rule: fail
			// closed, with the install hint.
			os.Remove(bin)
			code, stderr := runHook(t, path, stdin, []string{"PATH=" + filepath.Join(dir, "empty"), "HOME=" + filepath.Join(dir, "empty")})
			if code != 1 || strings.TrimSpace(stderr) != clientconfig.InstallHint {
				t.Fatalf("binary gone: exit %d, stderr %q", code, stderr)
			}
		})
	}
}

func TestHookScriptIsOurs(t *testing.T) {
	for _, hook := range HookNames {
		s := HookScript(hook, "/x/swarm-guard")
		if !IsOurGitHook(s) {
			t.Errorf("%s: IsOurGitHook(HookScript) = false", hook)
		}
		if got := assignedWord(string(s), "sg="); got != "/x/swarm-guard" {
			t.Errorf("%s: binary read back as %q", hook, got)
		}
	}
	for _, foreign := range []string{"", "#!/bin/sh\nexit 0\n", "#!/bin/sh\n# calls swarm-guard git-hook pre-commit\nswarm-guard git-hook pre-commit\n"} {
		if IsOurGitHook([]byte(foreign)) {
			t.Errorf("IsOurGitHook(%q) = true", foreign)
		}
	}
}

func TestShellWordReadsShellQuote(t *testing.T) {
	for _, s := range []string{"/usr/bin/swarm-guard", "/with space/sg", "/it's/sg", "/a'b'c", "/$HOME/x", "/back\\slash"} {
		w, rest, ok := shellWord(shellQuote(s) + " hook")
		if !ok || w != s || rest != " hook" {
			t.Errorf("shellWord(shellQuote(%q)) = %q, %q, %v", s, w, rest, ok)
		}
	}
}

func TestHuskyBlockRoundTrip(t *testing.T) {
	for name, script := range map[string]string{
		"empty":            "",
		"plain":            "npm test\n",
		"shebang":          "#!/usr/bin/env sh\nnpx lint-staged\n",
		"shebang only":     "#!/bin/sh",
		"no final newline": "npm test",
		"crlf":             "npm test\r\n",
	} {
		for _, hook := range HookNames {
			block := huskyBlock(hook, "/x/swarm-guard")
			with := withHuskyBlock(script, block)
			if !strings.Contains(with, block) {
				t.Fatalf("%s/%s: block missing from %q", name, hook, with)
			}
			if again := withHuskyBlock(with, block); again != with {
				t.Fatalf("%s/%s: adding twice changed the script:\n%q\n%q", name, hook, with, again)
			}
			if strings.HasPrefix(script, "#!") && !strings.HasPrefix(with, script[:strings.IndexAny(script+"\n", "\n")]) {
				t.Fatalf("%s/%s: the #! line is no longer first: %q", name, hook, with)
			}
			back, found := withoutHuskyBlock(with)
			if name == "shebang only" {
				back = strings.TrimSuffix(back, "\n") // the one byte install adds to end the #! line
			}
			if !found || back != script {
				t.Fatalf("%s/%s: removing the block gave %q, want %q", name, hook, back, script)
			}
			// The block is committed: another teammate's binary path
			// changes nothing.
			other := withHuskyBlock(with, huskyBlock(hook, "/y/swarm-guard"))
			if other != with || strings.Contains(other, "/x/swarm-guard") {
				t.Fatalf("%s/%s: reinstall with another binary: %q", name, hook, other)
			}
		}
	}
}

func TestHuskyBlockRunsUnderShE(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	bin := fakeBinary(t, dir, log)
	user := filepath.Join(dir, "pre-push")
	script := withHuskyBlock("echo \"user: $*\" >>"+shellQuote(log)+"\ncat >>"+shellQuote(log)+"\n", huskyBlock("pre-push", bin))
	if err := os.WriteFile(user, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	pathEnv := "PATH=" + filepath.Dir(bin) + ":" + os.Getenv("PATH")
	cmd := exec.Command("sh", "-e", user, "origin", "url")
	cmd.Env = append(os.Environ(), pathEnv)
	cmd.Stdin = strings.NewReader("ref lines\n")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	got, _ := os.ReadFile(log)
	if want := "ours: git-hook pre-push origin url\nref lines\nuser: origin url\nref lines\n"; string(got) != want {
		t.Fatalf("log %q, want %q", got, want)
	}
	cmd = exec.Command("sh", "-e", user)
	cmd.Env = append(os.Environ(), pathEnv, "FAKE_EXIT=1")
	if err := cmd.Run(); err == nil {
		t.Fatal("the husky script went on after swarm-guard failed")
	}
}

// TestHuskyBlockHoldsNoPath: the block install commits into a husky user
// script is the same whatever binary path the installer runs from.
func TestHuskyBlockHoldsNoPath(t *testing.T) {
	for _, hook := range HookNames {
		if huskyBlock(hook, "/home/alice/x") != huskyBlock(hook, "/opt/bob/y") {
			t.Fatalf("husky block for %s depends on the installer's path", hook)
		}
	}
}
