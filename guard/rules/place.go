package rules

import "github.com/swarm-guard/swarm-guard/guard/effect"

// placeWords says where a path outside the worktree lies, as the reasons
// of delete-outside-worktree, write-outside-worktree and foreign-worktree
// name it: "/h/x, outside the worktree /w", "/w/.git/hooks/x, inside the
// repository's git directory /w/.git", "/w2/src, inside another agent's
// worktree /w2", "/h/* (in /h, outside the worktree /w)".
func placeWords(p effect.Place) string {
	var w string
	switch p.Where {
	case effect.OtherMachine:
		w = p.Path + " on another machine"
	case effect.GitDir:
		if p.Dir == "" {
			w = p.Path + " inside the repository's git directory"
		} else {
			w = p.Path + ", inside the repository's git directory " + p.Dir
		}
	case effect.OtherWorktree:
		w = p.Path + ", inside another agent's worktree " + p.Dir
	case effect.WorktreeRoot:
		w = "the worktree root " + p.Path + " itself"
	case effect.CanMatch:
		return p.Pattern + " can match " + p.Dir
	default:
		w = p.Path + ", outside the worktree " + p.Dir
	}
	if p.Pattern != "" {
		return p.Pattern + " (in " + w + ")"
	}
	return w
}
