package e2eharness

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// What make e2e and make e2e-clients set for the client tests.
const (
	// BinEnv names the directory holding the built swarm-guard,
	// swarm-guard-secrets and swarm-guard-post.
	BinEnv = "SWARM_GUARD_E2E_BIN"
	// RootEnv names where the worlds' repositories live. It must not be
	// under a directory the default policy makes writable (/tmp, /var/tmp,
	// $TMPDIR): there, "outside the worktree" would be writable.
	RootEnv = "SWARM_GUARD_E2E_ROOT"
)

// binaries are copied into every world, so that a scenario may delete its
// own (a missing binary must block).
var binaries = []string{"swarm-guard", "swarm-guard-secrets", "swarm-guard-post"}

// World is one throwaway setup under $SWARM_GUARD_E2E_ROOT: a bare remote
// holding main and the agent's branch, the agent's clone with agent-1
// checked out, optionally another agent's worktree (agent-2) of that
// clone, a directory outside them holding victim/file.txt, a HOME and
// TMPDIR of its own (no client reads the developer's configuration, and
// the policy's {temp} is not where the world lives) and copies of the
// binaries in Bin, which is first on PATH as after make install.
type World struct {
	Root, Home, Tmp, Bin string
	Remote, Work         string
	Other                string // another agent's worktree; "" unless asked for
	Outside              string
	// PathDirs go on PATH after Bin and before the system directories
	// (the client's own directory, node's).
	PathDirs []string
	// Env is the suite's own environment for everything the world runs.
	Env []string
	// Vars are what scenarios expand: WORK, OTHER, REMOTE, OUTSIDE, SG (the
	// world's swarm-guard), HOME, SECRET, SECRET_LINE and SECRET_B64 (a fake
	// credential made for this world, a line of code holding it, and that
	// line base64-encoded), BARE_SECRET (one with no keyword and no known
	// prefix). A suite adds its own.
	Vars map[string]string
}

// WorldOptions are what a suite asks of a world.
type WorldOptions struct {
	OtherWorktree bool     // add another agent's worktree, agent-2 ($OTHER)
	PathDirs      []string // see World.PathDirs
	Fakes         Fakes    // required: the world's fake credentials
}

// Fakes are the fake credentials a world's scenarios write, print and
// send, made at test time by the suite (hooks/secretscan/fakesecret
// makes them; the harness takes them as data so that it depends on no
// part of the product).
type Fakes struct {
	Value string // a credential gitleaks finds ($SECRET)
	Line  string // Value in a line that names it ($SECRET_LINE)
	Bare  string // one with no keyword and no known prefix ($BARE_SECRET)
}

// NewWorld sets a world up, with real git; it is removed when the test
// ends.
func NewWorld(t testing.TB, o WorldOptions) *World {
	t.Helper()
	base, bin := os.Getenv(RootEnv), os.Getenv(BinEnv)
	if base == "" || bin == "" {
		t.Fatalf("%s and %s must be set (make e2e and make e2e-clients set them)", RootEnv, BinEnv)
	}
	Must(t, os.MkdirAll(base, 0o755))
	root, err := os.MkdirTemp(base, "world-")
	Must(t, err)
	t.Cleanup(func() {
		// Some clients leave read-only directories (caches, packed objects).
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				os.Chmod(p, 0o755)
			}
			return nil
		})
		os.RemoveAll(root)
	})
	w := &World{
		Root:     root,
		Home:     filepath.Join(root, "home"),
		Tmp:      filepath.Join(root, "tmp"),
		Bin:      filepath.Join(root, "bin"),
		Remote:   filepath.Join(root, "remote.git"),
		Work:     filepath.Join(root, "agent-1"),
		Outside:  filepath.Join(root, "outside"),
		PathDirs: o.PathDirs,
	}
	for _, d := range []string{w.Home, w.Tmp, w.Bin, filepath.Join(w.Outside, "victim")} {
		Must(t, os.MkdirAll(d, 0o755))
	}
	Must(t, os.WriteFile(filepath.Join(w.Outside, "victim", "file.txt"), []byte("not the agent's\n"), 0o644))
	Must(t, os.WriteFile(filepath.Join(w.Home, ".gitconfig"), []byte("[user]\n\tname = e2e agent\n\temail = agent@e2e.invalid\n[init]\n\tdefaultBranch = main\n"), 0o644))
	for _, name := range binaries {
		data, err := os.ReadFile(filepath.Join(bin, name))
		Must(t, err)
		Must(t, os.WriteFile(filepath.Join(w.Bin, name), data, 0o755))
	}
	secret := o.Fakes
	if secret.Value == "" || secret.Line == "" || secret.Bare == "" {
		t.Fatal("e2eharness.NewWorld: WorldOptions.Fakes must hold the fake credentials (fakesecret makes them)")
	}
	w.Vars = map[string]string{
		"WORK": w.Work, "REMOTE": w.Remote, "OUTSIDE": w.Outside,
		"SG": filepath.Join(w.Bin, "swarm-guard"), "HOME": w.Home,
		"SECRET": secret.Value, "SECRET_LINE": secret.Line,
		"SECRET_B64": base64.StdEncoding.EncodeToString([]byte(secret.Line + "\n")),
		// gitleaks cannot tell this one, printed alone, from any other word.
		"BARE_SECRET": secret.Bare,
	}
	branches := "HEAD:main HEAD:agent-1"
	other := ""
	if o.OtherWorktree {
		w.Other = filepath.Join(root, "agent-2")
		w.Vars["OTHER"] = w.Other
		branches += " HEAD:agent-2"
		other = "git worktree add -q ../agent-2 agent-2"
	}
	w.Sh(t, root, `
set -e
git init -q --bare remote.git
git clone -q remote.git seed 2>/dev/null
cd seed
echo "# demo" > README.md
git add README.md
git commit -qm "initial commit"
git push -q origin `+branches+`
cd ..
rm -rf seed
git clone -q remote.git agent-1
cd agent-1
git checkout -q agent-1
# Some clients run commands with an environment of their own (Gemini CLI
# drops HOME's git config): the identity goes into the clone too.
git config user.name "e2e agent"
git config user.email agent@e2e.invalid
`+other+`
`)
	return w
}

