package install

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// planLefthook puts swarm-guard's commands into lefthook's config, takes
// swarm-guard's own hook files out of the hooks directory (lefthook's
// hooks run it now; a hook swarm-guard chained goes back in place), and
// has lefthook write its hooks when git would not run them yet.
func planLefthook(o Options) ([]Change, []string, error) {
	lc := o.Git.Lefthook
	if lc.Refusal != "" {
		return nil, nil, &RefusedError{Msg: lc.Refusal}
	}
	var changes []Change
	var notes []string
	old, err := readOptional(lc.Path)
	if err != nil {
		return nil, nil, err
	}
	shown := lc.Path
	if r, err := filepath.Rel(o.Root, shown); err == nil {
		shown = r
	}
	updated, err := withLefthookBlocks(shown, string(old))
	if err != nil {
		return nil, nil, &RefusedError{Msg: err.Error()}
	}
	summary := "lefthook config: a swarm-guard command in pre-commit, prepare-commit-msg, commit-msg and pre-push (marked lines), found by the lookup rule"
	switch {
	case old == nil:
		data := []byte(updated)
		path := lc.Path
		changes = append(changes, Change{Path: path, Action: "create", Summary: summary,
			do: func() error { return createRecorded(o.StateDir, path, data, 0o644) }})
		main := lc.Main
		if r, err := filepath.Rel(o.Root, main); err == nil {
			main = r
		}
		notes = append(notes, fmt.Sprintf("%s is not YAML, so swarm-guard's commands are in %s, which lefthook merges into it; lefthook-local.yml is often not committed: every teammate then runs swarm-guard install", main, filepath.Base(lc.Path)))
	case updated == string(old):
		changes = append(changes, Change{Path: lc.Path, Action: "unchanged", Summary: summary})
	default:
		data, path, mode := []byte(updated), lc.Path, fileMode(lc.Path, 0o644)
		changes = append(changes, Change{Path: path, Action: "update", Summary: summary,
			do: func() error { return writeAtomic(path, data, mode) }})
	}
	if lc.Main == "" {
		notes = append(notes, fmt.Sprintf("lefthook manages the git hooks: swarm-guard runs as a command in %s; commit it so every clone runs swarm-guard once lefthook is installed there (a clone without swarm-guard then refuses commits, with the way to install it)", filepath.Base(lc.Path)))
	}
	// swarm-guard's own hook files from an install before lefthook came:
	// lefthook's hooks take their place.
	removal, removalNotes, err := planHookRemoval(o.Git.Dir)
	if err != nil {
		return nil, nil, err
	}
	changes = append(changes, removal...)
	notes = append(notes, removalNotes...)
	var missing []string
	for _, h := range HookNames {
		if !lefthookRuns(o.Git.Dir, h, removal) {
			missing = append(missing, h)
		}
	}
	if len(missing) == 0 {
		return changes, notes, nil
	}
	lh := findLefthook(o.Root)
	if lh == "" {
		notes = append(notes, fmt.Sprintf("git runs no lefthook hook for %s yet, and lefthook is not on PATH or in node_modules/.bin: install lefthook and run `lefthook install` (`npx lefthook install`), then swarm-guard doctor", strings.Join(missing, ", ")))
		return changes, notes, nil
	}
	root := o.Root
	changes = append(changes, Change{Path: o.Git.Dir, Action: "sync", Summary: "lefthook install: lefthook writes its hooks for " + strings.Join(missing, ", "),
		do: func() error {
			cmd := exec.Command(lh, "install")
			cmd.Dir = root
			cmd.Env = append(os.Environ(), "LEFTHOOK=1")
			if out, err := cmd.CombinedOutput(); err != nil {
				return fmt.Errorf("lefthook install failed (%v): %s; fix that, then run lefthook install", err, bytes.TrimSpace(out))
			}
			return nil
		}})
	return changes, notes, nil
}

// lefthookRuns reports whether git runs lefthook for hook after the
// planned removal: the hook file is lefthook's and executable (a removed
// file restores the hook swarm-guard chained, which may be lefthook's).
func lefthookRuns(dir, hook string, removal []Change) bool {
	path := filepath.Join(dir, hook)
	data, err := os.ReadFile(path)
	for _, c := range removal {
		if c.Path == path && c.Action == "restore" {
			data, err = os.ReadFile(path + ChainSuffix)
		}
		if c.Path == path && c.Action == "remove" {
			return false
		}
	}
	return err == nil && !IsOurGitHook(data) && Manager(data) == "lefthook" && isExecutable(path)
}

// planLefthookRemoval takes swarm-guard's marked lines out of lefthook's
// config, or removes the config install created.
func planLefthookRemoval(o Options, rec *record) ([]Change, error) {
	lc := o.Git.Lefthook
	cur, err := readOptional(lc.Path)
	if err != nil || cur == nil {
		return nil, err
	}
	rest, found, ok := withoutLefthookBlocks(string(cur))
	if !ok {
		return nil, fmt.Errorf("%s has a %q line without its %q line; remove what is left of swarm-guard's block yourself", lc.Path, lefthookBegin, lefthookEnd)
	}
	if !found {
		return nil, nil
	}
	path := lc.Path
	if rec.created(path) && strings.TrimSpace(rest) == "" {
		return []Change{{Path: path, Action: "remove", Summary: "the lefthook config install created",
			do: func() error { return removeRecorded(o.StateDir, path) }}}, nil
	}
	mode := fileMode(path, 0o644)
	return []Change{{Path: path, Action: "update", Summary: "swarm-guard's commands removed (the marked lines)",
		do: func() error {
			if err := writeAtomic(path, []byte(rest), mode); err != nil {
				return err
			}
			return forget(o.StateDir, path)
		}}}, nil
}
