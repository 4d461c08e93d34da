package guard

import (
	"path"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
)

// makeCmd judges `make [options] [VAR=value] [targets]`: the recipes of the
// goals and of everything they depend on, read from the makefile.
func (a *analyzer) makeCmd(inv *shell.Invocation) {
	var files []shell.Word
	var dir *shell.Word
	var goals []string
	vars := map[string]string{}
	dry := false
	args := inv.Args()
	for i := 0; i < len(args); i++ {
		x := args[i]
		if !x.Static() {
			if i > 0 && (args[i-1].Text == "-f" || args[i-1].Text == "-C") {
				continue
			}
			a.judge(inv, effect.HiddenCode{By: "make", What: x.Show(), Why: effect.RunnerArgument})
			return
		}
		s := x.Text
		value := func() *shell.Word {
			if i+1 < len(args) {
				i++
				return &args[i]
			}
			return nil
		}
		switch {
		case s == "-f" || s == "--file" || s == "--makefile":
			if v := value(); v != nil {
				files = append(files, *v)
			}
		case strings.HasPrefix(s, "--file=") || strings.HasPrefix(s, "--makefile="):
			_, v, _ := strings.Cut(s, "=")
			files = append(files, shell.Word{Text: v, Src: v})
		case strings.HasPrefix(s, "-f") && len(s) > 2:
			files = append(files, shell.Word{Text: s[2:], Src: s[2:]})
		case s == "-C" || s == "--directory":
			dir = value()
		case strings.HasPrefix(s, "--directory="):
			v := strings.TrimPrefix(s, "--directory=")
			dir = &shell.Word{Text: v, Src: v}
		case strings.HasPrefix(s, "-C") && len(s) > 2:
			dir = &shell.Word{Text: s[2:], Src: s[2:]}
		case s == "-I" || s == "-o" || s == "-W" || s == "-l" || s == "--include-dir" || s == "--old-file" || s == "--what-if" ||
			s == "--assume-old" || s == "--assume-new" || s == "--new-file" || s == "-E" || s == "--eval":
			value()
		case s == "-j" || s == "--jobs":
			if i+1 < len(args) && strings.Trim(args[i+1].Text, "0123456789") == "" {
				i++
			}
		case s == "-n" || s == "--dry-run" || s == "--just-print" || s == "--recon" || s == "-q" || s == "--question":
			dry = true
		case strings.HasPrefix(s, "-"):
		case strings.Contains(s, "="):
			k, v, _ := strings.Cut(s, "=")
			vars[strings.TrimSuffix(strings.TrimSuffix(k, ":"), ":")] = v
		default:
			goals = append(goals, s)
		}
	}
	if inv.State.Remote {
		// make runs on another machine (ssh host make): its makefile is
		// there, out of sight like any script a remote command runs, and
		// its recipes change that machine, not this worktree.
		return
	}
	dirs, ok := a.runnerCwds(inv, dir)
	if !ok {
		a.judge(inv, effect.HiddenCode{By: "make", Why: effect.RunnerDir})
		return
	}
	for _, d := range dirs {
		a.makeIn(inv, d, files, goals, vars, dry)
	}
}

