package rules

import (
	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/policy"
)

// WriteOutsideWorktree (G6): writes outside the worktree change the
// machine for every agent and the human (shell profiles, /etc, ~/bin).
var WriteOutsideWorktree = Rule{
	ID:      policy.RuleWriteOutside,
	Reason:  "writing outside the agent's worktree and the temp dir changes the machine for everyone",
	Instead: "write only inside the worktree or under the temp dir; ask a human for anything else",
	Deny: []string{
		"echo x > ~/.bashrc",
		"cp x /etc/",
		"tar -xzf x.tgz -C ~",
		"sort -o ~/.profile x",
		"go build -o ~/bin/app",
		"Write /home/agent/.bashrc",
	},
	Allow: []string{
		"echo x > notes.txt",
		"cp x /tmp/",
		"go build -o bin/app",
		"Write /work/repo/src/main.go",
	},
	Judge: judgeWriteOutside,
}

// judgeWriteOutside denies a write anywhere but the worktree, the writable
// places and devices: on another machine, at a path only known at run
// time, or outside; a recursive change (chmod -R) of a directory that
// holds a git directory or another worktree. A write to the guard's own configuration is
// guard-tamper's, and one in another agent's worktree foreign-worktree's.
func judgeWriteOutside(e effect.Effect, f *Facts) []Verdict {
	w, ok := e.(effect.Write)
	if !ok {
		return nil
	}
	switch {
	case w.Remote:
		return []Verdict{{Reason: w.Verb + " " + w.Shown + " on another machine, outside the worktree"}}
	case w.Anywhere:
		return []Verdict{{Reason: w.Verb + " their absolute paths, which may be anywhere"}}
	case w.Dynamic:
		return []Verdict{{RunTime: true, Reason: w.Verb + " " + w.Shown + ", a path only known at run time, so it may be outside the worktree",
			Instead: "name the path literally, inside the worktree"}}
	}
	var vs []Verdict
	if w.Place.Kind == effect.Outside && !w.Place.Foreign() && w.Protected == "" {
		vs = append(vs, Verdict{Reason: w.Verb + " " + placeWords(w.Place)})
	}
	if w.Recursive && w.Contains != "" {
		vs = append(vs, Verdict{Reason: w.Tool + " -R changes " + w.Path + ", which contains " + w.Contains})
	}
	return vs
}
