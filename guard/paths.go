package guard

import (
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
	shpattern "mvdan.cc/sh/v3/pattern"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
	"github.com/swarm-guard/swarm-guard/policy"
)

func compileMatchers(p *policy.Policy, env *Env) *matchers {
	root, home, temp := env.Root, env.Home, env.Temp
	if temp == "" {
		temp = "/tmp"
	}
	exp := func(pats []string) []string {
		out := make([]string, 0, len(pats))
		for _, pat := range pats {
			out = append(out, policy.ExpandPath(pat, root, home, temp))
		}
		return out
	}
	m := &matchers{
		writable:  exp(p.Writable),
		secret:    exp(p.SecretFiles.Patterns),
		secretExc: exp(p.SecretFiles.Exceptions),
		worktrees: env.OtherWorktrees,
	}
	if root != "" && root != "/" {
		m.gitDirs = append(m.gitDirs, path.Join(root, ".git"))
	}
	for _, d := range []string{env.GitDir, env.CommonDir} {
		if d != "" && !strings.HasPrefix(d, root+"/.git") {
			m.gitDirs = append(m.gitDirs, d)
		}
	}
	m.hooksDirs = env.HooksDirs
	if len(m.hooksDirs) == 0 && root != "" {
		m.hooksDirs = []string{path.Join(root, ".git", "hooks")}
	}
	for _, d := range m.hooksDirs {
		m.protected = append(m.protected, d, d+"/**")
	}
	if root != "" {
		m.protected = append(m.protected,
			path.Join(root, ".git", "config"), path.Join(root, ".git", "config.worktree"),
			path.Join(root, ".claude", "settings.json"), path.Join(root, ".claude", "settings.local.json"),
			path.Join(root, policy.FileName))
		// Hook managers' configurations run (or stop running) the git
		// hooks, and the CI workflow install --ci wrote is the backstop.
		for _, f := range hookManagerFiles {
			m.protected = append(m.protected, path.Join(root, f))
			if !strings.HasPrefix(f, ".") {
				if m.exactOnly == nil {
					m.exactOnly = map[string]bool{}
				}
				m.exactOnly[path.Join(root, f)] = true
			}
		}
	}
	for _, d := range []string{env.CommonDir, env.GitDir} {
		if d != "" {
			m.protected = append(m.protected, path.Join(d, "config"), path.Join(d, "config.worktree"))
		}
	}
	if env.CommonDir != "" {
		m.protected = append(m.protected, path.Join(env.CommonDir, "swarm-guard"), path.Join(env.CommonDir, "swarm-guard", "**"))
	}
	if home != "" {
		m.protected = append(m.protected, path.Join(home, ".claude", "settings.json"), path.Join(home, ".claude", "settings.local.json"))
	}
	m.protected = append(m.protected, env.GuardPaths...)
	m.protected = append(m.protected, exp(p.ProtectedPaths)...)
	if env.CaseInsensitive {
		m.nocase = true
		m.caseEnv = env
	}
	return m
}

// canonCase spells p the way the guard's own places are spelled when the
// file system ignores case: /work/repo/.GIT/Hooks is /work/repo/.git/hooks
// there. The longest place whose name matches p's start in any case wins.
func (a *analyzer) canonCase(p string) string {
	if !a.m.nocase {
		return p
	}
	if a.m.caseRefs == nil {
		a.m.caseRefs = caseRefs(a.m, a.m.caseEnv)
	}
	for _, r := range a.m.caseRefs {
		if len(p) >= len(r) && strings.EqualFold(p[:len(r)], r) && (len(p) == len(r) || p[len(r)] == '/') {
			return r + p[len(r):]
		}
	}
	return p
}

