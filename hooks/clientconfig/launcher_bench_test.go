package clientconfig

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// BenchmarkLauncher starts the Claude Code hook command the way the client
// does (/bin/sh -c COMMAND, the hook JSON on stdin) with /bin/true standing
// in for swarm-guard, so that only the launcher's own cost is timed:
//
//	current   the installed command: one sh, which execs the binary
//	earlier   what earlier installs wrote, the same script in a second sh -c
//	no-shell  the binary started directly (exec form): the floor
//
// go test ./hooks/clientconfig -run '^$' -bench Launcher
func BenchmarkLauncher(b *testing.B) {
	truePath, err := exec.LookPath("true")
	if err != nil {
		b.Skip("no true on PATH")
	}
	data, err := os.ReadFile(truePath)
	if err != nil {
		b.Skip(err)
	}
	dir := b.TempDir()
	stub := filepath.Join(dir, "swarm-guard")
	if err := os.WriteFile(stub, data, 0o755); err != nil {
		b.Fatal(err)
	}
	input := []byte(`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`)
	env := []string{"PATH=" + dir + ":/usr/bin:/bin", "HOME=" + dir, "CLAUDE_PROJECT_DIR=" + dir}
	for _, c := range []struct {
		name string
		argv []string
	}{
		{"current", []string{"/bin/sh", "-c", HookCommand()}},
		{"earlier", []string{"/bin/sh", "-c", `sh -c '` + HookCommand() + `'`}},
		{"no-shell", []string{stub, "hook"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				cmd := exec.Command(c.argv[0], c.argv[1:]...)
				cmd.Env = env
				cmd.Stdin = bytes.NewReader(input)
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%v: %s", err, out)
				}
			}
		})
	}
}
