package rules

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/policy"
)

// ForcePush (G1): a push that is not a fast-forward replaces the remote's
// history, and other agents may have fetched and built on it.
//
// Instead leads to a push that needs no force: a merge keeps every pushed
// commit, and replays nobody else's commit under this agent's name (pull
// --rebase after a rebase would).
var ForcePush = Rule{
	ID:      policy.RuleForcePush,
	Reason:  "a force push rewrites history that other agents may have built on",
	Instead: "push without force. If git rejects the push as not a fast-forward because you rebased or amended commits you had already pushed, go back to the pushed ones and merge instead: git fetch origin && git reset --keep origin/<your-branch> && git merge origin/main, then git push",
	Deny: []string{
		"git push -f",
		"git push origin +feature",
		"git push --mirror",
		"git -c remote.origin.mirror=true push",
		"git push --mirr",
		"git push --force-with-lease",
	},
	Allow: []string{
		"git push",
		"git push -u origin agent-1",
		"git push --dry-run -f",
	},
	Judge: judgeForcePush,
}

// judgeForcePush: a push that may replace the remote's history.
func judgeForcePush(e effect.Effect, f *Facts) []Verdict {
	if c, ok := e.(effect.GitConfig); ok {
		k := strings.ToLower(c.Key)
		if strings.HasPrefix(k, "remote.") && strings.HasSuffix(k, ".mirror") && len(k) > len("remote..mirror") && c.Set && (c.Dynamic || configTrue(c.Value)) {
			return []Verdict{{Reason: c.Key + " makes every push to that remote a --mirror push, which overwrites and deletes remote refs"}}
		}
		return nil
	}
	p, ok := e.(effect.Push)
	if !ok {
		return nil
	}
	if p.Dynamic {
		return []Verdict{{RunTime: true, Reason: "git push has arguments only known at run time, which may force the push or name a protected branch", Instead: "write the remote and branch literally"}}
	}
	var out []Verdict
	if (p.Force || p.Lease || p.IfIncludes) && !leaseOnOwnBranch(&p, f) {
		out = append(out, Verdict{Reason: "git push --force rewrites history that other agents may have built on"})
	}
	if p.Mirror {
		out = append(out, Verdict{Reason: "git push --mirror overwrites and deletes every ref on the remote"})
	}
	if p.Prune {
		out = append(out, Verdict{Reason: "git push --prune deletes remote branches that have no local counterpart", Instead: "push the branches you mean, without --prune"})
	}
	for _, r := range p.Refspecs {
		switch {
		case !r.Force || r.Dynamic:
		case p.FromGit:
			if !ownBranchRewrite(&p, &r, f) {
				out = append(out, Verdict{Reason: "not a fast-forward: the push drops commits from the remote, and a force push rewrites history that other agents may have built on"})
			}
		default:
			out = append(out, Verdict{Reason: "the refspec " + r.Text + " forces the push (a leading + is --force for that ref)"})
		}
	}
	return out
}

// ownBranchRewrite: a forced update git reports (pre-push) of the one
// branch checked out where the push runs, not protected, which [git]
// own_branch_force_with_lease allows (the Bash guard lets only
// --force-with-lease through; git does not tell the hook which was used).
func ownBranchRewrite(p *effect.Push, r *effect.Refspec, f *Facts) bool {
	b, ok := strings.CutPrefix(r.Ref, "refs/heads/")
	return ok && f.Policy.Git.OwnBranchForceWithLease && !f.Policy.IsProtectedBranch(b) &&
		len(p.Current) == 1 && p.Current[0].Name == b
}

// leaseOnOwnBranch reports whether a forced push is one the policy's
// [git] own_branch_force_with_lease allows: only --force-with-lease (not
// -f, --force or a +refspec), of the one branch checked out where it
// runs, which is not protected, named as itself or left implicit.
func leaseOnOwnBranch(p *effect.Push, f *Facts) bool {
	if !f.Policy.Git.OwnBranchForceWithLease || p.Force || !p.Lease {
		return false
	}
	if p.CurrentUnknown || len(p.Current) != 1 || f.Policy.IsProtectedBranch(p.Current[0].Name) {
		return false
	}
	own := p.Current[0].Name
	for _, r := range p.Refspecs {
		if r.Dynamic || r.Glob {
			return false
		}
		src, dst, colon := strings.Cut(r.Text, ":")
		if !colon {
			dst = src
		}
		if strings.HasPrefix(r.Text, "+") || src != "HEAD" && strings.TrimPrefix(src, "refs/heads/") != own ||
			strings.TrimPrefix(dst, "refs/heads/") != own && dst != "HEAD" {
			return false
		}
	}
	return true
}

// configTrue is how git reads a true boolean config value (a key alone,
// "-c key=", is true).
func configTrue(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "yes", "on", "1", "":
		return true
	}
	return false
}
