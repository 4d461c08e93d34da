package install

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
)

// planHooksDir installs swarm-guard's hook files into the hooks
// directory git runs, chaining the hooks already there.
func planHooksDir(o Options) ([]Change, []string, error) {
	var changes []Change
	var notes []string
	for _, name := range HookNames {
		path := filepath.Join(o.Git.Dir, name)
		chained := path + ChainSuffix
		script := HookScript(name, o.Binary)
		old, isLink, err := readHook(path)
		if err != nil {
			return nil, nil, err
		}
		_, chainErr := os.Lstat(chained)
		haveChained := chainErr == nil
		summary := "swarm-guard git hook"
		if haveChained {
			summary += "; then runs " + filepath.Base(chained)
		}
		// Copies of swarm-guard's hook a hook manager moved aside: they go
		// once swarm-guard's hook is back in place.
		copies := ourCopies(o.Git.Dir, name)
		if !isLink && migrationMode(path, old) {
			// pre-commit runs swarm-guard's hook as <hook>.legacy: keep
			// that arrangement, with the current script.
			legacy := legacyName(path)
			cur, _ := os.ReadFile(legacy)
			action := "update"
			if bytes.Equal(cur, script) {
				action = "unchanged"
			}
			changes = append(changes, Change{Path: legacy, Action: action, Summary: "swarm-guard git hook, run first by pre-commit's hook (migration mode)",
				do: func() error { return writeAtomic(legacy, script, 0o755) }})
			continue
		}
		removeCopies := func() error {
			for _, c := range copies {
				if err := os.Remove(c); err != nil {
					return fmt.Errorf("remove %s: %w", c, err)
				}
			}
			return nil
		}
		for _, c := range copies {
			notes = append(notes, fmt.Sprintf("%s was swarm-guard's %s hook, moved aside by a hook manager; swarm-guard's hook is back at %s and the copy is removed", c, name, path))
		}
		if !isLink && haveChained && !IsOurGitHook(old) && old != nil {
			chainedData, _ := os.ReadFile(chained)
			if m := Manager(old); m != "" && (m == Manager(chainedData) || bytes.Equal(chainedData, old)) {
				// A hook manager re-installed its hook over swarm-guard's
				// (lefthook moves swarm-guard's to <hook>.old): its new
				// hook replaces the copy swarm-guard chained before, and
				// swarm-guard's hook goes back in front.
				changes = append(changes, Change{Path: path, Action: "repair",
					Summary: fmt.Sprintf("swarm-guard git hook back in place; %s's re-installed hook moves to %s and runs after it", m, filepath.Base(chained)),
					do: func() error {
						if err := os.Rename(path, chained); err != nil {
							return fmt.Errorf("chain %s's hook: %w", m, err)
						}
						if err := writeAtomic(path, script, 0o755); err != nil {
							return err
						}
						return removeCopies()
					}})
				continue
			}
		}
		switch {
		case old == nil && !isLink:
			changes = append(changes, Change{Path: path, Action: "create", Summary: summary,
				do: func() error {
					if err := writeAtomic(path, script, 0o755); err != nil {
						return err
					}
					return removeCopies()
				}})
		case !isLink && IsOurGitHook(old):
			if bytes.Equal(old, script) && isExecutable(path) && len(copies) == 0 {
				changes = append(changes, Change{Path: path, Action: "unchanged", Summary: summary})
				continue
			}
			changes = append(changes, Change{Path: path, Action: "update", Summary: summary,
				do: func() error {
					if err := writeAtomic(path, script, 0o755); err != nil {
						return err
					}
					return removeCopies()
				}})
		case haveChained:
			where := ""
			if len(copies) > 0 {
				where = fmt.Sprintf(" (swarm-guard's own hook was moved to %s)", filepath.Base(copies[0]))
			}
			return nil, nil, &RefusedError{Msg: fmt.Sprintf("%s is now another hook%s, and %s holds the hook that was there before swarm-guard; git can run only one of them before swarm-guard's: keep the one you want at %s (move the other away), then run swarm-guard install again", path, where, chained, path)}
		default:
			changes = append(changes, Change{Path: path, Action: "chain",
				Summary: fmt.Sprintf("swarm-guard git hook; the existing hook moves to %s and runs after it", filepath.Base(chained)),
				do: func() error {
					if _, err := os.Lstat(chained); err == nil {
						return fmt.Errorf("%s appeared while installing; run swarm-guard install again", chained)
					}
					if err := os.Rename(path, chained); err != nil {
						return fmt.Errorf("chain the existing hook: %w", err)
					}
					if err := writeAtomic(path, script, 0o755); err != nil {
						return err
					}
					return removeCopies()
				}})
			if !isExecutable(path) {
				notes = append(notes, fmt.Sprintf("%s is not executable, so git skipped it; swarm-guard's hook skips it too", path))
			}
		}
	}
	return changes, notes, nil
}

