package rules

import (
	"path"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/policy"
)

// ProtectedBranch (G2): main and master ([git] protected_branches) change
// only through pull requests a human merges.
// Like ForcePush's, Instead leads to a push that needs no force.
var ProtectedBranch = Rule{
	ID:      policy.RuleProtectedBranch,
	Reason:  "protected branches change only through pull requests a human merges",
	Instead: "stay on your own branch and open a pull request; to pick up changes from a protected branch, merge it (no force push needed, also after you pushed): git fetch origin && git merge origin/<branch>",
	Deny: []string{
		"git push origin HEAD:main",
		"git checkout main",
		"git switch master",
		"git branch -f main HEAD",
		"git update-ref refs/heads/main HEAD",
		"git push origin :main",
	},
	Allow: []string{
		"git fetch origin main",
		"git rebase origin/main",
		"git diff main...",
	},
	Judge: judgeProtectedBranch,
}

// judgeProtectedBranch: a push that updates or deletes a protected branch
// on the remote, or may.
func judgeProtectedBranch(e effect.Effect, f *Facts) []Verdict {
	switch e := e.(type) {
	case effect.Push:
		return judgeProtectedPush(&e, f)
	case effect.BranchChange:
		return judgeProtectedLocal(&e, f)
	}
	return nil
}

// judgeProtectedLocal: a command that moves, resets, deletes, renames or
// commits onto a local protected branch, or checks one out for work (the
// commits made there would move it).
func judgeProtectedLocal(c *effect.BranchChange, f *Facts) []Verdict {
	pol := f.Policy
	b := c.Branch
	prot := c.Dynamic || ProtectedRef(pol, b) // a word only known at run time may be main
	one := func(reason string) []Verdict { return []Verdict{{Reason: reason}} }
	switch c.Op {
	case effect.BranchDelete:
		if c.Dynamic {
			return []Verdict{{RunTime: true, Reason: "git branch deletes " + shown(b) + ", only known at run time", Instead: "write the branch name literally"}}
		}
		if prot {
			return one("git branch deletes the protected branch " + b)
		}
	case effect.BranchRename:
		if prot {
			return one("git branch " + c.Args + " renames or overwrites the protected branch " + b)
		}
	case effect.BranchForce:
		if prot {
			return one("git branch -f " + b + " moves the protected branch " + b)
		}
	case effect.UpdateRef:
		if prot {
			return one("git update-ref rewrites " + b + ", a protected branch")
		}
	case effect.UpdateRefStdin:
		if c.Dynamic {
			return []Verdict{{Reason: "git update-ref --stdin updates refs the guard cannot see", Instead: "update refs with literal git update-ref <ref> <value>"}}
		}
		if prot {
			return one("git update-ref --stdin moves the protected branch " + b)
		}
	case effect.SymbolicRefHEAD:
		if prot {
			return one("git symbolic-ref HEAD " + b + " switches this worktree to a protected branch")
		}
	case effect.WorktreeAdd:
		if prot {
			return []Verdict{{Reason: "git worktree add checks out the protected branch " + b + " for work", Instead: "create your own branch: git worktree add -b <new-branch> <path> " + b}}
		}
	case effect.WorktreeAddReset:
		if prot {
			return one("git worktree add -B " + b + " resets the protected branch " + b)
		}
	case effect.CheckoutReset:
		if prot {
			return one("git checkout -B " + b + " resets the protected branch " + b)
		}
	case effect.CheckoutCreate:
		if prot {
			return one("git checkout switches this worktree to the protected branch " + b)
		}
	case effect.Checkout:
		if c.Dynamic {
			return []Verdict{{RunTime: true, Reason: "git checkout " + shown(b) + " is only known at run time and may switch to a protected branch or overwrite files", Instead: "write the branch or path literally"}}
		}
		if prot {
			return one("git checkout " + b + " switches this worktree to the protected branch " + b)
		}
	case effect.SwitchReset:
		if prot {
			return one("git switch -C " + b + " resets the protected branch " + b)
		}
	case effect.SwitchCreate:
		if prot {
			return one("git switch moves this worktree to the protected branch " + b)
		}
	case effect.Switch:
		if c.Dynamic {
			return []Verdict{{RunTime: true, Reason: "git switch " + shown(b) + " is only known at run time and may be a protected branch", Instead: "write the branch name literally"}}
		}
		if prot {
			return one("git switch " + b + " moves this worktree to the protected branch " + b)
		}
	case effect.RebaseBranch:
		if prot {
			return one("git rebase " + b + " checks out the protected branch " + b + " and rewrites it")
		}
	case effect.FetchInto:
		if prot {
			return []Verdict{{Reason: "git fetch " + c.Args + " moves the local protected branch " + b, Instead: "fetch into remote-tracking branches: git fetch origin"}}
		}
	case effect.MCPWrite, effect.MCPCheckout, effect.MCPActOn:
		if pol.IsProtectedBranch(b) {
			verb := " writes to "
			switch c.Op {
			case effect.MCPCheckout:
				verb = " checks out "
			case effect.MCPActOn:
				// A workflow run on main writes nothing to it, but runs
				// what main's workflows do.
				verb = " acts on "
			}
			return one(c.Args + verb + b + ", a protected branch (through an MCP server is still to " + b + ")")
		}
	case effect.WorkflowRun:
		// What a protected branch's workflows do (deploy, release,
		// publish) is a human's call, as the GitHub MCP server's
		// run_workflow on main is; on the agent's own branch it is CI.
		instead := "run it on your own branch: gh " + c.Args + " --ref <your-branch>; a run on a protected branch is a human's call"
		switch {
		case c.Dynamic:
			return []Verdict{{RunTime: true, Reason: "gh " + c.Args + " runs the workflow on " + b + ", a branch only known at run time (it may be a protected one)", Instead: instead}}
		case b == "":
			return []Verdict{{Reason: "gh " + c.Args + " runs the workflow on the repository's default branch (no --ref), which is protected as a rule", Instead: instead}}
		case prot:
			return []Verdict{{Reason: "gh " + c.Args + " runs the workflow on " + b + ", a protected branch", Instead: instead}}
		}
	case effect.ResetCurrent, effect.RebaseCurrent, effect.CommitCurrent:
		if c.Op == effect.CommitCurrent && pol.Git.CommitOnProtected == policy.Allow {
			return nil // [git] commit_on_protected = "allow": the pre-commit hook lets these commits through too
		}
		var out []Verdict
		for _, cur := range c.Current {
			if !pol.IsProtectedBranch(cur) {
				continue
			}
			switch c.Op {
			case effect.ResetCurrent:
				out = append(out, Verdict{Reason: "git reset moves the current branch, " + cur + ", which is protected"})
			case effect.RebaseCurrent:
				out = append(out, Verdict{Reason: "git rebase rewrites the current branch, " + cur + ", which is protected"})
			default:
				// The pre-commit hook refuses a commit on a protected
				// branch with this verdict too (hooks/githook/branch.go).
				v := Verdict{Reason: "git " + c.Args + " adds commits to " + cur + ", a protected branch checked out there"}
				if c.Home {
					v.Instead = "work on a branch of your own: git switch -c <new-branch> (your changes come along), then git " + c.Args + " again"
				}
				return []Verdict{v}
			}
		}
		return out
	}
	return nil
}

