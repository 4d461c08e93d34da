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

// isDefaultPolicy reports whether text is a policy install wrote and no
// one edited: the default, with or without the since line.
func isDefaultPolicy(text string) bool {
	if text == policy.DefaultText {
		return true
	}
	_, ok := policy.DefaultSince(text)
	return ok
}
