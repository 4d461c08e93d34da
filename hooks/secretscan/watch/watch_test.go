//go:build linux

package watch

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/internal/rundir"
)

// serve starts a watcher of a new git worktree in this process and waits
// until it answers; removing the worktree at the end stops it.
func serve(t *testing.T) (root string, p Paths, stopped chan struct{}) {
	t.Helper()
	root = t.TempDir()
	gitInit(t, root)
	for _, f := range []string{"tracked.txt", "src/a.go", "build/out.bin"} {
		writeFile(t, filepath.Join(root, f), "x\n")
	}
	writeFile(t, filepath.Join(root, ".gitignore"), "build/\n")
	git(t, root, "add", "tracked.txt", "src/a.go", ".gitignore")
	p = For(root, filepath.Join(root, ".git", "swarm-guard"))
	stopped = make(chan struct{})
	go func() {
		if err := Serve(p); err != nil {
			t.Errorf("Serve: %v", err)
		}
		close(stopped)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, ok := Changed(p, time.Now(), time.Second); ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the watcher never answered")
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Cleanup(func() {
		if err := os.RemoveAll(root); err != nil {
			t.Log(err)
		}
		select {
		case <-stopped:
		case <-time.After(10 * time.Second):
			t.Error("the watcher did not stop when its worktree was removed")
		}
	})
	return root, p, stopped
}

func TestWatcherNamesWhatACallWrote(t *testing.T) {
	root, p, _ := serve(t)
	since := time.Now()
	// What an opaque command does: append to a tracked file, create files
	// in a new directory tree, replace a file by rename, write an ignored
	// file, and write a file it deletes again.
	f, err := os.OpenFile(filepath.Join(root, "tracked.txt"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("more\n")
	f.Close()
	writeFile(t, filepath.Join(root, "gen/deep/er/new.txt"), "new\n")
	writeFile(t, filepath.Join(root, "src/a.go.tmp"), "y\n")
	if err := os.Rename(filepath.Join(root, "src/a.go.tmp"), filepath.Join(root, "src/a.go")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(root, "build/out.bin"), "z\n")
	got, ok := Changed(p, since, 2*time.Second)
	if !ok {
		t.Fatal("the watcher could not vouch for a call that began after it started")
	}
	for _, want := range []string{"tracked.txt", "gen/deep/er/new.txt", "src/a.go"} {
		if !slices.Contains(got, filepath.Join(root, want)) {
			t.Errorf("the answer %q lacks %s", got, want)
		}
	}
	if slices.Contains(got, filepath.Join(root, "build/out.bin")) {
		t.Errorf("the answer %q names a file in an ignored directory, which is not watched", got)
	}
	// A later call that wrote nothing gets an empty answer.
	later := time.Now()
	if got, ok := Changed(p, later, 2*time.Second); !ok || len(got) != 0 {
		t.Errorf("after a call that wrote nothing: %q, %v; want nothing, true", got, ok)
	}
}

func TestWatcherCannotVouchForTimeBeforeItStarted(t *testing.T) {
	_, p, _ := serve(t)
	if got, ok := Changed(p, time.Now().Add(-time.Hour), 2*time.Second); ok {
		t.Errorf("a call that began before the watcher started got an answer: %q", got)
	}
}

func TestWatcherStopsWhenADirectoryMoves(t *testing.T) {
	root, p, stopped := serve(t)
	since := time.Now()
	if err := os.Rename(filepath.Join(root, "src"), filepath.Join(root, "moved")); err != nil {
		t.Fatal(err)
	}
	if got, ok := Changed(p, since, 2*time.Second); ok {
		t.Errorf("after a directory moved the watcher answered %q; its names below it are stale", got)
	}
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("the watcher kept running after a directory moved")
	}
	if _, err := os.Stat(p.Socket); !os.IsNotExist(err) {
		t.Errorf("the stopped watcher left its socket: %v", err)
	}
}

func TestNoWatcherNoAnswer(t *testing.T) {
	root := t.TempDir()
	p := For(root, filepath.Join(root, "state"))
	if _, ok := Changed(p, time.Now(), time.Second); ok {
		t.Error("an answer without a watcher")
	}
	if !p.ShouldStart(time.Now()) {
		t.Error("no watcher and no failure: one should start")
	}
	writeFile(t, p.Failed, "inotify: no space left on device\n")
	if p.ShouldStart(time.Now()) {
		t.Error("a watcher failed to start a moment ago: no new one should be tried for an hour")
	}
	if !p.ShouldStart(time.Now().Add(2 * time.Hour)) {
		t.Error("an hour after a failure a new watcher should be tried")
	}
	deep := filepath.Join(root, strings.Repeat("d", 120))
	long := For(deep, filepath.Join(deep, ".git", "swarm-guard"))
	if !slices.Contains(rundir.Dirs(), filepath.Dir(long.Socket)) || len(long.Socket) > rundir.MaxSocketPath {
		t.Errorf("a state directory too deep for a socket address: the socket is %s, want it in one of %q", long.Socket, rundir.Dirs())
	}
}

func TestSecondWatcherStepsAside(t *testing.T) {
	_, p, _ := serve(t)
	done := make(chan error, 1)
	go func() { done <- Serve(p) }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("a second watcher of the same worktree: %v, want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a second watcher of the same worktree kept running")
	}
}

func gitInit(t *testing.T, dir string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	git(t, dir, "init", "-q")
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func writeFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
