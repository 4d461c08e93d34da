//go:build !linux

package watch

import "errors"

const supported = false

// Serve has no watcher on this platform: PostToolUse looks at the whole
// worktree after an opaque command.
func Serve(p Paths) error { return errors.New("no file watcher on this platform") }

// Start has nothing to start on this platform.
func Start(exe string, args ...string) error { return errors.New("no file watcher on this platform") }
