package guard

import (
	"path"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
)

// PathOp is what a file tool does with a path.
type PathOp int

const (
	OpRead   PathOp = iota // Read
	OpWrite                // Write, Edit, MultiEdit, NotebookEdit
	OpSearch               // Grep: reads the contents of files under the path
	OpList                 // Glob, LS: lists names under the path
)

var opTool = map[PathOp]string{OpRead: ToolRead, OpWrite: ToolWrite, OpSearch: ToolGrep, OpList: ToolGlob}

// CheckPath decides a file tool's access to one path. Relative paths are
// taken relative to env.Cwd; symlinks are resolved through env.Resolve.
func (e *Engine) CheckPath(op PathOp, p string, env *Env) Decision {
	if p == "" {
		if op == OpRead || op == OpWrite {
			return badInput("the "+opTool[op]+" call has no file path", "send the absolute path in tool_input.file_path")
		}
		return Decision{}
	}
	a := e.newAnalyzer(env)
	st := a.initialState()
	abs := shell.CleanJoin(env.Cwd, p)
	real := a.resolve(abs)
	inv := &shell.Invocation{Name: opTool[op], Argv: []shell.Word{{Text: opTool[op]}, {Text: p}}, State: st}
	secret := a.isSecret(abs) || a.isSecret(real)
	if op != OpWrite && clientEnviron(abs) {
		// A file tool runs in Claude Code's own process: its /proc/self
		// is the client, whose environment holds the client's credentials,
		// and a file tool's result reaches the agent unfiltered (Bash's
		// output is filtered: cat /proc/self/environ there is the shell's).
		secret = true
	}
	name := ""
	if secret {
		name = abs
	}
	switch op {
	case OpRead, OpSearch, OpList:
		a.judge(inv, effect.Read{Target: effect.Target{Tool: opTool[op], Path: abs, Shown: p, Secret: name}, Verb: opTool[op] + " of"})
	case OpWrite:
		// The path written is the first of its spelling and its real
		// place (symlinks resolved) that lies outside, else the real one.
		w := effect.Write{Target: a.pathTarget(opTool[op], abs, st), Verb: "writing"}
		if w.Place.Kind != effect.Outside && real != abs {
			w.Target = a.pathTarget(opTool[op], real, st)
		}
		for _, q := range uniq(abs, real) {
			if w.Protected = a.protectedHit(q, false); w.Protected != "" {
				a.judge(inv, effect.GuardChange{Change: effect.ToolWrite, Subject: w.Protected})
				break
			}
		}
		w.Secret = name
		a.judge(inv, w)
	}
	return a.decision()
}

// checkSearchGlob: a Grep glob such as ".env*" makes the search read secret files.
func (e *Engine) checkSearchGlob(glob, dir string, env *Env) Decision {
	a := e.newAnalyzer(env)
	base := env.Cwd
	if dir != "" {
		base = shell.CleanJoin(env.Cwd, dir)
	}
	s, _ := a.globReachesSecret(path.Join(base, glob))
	inv := &shell.Invocation{Name: ToolGrep, Argv: []shell.Word{{Text: ToolGrep}, {Text: glob}}, State: a.initialState()}
	a.judge(inv, effect.Search{Target: effect.Target{Tool: ToolGrep, Path: base}, Names: glob, NamesSecret: s})
	return a.decision()
}

// clientEnviron reports whether p is /proc/self/environ or
// /proc/thread-self/environ.
func clientEnviron(p string) bool {
	return p == "/proc/self/environ" || p == "/proc/thread-self/environ"
}

func uniq(a, b string) []string {
	if a == b {
		return []string{a}
	}
	return []string{a, b}
}

// checkCredentialSearch: Grep for credential patterns, or a Glob listing
// key files, outside the worktree (the home directory, another
// project) brings secrets into the agent's context.
func (e *Engine) checkCredentialSearch(tool string, in ToolInput, env *Env) Decision {
	a := e.newAnalyzer(env)
	st := a.initialState()
	dir := env.Cwd
	if in.Path != "" {
		dir = shell.CleanJoin(env.Cwd, in.Path)
	}
	pattern := in.Pattern
	if tool == ToolGlob && strings.HasPrefix(pattern, "/") {
		dir = pattern // an absolute Glob pattern names its own place
	}
	real := a.resolve(dir)
	t := effect.Target{Tool: tool, Path: dir, Place: effect.Place{Kind: effect.Inside}}
	if !(real == env.Root || strings.HasPrefix(real, env.Root+"/")) {
		t.Place = a.pathTarget(tool, real, st).Place
	}
	inv := &shell.Invocation{Name: tool, Argv: []shell.Word{{Text: tool}, {Text: pattern}}, State: st}
	a.judge(inv, effect.Search{Target: t, Pattern: pattern, Listing: tool == ToolGlob})
	return a.decision()
}

// checkEnterWorktree: entering a worktree of its own (a new one, or one
// under <home>/.claude/worktrees) is the agent's isolation feature;
// entering another agent's worktree is not. Its files stay read-only to the
// agent wherever the session is (hookenv keeps the home), but the session
// has no business there.
//
// EnterWorktree takes a path, or a name: Claude Code makes (or enters,
// when it exists) .claude/worktrees/<name> under the repository's main
// worktree, which for an agent in a linked worktree is not its home: the
// name may be another agent's isolated worktree there.
// mainWorktree is the repository's main worktree (the directory of its
// common git dir), "" when the common dir is not a .git directory (a bare
// repository) or unknown.
func mainWorktree(env *Env) string {
	if path.Base(env.CommonDir) != ".git" {
		return ""
	}
	return path.Dir(env.CommonDir)
}

// existingWorktree reports whether d lies in one of the worktrees listed
// that is not d's parent worktree holding .claude/worktrees: d is an
// isolated worktree already made (for another agent, when listed).
func existingWorktree(d string, worktrees []string) bool {
	for _, w := range worktrees {
		if (d == w || under(d, w)) && strings.Contains(w+"/", "/.claude/worktrees/") {
			return true
		}
	}
	return false
}

func (e *Engine) checkEnterWorktree(p, name string, env *Env) Decision {
	if p == "" && name == "" {
		return Decision{} // a new worktree of the agent's own
	}
	a := e.newAnalyzer(env)
	shown := p
	var dirs []effect.WorkDir
	if p != "" {
		dirs = append(dirs, effect.WorkDir{Path: a.resolve(shell.CleanJoin(env.Cwd, p))})
	} else {
		shown = name
		for _, root := range []string{env.Root, mainWorktree(env)} {
			if root == "" {
				continue
			}
			iso := path.Join(root, ".claude", "worktrees")
			d := a.resolve(shell.CleanJoin(iso, name))
			if under(d, iso) && !existingWorktree(d, env.OtherWorktrees) {
				continue // a new worktree, made for the agent
			}
			dirs = append(dirs, effect.WorkDir{Path: d})
		}
	}
	inv := &shell.Invocation{Name: ToolEnterWorktree, Argv: []shell.Word{{Text: ToolEnterWorktree}, {Text: shown}}, State: a.initialState()}
	a.judge(inv, effect.WorkIn{Tool: ToolEnterWorktree, Dirs: dirs, Session: true})
	return a.decision()
}
