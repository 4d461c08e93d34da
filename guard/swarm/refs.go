package swarm

import (
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Agent is who asks: enough to tell its refs from everybody else's.
type Agent struct {
	ID          string   // agent id; "{id}" in OwnBranches
	HomeBranch  string   // the branch the agent started on; "{branch}" in OwnBranches
	Branch      string   // the branch checked out in its home worktree now ("" = HomeBranch)
	OwnBranches []string // [swarm] own_branches globs
}

// RefOp is what a push or ref command does to one ref.
type RefOp int

const (
	RefUpdate RefOp = iota // create or fast-forward
	RefDelete              // delete (git push :ref, --delete, --prune)
	RefRename              // git branch -m / -M of the ref
)

// Verdict answers a question about a ref or a forge operation. The zero
// value allows.
type Verdict struct {
	Denied      bool
	Reason      string // whose ref it is and why the agent may not touch it
	Alternative string // what to do instead, a path that works when followed
}

// OwnsBranch reports whether a branch (with or without refs/heads/) is the
// agent's: its home branch, the branch checked out in its home worktree,
// or one matching an own_branches glob.
func (a Agent) OwnsBranch(name string) bool {
	name = strings.TrimPrefix(name, "refs/heads/")
	if name == "" {
		return false
	}
	if name == a.HomeBranch || name == a.Branch {
		return true
	}
	for _, g := range a.OwnBranches {
		pat, ok := a.expand(g)
		if ok && doublestar.MatchUnvalidated(pat, name) {
			return true
		}
	}
	return false
}

// expand fills {id} and {branch}; a glob naming a value the agent does not
// have never matches, so an unknown id cannot widen "agent/{id}/**" to
// "agent//**".
func (a Agent) expand(g string) (string, bool) {
	home := a.HomeBranch
	if home == "" {
		home = a.Branch
	}
	if strings.Contains(g, "{id}") {
		if a.ID == "" {
			return "", false
		}
		g = strings.ReplaceAll(g, "{id}", quoteGlob(a.ID))
	}
	if strings.Contains(g, "{branch}") {
		if home == "" {
			return "", false
		}
		g = strings.ReplaceAll(g, "{branch}", quoteGlob(home))
	}
	return g, true
}

// quoteGlob escapes glob metacharacters in a literal value (git allows
// "{" and "}" in branch names).
func quoteGlob(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[]{}\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// yours names the agent's branch for messages.
func (a Agent) yours() string {
	b := a.HomeBranch
	if b == "" {
		b = a.Branch
	}
	if b == "" {
		return "your own branch"
	}
	return "your branch " + b
}

// MayWriteRef decides whether the agent may change a remote ref (a push
// destination): full names (refs/heads/x, refs/tags/v1) or short branch
// names. checkedOutBy names the worktree where the branch is checked out
// when that is another agent's ("" if none or unknown).
func (a Agent) MayWriteRef(ref string, op RefOp, checkedOutBy string) Verdict {
	switch {
	case strings.HasPrefix(ref, "refs/tags/"):
		tag := strings.TrimPrefix(ref, "refs/tags/")
		if op == RefDelete {
			return Verdict{Denied: true, Reason: "deleting the tag " + tag + " removes a shared release mark that is nobody's own",
				Alternative: "ask a human to delete or move tags"}
		}
		return Verdict{} // a new tag; moving an existing one needs a force push, which force-push denies
	case strings.HasPrefix(ref, "refs/heads/"), !strings.HasPrefix(ref, "refs/"):
		name := strings.TrimPrefix(ref, "refs/heads/")
		if checkedOutBy == "" && a.OwnsBranch(name) {
			return Verdict{}
		}
		whose := "is not yours"
		if checkedOutBy != "" {
			whose = "is checked out in another agent's worktree " + checkedOutBy
		}
		verb := map[RefOp]string{RefUpdate: "pushing to", RefDelete: "deleting", RefRename: "renaming"}[op]
		return Verdict{Denied: true, Reason: verb + " the branch " + name + ", which " + whose + " (" + a.yours() + a.ownGlobs() + ")",
			Alternative: a.Instead()}
	}
	return Verdict{Denied: true, Reason: "writing " + ref + ", a ref outside refs/heads and refs/tags that no agent owns",
		Alternative: "push only " + a.yours() + " (git push origin HEAD) and open a pull request"}
}

func (a Agent) ownGlobs() string {
	var gs []string
	for _, g := range a.OwnBranches {
		if p, ok := a.expand(g); ok {
			gs = append(gs, strings.ReplaceAll(p, `\`, ""))
		}
	}
	if len(gs) == 0 {
		return ""
	}
	return "; [swarm] own_branches also gives you " + strings.Join(gs, ", ")
}

// Instead says what an agent does instead of writing a ref that is not its
// own: push its branch and open a pull request, or ask the owner.
func (a Agent) Instead() string {
	b := a.HomeBranch
	if b == "" {
		b = a.Branch
	}
	push := "git push origin HEAD"
	if b != "" {
		push = "git push origin HEAD:refs/heads/" + b
	}
	return "push your own work with " + push + " and open a pull request, or ask the branch's owner (a human can widen [swarm] own_branches)"
}

// OtherAgentsBranch reports whether a branch lies under another agent's
// prefix: it matches one of the own_branches globs that name "{id}" with
// some other agent's id there ("agent/w9-beef/x" for "agent/{id}/**"), and
// it is not the agent's own. It returns that id, or "another agent" when
// the glob puts the id in a place that cannot be read back. Only "{id}"
// globs say whose a branch is; "{branch}" ones need the other agent's
// birth branch, which nobody here knows.
func (a Agent) OtherAgentsBranch(name string) (string, bool) {
	name = strings.TrimPrefix(name, "refs/heads/")
	if name == "" || a.OwnsBranch(name) {
		return "", false
	}
	for _, g := range a.OwnBranches {
		if !strings.Contains(g, "{id}") || strings.Contains(g, "{branch}") {
			continue
		}
		pre, _, _ := strings.Cut(g, "{id}")
		if !doublestar.MatchUnvalidated(strings.ReplaceAll(g, "{id}", "*"), name) {
			continue
		}
		if !strings.ContainsAny(pre, `*?[]{}\`) && strings.HasPrefix(name, pre) {
			id, _, _ := strings.Cut(name[len(pre):], "/")
			if id != "" {
				return id, true
			}
		}
		return "another agent", true
	}
	return "", false
}
