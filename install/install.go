package install

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/swarm-guard/swarm-guard/policy"
)

// Options say where and what to install.
type Options struct {
	Root           string // the worktree root
	Binary         string // absolute path of the swarm-guard executable
	OnFailureBlock bool   // add "onFailure": "block" (Claude Code ≥ 2.1.295)
	StateDir       string // where backups of replaced files go
}

// Change is one file install writes.
type Change struct {
	Path    string
	Action  string // "create", "update" or "unchanged"
	Summary string
	data    []byte
	mode    os.FileMode
	backup  string // where the original goes before the first update
}

// SettingsPath is the project settings file Claude Code reads.
func SettingsPath(root string) string { return filepath.Join(root, ".claude", "settings.json") }

// Plan computes the changes install would make.
func Plan(o Options) ([]Change, error) {
	if o.Root == "" || o.Binary == "" {
		return nil, errors.New("install needs a worktree root and the binary's path")
	}
	var changes []Change
	sp := SettingsPath(o.Root)
	old, err := readOptional(sp)
	if err != nil {
		return nil, err
	}
	merged, err := mergeSettings(old, o.Binary, o.OnFailureBlock)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", sp, err)
	}
	changes = append(changes, fileChange(sp, old, merged, 0o644, "Claude Code hooks: PreToolUse and PostToolUse run "+HookCommand(o.Binary), o.StateDir))
	pp := filepath.Join(o.Root, policy.FileName)
	oldPolicy, err := readOptional(pp)
	if err != nil {
		return nil, err
	}
	if oldPolicy == nil {
		changes = append(changes, Change{Path: pp, Action: "create", Summary: "the default policy, commented", data: []byte(policy.DefaultText), mode: 0o644})
	} else {
		changes = append(changes, Change{Path: pp, Action: "unchanged", Summary: "policy file kept as it is"})
	}
	return changes, nil
}

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
			c.backup = filepath.Join(stateDir, "backup", filepath.Base(filepath.Dir(path))+"-"+filepath.Base(path))
		}
	}
	return c
}

func readOptional(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return data, nil
}

// Apply writes the planned changes. Files are replaced atomically; an
// original is backed up once, before the first time install changes it.
func Apply(changes []Change) error {
	for _, c := range changes {
		if c.Action == "unchanged" {
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

// writeAtomic writes data to a temporary file next to path and renames it
// into place, so a reader never sees half a file.
func writeAtomic(path string, data []byte, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