func (a *analyzer) makeIn(inv *shell.Invocation, dir string, files []shell.Word, goals []string, vars map[string]string, dry bool) {
	var mf *makefile
	var name string
	if len(files) == 0 {
		for _, n := range []string{"GNUmakefile", "makefile", "Makefile"} {
			p := shell.CleanJoin(dir, n)
			text, st := a.runnerFile(p)
			if st == fileMissing {
				continue
			}
			if st == fileUnknown {
				a.unreadableRunner(inv, "make", p)
				return
			}
			name, mf = p, parseMakefile(text)
			break
		}
		if mf == nil {
			return // make finds no makefile and stops without running anything
		}
	} else {
		mf = &makefile{vars: map[string]string{}, rules: map[string]*makeRule{}}
		for _, f := range files {
			if f.Text == "-" {
				// The makefile is standard input: judged from its text
				// when known (a pipe of literal text, a here-document).
				if inv.Stdin == nil || inv.Stdin.Dynamic || inv.Stdin.Subst || inv.Stdin.Net {
					a.judge(inv, effect.HiddenCode{By: "make", What: "standard input", Why: effect.RunnerInput})
					return
				}
				name = "standard input"
				mf.parse(inv.Stdin.Text)
				continue
			}
			p := shell.CleanJoin(dir, f.Text)
			text, st := a.runnerFile(p)
			switch st {
			case fileMissing:
				continue
			case fileUnknown:
				a.unreadableRunner(inv, "make", p)
				return
			}
			name = p
			mf.parse(text)
		}
	}
	// included makefiles, where readable: `include` of a missing file is
	// an error make stops on; -include and sinclude are skipped silently.
	for i := 0; i < len(mf.includes) && i < 16; i++ {
		inc := mf.includes[i]
		if strings.ContainsAny(inc, "$%*?[") {
			continue
		}
		if text, st := a.runnerFile(shell.CleanJoin(dir, inc)); st == fileKnown {
			mf.parse(text)
		}
	}
	mf.environ = a.makeEnviron
	for k, v := range vars {
		mf.vars[k] = v
		mf.override[k] = true
	}
	if len(goals) == 0 && mf.defaultGoal != "" {
		goals = []string{mf.defaultGoal}
	}
	rel := relToRoot(a.env.Root, name)
	done := map[string]bool{}
	var run func(target string, depth int)
	run = func(target string, depth int) {
		if done[target] || depth > 32 || a.x.Aborted() {
			return
		}
		done[target] = true
		r := mf.rules[target]
		if r == nil {
			r = mf.patternRule(target)
		}
		if r == nil {
			return
		}
		for _, p := range r.prereqs {
			run(p, depth+1)
		}
		var lines []string
		for _, l := range r.recipe {
			l = strings.TrimLeft(l, " \t")
			recurse := false
			for len(l) > 0 && strings.ContainsRune("@-+", rune(l[0])) {
				recurse = recurse || l[0] == '+'
				l = strings.TrimLeft(l[1:], " \t")
			}
			line := mf.expand(l, target, r, 0)
			if dry && !recurse && !strings.Contains(l, "$(MAKE)") && !strings.Contains(l, "${MAKE}") {
				// make -n prints the recipe instead of running it; only
				// $(shell ...) in it and + lines still run.
				continue
			}
			lines = append(lines, line)
		}
		a.runLines(inv, "make target "+target+" of "+rel, dir, lines)
	}
	for _, g := range goals {
		run(g, 0)
	}
}

// makeEnviron is a variable of the environment make starts with, as the
// hook knows it: HOME is the home directory (unknown when the hook does
// not know it, never empty: rm -rf $(HOME)/ is not rm -rf /), the others
// the agent's shell's.
func (a *analyzer) makeEnviron(name string) (string, bool) {
	if name == "HOME" {
		if a.env.Home == "" {
			return makeUnknown, true
		}
		return a.env.Home, true
	}
	v, ok := a.env.Vars[name]
	return v, ok
}

// makefile is the part of a makefile the guard needs: variables, rules
// with their prerequisites and recipes, the default goal and includes.
type makefile struct {
	vars        map[string]string
	override    map[string]bool // set on the command line: the makefile cannot change them
	rules       map[string]*makeRule
	patterns    []*makeRule // rules whose target has a %
	defaultGoal string
	includes    []string
	// environ is the environment make imports: a variable the makefile
	// does not set is the environment's ($(HOME) is the home directory).
	// nil: none is known, and such a variable is empty.
	environ func(name string) (string, bool)
}

type makeRule struct {
	target   string
	prereqs  []string
	recipe   []string
	recipeAt []int // the makefile line each recipe line starts on (1-based)
}

func parseMakefile(text string) *makefile {
	mf := &makefile{vars: map[string]string{}, override: map[string]bool{}, rules: map[string]*makeRule{}}
	mf.parse(text)
	return mf
}

