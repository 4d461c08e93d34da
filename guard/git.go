package guard

import (
	"path"
	"strings"
	"sync"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/rules"
	"github.com/swarm-guard/swarm-guard/guard/swarm"
)

// gitCtx is one git invocation after its global options.
type gitCtx struct {
	inv      *invocation       // the git command; inv.st has -C applied
	gitDir   arg               // --git-dir / GIT_DIR, when given
	workTree arg               // --work-tree / GIT_WORK_TREE, when given
	config   map[string]string // -c key=value for this invocation, keys lower case
}

const altNoVerify = "run the command without --no-verify and fix what the hooks report"

func (a *analyzer) git(inv *invocation) { a.gitArgs(inv, inv.args(), 0) }

// dashedGit handles git-push, /usr/lib/git-core/git-reset and friends.
func (a *analyzer) dashedGit(inv *invocation, sub string) {
	a.gitArgs(inv, append([]arg{{s: sub, src: inv.argv[0].src}}, inv.args()...), 0)
}

func (a *analyzer) gitArgs(inv *invocation, args []arg, aliasDepth int) {
	g := &gitCtx{inv: inv, config: map[string]string{}}
	if v, ok := inv.env["GIT_DIR"]; ok && len(v) > 0 {
		g.gitDir = v[0]
	}
	if v, ok := inv.env["GIT_WORK_TREE"]; ok && len(v) > 0 {
		g.workTree = v[0]
	}
	aliases := map[string]string{}
	i := 0
	for i < len(args) {
		x := args[i]
		if x.dynamic {
			a.judge(inv, effect.HiddenCode{By: "git", What: quoteShow(x), Why: effect.GitWord})
			return
		}
		s := x.s
		next := func() (arg, bool) {
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return arg{}, false
		}
		switch {
		case s == "-C":
			if d, ok := next(); ok {
				g.inv = a.withCwd(g.inv, d)
			}
		case s == "-c":
			if kv, ok := next(); ok {
				key, val, _ := strings.Cut(kv.s, "=")
				g.config[strings.ToLower(key)] = val
				if strings.EqualFold(key, "clean.requireForce") {
					break // only matters to this git clean; gitClean decides
				}
				a.gitConfigPair(g.inv, kv, aliases)
			}
		case strings.HasPrefix(s, "--config-env"):
			v := strings.TrimPrefix(strings.TrimPrefix(s, "--config-env"), "=")
			if v == "" {
				kv, _ := next()
				v = kv.s
			}
			key, _, _ := strings.Cut(v, "=")
			a.gitConfigPair(g.inv, arg{s: key + "=", dynamic: true, src: x.src}, aliases)
		case s == "--git-dir" || s == "--work-tree" || s == "--namespace" || s == "--super-prefix" || s == "--attr-source":
			v, _ := next()
			if s == "--git-dir" {
				g.gitDir = v
			} else if s == "--work-tree" {
				g.workTree = v
			}
		case strings.HasPrefix(s, "--git-dir="):
			g.gitDir = arg{s: strings.TrimPrefix(s, "--git-dir="), src: x.src}
		case strings.HasPrefix(s, "--work-tree="):
			g.workTree = arg{s: strings.TrimPrefix(s, "--work-tree="), src: x.src}
		case strings.HasPrefix(s, "--exec-path="):
			a.judge(inv, effect.HiddenCode{By: "git", What: strings.TrimPrefix(s, "--exec-path="), Why: effect.ExecPath})
			return
		case strings.HasPrefix(s, "-"):
			// -p, -P, --no-pager, --bare, --literal-pathspecs, --version, ...
		default:
			a.gitSub(g, s, args[i+1:], aliases, aliasDepth)
			return
		}
		i++
	}
}

// executableConfig reports whether git runs the value of a config key as a
// command.
func executableConfig(key string) bool {
	switch key {
	case "core.editor", "core.pager", "sequence.editor", "core.sshcommand", "core.fsmonitor", "core.askpass",
		"diff.external", "gpg.program", "credential.helper", "interactive.difffilter", "core.gitproxy",
		"uploadpack.packobjectshook", "web.browser", "sendemail.sendmailcmd", "sendemail.tocmd", "sendemail.cccmd":
		return true
	}
	first, rest, _ := strings.Cut(key, ".")
	last := key[strings.LastIndex(key, ".")+1:]
	switch first {
	case "pager":
		return true
	case "filter":
		return last == "clean" || last == "smudge" || last == "process"
	case "diff":
		return last == "command" || last == "textconv"
	case "merge":
		return last == "driver"
	case "gpg":
		return last == "program"
	case "difftool", "mergetool", "browser", "man":
		return last == "cmd" || last == "path"
	case "credential":
		return strings.HasSuffix(rest, ".helper")
	}
	return false
}

// gitConfigPair checks one key=value that git will apply: hook paths are
// guard configuration, and some values are commands git runs.
func (a *analyzer) gitConfigPair(inv *invocation, kv arg, aliases map[string]string) {
	key, val, _ := strings.Cut(kv.s, "=")
	a.gitConfigWrite(inv, key, arg{s: val, dynamic: kv.dynamic, src: kv.src}, true, aliases)
}

