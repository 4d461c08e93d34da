package rules

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/policy"
)

// DeleteOutsideWorktree (G5): an agent's deletes stay in its own worktree
// and the temp dir; everything else is someone else's.
var DeleteOutsideWorktree = Rule{
	ID:      policy.RuleDeleteOutside,
	Reason:  "deleting outside the agent's worktree and the temp dir removes what is not the agent's",
	Instead: "delete only inside the worktree or under the temp dir; ask a human for anything else",
	Deny: []string{
		"rm -rf ~",
		"find / -delete",
		"mv ~/x .",
		"ln -s / r && rm -rf r/*",
		"rm -rf ~/proj",
		"rm -rf ../other-checkout",
	},
	Allow: []string{
		"rm -rf build",
		"rm -rf ./proj",
		"rm -rf /tmp/cache",
		"find . -name '*.pyc' -delete",
	},
	Judge: judgeDeleteOutside,
}

// judgeDeleteOutside denies a delete anywhere but the worktree, the
// writable places and devices: on another machine, at a path only known at
// run time, outside (another agent's worktree is foreign-worktree's), or
// recursively inside when a git directory or another worktree lies below.
func judgeDeleteOutside(e effect.Effect, f *Facts) []Verdict {
	d, ok := e.(effect.Delete)
	if !ok {
		return nil
	}
	switch {
	case d.Remote:
		return []Verdict{{Reason: d.Tool + " deletes " + d.Shown + " on another machine, outside the worktree"}}
	case d.Dynamic && d.Shown == "":
		// A value in code (shutil.rmtree(p), fs.rmSync(dir)) has no
		// spelling to show.
		return []Verdict{{RunTime: true, Reason: deletes(d) + " a path only known at run time",
			Instead: "delete with a literal path inside the worktree, or with rm in the shell"}}
	case d.Dynamic:
		return []Verdict{{RunTime: true, Reason: d.Tool + " deletes " + d.Shown + ", a path only known at run time, so it may be outside the worktree",
			Instead: "name the path literally, inside the worktree"}}
	case d.Place.Kind == effect.Outside && !d.Place.Foreign():
		v := Verdict{Reason: deletes(d) + " " + placeWords(d.Place)}
		if !d.Glob {
			v.Instead = cacheAdvice(d.Path, f)
		}
		return []Verdict{v}
	case d.Recursive && d.Place.Kind == effect.Inside && d.Contains != "":
		return []Verdict{{Reason: d.Tool + " recursively deletes " + d.Path + ", which contains " + d.Contains}}
	}
	return nil
}

// placeWords says where a path outside the worktree lies, as the reasons
// of delete-outside-worktree, write-outside-worktree and foreign-worktree
// name it (the tool code only says which place, effect.Place): "/h/x, outside the worktree /w", "/w/.git/hooks/x, inside the
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

// deletes is what d's tool does, as reasons say it.
func deletes(d effect.Delete) string {
	if d.Verb != "" {
		return d.Verb
	}
	return d.Tool + " deletes"
}

// toolCaches are caches outside the worktree that their own tool clears
// safely (it knows what is in use): deleting them by hand is denied, and
// the advice names the tool's command, which the guard allows.
var toolCaches = []struct{ dir, clean string }{
	{"~/.cache/go-build", "go clean -cache"},
	{"~/go/pkg/mod", "go clean -modcache"},
	{"~/.npm", "npm cache clean --force"},
	{"~/.cache/pip", "pip cache purge"},
	{"~/.cache/yarn", "yarn cache clean"},
	{"~/.yarn/berry/cache", "yarn cache clean --all"},
	{"~/.local/share/pnpm/store", "pnpm store prune"},
	{"~/.cache/pnpm", "pnpm store prune"},
	{"~/.cache/uv", "uv cache clean"},
	{"~/.cache/pre-commit", "pre-commit clean"},
	{"~/.cache/golangci-lint", "golangci-lint cache clean"},
	{"~/.cache/deno", "deno clean"},
	{"~/.bun/install/cache", "bun pm cache rm"},
	{"~/.gradle/caches", "./gradlew --stop, then ask a human to clear the Gradle cache"},
}

// cacheAdvice is the "instead" of deleting p outside the worktree: the
// cache's own clean command when p is (in) a known tool cache, else ""
// (the rule's own).
func cacheAdvice(p string, f *Facts) string {
	if f.Home != "" {
		for _, c := range toolCaches {
			dir := policy.ExpandPath(c.dir, f.Root, f.Home, f.Temp)
			if p == dir || strings.HasPrefix(p, dir+"/") {
				return "clear the cache with its own command, which the guard allows: " + c.clean
			}
		}
	}
	if f.GoCache != "" && (p == f.GoCache || strings.HasPrefix(p, f.GoCache+"/")) {
		return "clear the cache with its own command, which the guard allows: go clean -cache"
	}
	return ""
}
