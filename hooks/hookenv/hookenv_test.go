package hookenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/client"
)

func TestResolverFollowsExistingPrefix(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	real := filepath.Join(base, "real")
	if err := os.MkdirAll(real, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, filepath.Join(base, "link")); err != nil {
		t.Fatal(err)
	}
	r := newResolver()
	for in, want := range map[string]string{
		filepath.Join(base, "link"):                   real,
		filepath.Join(base, "link", "new", "x.go"):    filepath.Join(real, "new", "x.go"),
		filepath.Join(base, "missing", "link", "..."): filepath.Join(base, "missing", "link", "..."),
	} {
		if got := r.resolve(in); got != want {
			t.Errorf("resolve(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestBuildOutsideGitUsesProjectDir(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	env := map[string]string{"HOME": "/home/x", "CLAUDE_PROJECT_DIR": dir}
	ctx := Build(Options{Cwd: filepath.Join(dir, "sub"), Getenv: func(k string) string { return env[k] }})
	if ctx.Repo != nil || ctx.Env.Root != dir {
		t.Errorf("root = %q, repo = %v", ctx.Env.Root, ctx.Repo)
	}
	if ctx.Env.Home != "/home/x" {
		t.Errorf("home = %q", ctx.Env.Home)
	}
}

func TestAgentSession(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{"CLAUDECODE": "1"}, true},
		{map[string]string{"SWARM_GUARD_RUN": "r-1"}, true},
		{map[string]string{"CLAUDECODE": "", "SWARM_GUARD_AGENT_ID": "w1-aaaa"}, false}, // a human with an id set
		{map[string]string{"CLAUDECODE": "0"}, false},
		{map[string]string{}, false},
		// Other clients' sessions, by the variables they export to
		// their agents' commands.
		{map[string]string{"GEMINI_CLI": "1"}, true},
		{map[string]string{"QWEN_CODE": "1"}, true},
		{map[string]string{"OPENCODE": "1"}, true},
		{map[string]string{"COPILOT_CLI": "1"}, true},
		{map[string]string{"CODEX_MANAGED_BY_NPM": "1"}, true},
		{map[string]string{"CODEX_THREAD_ID": "019a-thread"}, true},
		{map[string]string{"GEMINI_CLI": "0", "OPENCODE": ""}, false},
	} {
		if got := AgentSession(func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("AgentSession(%v) = %v, want %v", c.env, got, c.want)
		}
	}
}

// Whose commit is it: an agent's inside a session or with an agent id in
// the environment; a human's at a plain shell.
func TestAgentCommit(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{"CLAUDECODE": "1"}, true},
		{map[string]string{"SWARM_GUARD_RUN": "r-1"}, true},
		{map[string]string{"SWARM_GUARD_AGENT_ID": "w1-aaaa"}, true}, // an orchestrator names its agent
		{map[string]string{"AGENT_ID": "w1-aaaa"}, true},
		{map[string]string{"CLAUDECODE": "0"}, false},
		{map[string]string{"HOME": "/home/me"}, false}, // a human at a plain shell
	} {
		if got := AgentCommit(func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("AgentCommit(%v) = %v, want %v", c.env, got, c.want)
		}
	}
}

func TestHomeDirIgnoresHomeOutsideRun(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"CLAUDE_PROJECT_DIR": "/w/a"}, "/w/a"},
		{map[string]string{"CLAUDE_PROJECT_DIR": "/w/a", "SWARM_GUARD_RUN": "r", "SWARM_GUARD_HOME": "/w/b/"}, "/w/b"},
		// Without run, SWARM_GUARD_HOME is not trusted: run is what sets it.
		{map[string]string{"CLAUDE_PROJECT_DIR": "/w/a", "SWARM_GUARD_HOME": "/w/b"}, "/w/a"},
		{map[string]string{"CLAUDE_PROJECT_DIR": "rel"}, ""},
	} {
		if got := HomeDir(func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("HomeDir(%v) = %q, want %q", c.env, got, c.want)
		}
	}
}

