package postrecord

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func gitInit(t *testing.T, dir string) {
	t.Helper()
	run(t, "", "git", "init", "-q", dir)
}

func run(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out)
	}
}

func realpath(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestStateDir: the state directory is found from .git directories,
// "gitdir:" files (linked worktrees share the main one's common dir;
// a submodule-like gitdir without commondir is its own), through symbolic
// links, from the project directory rather than cwd, and not at all when
// cwd lies in another repository or none.
func TestStateDir(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	tmp := realpath(t, t.TempDir())
	main := filepath.Join(tmp, "main")
	gitInit(t, main)
	run(t, main, "git", "commit", "-q", "--allow-empty", "-m", "init")
	run(t, main, "git", "worktree", "add", "-q", filepath.Join(tmp, "linked"))
	sub := filepath.Join(main, "sub")
	if err := os.MkdirAll(filepath.Join(main, ".git", "modules", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(sub, "deep"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sub, ".git"), []byte("gitdir: ../.git/modules/sub\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(tmp, "other")
	gitInit(t, other)
	if err := os.Symlink(main, filepath.Join(tmp, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(tmp, "plain"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(main, "a", "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	mainState := filepath.Join(main, ".git", "swarm-guard")
	for _, tt := range []struct {
		name string
		cwd  string
		env  map[string]string
		want string // "" for none
	}{
		{"repository root", main, nil, mainState},
		{"below the root", filepath.Join(main, "a", "b"), nil, mainState},
		{"linked worktree (gitdir: file, commondir)", filepath.Join(tmp, "linked"), nil, mainState},
		{"submodule-like gitdir: file without commondir", filepath.Join(sub, "deep"), nil, filepath.Join(main, ".git", "modules", "sub", "swarm-guard")},
		{"through a symbolic link", filepath.Join(tmp, "link", "a"), nil, mainState},
		{"project dir wins over a cwd in the same repository", filepath.Join(tmp, "linked"), map[string]string{"CLAUDE_PROJECT_DIR": main}, mainState},
		{"cwd in another repository than the project", other, map[string]string{"CLAUDE_PROJECT_DIR": main}, ""},
		{"cwd in a submodule of the project", sub, map[string]string{"CLAUDE_PROJECT_DIR": main}, ""},
		{"no repository", filepath.Join(tmp, "plain"), nil, ""},
		{"relative cwd, no project", "repo", nil, ""},
		{"relative cwd, project set", "repo", map[string]string{"CLAUDE_PROJECT_DIR": main}, mainState},
		{"swarm-guard run's home", other, map[string]string{"SWARM_GUARD_RUN": "r1", "SWARM_GUARD_HOME": other, "CLAUDE_PROJECT_DIR": other}, filepath.Join(other, ".git", "swarm-guard")},
	} {
		got, ok := StateDir(tt.cwd, env(tt.env))
		if ok != (tt.want != "") || got != tt.want {
			t.Errorf("%s: StateDir(%s) = %q, %v; want %q", tt.name, tt.cwd, got, ok, tt.want)
		}
	}
}

// TestTake: a record serves exactly the call it was written for, once.
func TestTake(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	rec := Record{SessionID: "s1", ToolUseID: "toolu_01", Tool: "Bash", Command: "ls -la", Root: "/repo"}
	for _, tt := range []struct {
		name                  string
		session, id, tool, cm string
		at                    time.Time
		wantErr               string // "" for a valid record
		kept                  bool   // the record is still there afterwards
	}{
		{"this call", "s1", "toolu_01", "Bash", "ls -la", now, "", false},
		{"another session", "s2", "toolu_01", "Bash", "ls -la", now, "another session", true},
		{"another command", "s1", "toolu_01", "Bash", "ls -la > f", now, "another command", false},
		{"another tool", "s1", "toolu_01", "PowerShell", "ls -la", now, "another tool", false},
		{"another call", "s1", "toolu_02", "Bash", "ls -la", now, "no such file", true},
		{"stale", "s1", "toolu_01", "Bash", "ls -la", now.Add(MaxAge + time.Second), "stale", false},
		{"from the future", "s1", "toolu_01", "Bash", "ls -la", now.Add(-time.Hour), "stale", false},
		{"unusable id", "s1", "../toolu_01", "Bash", "ls -la", now, "no usable", true},
		{"no session", "", "toolu_01", "Bash", "ls -la", now, "no usable", true},
	} {
		dir := t.TempDir()
		if err := Write(dir, rec, now); err != nil {
			t.Fatal(err)
		}
		_, err := Take(dir, tt.session, tt.id, tt.tool, tt.cm, tt.at)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%s: error %v, want one saying %q", tt.name, err, tt.wantErr)
		}
		_, serr := os.Stat(Path(dir, "toolu_01"))
		if kept := serr == nil; kept != tt.kept {
			t.Errorf("%s: record kept = %v, want %v", tt.name, kept, tt.kept)
		}
		if tt.wantErr == "" {
			if _, err := Take(dir, tt.session, tt.id, tt.tool, tt.cm, tt.at); !IsNotExist(err) {
				t.Errorf("%s: taken twice (err %v)", tt.name, err)
			}
		}
	}
}

// TestTakeRefusesUnsafeRecords: a record others could have written, a
// symbolic link in its place or a corrupt one is no record.
func TestTakeRefusesUnsafeRecords(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	rec := Record{SessionID: "s1", ToolUseID: "toolu_01", Tool: "Bash", Command: "ls", Root: "/repo"}
	for _, tt := range []struct {
		name  string
		spoil func(dir, p string) error
		want  string
	}{
		{"record writable by others", func(_, p string) error { return os.Chmod(p, 0o666) }, "writable by others"},
		{"directory writable by others", func(_, p string) error { return os.Chmod(filepath.Dir(p), 0o777) }, "writable by others"},
		{"symbolic link", func(dir, p string) error {
			alt := filepath.Join(dir, "elsewhere")
			if err := os.Rename(p, alt); err != nil {
				return err
			}
			return os.Symlink(alt, p)
		}, "not a plain file"},
		{"corrupt", func(_, p string) error { return os.WriteFile(p, []byte("{"), 0o600) }, "record"},
		{"another version", func(_, p string) error {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(p, []byte(strings.Replace(string(data), `"v":1`, `"v":9`, 1)), 0o600)
		}, "version"},
	} {
		dir := t.TempDir()
		if err := Write(dir, rec, now); err != nil {
			t.Fatal(err)
		}
		if err := tt.spoil(dir, Path(dir, rec.ToolUseID)); err != nil {
			t.Fatal(err)
		}
		if _, err := Take(dir, "s1", "toolu_01", "Bash", "ls", now); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Take error %v, want one saying %q", tt.name, err, tt.want)
		}
	}
}

// TestWriteSweepsLeftOvers: records whose PostToolUse never came are
// removed by a later Write, at most once per sweepEvery.
func TestWriteSweepsLeftOvers(t *testing.T) {
	dir := t.TempDir()
	start := time.Unix(1_800_000_000, 0)
	old := Record{SessionID: "s1", ToolUseID: "toolu_old", Tool: "Bash", Command: "ls", Root: "/repo"}
	if err := Write(dir, old, start); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(Path(dir, "toolu_old"), start, start); err != nil {
		t.Fatal(err)
	}
	later := start.Add(MaxAge + time.Minute)
	fresh := old
	fresh.ToolUseID = "toolu_new"
	if err := Write(dir, fresh, later); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(Path(dir, "toolu_old")); err == nil {
		t.Error("a record older than MaxAge survived a later Write")
	}
	if _, err := os.Stat(Path(dir, "toolu_new")); err != nil {
		t.Errorf("the new record is missing: %v", err)
	}
	if fi, err := os.Stat(filepath.Dir(Path(dir, "x"))); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("records directory: %v %v, want mode 0700", fi, err)
	}
}