func caseRefs(m *matchers, env *Env) []string {
	refs := []string{env.Root, env.Home, env.Temp, env.GitDir, env.CommonDir}
	refs = append(refs, m.gitDirs...)
	refs = append(refs, m.hooksDirs...)
	refs = append(refs, m.worktrees...)
	for _, pat := range m.protected {
		if i := strings.IndexAny(pat, "*?[{"); i >= 0 {
			pat = path.Dir(pat[:i] + "x")
		}
		refs = append(refs, pat)
	}
	out := make([]string, 0, len(refs))
	for _, r := range refs {
		if r != "" && r != "/" && r != "." {
			out = append(out, strings.TrimSuffix(r, "/"))
		}
	}
	sort.Slice(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

// globMatch matches a policy glob, in any case when the file system ignores it.
func (a *analyzer) globMatch(pat, p string) bool {
	if doublestar.MatchUnvalidated(pat, p) {
		return true
	}
	return a.m.nocase && doublestar.MatchUnvalidated(strings.ToLower(pat), strings.ToLower(p))
}

func (a *analyzer) resolve(p string) string {
	if a.env.Resolve != nil {
		return a.env.Resolve(p)
	}
	return p
}

// underRoot reports whether p is inside the worktree (the root itself counts).
func (a *analyzer) underRoot(p string) bool { return shell.UnderRoot(p, a.env.Root) }

func under(p, dir string) bool {
	return dir != "" && (p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/"))
}

// sinks are devices that swallow or pass through data; writing them is harmless.
func isSink(p string) bool {
	switch p {
	case "/dev/null", "/dev/zero", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty", "/dev/random", "/dev/urandom", "/dev/full":
		return true
	}
	return strings.HasPrefix(p, "/dev/fd/") || strings.HasPrefix(p, "/proc/self/fd/") || strings.HasPrefix(p, "/dev/pts/")
}

// classify places an absolute path: its kind, and when outside, which
// outside and the directory that makes it so (the rules word it).
func (a *analyzer) classify(p string, st *shell.State) effect.Place {
	p = a.canonCase(p)
	if st != nil && st.Remote {
		return effect.Place{Kind: effect.Outside, Where: effect.OtherMachine, Path: p}
	}
	if isSink(p) {
		return effect.Place{Kind: effect.Sink}
	}
	for _, g := range a.m.gitDirs {
		if under(p, g) {
			return effect.Place{Kind: effect.Outside, Where: effect.GitDir, Path: p, Dir: g}
		}
	}
	for _, w := range a.m.worktrees {
		if under(p, w) && !(under(a.env.Root, w) && a.underRoot(p)) {
			// (A worktree nested in another, such as one Claude Code
			// makes under .claude/worktrees, is still its own inside.)
			return effect.Place{Kind: effect.Outside, Where: effect.OtherWorktree, Path: p, Dir: w}
		}
	}
	if a.env.Root != "" && p == a.env.Root {
		return effect.Place{Kind: effect.Outside, Where: effect.WorktreeRoot, Path: p}
	}
	if a.underRoot(p) {
		return effect.Place{Kind: effect.Inside}
	}
	if root, ok := a.sameRepoCheckout(p); ok {
		return effect.Place{Kind: effect.Outside, Where: effect.OtherWorktree, Path: p, Dir: root}
	}
	if a.env.Home != "" && (p == a.env.Home || under(p, a.env.Home)) && !a.writableOwn(p) {
		// The home directory is never a temp directory, even when it
		// lies under /tmp (containers, CI).
		return a.elsewhere(p)
	}
	if a.writable(p) {
		return effect.Place{Kind: effect.Writable}
	}
	return a.elsewhere(p)
}

// elsewhere is the place of p outside the worktree, nowhere in particular.
func (a *analyzer) elsewhere(p string) effect.Place {
	return effect.Place{Kind: effect.Outside, Where: effect.Elsewhere, Path: p, Dir: a.env.Root}
}

// writableOwn reports whether p is writable by a policy entry that names a
// place inside the home directory itself ("~/.cache/**"), not by a temp
// directory the home happens to lie under.
func (a *analyzer) writableOwn(p string) bool {
	if a.env.Temp != "" && under(a.env.Temp, a.env.Home) && under(p, a.env.Temp) {
		return true // $TMPDIR inside the home (macOS-style setups)
	}
	for _, w := range a.pol.Writable {
		if strings.HasPrefix(w, "~/") && a.writable(p) {
			return true
		}
	}
	return false
}

// writable reports whether a path outside the worktree matches a writable
// glob. A glob ending in /** covers what is below the directory only:
// deleting /tmp itself is never fine.
func (a *analyzer) writable(p string) bool {
	for _, pat := range a.m.writable {
		if base, ok := strings.CutSuffix(pat, "/**"); ok && !strings.ContainsAny(base, "*?[{") {
			if strings.HasPrefix(p, base+"/") {
				return true
			}
			continue
		}
		if doublestar.MatchUnvalidated(pat, p) {
			return true
		}
	}
	return false
}

// protectedHit returns the protected path that an operation on p touches:
// p itself, or (for recursive deletes and moves) something below p.
func (a *analyzer) protectedHit(p string, recursive bool) string {
	p = a.canonCase(p)
	for _, pat := range a.m.protected {
		if a.globMatch(pat, p) || pat == p {
			return p
		}
		if recursive {
			base, _ := doublestar.SplitPattern(pat)
			if base != "." && under(base, p) && base != p {
				return base
			}
			if !strings.ContainsAny(pat, "*?[{") && under(pat, p) {
				return pat
			}
		}
	}
	return ""
}

// sensitiveBelow returns a git dir or another worktree that a recursive
// delete of dir would reach.
func (a *analyzer) sensitiveBelow(dir string) string {
	for _, g := range a.m.gitDirs {
		if under(g, dir) {
			return g
		}
	}
	for _, w := range a.m.worktrees {
		if under(w, dir) {
			return w
		}
	}
	return ""
}

// isSecret reports whether a path matches a secret-file glob and no exception.
func (a *analyzer) isSecret(p string) bool {
	p = a.canonCase(p)
	hit := false
	for _, pat := range a.m.secret {
		if a.globMatch(pat, p) {
			hit = true
			break
		}
	}
	if !hit {
		return false
	}
	for _, pat := range a.m.secretExc {
		if doublestar.MatchUnvalidated(pat, p) {
			return false
		}
	}
	return true
}

// secretCandidates are names a glob argument is tested against: `cat .env*`
// reads .env, `cat *.pem` reads keys.
var secretCandidates = []string{".env", ".env.local", ".env.production", ".env.development", "id_rsa", "id_ed25519",
	"server.pem", "server.key", "private.key", "credentials", ".netrc"}

// globReachesSecret reports whether a glob argument can expand to a secret file.
func (a *analyzer) globReachesSecret(pattern string) (string, bool) {
	dir, base := path.Split(pattern)
	if strings.ContainsAny(dir, "*?[") {
		dir = strings.TrimSuffix(dir, "/")
		// a/*/.env: try the candidates one level down the static prefix.
		static, _ := doublestar.SplitPattern(pattern)
		for _, c := range secretCandidates {
			p := path.Join(static, "x", c)
			if doublestar.MatchUnvalidated(pattern, p) && a.isSecret(p) {
				return p, true
			}
		}
		return "", false
	}
	// A bare * could match a key file, but reading "everything" is everyday
	// work (wc -l *); only a pattern that spells part of a secret's name
	// (.env*, *.pem) reaches for one.
	if len(globLiteral(base)) < 2 {
		return "", false
	}
	for _, c := range secretCandidates {
		if strings.Contains(c, globLiteral(base)) && patternMatch(base, c, false) {
			p := path.Join(dir, c)
			if a.isSecret(p) {
				return p, true
			}
		}
	}
	return "", false
}

// globLiteral is the longest literal run of a glob pattern.
func globLiteral(pattern string) string {
	best, cur := "", ""
	inClass := false
	for _, c := range pattern {
		switch {
		case c == '[':
			inClass = true
			cur = ""
		case c == ']' && inClass:
			inClass = false
		case inClass:
		case c == '*' || c == '?':
			cur = ""
		default:
			cur += string(c)
			if len(cur) > len(best) {
				best = cur
			}
		}
	}
	return best
}

// target is one argument resolved against the possible working directories.
type target struct {
	paths   []string // absolute, cleaned, symlinks of the parent resolved
	glob    bool     // paths are patterns
	walk    bool     // patterns match hidden names too (find)
	unknown bool     // some resolution is only known at run time
}

// patternMatch matches an absolute path against an absolute pattern with
// bash's pattern semantics (mvdan.cc/sh/v3/pattern: [!...], [[:alpha:]],
// backslash escapes). Shell globs follow the shell's rule that * and ? do
// not match a leading dot; find-style patterns (walk) match everything
// below, hidden names included, and ** crosses directories.
func patternMatch(pattern, p string, walk bool) bool {
	if walk {
		// doublestar's ** also matches no directory at all (a/** is a
		// itself, as find visits its start); the shell reading adds
		// bash's classes and [!...].
		return doublestar.MatchUnvalidated(pattern, p) ||
			shellMatch(pattern, p, shpattern.Filenames|shpattern.EntireString|shpattern.GlobLeadingDot)
	}
	pp, ps := strings.Split(pattern, "/"), strings.Split(p, "/")
	if len(pp) != len(ps) {
		return false
	}
	for i := range pp {
		if strings.HasPrefix(ps[i], ".") && !strings.HasPrefix(pp[i], ".") {
			return false
		}
		if !shellMatch(pp[i], ps[i], shpattern.EntireString|shpattern.NoGlobStar) {
			return false
		}
	}
	return true
}

// nameMatch matches a find -name pattern against a file name: fnmatch
// without FNM_PERIOD, so wildcards match a leading dot.
func nameMatch(pattern, name string) bool {
	return shellMatch(pattern, name, shpattern.EntireString|shpattern.NoGlobStar|shpattern.GlobLeadingDot)
}

// shellMatch matches s against a shell pattern. A pattern bash cannot read
// as one ("[abc" without its ]) matches itself literally, as in bash.
func shellMatch(pat, s string, mode shpattern.Mode) bool {
	if !strings.ContainsAny(pat, `*?[\`) {
		return pat == s
	}
	rx := shellRegexp(pat, mode)
	if rx == nil {
		return pat == s
	}
	return rx.MatchString(s)
}

// globCache keeps compiled patterns: the same few globs are matched against
// every protected path a command may reach.
var globCache struct {
	sync.Mutex
	m map[globKey]*regexp.Regexp
}

type globKey struct {
	pat  string
	mode shpattern.Mode
}

func shellRegexp(pat string, mode shpattern.Mode) *regexp.Regexp {
	k := globKey{pat, mode}
	globCache.Lock()
	defer globCache.Unlock()
	if rx, ok := globCache.m[k]; ok {
		return rx
	}
	var rx *regexp.Regexp
	if src, err := shpattern.Regexp(pat, mode); err == nil {
		rx, _ = regexp.Compile(src)
	}
	if globCache.m == nil || len(globCache.m) > 512 {
		globCache.m = map[globKey]*regexp.Regexp{}
	}
	globCache.m[k] = rx
	return rx
}

func (a *analyzer) resolveArg(x shell.Word, st *shell.State) target {
	if x.Dynamic {
		return target{unknown: true}
	}
	p := x.Text
	if p == "" {
		return target{}
	}
	var t target
	t.glob, t.walk = x.Glob, x.Walk
	if !path.IsAbs(p) && st.CwdUnknown {
		t.unknown = true
	}
	bases := st.Cwds
	if path.IsAbs(p) {
		bases = []string{"/"}
	}
	for _, c := range bases {
		abs := shell.CleanJoin(c, p)
		if t.glob {
			// .. after a glob component can climb anywhere.
			if i := strings.IndexAny(p, "*?["); i >= 0 && strings.Contains(p[i:], "..") {
				t.unknown = true
				continue
			}
			abs = a.followLinks(abs, false)
		} else {
			abs = a.resolveParent(abs, strings.HasSuffix(p, "/"))
		}
		t.paths = append(t.paths, a.canonCase(abs))
	}
	return t
}

// resolveParent resolves symlinks in the directory part of p; with full it
// resolves p itself too (a trailing slash follows a link to a directory).
func (a *analyzer) resolveParent(p string, full bool) string {
	p = a.followLinks(p, full)
	if a.env.Resolve == nil || p == "/" {
		return p
	}
	if full {
		return a.env.Resolve(p)
	}
	dir, base := path.Split(p)
	return path.Join(a.env.Resolve(path.Clean(dir)), base)
}

// globPlace classifies a glob pattern: the directory it expands in decides,
// and names it could match (.git, another worktree) are checked.
func (a *analyzer) globPlace(pattern string, st *shell.State, walk bool) effect.Place {
	static, _ := doublestar.SplitPattern(pattern)
	if static == "." {
		static = "/"
	}
	for _, g := range append(append([]string(nil), a.m.gitDirs...), a.m.worktrees...) {
		if !under(g, static) {
			continue
		}
		for p := g; under(p, static) && p != static; p = path.Dir(p) {
			if patternMatch(pattern, p, walk) {
				return effect.Place{Kind: effect.Outside, Where: effect.CanMatch, Pattern: pattern, Dir: g}
			}
		}
	}
	pl := a.classify(static, st)
	if pl.Kind == effect.Outside && static == a.env.Root && !st.Remote {
		return effect.Place{Kind: effect.Inside} // the worktree root's contents
	}
	if pl.Kind == effect.Inside || pl.Kind == effect.Sink {
		return pl
	}
	// The pattern expands below static: what counts is whether that area is
	// writable (/tmp/*), not static itself.
	if a.classify(static+"/x", st).Kind == effect.Writable {
		// (classify, not writable: a home under /tmp is still a home.)
		return effect.Place{Kind: effect.Writable}
	}
	if pl.Kind != effect.Outside {
		return a.elsewhere(pattern)
	}
	pl.Pattern = pattern
	return pl
}

// deletePath applies G5 (and G4, G7) to a path a command deletes: the
// delete effects go to the rules; guard-tamper is still decided here.
func (a *analyzer) deletePath(inv *shell.Invocation, x shell.Word, recursive bool) {
	verb := inv.Name
	if inv.State.Remote {
		a.judge(inv, effect.Delete{Target: effect.Target{Tool: verb, Shown: quoteShow(x), Remote: true}, Recursive: recursive})
		return
	}
	t := a.resolveArg(x, inv.State)
	if t.unknown {
		a.judge(inv, effect.Delete{Target: effect.Target{Tool: verb, Shown: quoteShow(x), Dynamic: true}, Recursive: recursive})
		if len(t.paths) == 0 {
			return
		}
	}
	for _, p := range t.paths {
		if t.glob {
			a.judge(inv, effect.Delete{Target: a.globTarget(verb, p, inv.State, t.walk), Recursive: recursive})
			if wipesWorktree(p, a.env.Root) {
				a.judge(inv, effect.Discard{Loss: effect.LostWorktree, Command: verb, Subject: p})
			}
			a.checkProtectedGlob(inv, p, t.walk, verb+" deletes")
			continue
		}
		if a.gitLockFile(p) {
			continue
		}
		// A protected file itself is tampering first; otherwise being outside
		// the worktree is the primary reason.
		hit := a.protectedHit(p, recursive)
		if hit == p {
			a.judge(inv, effect.GuardChange{Change: effect.FileChange, Command: verb + " deletes", Subject: hit})
		}
		d := effect.Delete{Target: a.pathTarget(verb, p, inv.State), Recursive: recursive}
		d.Protected, d.Secret = hit, a.secretName(p)
		if recursive && d.Place.Kind == effect.Inside {
			d.Contains = a.sensitiveBelow(p)
		}
		a.judge(inv, d)
		if hit != "" && hit != p {
			a.judge(inv, effect.GuardChange{Change: effect.FileChange, Command: verb + " deletes", Subject: hit})
		}
	}
}

// gitLockFile reports whether p is a lock file git leaves in the agent's
// own git directory (index.lock, HEAD.lock, refs/heads/x.lock) when a git
// process dies: removing a stale one is what git's own message says to do
// ("remove the file manually to continue"), and loses nothing.
func (a *analyzer) gitLockFile(p string) bool {
	if !strings.HasSuffix(p, ".lock") || strings.Contains(p, "/objects/") {
		return false
	}
	for _, g := range []string{a.env.GitDir, a.env.CommonDir} {
		if g != "" && under(p, g) && p != g {
			return true
		}
	}
	return false
}

// pathTarget describes the resolved path p as tool uses it.
func (a *analyzer) pathTarget(tool, p string, st *shell.State) effect.Target {
	return effect.Target{Tool: tool, Path: p, Place: a.classify(p, st)}
}

// globTarget describes the resolved pattern p as tool uses it.
func (a *analyzer) globTarget(tool, p string, st *shell.State, walk bool) effect.Target {
	return effect.Target{Tool: tool, Path: p, Glob: true, Place: a.globPlace(p, st, walk)}
}

func (a *analyzer) checkProtectedGlob(inv *shell.Invocation, pattern string, walk bool, verb string) {
	if inv.State.Remote {
		return
	}
	static, _ := doublestar.SplitPattern(pattern)
	for _, pat := range a.m.protected {
		if base, ok := strings.CutSuffix(pat, "/**"); ok && !strings.ContainsAny(base, "*?[{") && (static == base || under(static, base)) {
			// Anything the glob matches lies inside a protected tree.
			a.judge(inv, effect.GuardChange{Change: effect.FileInTree, Command: verb, Subject: base, Pattern: pattern})
			return
		}
		if strings.ContainsAny(pat, "*?[{") || a.m.exactOnly[pat] {
			continue
		}
		if patternMatch(pattern, pat, walk) {
			a.judge(inv, effect.GuardChange{Change: effect.FileMatched, Command: verb, Subject: pat, Pattern: pattern})
			return
		}
	}
}

// writePath applies G6 (and G4, G7) to a path a command writes or changes:
// the write effects go to the rules; guard-tamper and secret-file are
// still decided here.
func (a *analyzer) writePath(inv *shell.Invocation, x shell.Word, verb string) {
	a.writeTree(inv, x, verb, false)
}

// writeTree is writePath for a change that may reach below the path too
// (chmod -R): it reaches the git directories and other worktrees below,
// and the guard configuration there.
func (a *analyzer) writeTree(inv *shell.Invocation, x shell.Word, verb string, recursive bool) {
	if x.Proc {
		return // -o >(cmd): output goes to a command, checked as one
	}
	if inv.State.Remote {
		if !x.Static() || !isSink(x.Text) {
			a.judge(inv, effect.Write{Target: effect.Target{Tool: inv.Name, Shown: quoteShow(x), Remote: true}, Verb: verb})
		}
		return
	}
	t := a.resolveArg(x, inv.State)
	if t.unknown || t.glob {
		a.opaque = true // writes the analysis cannot list
	}
	if t.unknown {
		a.judge(inv, effect.Write{Target: effect.Target{Tool: inv.Name, Shown: quoteShow(x), Dynamic: true}, Verb: verb})
		if len(t.paths) == 0 {
			return
		}
	}
	for _, p := range t.paths {
		if t.glob {
			a.checkProtectedGlob(inv, p, t.walk, verb)
			w := effect.Write{Target: a.globTarget(inv.Name, p, inv.State, t.walk), Verb: verb}
			w.Secret, _ = a.globReachesSecret(p)
			a.judge(inv, w)
			continue
		}
		a.writes = append(a.writes, p)
		w := effect.Write{Target: a.pathTarget(inv.Name, p, inv.State), Verb: verb}
		if w.Protected = a.protectedHit(p, false); w.Protected != "" {
			a.judge(inv, effect.GuardChange{Change: effect.FileChange, Command: verb, Subject: w.Protected})
		}
		w.Secret = a.secretName(p)
		if recursive {
			w.Recursive, w.Contains = true, a.sensitiveBelow(p)
		}
		a.judge(inv, w)
		if recursive {
			if hit := a.protectedHit(p, true); hit != "" && hit != p {
				a.judge(inv, effect.GuardChange{Change: effect.FileBelow, Command: inv.Name, Subject: hit})
			}
		}
	}
}

// readPath describes a path a command reads to the rules (G7).
func (a *analyzer) readPath(inv *shell.Invocation, x shell.Word) {
	verb := inv.Name + " reads"
	if x.Dynamic && environTemplate(x.Template()) {
		// cat /proc/$PPID/environ: some process's environment, only known
		// at run time, and only /proc/self is the agent's own.
		a.judge(inv, effect.Read{Target: effect.Target{Tool: inv.Name, Shown: x.Show(), Dynamic: true}, Verb: verb, OtherEnviron: true})
		return
	}
	if x.Dynamic || x.Text == "" {
		return
	}
	t := a.resolveArg(x, inv.State)
	if len(t.paths) == 0 {
		return
	}
	// One operand is one read: the first of its resolutions (one per
	// possible working directory) that is, or can match, a secret file
	// stands for it.
	r := effect.Read{Target: effect.Target{Tool: inv.Name, Path: t.paths[0], Shown: x.Text, Glob: t.glob}, Verb: verb}
	for _, p := range t.paths {
		if t.glob {
			r.Secret, _ = a.globReachesSecret(p)
		} else {
			r.Secret = a.secretName(p)
		}
		if r.Secret != "" {
			r.Path = p
			break
		}
	}
	a.judge(inv, r)
}

// secretName is p when it is a secret file, else "".
func (a *analyzer) secretName(p string) string {
	if a.isSecret(p) {
		return p
	}
	return ""
}

// wipesWorktree reports whether a glob matches every entry at the top of
// the worktree: *, .*, .[!.]* and their like, directly in the root.
func wipesWorktree(pattern, root string) bool {
	if root == "" || path.Dir(pattern) != root {
		return false
	}
	switch base := path.Base(pattern); {
	case base == "*", base == ".*", base == "*.*", base == "..?*", base == "?*":
		return true
	case strings.HasPrefix(base, ".[!.]") || strings.HasPrefix(base, ".[^.]"):
		return true
	}
	return false
}

// hookManagerFiles are the files, relative to the worktree root, that
// decide which git hooks run: husky's scripts, lefthook's and the
// pre-commit framework's configurations, and swarm-guard's CI workflow.
var hookManagerFiles = []string{
	".husky", ".husky/**",
	"lefthook.yml", "lefthook.yaml", ".lefthook.yml", ".lefthook.yaml", "lefthook.json", "lefthook.toml",
	"lefthook-local.yml", "lefthook-local.yaml", ".lefthook-local.yml", ".lefthook-local.yaml", ".lefthook", ".lefthook/**",
	".lefthook.json", ".lefthook.toml", "lefthook-local.json", "lefthook-local.toml", ".lefthook-local.json", ".lefthook-local.toml",
	".config/lefthook.yml", ".config/lefthook.yaml", ".config/lefthook.json", ".config/lefthook.toml",
	".config/lefthook-local.yml", ".config/lefthook-local.yaml",
	".pre-commit-config.yaml", ".pre-commit-config.yml",
	".github/workflows/swarm-guard.yml",
}

// sameRepoCheckout reports whether p lies in another clone of the home's
// repository: another agent's or a human's checkout, read-only like a
// sibling worktree.
func (a *analyzer) sameRepoCheckout(p string) (string, bool) {
	f, ok := a.env.Repo.(checkoutFinder)
	if !ok || f == nil {
		return "", false
	}
	return f.SameRepoCheckout(p)
}

// environTemplate reports whether a path with unknown parts (marked by
// unknownMark) names /proc/<something>/environ.
func environTemplate(tmpl string) bool {
	rest, ok := strings.CutPrefix(tmpl, "/proc/")
	if !ok {
		return false
	}
	pid, file, ok := strings.Cut(rest, "/")
	return ok && file == "environ" && strings.Contains(pid, shell.UnknownMark)
}

// followLinks rewrites p through the symlinks the command created: with
// full, p itself is followed too (a trailing slash, a program to run).
func (a *analyzer) followLinks(p string, full bool) string {
	for hops := 0; hops < 8 && len(a.links) > 0; hops++ {
		// The longest link that is a prefix wins, whatever the map order:
		// the decision must not depend on iteration order.
		best, target := "", ""
		for l, t := range a.links {
			if (full && p == l || strings.HasPrefix(p, l+"/")) && len(l) > len(best) {
				best, target = l, t
			}
		}
		if best == "" {
			break
		}
		if p == best {
			p = target
		} else {
			p = path.Join(target, p[len(best)+1:])
		}
	}
	return p
}

// quoteShow is how a reason shows an operand as it was written: in
// backquotes, "(empty)" for an empty word.
func quoteShow(x shell.Word) string {
	s := x.Show()
	if s == "" {
		s = "(empty)"
	}
	return "`" + s + "`"
}

// isRemoteSpec reports whether an rsync/scp operand names another machine.
func isRemoteSpec(s string) bool {
	if strings.HasPrefix(s, "rsync://") {
		return true
	}
	colon := strings.IndexByte(s, ':')
	slash := strings.IndexByte(s, '/')
	return colon > 0 && (slash < 0 || colon < slash)
}

// readTree checks an operand a command reads recursively (tar, zip -r,
// scp -r): a secret file, or a directory of secrets such as ~/.ssh.
func (a *analyzer) readTree(inv *shell.Invocation, x shell.Word, what string) {
	a.readPath(inv, x)
	if !x.Static() {
		return
	}
	t := a.resolveArg(x, inv.State)
	if len(t.paths) == 0 {
		return
	}
	// One operand is one read of a tree: the first of its resolutions
	// that is a directory of secrets stands for it.
	r := effect.Read{Target: effect.Target{Tool: inv.Name, Path: t.paths[0], Shown: x.Text, Glob: t.glob}, Verb: what + " reads", Tree: true}
	for _, p := range t.paths {
		if a.isSecretDir(p) {
			r.Path, r.Secret = p, p
			break
		}
	}
	a.judge(inv, r)
}

// isSecretDir reports whether everything below p is secret (~/.ssh, ~/.aws).
func (a *analyzer) isSecretDir(p string) bool {
	return !a.isSecret(p) && a.isSecret(p+"/x") && a.isSecret(p+"/config")
}
