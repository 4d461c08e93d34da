package install

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/swarm-guard/swarm-guard/hooks/clientconfig"
	"github.com/swarm-guard/swarm-guard/hooks/clients"
	"github.com/swarm-guard/swarm-guard/policy"
)

// Options say where and what to install or uninstall.
type Options struct {
	Root           string    // the worktree root
	Binary         string    // absolute path of the swarm-guard executable
	OnFailureBlock bool      // add "onFailure": "block" (Claude Code ≥ 2.1.295)
	StateDir       string    // where backups of replaced files and the install record go
	Git            *GitHooks // where git runs hooks; nil outside a git repository
	// TrailersSince is the commit checked out at install, when the
	// repository already has history: the policy install creates records
	// it as [trailers] since, so earlier commits need no trailer.
	TrailersSince string
	// Clients are the agent clients other than Claude Code whose hooks
	// install writes too (install --client).
	Clients []clients.Name
	// Home and Getenv locate the clients' user configs (Codex's project
	// trust in ~/.codex/config.toml); Home "" leaves them alone.
	Home   string
	Getenv func(string) string
}

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

// PlanInstall computes the changes install would make: Claude Code hooks,
// the default policy file when there is none, and the git hooks.
func PlanInstall(o Options) (*Plan, error) {
	if o.Root == "" || o.Binary == "" {
		return nil, errors.New("install needs a worktree root and the binary's path")
	}
	p := &Plan{}
	sp := clientconfig.SettingsPath(o.Root)
	old, err := readOptional(sp)
	if err != nil {
		return nil, err
	}
	merged, err := clientconfig.MergeSettings(old, o.Binary, o.OnFailureBlock)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", sp, err)
	}
	p.Changes = append(p.Changes, fileChange(sp, old, merged, fileMode(sp, 0o644), "Claude Code hooks: PreToolUse, PostToolUse and PostToolUseFailure run swarm-guard hook (PostToolUse through swarm-guard-post next to it), found by the lookup rule (PATH, node_modules/.bin, ~/.local/bin, ~/go/bin)", o.StateDir))
	cc, notes, err := planClients(o)
	if err != nil {
		return nil, err
	}
	p.Changes = append(p.Changes, cc...)
	p.Notes = append(p.Notes, notes...)
	pp := filepath.Join(o.Root, policy.FileName)
	oldPolicy, err := readOptional(pp)
	if err != nil {
		return nil, err
	}
	if oldPolicy == nil {
		p.Changes = append(p.Changes, Change{Path: pp, Action: "create", Summary: "the default policy, commented",
			do: func() error {
				return createRecorded(o.StateDir, pp, []byte(policy.DefaultTextSince(o.TrailersSince)), 0o644)
			}})
	} else {
		p.Changes = append(p.Changes, Change{Path: pp, Action: "unchanged", Summary: "policy file kept as it is"})
	}
	if o.Git != nil {
		if o.Git.Refusal != "" {
			return nil, &RefusedError{Msg: o.Git.Refusal}
		}
		changes, notes, err := planGitHooks(o)
		if err != nil {
			return nil, err
		}
		p.Changes = append(p.Changes, changes...)
		p.Notes = append(p.Notes, notes...)
		p.Notes = append(p.Notes, o.Git.Notes...)
		if n := preCommitNote(o.Root); n != "" {
			p.Notes = append(p.Notes, n)
		}
	}
	return p, nil
}

// RefusedError is an install that would write hooks git does not run, or
// write where it must not; the message says what to do instead.
type RefusedError struct{ Msg string }

func (e *RefusedError) Error() string { return e.Msg }

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

// backupPath is where the original of path is kept: named after the file
// and a hash of its absolute path, because worktrees share the state
// directory and each has its own .claude/settings.json.
func backupPath(stateDir, path string) string {
	sum := sha256.Sum256([]byte(path))
	return filepath.Join(stateDir, "backup", filepath.Base(path)+"."+hex.EncodeToString(sum[:6]))
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