// gitConfigWrite checks setting (or unsetting, hasValue false) one key.
func (a *analyzer) gitConfigWrite(inv *invocation, rawKey string, val arg, hasValue bool, aliases map[string]string) {
	key := strings.ToLower(rawKey)
	if strings.HasPrefix(key, "trailer.") && hasValue {
		a.trailerConfig(inv, rawKey, val)
	}
	switch {
	case key == "core.hookspath" || key == "include.path" || strings.HasPrefix(key, "includeif."):
		// Which hooks run: guard-tamper judges.
		a.judge(inv, effect.GitConfig{Key: rawKey, Value: val.s, Set: hasValue, Dynamic: val.dynamic})
		return
	case strings.HasPrefix(key, "alias."):
		name := rawKey[len("alias."):]
		if !hasValue {
			return
		}
		if val.dynamic {
			a.judge(inv, effect.HiddenCode{By: "git", What: name, Why: effect.GitAlias})
			return
		}
		if strings.HasPrefix(val.s, "!") {
			a.script(val.s[1:], inv.st.clone(), nil)
			return
		}
		if aliases != nil {
			aliases[name] = val.s
		}
		inv.st.gitAliases[name] = val.s
		// The alias outlives this command: what it would run is checked now.
		if words := strings.Fields(val.s); len(words) > 0 && words[0] != name {
			argv := make([]arg, 0, len(words))
			for _, w := range words[1:] {
				argv = append(argv, arg{s: strings.Trim(w, `'"`), src: val.s})
			}
			a.gitSub(&gitCtx{inv: inv}, words[0], argv, map[string]string{}, 1)
		}
		return
	case strings.HasPrefix(key, "remote.") && strings.HasSuffix(key, ".push"):
		if hasValue {
			a.pushRefspecConfig(inv, val)
		}
		return
	case strings.HasPrefix(key, "remote.") && strings.HasSuffix(key, ".mirror") && len(key) > len("remote..mirror"), key == "clean.requireforce":
		// What later pushes and cleans do: force-push and destructive-git judge.
		a.judge(inv, effect.GitConfig{Key: rawKey, Value: val.s, Set: hasValue, Dynamic: val.dynamic})
		return
	}
	if !executableConfig(key) || !hasValue {
		return
	}
	if val.dynamic {
		a.judge(inv, effect.HiddenCode{By: "git", What: rawKey, Why: effect.ConfigCommand})
		return
	}
	v := strings.TrimSpace(val.s)
	switch strings.ToLower(v) {
	case "", "true", "false", "yes", "no", "on", "off", "0", "1":
		return
	}
	if key == "credential.helper" || strings.HasPrefix(key, "credential.") {
		if !strings.HasPrefix(v, "!") {
			if !strings.Contains(v, "/") {
				return // a git-credential-<name> helper
			}
		} else {
			v = v[1:]
		}
	}
	a.script(v, inv.st.clone(), nil)
}

func isFalse(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "false", "no", "off", "0":
		return true
	}
	return false
}

func hasAnyFlag(args []arg, flags ...string) bool {
	for _, x := range args {
		if x.s == "--" {
			return false
		}
		for _, f := range flags {
			if x.s == f {
				return true
			}
		}
	}
	return false
}

func hasPrefixFlag(args []arg, prefix string) bool {
	for _, x := range args {
		if strings.HasPrefix(x.s, prefix) {
			return true
		}
	}
	return false
}

// commitsOnto reports commands that add commits to (move) a protected
// branch because it is checked out where git runs: committing, merging,
// cherry-picking, reverting or applying patches on main moves main.
func (a *analyzer) commitsOnto(g *gitCtx, sub string, args []arg) {
	if hasAnyFlag(args, "--abort", "--quit", "--skip", "--dry-run", "--help", "-h") {
		return
	}
	if branches, _ := a.currentBranches(g); len(branches) > 0 {
		a.judge(g.inv, effect.BranchChange{Op: effect.CommitCurrent, Current: branches, Args: sub, Home: a.runsHome(g)})
	}
}

// runsHome reports whether git runs in the agent's own worktree only
// (no --git-dir, every possible cwd inside it).
func (a *analyzer) runsHome(g *gitCtx) bool {
	st := g.inv.st
	if st.remote || g.gitDir.s != "" || g.gitDir.dynamic || st.cwdUnknown || len(st.cwds) == 0 {
		return false
	}
	for _, c := range st.cwds {
		if !a.inOwnWorktree(c) {
			return false
		}
	}
	return true
}

// extTransport checks a git ext:: URL: git runs it as a command. Words
// are separated by spaces; "% " is a space inside a word, "%%" a percent,
// and %s, %S, %G stand for values git fills in.
func (a *analyzer) extTransport(inv *invocation, spec string) {
	var argv []arg
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			argv = append(argv, arg{s: cur.String(), src: "ext::" + spec})
			cur.Reset()
		}
	}
	for i := 0; i < len(spec); i++ {
		c := spec[i]
		switch {
		case c == '%' && i+1 < len(spec):
			i++
			switch spec[i] {
			case ' ':
				cur.WriteByte(' ')
			case '%':
				cur.WriteByte('%')
			default:
				cur.WriteString("git-upload-pack") // %s, %S, %G: a value git chooses
			}
		case c == ' ':
			flush()
		default:
			cur.WriteByte(c)
		}
	}
	flush()
	a.reinvoke(inv, argv, "git ext::")
}

