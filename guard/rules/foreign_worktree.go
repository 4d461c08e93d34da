package rules

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/policy"
)

// ForeignWorktree: other agents' worktrees (and other clones of the
// repository) are read-only for this agent.
var ForeignWorktree = Rule{
	ID:      policy.RuleForeignWorktree,
	Reason:  "the worktree belongs to another agent, whose uncommitted work a change there would break",
	Instead: "leave other agents' worktrees to their owners: read them if you need to, and make your changes in your own worktree (ask the worktree's owner or a human for changes there)",
	Deny: []string{
		"rm -rf /work/main/src",
		"git -C .worktrees/agent-2 commit -am x",
		"cd .worktrees/agent-2 && git commit -am x",
		"git worktree remove .worktrees/agent-2",
		"git worktree prune",
		"EnterWorktree /work/repo/.worktrees/agent-2",
	},
	Allow: []string{
		"cat .worktrees/agent-2/README.md",
		"git -C .worktrees/agent-2 log",
		"git worktree list",
	},
	Judge: judgeForeignWorktree,
}

// ForeignWorktreeInstead is the rule's Instead naming the agent's own
// worktree home ("" leaves it out).
func ForeignWorktreeInstead(home string) string {
	alt := "leave other agents' worktrees to their owners: read them if you need to, and make your changes in your own worktree"
	if home != "" {
		alt += " " + home
	}
	return alt + " (ask the worktree's owner or a human for changes there)"
}

// judgeForeignWorktree denies deleting or writing a path in another
// agent's worktree or another checkout of the repository (reading there is
// fine; writing the guard's configuration is guard-tamper's).
func judgeForeignWorktree(e effect.Effect, f *Facts) []Verdict {
	switch e := e.(type) {
	case effect.PruneWorktrees:
		return []Verdict{{Reason: "git worktree prune deletes the records of every worktree whose directory is missing, other agents' included",
			Instead: "leave pruning to a human; git worktree remove <path> removes a worktree of your own, git worktree prune -n shows what would go"}}
	case effect.Delete:
		if e.Place.Foreign() && !e.Remote && !e.Dynamic {
			return []Verdict{{Reason: deletes(e) + " " + placeWords(e.Place), Instead: ForeignWorktreeInstead(f.Root)}}
		}
	case effect.WorkIn:
		return judgeWorkIn(e, f)
	case effect.Write:
		if e.Place.Foreign() && !e.Remote && !e.Dynamic && e.Protected == "" {
			return []Verdict{{Reason: e.Verb + " " + placeWords(e.Place), Instead: ForeignWorktreeInstead(f.Root)}}
		}
	}
	return nil
}

// judgeWorkIn denies changing another agent's worktree or another checkout
// of the repository by working there: a git command that changes the
// working tree, or moving the session there. A worktree of the agent's own
// nested in another (Claude Code makes them under .claude/worktrees) is
// its own.
//
// With no other worktrees, a directory only known at run time is judged
// by the directories it may be (another checkout of the repository).
func judgeWorkIn(e effect.WorkIn, f *Facts) []Verdict {
	if e.Dynamic && len(f.OtherWorktrees) > 0 {
		return []Verdict{{RunTime: true, Reason: e.Tool + " runs in a directory only known at run time, which may be another agent's worktree",
			Instead: "cd to a literal path inside your own worktree " + f.Root + " (or use git -C with a literal path)"}}
	}
	for _, d := range e.Dirs {
		if e.Session {
			if f.Root != "" && strings.HasPrefix(d.Path+"/", f.Root+"/.claude/worktrees/") {
				continue
			}
			// The innermost worktree: one nested in another (under its
			// .claude/worktrees) is its own agent's.
			in := ""
			for _, w := range f.OtherWorktrees {
				if within(d.Path, w) && len(w) > len(in) {
					in = w
				}
			}
			if in != "" {
				return []Verdict{{Reason: "EnterWorktree into " + in + ", another agent's worktree: its work is theirs to change",
					Instead: "stay in your own worktree (" + f.Root + "); read their files by path, or create a worktree of your own with EnterWorktree and a name"}}
			}
			continue
		}
		if d.Checkout != "" {
			return []Verdict{{Reason: e.Tool + " changes " + d.Checkout + ", another checkout of this repository (another agent's or a human's; this agent's home is " + f.Root + ")",
				Instead: ForeignWorktreeInstead(f.Root)}}
		}
		for _, w := range f.OtherWorktrees {
			if within(d.Path, w) && !(within(f.Root, w) && within(d.Path, f.Root)) {
				return []Verdict{{Reason: e.Tool + " changes the worktree " + w + ", which is another agent's (this agent's home is " + f.Root + ")",
					Instead: ForeignWorktreeInstead(f.Root)}}
			}
		}
	}
	return nil
}

// within reports whether p is dir or below it.
func within(p, dir string) bool {
	return dir != "" && (p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/"))
}
