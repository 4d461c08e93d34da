package rules

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/swarm"
	"github.com/swarm-guard/swarm-guard/policy"
)

// ForeignBranch: each agent owns its home branch and [swarm]
// own_branches; other agents' branches and tags are theirs.
var ForeignBranch = Rule{
	ID:      policy.RuleForeignBranch,
	Reason:  "the branch belongs to another agent (or is a tag), and changing it breaks that agent's work",
	Instead: "push your own work to your own branch and open a pull request, or ask the branch's owner (a human can widen [swarm] own_branches)",
	Deny: []string{
		"git push origin HEAD:agent/other-7f3a",
		"git push origin --delete agent/other-7f3a",
		"git push origin :refs/tags/v1.0",
		"git push origin agent-1:agent-2",
		"git push origin 'refs/heads/agent/*:refs/heads/agent/*'",
		"git update-ref refs/heads/agent-2 HEAD",
	},
	Allow: []string{
		"git push origin HEAD",
		"git push -u origin agent-1",
		"git push origin HEAD:agent/w1-aaaa/spike",
		"git push origin v1.1",
	},
	Judge: judgeForeignBranch,
}

// judgeForeignBranch: a push that writes or deletes refs that are not the
// agent's own.
func judgeForeignBranch(e effect.Effect, f *Facts) []Verdict {
	switch e := e.(type) {
	case effect.Push:
		return judgeForeignPush(&e, f)
	case effect.BranchChange:
		return judgeForeignLocal(&e, f)
	}
	return nil
}

// judgeForeignLocal: git branch -d/-D/-m/-f, update-ref and checkouts
// past git's own check of a branch another worktree has checked out (git
// refuses some of these, but update-ref and a later checkout there do
// not), or of a branch under another agent's prefix.
func judgeForeignLocal(c *effect.BranchChange, f *Facts) []Verdict {
	if c.Dynamic {
		return nil
	}
	var verb string
	switch c.Op {
	case effect.MCPWrite:
		// Pushing files to another agent's branch through the GitHub
		// server is pushing to that branch.
		if f.Policy.IsProtectedBranch(c.Branch) {
			return nil // protected-branch says so
		}
		op := swarm.RefUpdate
		if c.Delete {
			op = swarm.RefDelete
		}
		ref := c.Branch
		if !strings.HasPrefix(ref, "refs/") {
			ref = "refs/heads/" + ref
		}
		if v := f.Agent.MayWriteRef(ref, op, c.CheckedOutBy); v.Denied {
			return []Verdict{{Reason: c.Args + ": " + v.Reason, Instead: v.Alternative}}
		}
		return nil
	case effect.BranchDelete:
		verb = "git branch -d deletes"
	case effect.BranchRename:
		verb = "git branch " + c.Args + " renames or overwrites"
	case effect.BranchForce:
		verb = "git branch -f moves"
	case effect.UpdateRef, effect.UpdateRefStdin:
		// Other local refs are this clone's own bookkeeping; what
		// reaches the remote is judged at push time.
		if !strings.HasPrefix(c.Branch, "refs/heads/") {
			return nil
		}
		verb = "git update-ref moves"
		if c.Delete {
			verb = "git update-ref -d deletes"
		}
	case effect.WorktreeAddForce:
		verb = "git worktree add --force checks out"
	case effect.CheckoutIgnoreOther:
		verb = "git checkout --ignore-other-worktrees checks out"
	default:
		return nil
	}
	b, ok := BranchName(c.Branch)
	if !ok || f.Policy.IsProtectedBranch(b) {
		return nil
	}
	if w := c.CheckedOutBy; w != "" {
		return []Verdict{{Reason: verb + " the branch " + b + ", which is checked out in another agent's worktree " + w,
			Instead: "leave it to that worktree's owner; work on your own branch (ask the owner or a human if the branch must change)"}}
	}
	// Checked out nowhere, a branch under another agent's prefix
	// (agent/{id}/** with another id) is still that agent's.
	if who, ok := f.Agent.OtherAgentsBranch(b); ok {
		return []Verdict{{Reason: verb + " the branch " + b + ", which is under the branch prefix of " + who + " ([swarm] own_branches), not yours",
			Instead: "leave it to its owner; work on your own branch (ask the owner or a human if the branch must change)"}}
	}
	return nil
}

