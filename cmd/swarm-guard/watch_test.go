package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/watch"
)

// sg-watch-ready ROOT waits until the file watcher of the git worktree
// ROOT (started in the background by PostToolUse) vouches for a call that
// began three seconds ago: a hook event with a duration_ms up to 500 that
// comes after it is answered by the watcher, not by a worktree-wide scan.
func init() {
	scriptCommands["sg-watch-ready"] = func() {
		if len(os.Args) != 2 {
			fmt.Fprintln(os.Stderr, "usage: sg-watch-ready ROOT")
			os.Exit(2)
		}
		root, err := filepath.EvalSymlinks(os.Args[1])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		p := watch.For(root, filepath.Join(root, ".git", "swarm-guard"))
		deadline := time.Now().Add(20 * time.Second)
		for {
			if _, ok := watch.Changed(p, time.Now().Add(-3*time.Second), time.Second); ok {
				return
			}
			if time.Now().After(deadline) {
				fmt.Fprintf(os.Stderr, "sg-watch-ready: no watcher of %s answered (socket %s)\n", root, p.Socket)
				os.Exit(1)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
}