// The home worktree stays the root when cwd moved into a sibling worktree,
// and the sibling is then one of the other worktrees.
func TestBuildHomeDoesNotFollowCwd(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	home, other := filepath.Join(base, "main"), filepath.Join(base, "other")
	run := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	run(home, "init", "-q", "-b", "main")
	run(home, "-c", "user.name=t", "-c", "user.email=t@x", "commit", "-q", "--allow-empty", "-m", "init")
	run(home, "worktree", "add", "-q", "-b", "agent-2", other)
	env := map[string]string{"HOME": "/home/x", "CLAUDE_PROJECT_DIR": home}
	ctx := Build(Options{Cwd: other, Home: home, Getenv: func(k string) string { return env[k] }})
	if ctx.Env.Root != home || ctx.Env.Branch != "main" || ctx.Env.Cwd != other {
		t.Errorf("root %q branch %q cwd %q; want the home %q on main", ctx.Env.Root, ctx.Env.Branch, ctx.Env.Cwd, home)
	}
	if len(ctx.Env.OtherWorktrees) != 1 || ctx.Env.OtherWorktrees[0] != other {
		t.Errorf("other worktrees %q, want [%q]", ctx.Env.OtherWorktrees, other)
	}
}

func TestNormalizeRemote(t *testing.T) {
	same := [][]string{
		{"https://github.com/o/r.git", "git@github.com:o/r.git", "ssh://git@github.com/o/r", "https://GitHub.com/o/r/"},
		{"/srv/git/r.git", "file:///srv/git/r", "../../../srv/git/r.git"},
	}
	for _, group := range same {
		want := normalizeRemote(group[0], "/home/a/w")
		for _, u := range group[1:] {
			if got := normalizeRemote(u, "/home/a/w"); got != want {
				t.Errorf("normalizeRemote(%q) = %q, want %q (as %q)", u, got, want, group[0])
			}
		}
	}
	if normalizeRemote("https://github.com/o/r", "") == normalizeRemote("https://github.com/o/r2", "") {
		t.Error("different repositories compare equal")
	}
}

// The agent id file and the state directories are the guard's own: the
// engine treats them like its executables (rule guard-tamper).
func TestBuildProtectsGuardState(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	env := map[string]string{"HOME": "/home/x", "XDG_CONFIG_HOME": filepath.Join(dir, "cfg"), "CLAUDE_PROJECT_DIR": dir}
	ctx := Build(Options{Cwd: dir, Getenv: func(k string) string { return env[k] }})
	want := map[string]bool{filepath.Join(dir, "cfg", "swarm-guard", "**"): false, "/home/x/.config/swarm-guard/**": false, "/home/x/.local/state/swarm-guard/**": false}
	for _, p := range ctx.Env.GuardPaths {
		if _, ok := want[p]; ok {
			want[p] = true
		}
	}
	for p, found := range want {
		if !found {
			t.Errorf("%s is not protected: %q", p, ctx.Env.GuardPaths)
		}
	}
}

// The darwin (and windows) builds judge names as their file systems
// compare them: without case. Linux builds compare them exactly.
func TestBuildTellsTheEngineTheFileSystemCase(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	env := map[string]string{"HOME": "/home/x", "CLAUDE_PROJECT_DIR": dir}
	ctx := Build(Options{Cwd: dir, Getenv: func(k string) string { return env[k] }})
	want := runtime.GOOS == "darwin" || runtime.GOOS == "windows"
	if ctx.Env.CaseInsensitive != want {
		t.Errorf("on %s CaseInsensitive = %v, want %v", runtime.GOOS, ctx.Env.CaseInsensitive, want)
	}
}