func judgeForeignPush(p *effect.Push, f *Facts) []Verdict {
	if !p.Swarm || p.Dynamic {
		return nil
	}
	alt := f.Agent.Instead()
	var out []Verdict
	if p.All {
		out = append(out, Verdict{Reason: "git push --all pushes every local branch, other agents' included", Instead: alt})
	}
	if p.Mirror {
		out = append(out, Verdict{Reason: "git push --mirror makes the remote's refs match this repository's, deleting and overwriting other agents' branches and tags", Instead: alt})
	}
	if p.Prune {
		out = append(out, Verdict{Reason: "git push --prune deletes remote branches and tags that have no local counterpart, other agents' included", Instead: alt})
	}
	if p.Tags && p.Delete {
		out = append(out, Verdict{Reason: "git push --tags --delete deletes tags on the remote, which are shared release marks", Instead: "ask a human to delete tags"})
	}
	if len(p.Refspecs) == 0 && !p.All && !p.Mirror && !p.Tags {
		if p.Matching {
			return append(out, Verdict{Reason: "git push with push.default=matching pushes every branch that exists on both sides, other agents' included", Instead: alt})
		}
		out = foreignCurrent(out, p, f)
	}
	for _, r := range p.Refspecs {
		op := swarm.RefUpdate
		if r.Delete {
			op = swarm.RefDelete
		}
		switch {
		case r.Dynamic:
			// protected-branch: it may name any branch
		case r.Matching:
			out = append(out, Verdict{Reason: "the refspec : pushes every branch that exists on both sides, other agents' included", Instead: alt})
		case r.Current:
			out = foreignCurrent(out, p, f)
		case strings.Contains(r.Dst, "*"):
			if strings.HasPrefix(r.Dst, "refs/tags/") && op == swarm.RefUpdate {
				break // like --tags: creates tags, moving one needs force
			}
			if _, ok := ProtectedPattern(f.Policy, r.Dst); ok {
				break // protected-branch says so
			}
			out = append(out, Verdict{Reason: "the refspec " + strings.TrimPrefix(r.Text, "+") + " pushes to every branch its pattern matches, other agents' included", Instead: alt})
		default:
			out = foreignRef(out, r.Ref, op, r.CheckedOutBy, p.FromGit, f)
		}
	}
	return out
}

// foreignCurrent judges the branches a push sends because they are
// checked out.
func foreignCurrent(out []Verdict, p *effect.Push, f *Facts) []Verdict {
	for _, b := range p.Current {
		if b.Name != "" && !f.Policy.IsProtectedBranch(b.Name) {
			out = foreignRef(out, b.Ref, swarm.RefUpdate, b.CheckedOutBy, p.FromGit, f)
		}
	}
	return out
}

// foreignRef judges one remote ref a push writes (full name). The
// pre-push hook names the ref itself, so its reasons start with the verdict.
func foreignRef(out []Verdict, ref string, op swarm.RefOp, checkedOutBy string, fromGit bool, f *Facts) []Verdict {
	switch {
	case strings.HasPrefix(ref, "refs/heads/") && f.Policy.IsProtectedBranch(ref):
		return out // protected-branch has its own, clearer verdict
	case strings.HasPrefix(ref, "refs/remotes/") || ref == "refs/heads/HEAD":
		return out
	case strings.HasPrefix(ref, "refs/for/") || strings.HasPrefix(ref, "refs/drafts/"):
		return out // Gerrit: a review request, the PR of that world
	}
	if v := f.Agent.MayWriteRef(ref, op, checkedOutBy); v.Denied {
		if !fromGit {
			v.Reason = "git push: " + v.Reason
		}
		out = append(out, Verdict{Reason: v.Reason, Instead: v.Alternative})
	}
	return out
}