// gitSub dispatches a git subcommand.
func (a *analyzer) gitSub(g *gitCtx, sub string, args []arg, aliases map[string]string, aliasDepth int) {
	inv := g.inv
	if exp, ok := aliases[sub]; ok || inv.st.gitAliases[sub] != "" {
		if !ok {
			exp = inv.st.gitAliases[sub]
		}
		if aliasDepth > 8 {
			a.abort("git aliases expand into each other too deeply")
			return
		}
		words := strings.Fields(exp)
		if len(words) == 0 {
			return // git refuses an alias that expands to nothing
		}
		expanded := make([]arg, 0, len(words)+len(args))
		for _, w := range words {
			expanded = append(expanded, arg{s: strings.Trim(w, `'"`), src: exp})
		}
		a.gitSub(g, expanded[0].s, append(expanded[1:], args...), aliases, aliasDepth+1)
		return
	}
	args = expandGitAbbrevs(sub, args)
	// After the subcommand's own rules, which name the more specific harm.
	defer a.gitInForeignWorktree(g, sub, args)
	for _, x := range args {
		if rest, ok := strings.CutPrefix(x.s, "ext::"); ok && !x.dynamic {
			a.extTransport(inv, rest)
		}
	}
	for _, x := range args {
		if x.static() && x.s == "--no-verify" {
			a.judge(inv, effect.GuardChange{Control: effect.HookedHistory, Does: "git " + sub + " --no-verify skips the git hooks that check secrets and commit trailers", Instead: altNoVerify})
			break
		}
		if x.static() && x.s == "--" {
			break
		}
	}
	switch sub {
	case "commit", "merge", "am", "cherry-pick", "revert":
		a.commitsOnto(g, sub, args)
	}
	switch sub {
	case "push":
		a.gitPush(g, args)
	case "commit":
		a.gitCommit(g, args)
	case "merge", "pull", "am", "cherry-pick", "revert", "tag", "notes":
		a.gitPassive(g, sub, args)
	case "checkout-index":
		p := parseOpts(args, optSpec{long: longs("prefix", "stage")})
		if p.has("f", "force") {
			a.judge(inv, effect.Discard{Loss: effect.LostFiles, Command: "git checkout-index --force"})
		}
	case "read-tree":
		p := parseOpts(args, optSpec{long: longs("prefix", "index-output", "exclude-per-directory")})
		if p.has("u") && (p.has("reset") || p.has("m")) {
			a.judge(inv, effect.Discard{Loss: effect.LostFiles, Command: "git read-tree -u --reset"})
		}
	case "difftool", "mergetool":
		p := parseOpts(args, optSpec{short: "xt", long: longs("extcmd", "tool")})
		for _, c := range p.values("x", "extcmd") {
			a.runScriptArg(inv, c, "git "+sub+" --extcmd")
		}
		if sub == "difftool" {
			a.gitReads(g, sub, args)
		}
	case "rebase":
		a.gitRebase(g, args)
	case "checkout":
		a.ignoreOtherWorktrees(g, args)
		a.gitCheckout(g, args)
	case "switch":
		a.ignoreOtherWorktrees(g, args)
		a.gitSwitch(g, args)
	case "restore":
		a.gitRestore(g, args)
	case "reset":
		a.gitReset(g, args)
	case "clean":
		a.gitClean(g, args)
	case "stash":
		a.gitStash(g, args)
	case "branch":
		a.gitBranch(g, args)
	case "update-ref":
		a.gitUpdateRef(g, args)
	case "symbolic-ref":
		a.gitSymbolicRef(g, args)
	case "worktree":
		a.gitWorktree(g, args)
	case "config":
		a.gitConfig(g, args)
	case "filter-branch", "filter-repo":
		a.judge(inv, effect.Discard{Loss: effect.LostHistory, Command: "git " + sub})
	case "reflog":
		if len(args) > 0 && (args[0].s == "expire" || args[0].s == "delete") {
			a.judge(inv, effect.Discard{Loss: effect.LostReflog, Command: "git reflog " + args[0].s})
		}
	case "gc":
		for _, x := range args {
			if x.s == "--prune=now" || x.s == "--prune=all" {
				a.judge(inv, effect.Discard{Loss: effect.LostUnreachableNow, Command: "git gc " + x.s})
			}
		}
	case "prune":
		a.judge(inv, effect.Discard{Loss: effect.LostUnreachable, Command: "git prune"})
	case "commit-tree":
		a.judge(inv, effect.GuardChange{Control: effect.HookedHistory, Does: "git commit-tree creates commits without running the git hooks", Instead: "use git commit"})
	case "fast-import":
		a.judge(inv, effect.GuardChange{Control: effect.HookedHistory, Does: "git fast-import creates commits without running the git hooks, with any trailer it is given", Instead: "use git commit"})
	case "hash-object":
		a.hashObjectCommit(inv, args)
	case "replace":
		a.gitReplace(inv, args)
	case "rm":
		a.gitRm(g, args)
	case "update-index":
		if hasAnyFlag(args, "--remove", "--force-remove") {
			a.untrackProtected(g.inv, parseOpts(args, optSpec{long: longs("cacheinfo", "chmod", "index-info", "index-version")}).operands)
		}
	case "mv":
		p := parseOpts(args, optSpec{})
		if len(p.operands) >= 2 {
			for _, s := range p.operands[:len(p.operands)-1] {
				a.deletePath(inv, s, true)
			}
			a.writePath(inv, p.operands[len(p.operands)-1], "git mv writes to")
		}
	case "add", "stage", "diff", "show", "blame", "annotate", "cat-file", "format-patch":
		a.gitReads(g, sub, args)
	case "log", "whatchanged":
		// Only a patch shows file contents: git log --oneline -- .env does not.
		if hasAnyFlag(args, "-p", "-u", "--patch", "--word-diff", "--full-diff") || hasPrefixFlag(args, "--word-diff=") {
			a.gitReads(g, sub, args)
		}
	case "archive":
		p := parseOpts(args, optSpec{short: "o", long: longs("output", "format", "prefix", "remote", "exec", "add-file", "add-virtual-file")})
		for _, o := range p.values("o", "output") {
			a.writePath(inv, o, "git archive writes")
		}
		for _, f := range p.values("add-file") {
			a.readPath(inv, f)
		}
	case "grep":
		p := parseOpts(args, optSpec{short: "efmABC", long: longs("max-depth", "max-count", "context", "after-context", "before-context", "threads")})
		for k, x := range p.operands {
			if k == 0 && len(p.values("e", "f")) == 0 && !p.dashdash {
				continue
			}
			a.readPath(inv, x)
		}
	case "submodule":
		if len(args) > 0 && args[0].s == "deinit" && hasAnyFlag(args, "-f", "--force") {
			a.judge(inv, effect.Discard{Loss: effect.LostSubmodules, Command: "git submodule deinit --force"})
		}
		for k, x := range args {
			if x.s == "foreach" {
				rest := args[k+1:]
				for len(rest) > 0 && strings.HasPrefix(rest[0].s, "--") {
					rest = rest[1:]
				}
				a.runScriptArg(inv, joinArgs(rest), "git submodule foreach")
				return
			}
		}
	case "bisect":
		if len(args) > 1 && args[0].s == "run" {
			a.reinvoke(inv, args[1:], "git bisect run")
		}
	case "fetch":
		a.gitFetch(g, args)
	case "clone":
		a.gitClone(g, args)
	case "send-pack":
		a.gitPush(g, args)
	}
}

