package guard

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
	"github.com/swarm-guard/swarm-guard/guard/rules"
	"github.com/swarm-guard/swarm-guard/policy"
)

// analyzer holds one decision's work: the policy compiled for this Env, the
// findings so far and the budget left.
type analyzer struct {
	eng      *Engine
	pol      *policy.Policy
	env      *Env
	m        *matchers
	findings []finding

	// x is the shell core: the walk over the script, word expansion and
	// the state builtins, with the limits (nodes, depth) of this
	// decision. x.Src is the source of the script being walked, for words
	// as written and trigger excerpts.
	x           shell.Walker
	runnerDepth int // task runners running task runners (make, npm run, just, task)
	// literalOnly > 0 while a program file of another language is read
	// as code (checkDiskScript): only its literal operations are judged.
	literalOnly int

	// newBranches are the branches the command creates before it pushes
	// (git switch -c x && git push origin x): a push of one is a branch
	// push, judged by the ownership rules, not a tag (ownership.go).
	newBranches map[string]bool

	// freshRepos are the directories of repositories git init creates
	// earlier in the same call (gitInit).
	freshRepos []string

	writes []string  // static paths the command writes, for WrittenFiles
	urls   []SentURL // literal URLs network clients send to, for SentURLs (webtools.go)
	// opaque: the command may write files the analysis cannot list (a
	// program without a model, a write to a path known only at run time).
	opaque bool

	// What the command puts in place itself (filestate.go).
	bodies map[string][]*shell.Input // file -> contents written to it
	links  map[string]string         // symlink -> target
	progs  map[string]string         // copy -> original; "hash:name" -> program
	runs   []fileRun                 // files run as scripts or programs

	ruleFacts *rules.Facts // what the rules know besides an effect (effects.go)

	// trace, when set (by tests), sees every invocation the walk
	// dispatches to a builtin, wrapper or tool family.
	trace func(*shell.Invocation)
	// traceEffect, when set (Explain), sees every effect handed to the
	// rules.
	traceEffect func(effect.Effect)
}

// finding is a rule match before policy actions and allow entries apply.
type finding struct {
	rule    string
	reason  string
	trigger string
	alt     string
	canon   string // the simple command as allow entries see it
	// ask turns a denial into a question for a human (checkpoint
	// oversight, [mcp.servers.X] ask); a rule set to "off" stays off.
	ask bool
	// runTime: the finding rests on a word only known at run time
	// (rules.Verdict.RunTime).
	runTime bool
}

func (a *analyzer) add(f finding) {
	a.findings = append(a.findings, f)
}

// decision applies rule actions and [[allow]] entries to the findings.
func (a *analyzer) decision() Decision {
	var d Decision
	var denies, asks, shadows, allowed []Finding
	seen := map[string]bool{}
	for _, f := range a.findings {
		act := a.pol.RuleAction(f.rule)
		switch f.rule {
		case policy.RuleBadInput, policy.RuleInternalError, policy.RulePolicyError:
			act = policy.Deny // fail_mode is applied by the adapter, which knows the context
		}
		if act == policy.Off || act == policy.Allow {
			continue
		}
		would := policy.Deny
		if f.ask {
			would = policy.Ask
			if !act.Shadow() {
				act = policy.Ask
			}
		}
		key := f.rule + "\x00" + f.reason + "\x00" + f.trigger
		if seen[key] {
			continue
		}
		seen[key] = true
		out := Finding{Action: act, Rule: f.rule, Reason: f.reason, Trigger: f.trigger, Alternative: f.alt, RunTime: f.runTime}
		if act.Shadow() {
			out.Would = would
		}
		if glob := a.allowedBy(f); glob != "" {
			out.Action, out.AllowedBy = policy.Allow, glob
			allowed = append(allowed, out)
			continue
		}
		switch act {
		case policy.Ask:
			asks = append(asks, out)
		case policy.Warn, policy.Log:
			// A rule in a shadow mode never hides one that stops the
			// call: it decides only when nothing else does.
			shadows = append(shadows, out)
		default:
			denies = append(denies, out)
		}
	}
	slices.SortStableFunc(shadows, func(x, y Finding) int { return shadowRank(x.Action) - shadowRank(y.Action) })
	d.Findings = append(append(append(append(d.Findings, denies...), asks...), shadows...), allowed...)
	var top *Finding
	switch {
	case len(denies) > 0:
		top = &denies[0]
	case len(asks) > 0:
		top = &asks[0]
	case len(shadows) > 0:
		top = &shadows[0]
	default:
		return d
	}
	d.Action, d.Rule, d.Reason, d.Trigger, d.Alternative, d.Would = top.Action, top.Rule, top.Reason, top.Trigger, top.Alternative, top.Would
	return d
}

// shadowRank orders shadowed findings: a warning the agent reads before a
// silent log line.
func shadowRank(a policy.Action) int {
	if a == policy.Warn {
		return 0
	}
	return 1
}

