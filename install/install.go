package install

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/swarm-guard/swarm-guard/hooks/clientconfig"
	"github.com/swarm-guard/swarm-guard/policy"
)

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

// planGitHooks joins the hook manager that owns the git hooks (husky's
// user scripts, lefthook's config), else installs the hook files into the
// hooks directory.
func planGitHooks(o Options) ([]Change, []string, error) {
	if o.Git.Husky != "" {
		return planHusky(o)
	}
	if o.Git.Lefthook != nil {
		return planLefthook(o)
	}
	return planHooksDir(o)
}