// currentBranches returns the branches checked out where this git command
// runs; unknown is true when some location cannot be told.
func (a *analyzer) currentBranches(g *gitCtx) (branches []string, unknown bool) {
	st := g.inv.st
	if st.remote || g.gitDir.dynamic {
		return nil, true
	}
	if g.gitDir.s != "" {
		// --git-dir / GIT_DIR: the branch of that repository.
		if a.env.Repo == nil || len(st.cwds) == 0 {
			return nil, true
		}
		dir := cleanJoin(st.cwds[0], g.gitDir.s)
		if b, ok := a.env.Repo.BranchAt(dir); ok {
			return []string{b}, false
		}
		return nil, true
	}
	if st.cwdUnknown {
		unknown = true
	}
	for _, c := range st.cwds {
		if a.inOwnWorktree(c) {
			if a.env.Branch == "" && !a.env.Detached {
				unknown = true
				continue
			}
			branches = append(branches, a.env.Branch)
			continue
		}
		if a.env.Repo == nil {
			unknown = true
			continue
		}
		b, ok := a.env.Repo.BranchAt(c)
		if !ok {
			unknown = true
			continue
		}
		branches = append(branches, b)
	}
	return branches, unknown
}

func (a *analyzer) inOwnWorktree(p string) bool {
	if !a.underRoot(p) {
		return false
	}
	for _, w := range a.m.worktrees {
		if under(p, w) {
			return false
		}
	}
	return true
}

// protected reports whether a ref names a protected branch. The rules
// decide; the git code asks only to know when nothing else follows (git
// branch -D main is protected-branch's alone).
func (a *analyzer) protected(ref string) bool { return rules.ProtectedRef(a.pol, ref) }

var pushSpec = sync.OnceValue(func() optSpec {
	return optSpec{short: "o", long: longs("repo", "receive-pack", "exec", "push-option"),
		optionalLS: longs("force-with-lease", "signed", "recurse-submodules", "force-if-includes")}
})

func (a *analyzer) gitPush(g *gitCtx, args []arg) {
	inv := g.inv
	p := parseOpts(args, pushSpec())
	for _, c := range p.values("receive-pack", "exec") {
		remote := *inv
		remote.st = remoteState(inv.st)
		a.runScriptArg(&remote, c, "git push --receive-pack")
	}
	if p.has("n", "dry-run") {
		return // a dry run changes nothing
	}
	e := effect.Push{
		Force: p.has("f", "force"), Lease: p.has("force-with-lease"), IfIncludes: p.has("force-if-includes"),
		Mirror: p.has("mirror"), All: p.has("all", "branches"), Prune: p.has("prune"), Tags: p.has("tags"),
		Delete: p.has("d", "delete"), Dynamic: p.dynamicOption(),
	}
	if e.Dynamic {
		a.judge(inv, e)
		return
	}
	refspecs := p.operands
	if len(refspecs) > 0 {
		e.Remote = refspecs[0].s
		refspecs = refspecs[1:]
	}
	e.Matching = len(refspecs) == 0 && strings.EqualFold(g.config["push.default"], "matching")
	a.judge(inv, a.describePush(g, e, refspecs))
}

// pushRefspecConfig: remote.<name>.push sets a refspec every later push
// of that remote uses; it is judged as a push of that refspec.
func (a *analyzer) pushRefspecConfig(inv *invocation, val arg) {
	a.judge(inv, a.describePush(&gitCtx{inv: inv}, effect.Push{}, []arg{val}))
}

// describePush completes a push's effect from its refspecs: each one
// normalized, with the remote ref it writes; the branches HEAD names when
// the push sends the current branch; whether branch ownership applies.
func (a *analyzer) describePush(g *gitCtx, e effect.Push, refspecs []arg) effect.Push {
	e.Swarm = a.inSwarmRepo(g)
	needCurrent := e.Lease || len(refspecs) == 0 && !e.All && !e.Mirror && !e.Tags
	if len(refspecs) > 0 {
		e.Refspecs = make([]effect.Refspec, 0, len(refspecs))
	}
	for _, r := range refspecs {
		rs := a.describeRefspec(g, r, e.Delete, e.Swarm)
		needCurrent = needCurrent || rs.Current
		e.Refspecs = append(e.Refspecs, rs)
	}
	if needCurrent {
		branches, unknown := a.currentBranches(g)
		e.CurrentUnknown = unknown
		e.Current = make([]effect.Branch, len(branches))
		for i, b := range branches {
			e.Current[i].Name = b
			if e.Swarm && b != "" && !a.pol.IsProtectedBranch(b) {
				e.Current[i].Ref = a.remoteRefName(g, b, b, swarm.RefUpdate)
				e.Current[i].CheckedOutBy = a.refCheckedOutElsewhere(e.Current[i].Ref)
			}
		}
	}
	return e
}

// describeRefspec normalizes one refspec of a push: a delete has no
// source, a refspec without destination pushes its source to the same
// name, and HEAD alone is the current branch.
func (a *analyzer) describeRefspec(g *gitCtx, r arg, deleting, inSwarm bool) effect.Refspec {
	if r.dynamic {
		return effect.Refspec{Text: r.show(), Dynamic: true}
	}
	rs := effect.Refspec{Text: r.s, Glob: r.glob}
	spec := r.s
	if strings.HasPrefix(spec, "+") {
		rs.Force = true
		spec = spec[1:]
	}
	if spec == ":" && !deleting {
		rs.Matching = true
		return rs
	}
	src, dst, colon := strings.Cut(spec, ":")
	if deleting {
		dst, colon, src = src, true, ""
	}
	op := swarm.RefUpdate
	if colon && src == "" {
		rs.Delete = true
		op = swarm.RefDelete
	}
	if !colon || dst == "" {
		dst = src
		if !rs.Delete && (src == "HEAD" || src == "@") {
			rs.Src, rs.Current = src, true
			return rs
		}
	}
	rs.Src, rs.Dst = src, dst
	if inSwarm && !strings.Contains(dst, "*") {
		rs.Ref = a.remoteRefName(g, src, dst, op)
		rs.CheckedOutBy = a.refCheckedOutElsewhere(rs.Ref)
	}
	return rs
}

