package rules

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/policy"
)

// DestructiveGit (G3): git commands that throw away uncommitted or
// unmerged work, which no push or reflog brings back.
var DestructiveGit = Rule{
	ID:      policy.RuleDestructiveGit,
	Reason:  "the command destroys uncommitted or unmerged work",
	Instead: "keep the changes: look with git diff, set them aside with git stash, or ask a human before discarding",
	Deny: []string{
		"git reset --hard",
		"git clean -fdx",
		"git checkout -- .",
		"git restore .",
		"git stash drop",
		"git branch -D x",
		"rm -rf ./*",
	},
	Allow: []string{
		"git reset --soft HEAD~1",
		"git clean -n",
		"git stash",
		"git restore --staged x",
	},
	Judge: judgeDestructiveGit,
}

// What each kind of discarded work costs, and the way that keeps it.
const (
	insteadSwitch  = "commit or stash (git stash) your changes, then switch"
	insteadBranchD = "use git branch -d, which refuses to delete unmerged work"
)

// judgeDestructiveGit: every Discard is denied; its reason says what is
// lost and its Instead how to keep it.
func judgeDestructiveGit(e effect.Effect, f *Facts) []Verdict {
	if c, ok := e.(effect.GitConfig); ok {
		if strings.EqualFold(c.Key, "clean.requireForce") && c.Set && (c.Dynamic || configFalse(c.Value)) {
			return []Verdict{{Reason: "clean.requireForce=false makes git clean delete untracked files without -f", Instead: "leave clean.requireForce alone and preview with git clean -n"}}
		}
		return nil
	}
	d, ok := e.(effect.Discard)
	if !ok {
		return nil
	}
	c, s := d.Command, d.Subject
	var v Verdict
	switch d.Loss {
	case effect.LostFiles:
		v = Verdict{Reason: c + " overwrites working-tree files, discarding uncommitted changes"}
	case effect.LostToCommitted:
		v = Verdict{Reason: c + " overwrites working-tree files with committed versions, discarding uncommitted changes"}
	case effect.LostOnSwitch:
		v = Verdict{Reason: c + " throws away uncommitted changes", Instead: insteadSwitch}
	case effect.LostReset:
		if d.Dynamic {
			v = Verdict{RunTime: true, Reason: c + " has an argument only known at run time, which may be --hard", Instead: "write the options literally; put paths after --"}
			break
		}
		v = Verdict{Reason: c + " throws away uncommitted changes and can drop commits", Instead: "use git stash to set changes aside, or git reset --keep / git restore --staged, which keep your work"}
	case effect.LostResetMerge:
		v = Verdict{Reason: c + " can throw away uncommitted changes", Instead: "use git stash or git reset --keep"}
	case effect.LostUntracked:
		v = Verdict{Reason: c + " deletes untracked files, which are work git cannot bring back", Instead: "preview with git clean -n, then delete the specific files you mean with rm"}
	case effect.LostStash:
		if d.Dynamic {
			v = Verdict{RunTime: true, Reason: c + " " + s + " is only known at run time and may be drop or clear", Instead: "write the stash subcommand literally"}
			break
		}
		v = Verdict{Reason: c + " deletes stashed work", Instead: "leave the stash; git stash list shows it, git stash pop brings it back"}
	case effect.LostStashes:
		v = Verdict{Reason: c + " deletes all stashed work", Instead: "leave the stash; git stash list shows it"}
	case effect.LostUnmerged:
		if d.Dynamic {
			v = Verdict{RunTime: true, Reason: c + " has an argument only known at run time, which may be -D or -M", Instead: "write the options literally; quote a branch name held in a variable"}
			break
		}
		v = Verdict{Reason: c + " deletes " + s + " even if its commits are merged nowhere", Instead: insteadBranchD}
	case effect.LostOverwritten:
		if d.Dynamic {
			v = Verdict{RunTime: true, Reason: c + " overwrites " + s + ", only known at run time, which may be an existing branch", Instead: "write the branch name literally, and use -m or -c, which refuse to overwrite"}
			break
		}
		v = Verdict{Reason: c + " overwrites the existing branch " + s + ", whose commits may then be on no branch", Instead: "pick a new name, or use -m or -c, which refuse to overwrite an existing branch"}
	case effect.LostHistory:
		v = Verdict{Reason: c + " rewrites the history of every branch it touches", Instead: "make a new commit that fixes the problem instead of rewriting history"}
	case effect.LostReflog:
		v = Verdict{Reason: c + " destroys the record that recovers lost commits", Instead: "leave the reflog alone"}
	case effect.LostUnreachableNow:
		v = Verdict{Reason: c + " deletes unreachable commits that could still be recovered", Instead: "run git gc without --prune=now"}
	case effect.LostUnreachable:
		v = Verdict{Reason: c + " deletes unreachable commits that could still be recovered", Instead: "leave unreachable objects to git's own gc"}
	case effect.LostWorktree:
		if f.Policy.Git.AllowWorktreeWipe {
			return nil // [git] allow_worktree_wipe: the team lets agents start over
		}
		v = Verdict{Reason: c + " deletes everything in the worktree (" + s + "), uncommitted and untracked work included",
			Instead: "delete the files you mean by name (rm -rf build dist); a wipe of the whole worktree is for a human ([git] allow_worktree_wipe)"}
	case effect.LostSubmodules:
		v = Verdict{Reason: c + " deletes submodule working trees with their uncommitted changes", Instead: "commit or stash the changes in the submodules first"}
	default:
		v = Verdict{Reason: c + " destroys uncommitted or unmerged work"}
	}
	return []Verdict{v}
}

// configFalse is how git reads a false boolean config value.
func configFalse(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "false", "no", "off", "0":
		return true
	}
	return false
}
