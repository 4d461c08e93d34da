package hookenv

import (
	"os"
	"path/filepath"
	"testing"
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