func (a *analyzer) gitCommit(g *gitCtx, args []arg) {
	p := parseOpts(args, optSpec{short: "mFCct", long: longs("message", "file", "reuse-message", "reedit-message", "template",
		"author", "date", "cleanup", "fixup", "squash", "trailer", "pathspec-from-file"), optionalLS: longs("gpg-sign", "untracked-files")})
	if p.has("n") {
		a.judge(g.inv, effect.GuardChange{Control: effect.HookedHistory, Does: "git commit -n is --no-verify: it skips the git hooks that check secrets and commit trailers", Instead: altNoVerify})
	}
	for _, f := range p.values("F", "file", "t", "template", "pathspec-from-file") {
		a.readPath(g.inv, f)
	}
	for _, x := range p.operands {
		a.readPath(g.inv, x)
	}
}

// gitPassive: subcommands whose only concerns are --no-verify (checked by
// the caller) and paths that may be secret files.
func (a *analyzer) gitPassive(g *gitCtx, sub string, args []arg) {
	p := parseOpts(args, optSpec{short: "mFsXSC", long: longs("message", "file", "strategy", "strategy-option", "cleanup", "into-name")})
	for _, f := range p.values("F", "file") {
		a.readPath(g.inv, f)
	}
	if sub == "am" {
		for _, x := range p.operands {
			a.readPath(g.inv, x)
		}
	}
}

func (a *analyzer) gitRebase(g *gitCtx, args []arg) {
	p := parseOpts(args, optSpec{short: "sXxC", long: longs("onto", "strategy", "strategy-option", "exec", "empty", "whitespace"),
		optionalLS: longs("gpg-sign", "rebase-merges", "autosquash")})
	for _, c := range p.values("x", "exec") {
		a.runScriptArg(g.inv, c, "git rebase --exec")
	}
	if p.has("abort", "quit", "continue", "skip", "edit-todo", "show-current-patch") {
		return
	}
	var branch string
	switch {
	case p.has("root") && len(p.operands) >= 1:
		branch = p.operands[0].s
	case len(p.operands) >= 2:
		branch = p.operands[1].s
	}
	if branch != "" {
		a.judge(g.inv, effect.BranchChange{Op: effect.RebaseBranch, Branch: branch})
		return
	}
	if branches, _ := a.currentBranches(g); len(branches) > 0 {
		a.judge(g.inv, effect.BranchChange{Op: effect.RebaseCurrent, Current: branches})
	}
}

var checkoutSpec = sync.OnceValue(func() optSpec {
	return optSpec{short: "bBt", long: longs("orphan", "conflict", "pathspec-from-file"), optionalLS: longs("track", "recurse-submodules")}
})

func (a *analyzer) gitCheckout(g *gitCtx, args []arg) {
	inv := g.inv
	p := parseOpts(args, checkoutSpec())
	if p.has("p", "patch") {
		return // interactive; nothing happens without a terminal
	}
	if v, ok := p.value("B"); ok {
		a.judge(inv, effect.BranchChange{Op: effect.CheckoutReset, Branch: v.s})
	}
	for _, v := range append(p.values("b", "orphan"), p.values("B")...) {
		a.judge(inv, effect.BranchChange{Op: effect.CheckoutCreate, Branch: v.s})
	}
	if _, ok := p.value("pathspec-from-file"); ok {
		a.judge(inv, effect.Discard{Loss: effect.LostToCommitted, Command: "git checkout --pathspec-from-file"})
		return
	}
	creating := len(p.values("b", "B", "orphan")) > 0
	force := p.has("f", "force")
	// Operands before "--" may be a branch or paths; after "--" they are paths.
	var before, paths []arg
	if p.dashdash {
		n := len(args)
		for k := range args {
			if args[k].s == "--" {
				n = len(args) - k - 1
				break
			}
		}
		before = p.operands[:len(p.operands)-n]
		paths = p.operands[len(p.operands)-n:]
	} else {
		before = p.operands
	}
	if len(before) > 0 && !creating {
		t := before[0]
		rest := before[1:]
		switch {
		case t.dynamic:
			a.judge(inv, effect.BranchChange{Op: effect.Checkout, Branch: t.show(), Dynamic: true})
		case t.s == "." || (len(rest) == 0 && !p.dashdash && a.isWorktreePath(g, t.s)):
			paths = append(paths, t)
		default:
			if len(rest) == 0 && len(paths) == 0 && !p.has("detach") {
				a.judge(inv, effect.BranchChange{Op: effect.Checkout, Branch: t.s})
			}
			paths = append(paths, rest...) // git checkout <tree-ish> <paths>
		}
	}
	if len(paths) > 0 {
		a.judge(inv, effect.Discard{Loss: effect.LostToCommitted, Command: "git checkout " + showArgs(paths)})
		return
	}
	if force {
		a.judge(inv, effect.Discard{Loss: effect.LostOnSwitch, Command: "git checkout --force"})
	}
}

func showArgs(xs []arg) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = x.show()
	}
	return strings.Join(parts, " ")
}

// isWorktreePath decides "git checkout X" the way git does: a local branch
// named X wins; otherwise an existing path means files are overwritten.
func (a *analyzer) isWorktreePath(g *gitCtx, name string) bool {
	st := g.inv.st
	if a.env.Repo != nil {
		for _, c := range st.cwds {
			if a.env.Repo.HasBranch(c, name) {
				return false
			}
		}
		for _, c := range st.cwds {
			if a.env.Repo.Exists(cleanJoin(c, name)) {
				return true
			}
		}
		return false
	}
	// Without a repository to ask: names with a file extension or a path
	// separator into a dot-directory are paths.
	if a.pol.IsProtectedBranch(name) {
		return false
	}
	base := path.Base(name)
	return strings.Contains(base, ".") && !strings.HasSuffix(base, ".")
}

