package gitrepo

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// repoWithWorktree makes a repository at <base>/repo on main with one
// commit, and a linked worktree at <base>/wt1 on agent-1.
func repoWithWorktree(t *testing.T) (base, main string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	base, _ = filepath.EvalSymlinks(t.TempDir())
	main = filepath.Join(base, "repo")
	git(t, base, "init", "-q", "-b", "main", main)
	git(t, main, "commit", "-q", "--allow-empty", "-m", "init")
	git(t, main, "worktree", "add", "-q", "-b", "agent-1", filepath.Join(base, "wt1"))
	return base, main
}

// The repository facts the hook reads from .git files must agree with git.
func TestFindMainAndLinkedWorktrees(t *testing.T) {
	base, main := repoWithWorktree(t)
	git(t, main, "config", "core.hooksPath", ".githooks")
	if err := os.MkdirAll(filepath.Join(base, "wt1", "src", "deep"), 0o755); err != nil {
		t.Fatal(err)
	}

	r, ok := Find(filepath.Join(main))
	if !ok || r.Root != main || r.Branch != "main" || r.CommonDir != filepath.Join(main, ".git") || r.Detached {
		t.Fatalf("main worktree: %+v", r)
	}
	w, ok := Find(filepath.Join(base, "wt1", "src", "deep"))
	if !ok {
		t.Fatal("linked worktree not found")
	}
	if w.Root != filepath.Join(base, "wt1") || w.Branch != "agent-1" || w.CommonDir != filepath.Join(main, ".git") ||
		w.GitDir != filepath.Join(main, ".git", "worktrees", "wt1") {
		t.Errorf("linked worktree: %+v", w)
	}
	if got, want := w.HooksDir(), filepath.Join(base, "wt1", ".githooks"); got != want {
		t.Errorf("HooksDir = %q, want %q (relative core.hooksPath is per worktree)", got, want)
	}
	if got := w.OtherWorktrees(); !slices.Equal(got, []string{main}) {
		t.Errorf("OtherWorktrees = %q", got)
	}
	if got := r.OtherWorktrees(); !slices.Equal(got, []string{filepath.Join(base, "wt1")}) {
		t.Errorf("OtherWorktrees of main = %q", got)
	}
	if !w.HasBranch("main") || !w.HasBranch("agent-1") || w.HasBranch("nope") {
		t.Error("HasBranch")
	}
	git(t, main, "pack-refs", "--all")
	if !r.HasBranch("agent-1") {
		t.Error("HasBranch misses packed refs")
	}
	git(t, main, "checkout", "-q", "--detach")
	if r2, _ := Find(main); !r2.Detached || r2.Branch != "" {
		t.Errorf("detached HEAD: %+v", r2)
	}
	if _, ok := Find("/"); ok {
		t.Error("found a repository at /")
	}
}

// One ReadConfig answers several questions as ConfigValue and HooksDir
// do, the worktree's config.worktree first, and reflects the files as they
// were when it read them.
func TestReadConfigAnswersLikeConfigValue(t *testing.T) {
	base, main := repoWithWorktree(t)
	git(t, main, "remote", "add", "origin", "git@example.com:team/repo.git")
	git(t, main, "config", "core.hooksPath", ".githooks")
	git(t, main, "config", "extensions.worktreeConfig", "true")
	git(t, filepath.Join(base, "wt1"), "config", "--worktree", "core.hooksPath", "/opt/hooks")

	for _, dir := range []string{main, filepath.Join(base, "wt1")} {
		r, ok := Find(dir)
		if !ok {
			t.Fatalf("%s: no worktree", dir)
		}
		c := r.ReadConfig()
		if got, want := c.Value(`remote "origin"`, "URL"), r.ConfigValue(`remote "origin"`, "url"); got != want || got != "git@example.com:team/repo.git" {
			t.Errorf("%s: origin %q, ConfigValue %q", dir, got, want)
		}
		if got, want := r.HooksDirIn(c), r.HooksDir(); got != want {
			t.Errorf("%s: HooksDirIn %q, HooksDir %q", dir, got, want)
		}
		if got := c.Value("core", "nosuchkey"); got != "" {
			t.Errorf("%s: missing key = %q", dir, got)
		}
	}
	w, _ := Find(filepath.Join(base, "wt1"))
	c := w.ReadConfig()
	if got := w.HooksDirIn(c); got != "/opt/hooks" {
		t.Errorf("config.worktree not first: HooksDirIn = %q", got)
	}
	git(t, filepath.Join(base, "wt1"), "config", "--worktree", "core.hooksPath", "/srv/hooks")
	if got := w.HooksDirIn(c); got != "/opt/hooks" {
		t.Errorf("a Config read before a change = %q, want the value it read", got)
	}
	if got := w.HooksDir(); got != "/srv/hooks" {
		t.Errorf("HooksDir after the change = %q, want /srv/hooks", got)
	}
}

func TestRemoteURLs(t *testing.T) {
	_, main := repoWithWorktree(t)
	git(t, main, "remote", "add", "origin", "git@example.com:team/repo.git")
	git(t, main, "remote", "set-url", "--add", "--push", "origin", "https://mirror.example/repo.git")
	git(t, main, "remote", "add", "upstream", "/srv/upstream.git")
	git(t, main, "config", "url.https://rewrite.example/.insteadOf", "https://example.com/")
	r, _ := Find(main)
	got := r.ReadConfig().RemoteURLs()
	want := []string{"git@example.com:team/repo.git", "https://mirror.example/repo.git", "/srv/upstream.git"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("RemoteURLs = %q, want %q", got, want)
	}
}