// parse reads GNU make syntax well enough to find what runs: variable
// assignments (=, :=, ::=, ?=, +=, !=), rules, tab-indented recipes with
// backslash continuations, define blocks (skipped) and includes.
// Conditionals (ifeq ...) are read as if every branch were taken, which
// judges more commands, never fewer.
func (mf *makefile) parse(text string) {
	if mf.override == nil {
		mf.override = map[string]bool{}
	}
	lines, at := joinContinuationsAt(strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n"))
	var cur []*makeRule
	inDefine := false
	for li, raw := range lines {
		if inDefine {
			if strings.HasPrefix(strings.TrimSpace(raw), "endef") {
				inDefine = false
			}
			continue
		}
		if strings.HasPrefix(raw, "\t") {
			for _, r := range cur {
				r.recipe = append(r.recipe, raw[1:])
				r.recipeAt = append(r.recipeAt, at[li])
			}
			continue
		}
		line := stripMakeComment(raw)
		trimmed := strings.TrimSpace(line)
		if trimmed == "" {
			continue
		}
		word, rest, _ := strings.Cut(trimmed, " ")
		switch word {
		case "define":
			inDefine = true
			cur = nil
			continue
		case "include", "-include", "sinclude":
			if word == "include" {
				mf.includes = append(mf.includes, strings.Fields(rest)...)
			}
			cur = nil
			continue
		case "ifeq", "ifneq", "ifdef", "ifndef", "else", "endif", "export", "unexport", "override", "vpath":
			if word == "export" || word == "override" {
				if k, v, op, ok := makeAssignment(rest); ok {
					mf.assign(k, v, op)
				}
			}
			continue
		}
		if k, v, op, ok := makeAssignment(trimmed); ok {
			mf.assign(k, v, op)
			cur = nil
			continue
		}
		targets, after, ok := cutRuleColon(line)
		if !ok {
			cur = nil
			continue
		}
		prereqs, recipe, hasRecipe := strings.Cut(after, ";")
		prereqs, _, _ = strings.Cut(prereqs, "|") // order-only prerequisites run too
		cur = nil
		for _, t := range strings.Fields(mf.expand(targets, "", nil, 0)) {
			r := mf.rules[t]
			if r == nil {
				r = &makeRule{target: t}
				if strings.Contains(t, "%") {
					mf.patterns = append(mf.patterns, r)
				} else {
					mf.rules[t] = r
				}
				if mf.defaultGoal == "" && !strings.HasPrefix(t, ".") && !strings.Contains(t, "%") {
					mf.defaultGoal = t
				}
			}
			r.prereqs = append(r.prereqs, strings.Fields(mf.expand(prereqs, "", nil, 0))...)
			if hasRecipe {
				r.recipe = append(r.recipe, recipe)
				r.recipeAt = append(r.recipeAt, at[li])
			}
			cur = append(cur, r)
		}
		if len(after) > 0 && after[0] == ':' {
			// a double-colon rule: handled like a plain one
			continue
		}
	}
}

func (mf *makefile) assign(k, v, op string) {
	if mf.override[k] {
		return
	}
	switch op {
	case "?=":
		if _, ok := mf.vars[k]; ok {
			return
		}
	case "+=":
		if old, ok := mf.vars[k]; ok {
			v = old + " " + v
		}
	case "!=":
		v = "$(shell " + v + ")"
	}
	mf.vars[k] = v
}

// patternRule finds a % rule matching target, with the stem substituted.
func (mf *makefile) patternRule(target string) *makeRule {
	for _, r := range mf.patterns {
		pre, suf, _ := strings.Cut(r.target, "%")
		if len(target) >= len(pre)+len(suf) && strings.HasPrefix(target, pre) && strings.HasSuffix(target, suf) {
			stem := target[len(pre) : len(target)-len(suf)]
			out := &makeRule{target: target, recipe: r.recipe, recipeAt: r.recipeAt}
			for _, p := range r.prereqs {
				out.prereqs = append(out.prereqs, strings.Replace(p, "%", stem, 1))
			}
			return out
		}
	}
	return nil
}

// makeUnknown stands for a make expansion whose value the guard does not
// compute: an unset shell variable, so the shell analysis treats the word
// as only known at run time.
const makeUnknown = "${SWARM_GUARD_MAKE_VALUE_UNKNOWN}"

// expand does make's variable expansion of a recipe line: $(VAR), ${VAR},
// $X, automatic variables, $$ and the functions the guard can follow.
// $(shell cmd) becomes $(cmd), so the shell analysis judges cmd too.
func (mf *makefile) expand(s, target string, r *makeRule, depth int) string {
	if depth > 16 || !strings.Contains(s, "$") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '$' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		n := s[i+1]
		switch n {
		case '$':
			b.WriteByte('$')
			i++
			continue
		case '(', '{':
			closer := byte(')')
			if n == '{' {
				closer = '}'
			}
			end := matchingClose(s, i+2, n, closer)
			if end < 0 {
				b.WriteString(s[i:])
				return b.String()
			}
			b.WriteString(mf.reference(s[i+2:end], target, r, depth))
			i = end
			continue
		}
		b.WriteString(mf.reference(string(n), target, r, depth))
		i++
	}
	return b.String()
}