// Environ is the environment of the client, its hooks and the scripts:
// the world's HOME, TMPDIR and XDG directories, PATH, the suite's Env,
// the Vars, then extra; nothing of the test's own.
func (w *World) Environ(extra ...string) []string {
	path := append(append([]string{w.Bin}, w.PathDirs...), "/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin")
	env := []string{
		"PATH=" + strings.Join(path, ":"), "HOME=" + w.Home, "TMPDIR=" + w.Tmp, "LANG=C.UTF-8",
		"XDG_CONFIG_HOME=" + filepath.Join(w.Home, ".config"),
		"XDG_CACHE_HOME=" + filepath.Join(w.Home, ".cache"),
		"XDG_DATA_HOME=" + filepath.Join(w.Home, ".local", "share"),
		"XDG_STATE_HOME=" + filepath.Join(w.Home, ".local", "state"),
	}
	env = append(env, w.Env...)
	for k, v := range w.Vars {
		env = append(env, k+"="+v)
	}
	return append(env, extra...)
}

// Sh runs a bash script in dir with the world's environment plus extra;
// a failure fails the test.
func (w *World) Sh(t testing.TB, dir, script string, extra ...string) {
	t.Helper()
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = w.Environ(extra...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("script failed (%v):\n%s\n--- script ---\n%s", err, out, script)
	}
}

// SwarmGuard runs the world's swarm-guard in the agent's worktree and
// returns its output; a failure fails the test.
func (w *World) SwarmGuard(t testing.TB, args ...string) string {
	t.Helper()
	cmd := exec.Command(w.Vars["SG"], args...)
	cmd.Dir = w.Work
	cmd.Env = w.Environ()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("swarm-guard %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// Expand replaces $NAME with the world's variable NAME; an unknown name
// stays as it is.
func (w *World) Expand(s string) string {
	return os.Expand(s, func(name string) string {
		if v, ok := w.Vars[name]; ok {
			return v
		}
		return "$" + name
	})
}

// ExpandJSON replaces $NAME in a JSON text with the variable's value
// JSON-escaped, so that a path or a secret stays a valid string.
func (w *World) ExpandJSON(s string) string {
	return os.Expand(s, func(name string) string {
		v, ok := w.Vars[name]
		if !ok {
			return "$" + name
		}
		b, _ := json.Marshal(v)
		return string(b[1 : len(b)-1])
	})
}

// StubVars are stand-in values for a world's variables, quotes included,
// for checking the scenarios without a world.
func StubVars(names ...string) map[string]string {
	vars := map[string]string{}
	for _, name := range names {
		vars[name] = "/x/" + strings.ToLower(name) + `"quoted"`
	}
	return vars
}

// WriteFile writes data to path, making its directory; a failure fails
// the test.
func WriteFile(t testing.TB, path string, data []byte) {
	t.Helper()
	Must(t, os.MkdirAll(filepath.Dir(path), 0o755))
	Must(t, os.WriteFile(path, data, 0o644))
}

// Must fails the test on err.
func Must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// Tail is the last n bytes of s, marked as cut when it is.
func Tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