const insteadNameBranch = "name the branch: git push origin <your-branch>"

func judgeProtectedPush(p *effect.Push, f *Facts) []Verdict {
	if p.Dynamic {
		return nil // force-push says the push is only known at run time
	}
	pol := f.Policy
	var out []Verdict
	if p.All || p.Mirror {
		out = append(out, Verdict{Reason: "git push --all pushes every local branch, protected ones (" + strings.Join(pol.ProtectedBranches, ", ") + ") included"})
	}
	for _, r := range p.Refspecs {
		switch {
		case r.Dynamic:
			out = append(out, Verdict{RunTime: true, Reason: "git push names " + shown(r.Text) + ", only known at run time, which may be a protected branch", Instead: "write the branch name literally"})
		case r.Matching:
		case r.Delete:
			if ProtectedRef(pol, r.Dst) {
				out = append(out, Verdict{Reason: "git push deletes the protected branch " + r.Dst + " on the remote"})
			}
		case r.Current:
			for _, b := range p.Current {
				if pol.IsProtectedBranch(b.Name) {
					out = append(out, Verdict{Reason: "git push " + r.Src + " pushes the current branch, " + b.Name + ", which is protected"})
				}
			}
			if p.CurrentUnknown {
				out = append(out, Verdict{Reason: "git push " + r.Src + " pushes the current branch, and the guard cannot tell which branch that is here", Instead: insteadNameBranch})
			}
		case strings.Contains(r.Dst, "*"):
			if pat, ok := ProtectedPattern(pol, r.Dst); ok {
				out = append(out, Verdict{Reason: "the refspec " + r.Text + " can push to the protected branch " + pat})
			}
		case r.Dst == "HEAD":
			out = append(out, Verdict{Reason: "git push to the remote's HEAD updates its default branch"})
		case ProtectedRef(pol, r.Dst):
			out = append(out, Verdict{Reason: "git push updates the protected branch " + strings.TrimPrefix(r.Dst, "refs/heads/")})
		}
	}
	if len(p.Refspecs) == 0 && !p.All && !p.Mirror && !p.Tags {
		for _, b := range p.Current {
			if pol.IsProtectedBranch(b.Name) {
				out = append(out, Verdict{Reason: "git push pushes the current branch, " + b.Name + ", which is protected"})
			}
		}
		if p.CurrentUnknown {
			out = append(out, Verdict{Reason: "git push without a refspec pushes the current branch, and the guard cannot tell which branch that is here", Instead: insteadNameBranch})
		}
	}
	return out
}

// shown is how a word only known at run time appears in a reason.
func shown(s string) string {
	if s == "" {
		s = "(empty)"
	}
	return "`" + s + "`"
}

// BranchName returns the branch a ref names, when it names a local
// branch: main, heads/main and refs/heads/main all name main.
func BranchName(ref string) (string, bool) {
	ref = strings.TrimPrefix(ref, "refs/heads/")
	ref = strings.TrimPrefix(ref, "heads/")
	if strings.HasPrefix(ref, "refs/") || ref == "" {
		return "", false
	}
	return ref, true
}

// ProtectedRef reports whether a ref names a protected branch.
func ProtectedRef(pol *policy.Policy, ref string) bool {
	b, ok := BranchName(ref)
	return ok && pol.IsProtectedBranch(b)
}

// ProtectedPattern reports whether a refspec glob can name a protected
// branch, and which.
func ProtectedPattern(pol *policy.Policy, ref string) (string, bool) {
	b, ok := BranchName(ref)
	if !ok {
		return "", false
	}
	for _, p := range pol.ProtectedBranches {
		if ok, _ := path.Match(b, p); ok {
			return p, true
		}
		if ok, _ := path.Match(strings.ReplaceAll(b, "*", "x"), p); ok {
			return p, true
		}
	}
	return "", false
}