func (a *analyzer) gitSwitch(g *gitCtx, args []arg) {
	inv := g.inv
	p := parseOpts(args, optSpec{short: "cCt", long: longs("create", "force-create", "orphan", "conflict"), optionalLS: longs("track", "recurse-submodules", "guess")})
	for _, v := range p.values("C", "force-create") {
		a.judge(inv, effect.BranchChange{Op: effect.SwitchReset, Branch: v.s})
	}
	for _, v := range p.values("c", "create", "orphan") {
		a.judge(inv, effect.BranchChange{Op: effect.SwitchCreate, Branch: v.s})
	}
	if p.has("f", "force", "discard-changes") {
		a.judge(inv, effect.Discard{Loss: effect.LostOnSwitch, Command: "git switch --discard-changes"})
	}
	if len(p.values("c", "C", "create", "force-create", "orphan")) == 0 && len(p.operands) > 0 && !p.has("d", "detach") {
		t := p.operands[0]
		if t.dynamic {
			a.judge(inv, effect.BranchChange{Op: effect.Switch, Branch: t.show(), Dynamic: true})
		} else {
			a.judge(inv, effect.BranchChange{Op: effect.Switch, Branch: t.s})
		}
	}
}

func (a *analyzer) gitRestore(g *gitCtx, args []arg) {
	p := parseOpts(args, optSpec{short: "s", long: longs("source", "conflict", "pathspec-from-file"), optionalLS: longs("recurse-submodules")})
	if p.has("p", "patch") {
		return
	}
	staged := p.has("S", "staged")
	worktree := p.has("W", "worktree")
	if staged && !worktree {
		return // only the index changes
	}
	if len(p.operands) > 0 || p.has("pathspec-from-file") {
		a.judge(g.inv, effect.Discard{Loss: effect.LostFiles, Command: "git restore " + showArgs(p.operands)})
	}
}

func (a *analyzer) gitReset(g *gitCtx, args []arg) {
	p := parseOpts(args, optSpec{long: longs("pathspec-from-file")})
	if p.dynamicOption() {
		a.judge(g.inv, effect.Discard{Loss: effect.LostReset, Command: "git reset", Dynamic: true})
		return
	}
	if p.has("hard") {
		a.judge(g.inv, effect.Discard{Loss: effect.LostReset, Command: "git reset --hard"})
		return
	}
	if p.has("merge") {
		a.judge(g.inv, effect.Discard{Loss: effect.LostResetMerge, Command: "git reset --merge"})
		return
	}
	if (p.has("soft", "mixed", "keep") || len(p.operands) > 0) && !p.dashdash {
		moves := false
		for _, x := range p.operands {
			if x.s != "HEAD" && x.s != "@" {
				moves = true
			}
		}
		if moves {
			if branches, _ := a.currentBranches(g); len(branches) > 0 {
				a.judge(g.inv, effect.BranchChange{Op: effect.ResetCurrent, Current: branches})
			}
		}
	}
}

func (a *analyzer) gitClean(g *gitCtx, args []arg) {
	p := parseOpts(args, optSpec{short: "e", long: longs("exclude")})
	forced := p.has("f", "force")
	if p.dynamicOption() && !p.has("n", "dry-run") {
		forced = true // an unknown word may be -f
	}
	if v, ok := g.config["clean.requireforce"]; ok && isFalse(v) {
		forced = true // -c clean.requireForce=false: git clean deletes without -f
	}
	if !forced || p.has("n", "dry-run") || p.has("i", "interactive") {
		return
	}
	// Where does it clean? Outside the worktree it is a delete outside
	// first, and it destroys untracked work wherever it runs.
	defer a.judge(g.inv, effect.Discard{Loss: effect.LostUntracked, Command: "git clean -f"})
	dir := arg{s: "."}
	if g.workTree.s != "" || g.workTree.dynamic {
		dir = g.workTree
	}
	targets := p.operands
	if len(targets) == 0 {
		targets = []arg{dir}
	}
	for _, t := range targets {
		x := t
		if !t.dynamic && dir.s != "." && !path.IsAbs(t.s) {
			x = arg{s: path.Join(dir.s, t.s), dynamic: dir.dynamic, src: t.src}
		}
		rt := a.resolveArg(x, g.inv.st)
		if rt.unknown || g.inv.st.remote {
			a.judge(g.inv, effect.Delete{Target: effect.Target{Tool: "git clean", Shown: quoteShow(x), Dynamic: true}})
			continue
		}
		for _, p := range rt.paths {
			if p == a.env.Root {
				continue // the worktree's own untracked files: covered by destructive-git
			}
			// Judged like rm's deletes: outside the worktree, or in another
			// agent's worktree (foreign-worktree).
			a.judge(g.inv, effect.Delete{Target: a.pathTarget("git clean", p, g.inv.st), Verb: "git clean deletes untracked files in"})
		}
	}
}

func (a *analyzer) gitStash(g *gitCtx, args []arg) {
	if len(args) == 0 {
		return
	}
	if args[0].dynamic {
		a.judge(g.inv, effect.Discard{Loss: effect.LostStash, Command: "git stash", Subject: quoteShow(args[0]), Dynamic: true})
		return
	}
	switch args[0].s {
	case "show":
		a.gitReads(g, "stash", args[1:])
	case "drop":
		a.judge(g.inv, effect.Discard{Loss: effect.LostStash, Command: "git stash drop"})
	case "clear":
		a.judge(g.inv, effect.Discard{Loss: effect.LostStashes, Command: "git stash clear"})
	}
}

