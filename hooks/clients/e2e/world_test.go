package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/swarm-guard/swarm-guard/hooks/internal/e2eharness"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/fakesecret"
)

// world is one throwaway setup (e2eharness.World) for one client run: the
// client and node on PATH, bash as SHELL, and the hook log's path.
type world struct {
	*e2eharness.World
	clientPath string // the client's executable
}

func newWorld(t *testing.T, clientPath string) *world {
	t.Helper()
	dirs := []string{filepath.Dir(clientPath)}
	// node for the clients that are scripts.
	if node, err := exec.LookPath("node"); err == nil {
		dirs = append(dirs, filepath.Dir(node))
	}
	w := &world{World: e2eharness.NewWorld(t, e2eharness.WorldOptions{PathDirs: dirs, Fakes: fakes()}), clientPath: clientPath}
	w.Env = append(w.Env, "SHELL=/bin/bash", "HOOKLOG="+filepath.Join(w.Root, "hook.log"))
	if os.Getenv("SWARM_GUARD_E2E_HOOKLOG") != "" {
		w.logHooks(t)
	}
	return w
}

// hookLogger stands in front of a binary and appends what each hook call
// got on stdin, answered and exited with to $HOOKLOG: where to look when
// a client's payload or an adapter's answer is not what a scenario needs.
const hookLogger = `#!/bin/sh
real="$0.real"
case "$1:$(basename "$0")" in hook:* | *:swarm-guard-post) ;; *) exec "$real" "$@" ;; esac
in=$(cat)
out=$(printf '%s' "$in" | "$real" "$@" 2>"$HOOKLOG.err.$$")
rc=$?
{ printf '=== %s %s\nstdin: %s\nstdout: %s\nstderr: %s\nexit: %s\n' "$(basename "$0")" "$*" "$in" "$out" "$(cat "$HOOKLOG.err.$$")" "$rc"; } >>"$HOOKLOG"
printf '%s' "$out"
cat "$HOOKLOG.err.$$" >&2
rm -f "$HOOKLOG.err.$$"
exit $rc
`

// logHooks puts hookLogger in front of the world's binaries
// (SWARM_GUARD_E2E_HOOKLOG=1; it costs a shell per hook call).
func (w *world) logHooks(t *testing.T) {
	for _, name := range []string{"swarm-guard", "swarm-guard-post"} {
		p := filepath.Join(w.Bin, name)
		must(t, os.Rename(p, p+".real"))
		must(t, os.WriteFile(p, []byte(hookLogger), 0o755))
	}
}

// hookLog is what hookLogger recorded, "" without SWARM_GUARD_E2E_HOOKLOG.
func (w *world) hookLog() string {
	b, _ := os.ReadFile(filepath.Join(w.Root, "hook.log"))
	return string(b)
}

// binEnv names the directory of the built binaries (make e2e-clients sets it).
const binEnv = e2eharness.BinEnv

var (
	must = e2eharness.Must
	tail = e2eharness.Tail
)

// fakes are the world's fake credentials, made afresh for each world.
func fakes() e2eharness.Fakes {
	aws := fakesecret.AWSAccessKeyID()
	return e2eharness.Fakes{Value: aws.Value, Line: aws.Line, Bare: fakesecret.GenericAPIKey().Value}
}
