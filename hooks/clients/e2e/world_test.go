package e2e

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/fakesecret"
)

// The client tests need the clients and the built binaries; make
// e2e-clients provides both.
const (
	binEnv = "SWARM_GUARD_E2E_BIN" // directory holding swarm-guard, swarm-guard-secrets and swarm-guard-post
	// rootEnv is where the scenarios' repositories live. It must not be
	// under a directory the default policy makes writable (/tmp, /var/tmp,
	// $TMPDIR): there, "outside the worktree" would be writable.
	rootEnv = "SWARM_GUARD_E2E_ROOT"
)

// world is one throwaway setup: a bare remote, the agent's clone, a place
// outside it, and a HOME of its own, so that no client reads the
// developer's configuration.
type world struct {
	root, home, tmp, bin string
	remote, work         string
	outside              string
	clientPath           string // the client's executable
	vars                 map[string]string
}

func newWorld(t *testing.T, clientPath string) *world {
	t.Helper()
	base, bin := os.Getenv(rootEnv), os.Getenv(binEnv)
	if base == "" || bin == "" {
		t.Fatalf("%s and %s must be set (make e2e-clients sets them)", rootEnv, binEnv)
	}
	must(t, os.MkdirAll(base, 0o755))
	root, err := os.MkdirTemp(base, "world-")
	must(t, err)
	t.Cleanup(func() {
		// Some clients leave read-only files (caches, packed objects).
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				os.Chmod(p, 0o755)
			}
			return nil
		})
		os.RemoveAll(root)
	})
	w := &world{
		root:       root,
		home:       filepath.Join(root, "home"),
		tmp:        filepath.Join(root, "tmp"),
		bin:        filepath.Join(root, "bin"),
		remote:     filepath.Join(root, "remote.git"),
		work:       filepath.Join(root, "agent-1"),
		outside:    filepath.Join(root, "outside"),
		clientPath: clientPath,
	}
	for _, d := range []string{w.home, w.tmp, w.bin, filepath.Join(w.outside, "victim")} {
		must(t, os.MkdirAll(d, 0o755))
	}
	must(t, os.WriteFile(filepath.Join(w.outside, "victim", "file.txt"), []byte("not the agent's\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(w.home, ".gitconfig"), []byte("[user]\n\tname = e2e agent\n\temail = agent@e2e.invalid\n[init]\n\tdefaultBranch = main\n"), 0o644))
	// Copies of the binaries, so that a scenario may delete its own.
	for _, name := range []string{"swarm-guard", "swarm-guard-secrets", "swarm-guard-post"} {
		data, err := os.ReadFile(filepath.Join(bin, name))
		must(t, err)
		must(t, os.WriteFile(filepath.Join(w.bin, name), data, 0o755))
	}
	if os.Getenv("SWARM_GUARD_E2E_HOOKLOG") != "" {
		w.logHooks(t)
	}
	secret := fakesecret.AWSAccessKeyID()
	w.vars = map[string]string{
		"WORK": w.work, "REMOTE": w.remote, "OUTSIDE": w.outside,
		"SG": filepath.Join(w.bin, "swarm-guard"), "HOME": w.home,
		"SECRET": secret.Value, "SECRET_LINE": secret.Line,
		"SECRET_B64": base64.StdEncoding.EncodeToString([]byte(secret.Line + "\n")),
	}
	w.sh(t, root, `
set -e
git init -q --bare remote.git
git clone -q remote.git seed 2>/dev/null
cd seed
echo "# demo" > README.md
git add README.md
git commit -qm "initial commit"
git push -q origin HEAD:main HEAD:agent-1
cd ..
rm -rf seed
git clone -q remote.git agent-1
cd agent-1
git checkout -q agent-1
# Some clients run commands with an environment of their own (Gemini CLI
# drops HOME's git config): the identity goes into the clone too.
git config user.name "e2e agent"
git config user.email agent@e2e.invalid
`)
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
		p := filepath.Join(w.bin, name)
		must(t, os.Rename(p, p+".real"))
		must(t, os.WriteFile(p, []byte(hookLogger), 0o755))
	}
}

// hookLog is what hookLogger recorded, "" without SWARM_GUARD_E2E_HOOKLOG.
func (w *world) hookLog() string {
	b, _ := os.ReadFile(filepath.Join(w.root, "hook.log"))
	return string(b)
}

// env is the environment of the client, its hooks and the scripts: a
// throwaway HOME and TMPDIR and nothing of the test's own.
func (w *world) env(extra ...string) []string {
	// swarm-guard on PATH, as after make install: the committed hook
	// command finds it there. node for the clients that are scripts.
	path := w.bin + ":" + filepath.Dir(w.clientPath)
	if node, err := exec.LookPath("node"); err == nil {
		path += ":" + filepath.Dir(node)
	}
	path += ":/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
	env := []string{
		"PATH=" + path, "HOME=" + w.home, "TMPDIR=" + w.tmp, "LANG=C.UTF-8", "SHELL=/bin/bash",
		"XDG_CONFIG_HOME=" + filepath.Join(w.home, ".config"),
		"XDG_CACHE_HOME=" + filepath.Join(w.home, ".cache"),
		"XDG_DATA_HOME=" + filepath.Join(w.home, ".local", "share"),
		"XDG_STATE_HOME=" + filepath.Join(w.home, ".local", "state"),
		"HOOKLOG=" + filepath.Join(w.root, "hook.log"),
	}
	for k, v := range w.vars {
		env = append(env, k+"="+v)
	}
	return append(env, extra...)
}

func (w *world) sh(t *testing.T, dir, script string, extra ...string) {
	t.Helper()
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = w.env(extra...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("script failed (%v):\n%s\n--- script ---\n%s", err, out, script)
	}
}

// swarmGuard runs the world's swarm-guard in the agent's worktree.
func (w *world) swarmGuard(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(w.vars["SG"], args...)
	cmd.Dir = w.work
	cmd.Env = w.env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("swarm-guard %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (w *world) write(t *testing.T, rel, content string) {
	t.Helper()
	p := rel
	if !filepath.IsAbs(p) {
		p = filepath.Join(w.work, rel)
	}
	must(t, os.MkdirAll(filepath.Dir(p), 0o755))
	must(t, os.WriteFile(p, []byte(content), 0o644))
}

func (w *world) expand(s string) string {
	return os.Expand(s, func(name string) string {
		if v, ok := w.vars[name]; ok {
			return v
		}
		return "$" + name
	})
}

// expandJSON replaces $NAME in a JSON text with the JSON-escaped value.
func (w *world) expandJSON(s string) string {
	return os.Expand(s, func(name string) string {
		v, ok := w.vars[name]
		if !ok {
			return "$" + name
		}
		b, _ := json.Marshal(v)
		return string(b[1 : len(b)-1])
	})
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