func (mf *makefile) reference(ref, target string, r *makeRule, depth int) string {
	switch ref {
	case "@":
		return target
	case "<":
		if r != nil && len(r.prereqs) > 0 {
			return r.prereqs[0]
		}
		return ""
	case "^", "+", "?":
		if r != nil {
			return strings.Join(r.prereqs, " ")
		}
		return ""
	case "*", "%", "|":
		return makeUnknown
	}
	if fn, args, ok := strings.Cut(ref, " "); ok {
		switch fn {
		case "shell":
			return "$(" + mf.expand(args, target, r, depth+1) + ")"
		case "wildcard", "abspath", "realpath", "strip":
			return mf.expand(strings.TrimSpace(args), target, r, depth+1)
		}
		return makeUnknown
	}
	if strings.ContainsAny(ref, ":,") {
		return makeUnknown // substitution references $(VAR:.c=.o) and other functions
	}
	if v, ok := mf.vars[ref]; ok {
		return mf.expand(v, target, r, depth+1)
	}
	switch ref {
	case "MAKE":
		return "make"
	case "RM":
		return "rm -f"
	case "CC":
		return "cc"
	case "CXX":
		return "g++"
	case "SHELL":
		return "/bin/sh"
	case "CURDIR":
		return makeUnknown
	}
	if mf.environ != nil {
		if v, ok := mf.environ(ref); ok {
			return v
		}
	}
	return "" // an unset make variable is empty
}

// matchingClose finds the closer of a $( or ${ opened before start,
// counting nested pairs.
func matchingClose(s string, start int, open, closer byte) int {
	depth := 1
	for j := start; j < len(s); j++ {
		switch s[j] {
		case open:
			depth++
		case closer:
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// makeAssignment splits "NAME op value" for make's assignment operators.
func makeAssignment(line string) (name, value, op string, ok bool) {
	for _, o := range []string{"::=", ":::=", ":=", "?=", "+=", "!=", "="} {
		i := strings.Index(line, o)
		if i <= 0 {
			continue
		}
		k := strings.TrimSpace(line[:i])
		if k == "" || strings.ContainsAny(k, " \t:") && o != "=" || strings.ContainsAny(k, " \t") {
			continue
		}
		if o == "=" && strings.Contains(k, ":") {
			return "", "", "", false // a target-specific variable or a rule
		}
		// A rule line "a: b=c" has its colon first.
		if c := strings.IndexByte(line, ':'); c >= 0 && c < i && !strings.HasPrefix(line[c:], o) {
			return "", "", "", false
		}
		return k, strings.TrimSpace(line[i+len(o):]), o, true
	}
	return "", "", "", false
}

// cutRuleColon splits a rule line at the colon that separates targets and
// prerequisites (not one inside $(...)).
func cutRuleColon(line string) (string, string, bool) {
	depth := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '(', '{':
			depth++
		case ')', '}':
			depth--
		case ':':
			if depth == 0 {
				after := line[i+1:]
				after = strings.TrimPrefix(after, ":")
				return line[:i], after, true
			}
		}
	}
	return "", "", false
}

func stripMakeComment(line string) string {
	for i := 0; i < len(line); i++ {
		if line[i] == '\\' {
			i++
			continue
		}
		if line[i] == '#' {
			return line[:i]
		}
	}
	return line
}

// joinContinuations joins backslash-newline continued lines. A recipe
// line keeps the backslash-newline (the shell sees it); other lines join
// with a space, as make does.
func joinContinuations(lines []string) []string {
	out, _ := joinContinuationsAt(lines)
	return out
}

// joinContinuationsAt is joinContinuations that also returns the line
// (1-based) each joined line starts on, for findings that name a line.
func joinContinuationsAt(lines []string) ([]string, []int) {
	var out []string
	var at []int
	for i := 0; i < len(lines); i++ {
		at = append(at, i+1)
		l := lines[i]
		for strings.HasSuffix(l, "\\") && i+1 < len(lines) {
			next := lines[i+1]
			if strings.HasPrefix(l, "\t") {
				l = l[:len(l)-1] + " " + strings.TrimPrefix(next, "\t")
			} else {
				l = l[:len(l)-1] + " " + strings.TrimSpace(next)
			}
			i++
		}
		out = append(out, l)
	}
	return out, at
}

// relToRoot shows a path relative to the worktree root when inside it.
func relToRoot(root, p string) string {
	if rel, ok := strings.CutPrefix(p, root+"/"); ok {
		return rel
	}
	return path.Clean(p)
}