// TestResolverAgreesWithEvalSymlinks pins the component-wise resolver to
// what it replaced: filepath.EvalSymlinks where that succeeds, else the
// resolved parent plus the last name. The tree holds relative, absolute,
// chained, dangling and looping links, links to files and links whose
// target climbs with "..".
func TestResolverAgreesWithEvalSymlinks(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	for _, d := range []string{"a/b/c", "x/y", "file-parent"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(base, "a/b/f.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, "file-parent/plain"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		"rel":          "a/b",
		"abs":          filepath.Join(base, "x"),
		"chain":        "rel",
		"up":           "x/../a",
		"x/y/climb":    "../../a/b/c",
		"dangling":     "nowhere/deeper",
		"loop1":        "loop2",
		"loop2":        "loop1",
		"self":         "self",
		"tofile":       "a/b/f.txt",
		"a/b/c/back":   "../../..",
		"a/b/viaChain": "../../chain/c",
		"abs-missing":  filepath.Join(base, "missing", "dir"),
		"through-link": "x/y/climb/../../y", // ".." after a link: the link's target's parent
	}
	for l, dest := range links {
		if err := os.Symlink(dest, filepath.Join(base, l)); err != nil {
			t.Fatal(err)
		}
	}
	var paths []string
	for _, p := range []string{".", "a", "a/b", "a/b/c", "a/b/f.txt", "a/b/f.txt/under", "x/y", "missing", "missing/deeper/x.go", "file-parent/plain/x"} {
		paths = append(paths, p)
	}
	for l := range links {
		paths = append(paths, l, l+"/c", l+"/new/x.go", l+"/f.txt", l+"/back/x")
	}
	paths = append(paths, "a/b/c/back/abs/y", "chain/c/back/chain", "x/y/climb/back/x/y/climb")
	old := oldResolver{cache: map[string]string{}}
	for _, rel := range paths {
		p := filepath.Join(base, rel)
		r := newResolver() // fresh: no help from earlier answers
		if got, want := r.resolve(p), old.resolve(p); got != want {
			t.Errorf("fresh resolve(%s) = %q, want %q", rel, got, want)
		}
	}
	shared := newResolver() // one resolver for all, as in a hook call
	for _, rel := range paths {
		p := filepath.Join(base, rel)
		if got, want := shared.resolve(p), old.resolve(p); got != want {
			t.Errorf("shared resolve(%s) = %q, want %q", rel, got, want)
		}
	}
}

// oldResolver is the resolver before it went component by component.
type oldResolver struct{ cache map[string]string }

func (r oldResolver) resolve(p string) string {
	if p == "" || p == "/" || p == "." {
		return p
	}
	if v, ok := r.cache[p]; ok {
		return v
	}
	out := p
	if real, err := filepath.EvalSymlinks(p); err == nil {
		out = real
	} else if parent := filepath.Dir(p); parent != p {
		out = filepath.Join(r.resolve(parent), filepath.Base(p))
	}
	r.cache[p] = out
	return out
}

// TestGuardExecutables: the hook protects itself and the two executables
// beside it, under the names the hook command and the scanner client use.
func TestGuardExecutables(t *testing.T) {
	got := GuardExecutables("/opt/sg/bin/swarm-guard")
	want := []string{"/opt/sg/bin/swarm-guard", "/opt/sg/bin/swarm-guard-post", "/opt/sg/bin/" + client.ExecutableName}
	if !slices.Equal(got, want) {
		t.Errorf("GuardExecutables = %q, want %q", got, want)
	}
	if GuardExecutables("") != nil {
		t.Error(`GuardExecutables("") is not nil`)
	}
}

// TestResolverKeepsPerProcessLinks: /proc/self's environment and file
// descriptors, and /dev/fd, are left as written (resolved here they would
// name the hook's process, not the shell's); /proc/self's links to real
// places still resolve.
func TestResolverKeepsPerProcessLinks(t *testing.T) {
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skip("no /proc here")
	}
	r := newResolver()
	for _, p := range []string{"/proc/self/environ", "/proc/thread-self/environ", "/proc/self/fd/1", "/dev/fd/1", "/dev/fd"} {
		if got := r.resolve(p); got != p {
			t.Errorf("resolve(%q) = %q: the hook's own process", p, got)
		}
	}
	if got := r.resolve("/proc/self/root/etc"); got != "/etc" {
		t.Errorf("resolve(/proc/self/root/etc) = %q, want /etc", got)
	}
}