// allowedBy returns the [[allow]] command glob that exempts a finding.
func (a *analyzer) allowedBy(f finding) string {
	switch f.rule {
	case policy.RuleBadInput, policy.RuleInternalError, policy.RulePolicyError:
		return "" // never exempt the guard's own failures
	}
	for _, e := range a.pol.Allow {
		if len(e.Rules) > 0 && !slices.Contains(e.Rules, f.rule) {
			continue
		}
		pat := unquoted(e.Command)
		if (f.canon != "" && globMatch(pat, unquoted(f.canon))) || (f.trigger != "" && globMatch(pat, unquoted(oneLine(f.trigger)))) {
			return e.Command
		}
	}
	return ""
}

// unquoted drops quote characters: an [[allow]] entry matches whether it
// is written eval $(ssh-agent -s) or eval "$(ssh-agent -s)".
func unquoted(s string) string {
	return strings.NewReplacer(`"`, "", `'`, "").Replace(s)
}

// globMatch matches s against a pattern where '*' matches any run of
// characters (spaces and slashes included) and '?' any single character.
func globMatch(pattern, s string) bool {
	pattern = oneLine(pattern)
	for len(pattern) > 0 {
		switch pattern[0] {
		case '*':
			for len(pattern) > 0 && pattern[0] == '*' {
				pattern = pattern[1:]
			}
			if pattern == "" {
				return true
			}
			for i := 0; i <= len(s); i++ {
				if globMatch(pattern, s[i:]) {
					return true
				}
			}
			return false
		case '?':
			if s == "" {
				return false
			}
			s, pattern = s[1:], pattern[1:]
		default:
			if s == "" || s[0] != pattern[0] {
				return false
			}
			s, pattern = s[1:], pattern[1:]
		}
	}
	return s == ""
}

func (a *analyzer) initialState() *shell.State { return shell.NewState(a.env.Cwd) }

func itoa(n int) string { return strconv.Itoa(n) }

// excerptSpan returns the source text from the start of one node to the end
// of another, when both are in the script being analysed.
func (a *analyzer) excerptSpan(from, to syntax.Node) (s string) {
	defer func() {
		if recover() != nil {
			s = ""
		}
	}()
	start, end := int(from.Pos().Offset()), int(to.End().Offset())
	if a.x.Src == "" || start < 0 || end > len(a.x.Src) || start >= end {
		return ""
	}
	return clip(a.x.Src[start:end])
}

// excerpt returns the source text of a node of the script being analysed.
// It is only a message: if a node's positions are unusable, it says nothing.
func (a *analyzer) excerpt(n syntax.Node) (s string) {
	if n == nil || a.x.Src == "" {
		return ""
	}
	defer func() {
		if recover() != nil {
			s = ""
		}
	}()
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start < 0 || end > len(a.x.Src) || start >= end {
		return ""
	}
	return clip(a.x.Src[start:end])
}

// handler is one step of what runs for an invocation of a program: a
// check or the program's own handler (programs.go).
type handler func(a *analyzer, inv *shell.Invocation)

// versioned are interpreters installed under versioned names: python3.12.
var versioned = map[string]string{"python": "python", "pypy": "python", "pip": "pip", "ruby": "ruby", "perl": "perl", "php": "php", "node": "node"}

// commandName normalises argv[0] to the name the program table
// (programs.go) knows it by.
// A leading "=" is zsh's =cmd, which expands to the path of cmd.
func commandName(s string) string {
	name := path.Base(strings.TrimPrefix(s, "="))
	if i := strings.IndexAny(name, "0123456789"); i > 0 && strings.Trim(name[i:], "0123456789.") == "" {
		if base, ok := versioned[name[:i]]; ok {
			return base
		}
	}
	if strings.HasPrefix(name, "mkfs.") {
		return "mkfs"
	}
	return name
}

// fileRun is a file the command runs as a script or program.
type fileRun struct {
	paths []string // absolute candidates for the file
	lang  string   // "sh", "python", "js", "perl", "ruby", "php"; "" = by its #! line
	inv   shell.Invocation
}

// matchers are the policy's path globs made absolute for one Env
// (compileMatchers, paths.go), held by the analyzer for its walk.
type matchers struct {
	writable  []string
	protected []string // guard configuration: hooks, settings, policy (G4)
	// exactOnly are protected files a glob such as * or an archive's
	// unknown contents does not count as reaching: lefthook.yml is
	// protected when named, but tar -xf x.tgz is not tampering with it.
	exactOnly  map[string]bool
	secret     []string
	secretExc  []string
	gitDirs    []string // the worktree's .git and the repository's git dirs
	worktrees  []string // other agents' worktrees
	hooksDirs  []string
	settingsRx []string
	// caseRefs are the places whose names a case-insensitive file system
	// matches in any case, longest first (see Env.CaseInsensitive).
	caseRefs []string // built on first use
	caseEnv  *Env
	nocase   bool
}
