package install

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/swarm-guard/swarm-guard/hooks/clientconfig"
	"github.com/swarm-guard/swarm-guard/policy"
)

// PlanUninstall computes what uninstall does: take swarm-guard out of the
// settings (restoring the original file byte for byte when nothing else
// changed since install), remove the policy file install created unless it
// was edited, remove swarm-guard's git hooks and move chained hooks back.
func PlanUninstall(o Options) (*Plan, error) {
	if o.Root == "" {
		return nil, errors.New("uninstall needs a worktree root")
	}
	rec, err := loadRecord(o.StateDir)
	if err != nil {
		return nil, err
	}
	p := &Plan{}
	c, err := planSettingsRemoval(o)
	if err != nil {
		return nil, err
	}
	p.Changes = append(p.Changes, c)
	cc, err := planClientsRemoval(o)
	if err != nil {
		return nil, err
	}
	p.Changes = append(p.Changes, cc...)
	pp := filepath.Join(o.Root, policy.FileName)
	cur, err := readOptional(pp)
	if err != nil {
		return nil, err
	}
	switch {
	case cur == nil:
	case !rec.created(pp):
		p.Changes = append(p.Changes, Change{Path: pp, Action: "keep", Summary: "the policy file was there before install"})
	case isDefaultPolicy(string(cur)):
		p.Changes = append(p.Changes, Change{Path: pp, Action: "remove", Summary: "the default policy install created",
			do: func() error { return removeRecorded(o.StateDir, pp) }})
	default:
		p.Changes = append(p.Changes, Change{Path: pp, Action: "keep", Summary: "the policy file install created was edited since; delete it yourself if it is not wanted",
			do: func() error { return forget(o.StateDir, pp) }})
	}
	if o.Git != nil {
		dirs := []string{o.Git.DefaultDir}
		if o.Git.Husky == "" && o.Git.Refusal == "" && o.Git.Dir != o.Git.DefaultDir {
			dirs = append([]string{o.Git.Dir}, dirs...)
		}
		for _, dir := range dirs {
			changes, notes, err := planHookRemoval(dir)
			if err != nil {
				return nil, err
			}
			p.Changes = append(p.Changes, changes...)
			p.Notes = append(p.Notes, notes...)
		}
		if o.Git.Lefthook != nil {
			changes, err := planLefthookRemoval(o, rec)
			if err != nil {
				return nil, err
			}
			p.Changes = append(p.Changes, changes...)
		}
		if o.Git.Husky != "" {
			changes, err := planHuskyRemoval(o, rec)
			if err != nil {
				return nil, err
			}
			p.Changes = append(p.Changes, changes...)
		}
	}
	return p, nil
}

func planSettingsRemoval(o Options) (Change, error) {
	sp := clientconfig.SettingsPath(o.Root)
	cur, err := readOptional(sp)
	if err != nil {
		return Change{}, err
	}
	if cur == nil {
		return Change{Path: sp, Action: "unchanged", Summary: "no Claude Code settings file"}, nil
	}
	stripped, err := clientconfig.RemoveSettings(cur, o.Binary)
	if err != nil {
		return Change{}, fmt.Errorf("%s: %w", sp, err)
	}
	if !clientconfig.HasAnyOurHooks(cur) {
		return Change{Path: sp, Action: "unchanged", Summary: "no swarm-guard hooks in it"}, nil
	}
	bk := ""
	if o.StateDir != "" {
		bk = backupPath(o.StateDir, sp)
	}
	orig, err := readOptional(bk)
	if err != nil {
		return Change{}, err
	}
	if orig != nil {
		// Install reformatted the file; when nothing but swarm-guard's
		// hooks changed since, the original comes back byte for byte.
		origStripped, err := clientconfig.RemoveSettings(orig, o.Binary)
		if err == nil && bytes.Equal(origStripped, stripped) && !clientconfig.HasAnyOurHooks(orig) {
			return Change{Path: sp, Action: "restore", Summary: "the settings file as it was before install",
				do: func() error {
					if err := writeAtomic(sp, orig, fileMode(sp, 0o644)); err != nil {
						return err
					}
					return removeBackup(bk)
				}}, nil
		}
	}
	if orig == nil && clientconfig.IsEmptyObject(stripped) {
		return Change{Path: sp, Action: "remove", Summary: "it only held swarm-guard's hooks",
			do: func() error {
				if err := os.Remove(sp); err != nil {
					return fmt.Errorf("remove %s: %w", sp, err)
				}
				os.Remove(filepath.Dir(sp)) // .claude, when nothing else is in it
				return nil
			}}, nil
	}
	mode := fileMode(sp, 0o644)
	return Change{Path: sp, Action: "update", Summary: "swarm-guard's hooks removed, everything else kept",
		do: func() error {
			if err := writeAtomic(sp, stripped, mode); err != nil {
				return err
			}
			return removeBackup(bk)
		}}, nil
}

func removeBackup(path string) error {
	if path == "" {
		return nil
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove the backup %s: %w", path, err)
	}
	os.Remove(filepath.Dir(path)) // the backup directory, when empty
	return nil
}

func removeRecorded(stateDir, path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", path, err)
	}
	return forget(stateDir, path)
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

func planHuskyRemoval(o Options, rec *record) ([]Change, error) {
	var changes []Change
	for _, name := range HookNames {
		path := filepath.Join(o.Git.Husky, name)
		cur, err := readOptional(path)
		if err != nil {
			return nil, err
		}
		rest, found := withoutHuskyBlock(string(cur))
		if !found {
			continue
		}
		if rec.created(path) && rest == huskyNew {
			changes = append(changes, Change{Path: path, Action: "remove", Summary: "the husky user script install created",
				do: func() error { return removeRecorded(o.StateDir, path) }})
			continue
		}
		mode := fileMode(path, 0o755)
		changes = append(changes, Change{Path: path, Action: "update", Summary: "swarm-guard's block removed",
			do: func() error {
				if err := writeAtomic(path, []byte(rest), mode); err != nil {
					return err
				}
				return forget(o.StateDir, path)
			}})
	}
	return changes, nil
}

// isDefaultPolicy reports whether text is a policy install wrote and no
// one edited: the default, with or without the since line.
func isDefaultPolicy(text string) bool {
	if text == policy.DefaultText {
		return true
	}
	_, ok := policy.DefaultSince(text)
	return ok
}