func (a *analyzer) gitBranch(g *gitCtx, args []arg) {
	inv := g.inv
	p := parseOpts(args, optSpec{short: "u", long: longs("set-upstream-to", "contains", "no-contains", "merged", "no-merged", "points-at", "sort", "format"),
		optionalLS: longs("track", "column", "color", "abbrev", "recurse-submodules")})
	del := p.has("d", "D", "delete")
	force := p.has("f", "force")
	if !del && branchDynamicOption(p) {
		a.judge(inv, effect.Discard{Loss: effect.LostUnmerged, Command: "git branch", Dynamic: true})
		return
	}
	if del {
		for _, x := range p.operands {
			switch {
			case x.dynamic:
				a.judge(inv, effect.BranchChange{Op: effect.BranchDelete, Branch: x.show(), Dynamic: true})
				continue
			case !p.has("r", "remotes"):
				a.branchChange(inv, effect.BranchChange{Op: effect.BranchDelete, Branch: x.s})
			}
			switch {
			case a.protected(x.s) && !p.has("r", "remotes"): // protected-branch's
			case p.has("D") || force:
				a.judge(inv, effect.Discard{Loss: effect.LostUnmerged, Command: "git branch -D", Subject: x.s})
			}
		}
		return
	}
	if p.has("m", "M", "move", "c", "C", "copy") {
		ops := p.operands
		names := make([]string, 0, 2)
		for _, x := range ops {
			names = append(names, x.s)
		}
		if len(ops) == 1 && p.has("m", "M", "move") {
			if branches, _ := a.currentBranches(g); len(branches) > 0 {
				names = append(names, branches...)
			}
		}
		for _, n := range names {
			a.branchChange(inv, effect.BranchChange{Op: effect.BranchRename, Branch: n, Args: showArgs(ops)})
			if a.protected(n) {
				return // protected-branch's; nothing else matters
			}
		}
		// -M and -C (or -m/-c with --force) replace a branch that already
		// exists: its commits may then be on no branch at all.
		if len(ops) > 0 && (p.has("M", "C") || force) {
			target := ops[len(ops)-1]
			switch {
			case target.dynamic:
				a.judge(inv, effect.Discard{Loss: effect.LostOverwritten, Command: "git branch " + showArgs(ops), Subject: quoteShow(target), Dynamic: true})
			case a.env.Repo != nil && a.env.Repo.HasBranch(g.inv.st.firstCwd(a.env.Cwd), target.s):
				a.judge(inv, effect.Discard{Loss: effect.LostOverwritten, Command: "git branch " + showArgs(ops), Subject: target.s})
			}
		}
		return
	}
	if force && len(p.operands) > 0 {
		x := p.operands[0]
		a.branchChange(inv, effect.BranchChange{Op: effect.BranchForce, Branch: x.show(), Dynamic: x.dynamic})
	}
}

// branchChange judges a change of a local branch, with the other worktree
// that has it checked out when that matters to foreign-branch.
func (a *analyzer) branchChange(inv *invocation, c effect.BranchChange) {
	if !c.Dynamic {
		if b, ok := rules.BranchName(c.Branch); ok && !a.pol.IsProtectedBranch(b) {
			c.CheckedOutBy = a.checkedOutElsewhere(b)
		}
	}
	a.judge(inv, c)
}

// branchDynamicOption reports whether an unknown word may turn git branch
// into a delete or a forced rename. -D, -M and -C need a branch name after
// them, so one quoted word alone ("$name": create a branch) cannot; an
// unquoted expansion may split into both, and so may a quoted word next to
// another operand (git branch "$opt" feature).
func branchDynamicOption(p parsed) bool {
	n := 0
	unquoted := false
	for _, o := range p.opts {
		if o.name == "?" {
			n++
			src := o.value.src
			if !(len(src) > 1 && src[0] == '"' && src[len(src)-1] == '"') {
				unquoted = true
			}
		}
	}
	if n == 0 {
		return false
	}
	others := 0
	for _, x := range p.operands {
		if !(x.dynamic && mayBeOption(x)) {
			others++
		}
	}
	return unquoted || n > 1 || others > 0
}

func (a *analyzer) gitUpdateRef(g *gitCtx, args []arg) {
	inv := g.inv
	p := parseOpts(args, optSpec{short: "m", long: longs("message")})
	if p.has("stdin") {
		if inv.in == nil || inv.in.dynamic {
			a.judge(inv, effect.BranchChange{Op: effect.UpdateRefStdin, Dynamic: true})
			return
		}
		for _, line := range strings.Split(inv.in.text, "\n") {
			f := strings.Fields(line)
			if len(f) < 2 {
				continue
			}
			if f[0] != "update" && f[0] != "create" && f[0] != "delete" && !a.protected(f[1]) {
				continue // verify, option …: only a protected branch named there is reported
			}
			a.branchChange(inv, effect.BranchChange{Op: effect.UpdateRefStdin, Branch: f[1], Delete: f[0] == "delete"})
		}
		return
	}
	if len(p.operands) > 0 {
		r := p.operands[0]
		a.branchChange(inv, effect.BranchChange{Op: effect.UpdateRef, Branch: r.show(), Dynamic: r.dynamic, Delete: p.has("d")})
		if r.dynamic || a.protected(r.s) {
			return
		}
		if p.has("d") && strings.HasPrefix(r.s, "refs/heads/") {
			a.judge(inv, effect.Discard{Loss: effect.LostUnmerged, Command: "git update-ref -d", Subject: "the branch " + strings.TrimPrefix(r.s, "refs/heads/")})
		}
	}
}

func (a *analyzer) gitSymbolicRef(g *gitCtx, args []arg) {
	p := parseOpts(args, optSpec{short: "m"})
	if len(p.operands) >= 2 && p.operands[0].s == "HEAD" {
		a.judge(g.inv, effect.BranchChange{Op: effect.SymbolicRefHEAD, Branch: p.operands[1].show(), Dynamic: p.operands[1].dynamic})
	}
}

func (a *analyzer) gitWorktree(g *gitCtx, args []arg) {
	if len(args) == 0 {
		return
	}
	inv := g.inv
	rest := args[1:]
	switch args[0].s {
	case "add":
		p := parseOpts(rest, optSpec{short: "bB", long: longs("reason", "orphan")})
		if p.has("f", "force") && len(p.values("b", "B", "orphan")) == 0 && len(p.operands) >= 2 && !p.operands[1].dynamic {
			a.branchChange(inv, effect.BranchChange{Op: effect.WorktreeAddForce, Branch: p.operands[1].s})
		}
		for _, v := range p.values("B") {
			a.judge(inv, effect.BranchChange{Op: effect.WorktreeAddReset, Branch: v.s})
		}
		if len(p.values("b", "B", "orphan")) == 0 && !p.has("detach", "d") && len(p.operands) >= 2 {
			a.judge(inv, effect.BranchChange{Op: effect.WorktreeAdd, Branch: p.operands[1].s})
		}
	case "prune":
		a.worktreePrune(inv, rest)
	case "remove":
		p := parseOpts(rest, optSpec{})
		for _, x := range p.operands {
			a.deletePath(inv, x, true)
		}
	case "move":
		p := parseOpts(rest, optSpec{})
		if len(p.operands) == 2 {
			a.deletePath(inv, p.operands[0], true)
			a.writePath(inv, p.operands[1], "git worktree move writes to")
		}
	}
}

