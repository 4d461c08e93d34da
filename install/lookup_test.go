package install

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLauncherFollowsTheLookupRule runs the committed Claude Code hook
// command the way Claude Code does (through sh, or the user's bash) in each
// place the rule looks, and with no binary at all: then it must exit 2, the
// only code Claude Code treats as a block, with the install hint.
func TestLauncherFollowsTheLookupRule(t *testing.T) {
	for _, shell := range []string{"sh", "bash"} {
		if _, err := exec.LookPath(shell); err != nil {
			t.Logf("%s not installed; skipped", shell)
			continue
		}
		dir := t.TempDir()
		project := filepath.Join(dir, "project dir")
		home := filepath.Join(dir, "home")
		empty := filepath.Join(dir, "empty")
		for _, d := range []string{project, home, empty} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		// sh and its helpers must stay reachable: PATH keeps the system
		// directories, which hold no swarm-guard here.
		sysPath := "/usr/bin:/bin"
		run := func(env ...string) (int, string, string) {
			cmd := exec.Command(shell, "-c", HookCommand())
			cmd.Env = append([]string{"CLAUDE_PROJECT_DIR=" + project, "HOME=" + home}, env...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			cmd.Stdin = strings.NewReader("{}")
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			return code, stdout.String(), stderr.String()
		}
		if _, err := exec.LookPath("swarm-guard"); err == nil {
			sysPath = empty + ":/usr/bin:/bin"
		}
		code, _, stderr := run("PATH=" + sysPath)
		if code != 2 || strings.TrimSpace(stderr) != InstallHint {
			t.Fatalf("%s, no binary: exit %d, stderr %q; want 2 and the install hint", shell, code, stderr)
		}
		place := func(path, name string) {
			t.Helper()
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte("#!/bin/sh\necho "+name+" \"$*\"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		// Found in each place, the earlier place winning.
		place(filepath.Join(home, "go", "bin", "swarm-guard"), "gobin")
		place(filepath.Join(home, ".local", "bin", "swarm-guard"), "localbin")
		place(filepath.Join(project, "node_modules", ".bin", "swarm-guard"), "npm")
		place(filepath.Join(dir, "onpath", "swarm-guard"), "path")
		for _, step := range []struct {
			want   string
			remove string
		}{
			{"path hook", filepath.Join(dir, "onpath", "swarm-guard")},
			{"npm hook", filepath.Join(project, "node_modules", ".bin", "swarm-guard")},
			{"localbin hook", filepath.Join(home, ".local", "bin", "swarm-guard")},
			{"gobin hook", ""},
		} {
			code, stdout, stderr := run("PATH=" + filepath.Join(dir, "onpath") + ":" + sysPath)
			if code != 0 || strings.TrimSpace(stdout) != step.want {
				t.Fatalf("%s: exit %d, stdout %q, stderr %q; want %q", shell, code, stdout, stderr, step.want)
			}
			if got := LookupBinary(project, home, func(string) (string, error) {
				p := filepath.Join(dir, "onpath", "swarm-guard")
				if isExecutable(p) {
					return p, nil
				}
				return "", exec.ErrNotFound
			}); !strings.HasSuffix(got, "swarm-guard") || !isExecutable(got) {
				t.Fatalf("LookupBinary = %q while the launcher found %q", got, step.want)
			}
			if step.remove != "" {
				os.Remove(step.remove)
			}
		}
	}
}

// TestCommittedFilesHoldNoPath: what install writes into committed files
// is the same whatever binary path the installer runs from.
func TestCommittedFilesHoldNoPath(t *testing.T) {
	a, err := mergeSettings(nil, "/home/alice/go/bin/swarm-guard", true)
	if err != nil {
		t.Fatal(err)
	}
	b, err := mergeSettings(nil, "/opt/bob/swarm-guard", true)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) || bytes.Contains(a, []byte("alice")) {
		t.Fatalf("settings differ by installer:\n%s\n%s", a, b)
	}
	if strings.ContainsAny(strings.TrimPrefix(strings.TrimSuffix(HookCommand(), "'"), "sh -c '"), `'\`) {
		t.Fatalf("the launcher script holds a quote or backslash, which fish reads differently: %s", HookCommand())
	}
	for _, hook := range HookNames {
		if huskyBlock(hook, "/home/alice/x") != huskyBlock(hook, "/opt/bob/y") {
			t.Fatalf("husky block for %s depends on the installer's path", hook)
		}
	}
}
