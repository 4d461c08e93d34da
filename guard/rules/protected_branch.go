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
			out = append(out, Verdict{Reason: "git push names " + shown(r.Text) + ", only known at run time, which may be a protected branch", Instead: "write the branch name literally"})
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