// planHookRemoval removes swarm-guard's hooks from dir and moves the hooks
// they chained back under their own names.
func planHookRemoval(dir string) ([]Change, []string, error) {
	var changes []Change
	var notes []string
	for _, name := range HookNames {
		path := filepath.Join(dir, name)
		chained := path + ChainSuffix
		data, isLink, err := readHook(path)
		if err != nil {
			return nil, nil, err
		}
		_, chainErr := os.Lstat(chained)
		haveChained := chainErr == nil
		exists := data != nil || isLink
		ours := !isLink && IsOurGitHook(data)
		// swarm-guard's hook under another name, where a hook manager
		// moved it: pre-commit's migration mode runs <hook>.legacy, so
		// the hook swarm-guard chained takes that place; any other copy
		// (lefthook's <hook>.old) is removed.
		for _, c := range ourCopies(dir, name) {
			c := c
			if !ours && haveChained && c == legacyName(path) && migrationMode(path, data) {
				changes = append(changes, Change{Path: c, Action: "restore", Summary: "the hook that was there before swarm-guard, run by pre-commit's migration mode",
					do: func() error {
						if err := os.Remove(c); err != nil {
							return fmt.Errorf("remove %s: %w", c, err)
						}
						return os.Rename(chained, c)
					}})
				haveChained = false
				continue
			}
			changes = append(changes, Change{Path: c, Action: "remove", Summary: "swarm-guard git hook, moved there by a hook manager",
				do: func() error {
					if err := os.Remove(c); err != nil {
						return fmt.Errorf("remove %s: %w", c, err)
					}
					return nil
				}})
		}
		if exists && !ours && haveChained {
			if chainedData, err := os.ReadFile(chained); err == nil && Manager(chainedData) != "" && Manager(chainedData) == Manager(data) {
				// A stale copy of the hook manager's own hook, which is
				// back in place: nothing to restore.
				changes = append(changes, Change{Path: chained, Action: "remove", Summary: "an older copy of " + Manager(data) + "'s hook, which is in place again",
					do: func() error { return os.Remove(chained) }})
				continue
			}
		}
		switch {
		case exists && !ours:
			if haveChained {
				notes = append(notes, fmt.Sprintf("%s is no longer swarm-guard's, so %s stays where it is; move it back yourself if you want it", path, chained))
			}
		case haveChained:
			changes = append(changes, Change{Path: path, Action: "restore", Summary: "the hook that was here before install",
				do: func() error {
					if ours {
						if err := os.Remove(path); err != nil {
							return fmt.Errorf("remove %s: %w", path, err)
						}
					}
					if err := os.Rename(chained, path); err != nil {
						return fmt.Errorf("restore %s: %w", path, err)
					}
					return nil
				}})
		case ours:
			changes = append(changes, Change{Path: path, Action: "remove", Summary: "swarm-guard git hook",
				do: func() error {
					if err := os.Remove(path); err != nil {
						return fmt.Errorf("remove %s: %w", path, err)
					}
					return nil
				}})
		}
	}
	return changes, notes, nil
}