func (a *analyzer) gitConfig(g *gitCtx, args []arg) {
	inv := g.inv
	p := parseOpts(args, optSpec{short: "f", long: longs("file", "blob", "type", "default", "comment", "value", "url")})
	ops := p.operands
	sub := ""
	if len(ops) > 0 {
		switch ops[0].s {
		case "get", "set", "unset", "list", "edit", "rename-section", "remove-section":
			sub = ops[0].s
			ops = ops[1:]
		}
	}
	read := p.has("get", "get-all", "get-regexp", "get-urlmatch", "list", "l", "get-color", "get-colorbool") || sub == "get" || sub == "list"
	unset := p.has("unset", "unset-all") || sub == "unset"
	edit := p.has("e", "edit") || sub == "edit"
	if edit {
		a.judge(inv, effect.GuardChange{Control: effect.GitHooks, Does: "git config --edit opens the git config in an editor", Instead: "set single keys with git config <key> <value>"})
		return
	}
	if p.has("rename-section", "remove-section") || sub == "rename-section" || sub == "remove-section" {
		if len(ops) > 0 && (ops[0].dynamic || strings.EqualFold(ops[0].s, "core") || strings.HasPrefix(strings.ToLower(ops[0].s), "include")) {
			a.judge(inv, effect.GuardChange{Control: effect.GitHooks, Does: "removing or renaming the " + ops[0].show() + " config section can change core.hooksPath", Instead: altTamper})
		}
		return
	}
	if read || len(ops) == 0 {
		return
	}
	key := ops[0]
	if key.dynamic {
		a.judge(inv, effect.GuardChange{Control: effect.GitHooks, Does: "git config writes a key only known at run time, which may be core.hooksPath", Instead: "write the key literally"})
		return
	}
	write := unset || p.has("add", "replace-all") || sub == "set" || len(ops) >= 2
	if !write {
		return
	}
	for _, f := range p.values("f", "file") {
		a.writePath(inv, f, "git config --file writes")
	}
	val := arg{}
	if len(ops) >= 2 {
		val = ops[1]
	} else if v, ok := p.value("value"); ok && sub == "set" {
		val = v
	}
	a.gitConfigWrite(inv, key.s, val, !unset && len(ops) >= 2, nil)
}

func (a *analyzer) gitRm(g *gitCtx, args []arg) {
	p := parseOpts(args, optSpec{long: longs("pathspec-from-file")})
	if p.has("n", "dry-run") {
		return
	}
	if p.has("cached") {
		if f, ok := p.value("pathspec-from-file"); ok {
			a.judge(g.inv, effect.GuardChange{Control: effect.GuardFiles, Does: "git rm --cached --pathspec-from-file " + f.show() + " untracks paths the guard cannot see, which may include the files that configure it", Instead: "name the paths on the command line"})
		}
		a.untrackProtected(g.inv, p.operands) // only the index changes
		return
	}
	recursive := p.has("r")
	for _, x := range p.operands {
		a.deletePath(g.inv, x, recursive)
	}
}

func (a *analyzer) gitReads(g *gitCtx, sub string, args []arg) {
	for _, x := range args {
		if x.dynamic || strings.HasPrefix(x.s, "-") {
			continue
		}
		if rev, p, ok := strings.Cut(x.s, ":"); ok && !strings.Contains(rev, "/") {
			a.readPath(g.inv, arg{s: p, src: x.src}) // HEAD:.env, :.env
			continue
		}
		a.readPath(g.inv, x)
	}
	_ = sub
}

func (a *analyzer) gitFetch(g *gitCtx, args []arg) {
	p := parseOpts(args, optSpec{short: "jo", long: longs("depth", "deepen", "shallow-since", "shallow-exclude", "upload-pack", "refmap", "jobs", "negotiation-tip", "server-option", "filter"),
		optionalLS: longs("recurse-submodules")})
	for _, c := range p.values("upload-pack") {
		remote := *g.inv
		remote.st = remoteState(g.inv.st)
		a.runScriptArg(&remote, c, "git fetch --upload-pack")
	}
	force := p.has("f", "force")
	if len(p.operands) < 2 {
		return
	}
	for _, r := range p.operands[1:] {
		spec := r.s
		plus := strings.HasPrefix(spec, "+")
		_, dst, ok := strings.Cut(strings.TrimPrefix(spec, "+"), ":")
		// From a remote, a fast-forward of local main only catches up with
		// it; from this repository (".") or by force, it moves main.
		local := p.operands[0].s == "." || isLocalPath(p.operands[0].s)
		if ok && (plus || force || local) {
			a.judge(g.inv, effect.BranchChange{Op: effect.FetchInto, Branch: dst, Args: spec})
		}
	}
}

func (a *analyzer) gitClone(g *gitCtx, args []arg) {
	p := parseOpts(args, optSpec{short: "obcujq", long: longs("origin", "branch", "config", "upload-pack", "template", "reference", "separate-git-dir", "depth", "shallow-since", "shallow-exclude", "jobs", "filter", "server-option", "bundle-uri", "ref-format")})
	for _, c := range p.values("u", "upload-pack") {
		a.runScriptArg(g.inv, c, "git clone --upload-pack")
	}
	for _, op := range p.operands {
		if rest, ok := strings.CutPrefix(op.s, "ext::"); ok {
			a.runScriptArg(g.inv, arg{s: rest, src: op.src}, "git clone ext::")
		}
	}
	if len(p.operands) >= 2 {
		a.writePath(g.inv, p.operands[1], "git clone writes to")
	}
}
