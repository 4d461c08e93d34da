package install

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Plan is what install or uninstall would do.
type Plan struct {
	Changes []Change
	Notes   []string // things the user should know, one line each
}

// Change is one file install or uninstall touches.
type Change struct {
	Path    string
	Action  string // create, update, chain, remove, restore, unchanged, keep
	Summary string
	data    []byte
	mode    os.FileMode
	backup  string       // where the original goes before the first update
	do      func() error // a change other than writing data (moving, removing); runs even for "keep"
}

// Changed reports whether applying the change does something.
func (c Change) Changed() bool { return c.Action != "unchanged" && c.Action != "keep" }

// DisplayPath is path as install and doctor print it: relative to the
// worktree's root when it is inside it.
func DisplayPath(root, path string) string {
	if rel, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return path
}

// RefusedError is an install that would write hooks git does not run, or
// write where it must not; the message says what to do instead.
type RefusedError struct{ Msg string }

func (e *RefusedError) Error() string { return e.Msg }

// fileChange is the change that makes the file at path hold data (old is
// what it holds now, nil when absent), backing up the original once.
func fileChange(path string, old, data []byte, mode os.FileMode, summary, stateDir string) Change {
	c := Change{Path: path, Summary: summary, data: data, mode: mode}
	switch {
	case old == nil:
		c.Action = "create"
	case bytes.Equal(old, data):
		c.Action = "unchanged"
	default:
		c.Action = "update"
		if stateDir != "" {
			c.backup = backupPath(stateDir, path)
		}
	}
	return c
}

// Apply makes the planned changes in order. Files are replaced atomically;
// an original is backed up once, before the first time install changes it.
func Apply(changes []Change) error {
	for _, c := range changes {
		if c.do != nil { // also for "keep", which may update the install record
			if err := c.do(); err != nil {
				return err
			}
			continue
		}
		if !c.Changed() {
			continue
		}
		if c.backup != "" {
			if _, err := os.Stat(c.backup); errors.Is(err, os.ErrNotExist) {
				old, err := os.ReadFile(c.Path)
				if err != nil {
					return fmt.Errorf("back up %s: %w", c.Path, err)
				}
				if err := writeAtomic(c.backup, old, 0o644); err != nil {
					return fmt.Errorf("back up %s: %w", c.Path, err)
				}
			}
		}
		if err := writeAtomic(c.Path, c.data, c.mode); err != nil {
			return err
		}
	}
	return nil
}

// Apply makes the plan's changes.
func (p *Plan) Apply() error { return Apply(p.Changes) }
