package guard

import (
	"path"
	"strings"
	"sync"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
	"github.com/swarm-guard/swarm-guard/guard/rules"
	"github.com/swarm-guard/swarm-guard/guard/swarm"
)

func (a *analyzer) git(inv *shell.Invocation) { a.gitArgs(inv, inv.Args(), 0) }

// dashedGit handles git-push, /usr/lib/git-core/git-reset and friends.
func (a *analyzer) dashedGit(inv *shell.Invocation, sub string) {
	a.gitArgs(inv, append([]shell.Word{{Text: sub, Src: inv.Argv[0].Src}}, inv.Args()...), 0)
}

func (a *analyzer) gitArgs(inv *shell.Invocation, args []shell.Word, aliasDepth int) {
	g := &gitCtx{inv: inv, config: map[string]string{}}
	if v, ok := inv.Env["GIT_DIR"]; ok && len(v) > 0 {
		g.gitDir = v[0]
	}
	if v, ok := inv.Env["GIT_WORK_TREE"]; ok && len(v) > 0 {
		g.workTree = v[0]
	}
	aliases := map[string]string{}
	i := 0
	for i < len(args) {
		x := args[i]
		if x.Dynamic {
			a.judge(inv, effect.HiddenCode{By: "git", What: quoteShow(x), Why: effect.GitWord})
			return
		}
		s := x.Text
		next := func() (shell.Word, bool) {
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return shell.Word{}, false
		}
		switch {
		case s == "-C":
			if d, ok := next(); ok {
				g.inv = a.x.WithCwd(g.inv, d)
			}
		case s == "-c":
			if kv, ok := next(); ok {
				key, val, _ := strings.Cut(kv.Text, "=")
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
				v = kv.Text
			}
			key, _, _ := strings.Cut(v, "=")
			a.gitConfigPair(g.inv, shell.Word{Text: key + "=", Dynamic: true, Src: x.Src}, aliases)
		case s == "--git-dir" || s == "--work-tree" || s == "--namespace" || s == "--super-prefix" || s == "--attr-source":
			v, _ := next()
			if s == "--git-dir" {
				g.gitDir = v
			} else if s == "--work-tree" {
				g.workTree = v
			}
		case strings.HasPrefix(s, "--git-dir="):
			g.gitDir = shell.Word{Text: strings.TrimPrefix(s, "--git-dir="), Src: x.Src}
		case strings.HasPrefix(s, "--work-tree="):
			g.workTree = shell.Word{Text: strings.TrimPrefix(s, "--work-tree="), Src: x.Src}
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
func (a *analyzer) gitConfigPair(inv *shell.Invocation, kv shell.Word, aliases map[string]string) {
	key, val, _ := strings.Cut(kv.Text, "=")
	a.gitConfigWrite(inv, key, shell.Word{Text: val, Dynamic: kv.Dynamic, Src: kv.Src}, true, aliases)
}

// gitConfigWrite checks setting (or unsetting, hasValue false) one key.
func (a *analyzer) gitConfigWrite(inv *shell.Invocation, rawKey string, val shell.Word, hasValue bool, aliases map[string]string) {
	key := strings.ToLower(rawKey)
	if strings.HasPrefix(key, "trailer.") && hasValue {
		a.trailerConfig(inv, rawKey, val)
	}
	switch {
	case key == "core.hookspath" || key == "include.path" || strings.HasPrefix(key, "includeif."):
		// Which hooks run: guard-tamper judges.
		a.judge(inv, effect.GitConfig{Key: rawKey, Value: val.Text, Set: hasValue, Dynamic: val.Dynamic})
		return
	case strings.HasPrefix(key, "alias."):
		name := rawKey[len("alias."):]
		if !hasValue {
			return
		}
		if val.Dynamic {
			a.judge(inv, effect.HiddenCode{By: "git", What: name, Why: effect.GitAlias})
			return
		}
		if strings.HasPrefix(val.Text, "!") {
			a.x.Script(val.Text[1:], inv.State.Clone(), nil)
			return
		}
		if aliases != nil {
			aliases[name] = val.Text
		}
		inv.State.GitAliases[name] = val.Text
		// The alias outlives this command: what it would run is checked now.
		if words := strings.Fields(val.Text); len(words) > 0 && words[0] != name {
			argv := make([]shell.Word, 0, len(words))
			for _, w := range words[1:] {
				argv = append(argv, shell.Word{Text: strings.Trim(w, `'"`), Src: val.Text})
			}
			a.gitSub(&gitCtx{inv: inv}, words[0], argv, map[string]string{}, 1)
		}
		return
	case hasValue && isRemoteConfigKey(key):
		a.remoteConfig(inv, rawKey, val)
		return
	case strings.HasPrefix(key, "remote.") && strings.HasSuffix(key, ".push"):
		if hasValue {
			a.pushRefspecConfig(inv, val)
		}
		return
	case strings.HasPrefix(key, "remote.") && strings.HasSuffix(key, ".mirror") && len(key) > len("remote..mirror"), key == "clean.requireforce":
		// What later pushes and cleans do: force-push and destructive-git judge.
		a.judge(inv, effect.GitConfig{Key: rawKey, Value: val.Text, Set: hasValue, Dynamic: val.Dynamic})
		return
	}
	if hasValue && !val.Dynamic {
		if hosts, ok := proxyConfigHosts(key, val.Text); ok {
			a.routeThrough(inv, "git config "+rawKey, val.Text, hosts)
		}
	}
	if !executableConfig(key) || !hasValue {
		return
	}
	if val.Dynamic {
		a.judge(inv, effect.HiddenCode{By: "git", What: rawKey, Why: effect.ConfigCommand})
		return
	}
	v := strings.TrimSpace(val.Text)
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
	a.x.Script(v, inv.State.Clone(), nil)
}

func isFalse(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "false", "no", "off", "0":
		return true
	}
	return false
}

func hasPrefixFlag(args []shell.Word, prefix string) bool {
	for _, x := range args {
		if strings.HasPrefix(x.Text, prefix) {
			return true
		}
	}
	return false
}

// commitsOnto reports commands that add commits to (move) a protected
// branch because it is checked out where git runs: committing, merging,
// cherry-picking, reverting or applying patches on main moves main.
func (a *analyzer) commitsOnto(g *gitCtx, sub string, args []shell.Word) {
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
	st := g.inv.State
	if st.Remote || g.gitDir.Text != "" || g.gitDir.Dynamic || st.CwdUnknown || len(st.Cwds) == 0 {
		return false
	}
	for _, c := range st.Cwds {
		if !a.inOwnWorktree(c) {
			return false
		}
	}
	return true
}

// extTransport checks a git ext:: URL: git runs it as a command. Words
// are separated by spaces; "% " is a space inside a word, "%%" a percent,
// and %s, %S, %G stand for values git fills in.
func (a *analyzer) extTransport(inv *shell.Invocation, spec string) {
	var argv []shell.Word
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			argv = append(argv, shell.Word{Text: cur.String(), Src: "ext::" + spec})
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
	a.x.Reinvoke(inv, argv, "git ext::")
}

// gitSub dispatches a git subcommand.
func (a *analyzer) gitSub(g *gitCtx, sub string, args []shell.Word, aliases map[string]string, aliasDepth int) {
	inv := g.inv
	if exp, ok := aliases[sub]; ok || inv.State.GitAliases[sub] != "" {
		if !ok {
			exp = inv.State.GitAliases[sub]
		}
		if aliasDepth > 8 {
			a.x.Abort("git aliases expand into each other too deeply")
			return
		}
		words := strings.Fields(exp)
		if len(words) == 0 {
			return // git refuses an alias that expands to nothing
		}
		expanded := make([]shell.Word, 0, len(words)+len(args))
		for _, w := range words {
			expanded = append(expanded, shell.Word{Text: strings.Trim(w, `'"`), Src: exp})
		}
		a.gitSub(g, expanded[0].Text, append(expanded[1:], args...), aliases, aliasDepth+1)
		return
	}
	args = expandGitAbbrevs(sub, args)
	// After the subcommand's own rules, which name the more specific harm.
	defer a.gitInForeignWorktree(g, sub, args)
	for _, x := range args {
		if rest, ok := strings.CutPrefix(x.Text, "ext::"); ok && !x.Dynamic {
			a.extTransport(inv, rest)
		}
	}
	for _, x := range args {
		if x.Static() && x.Text == "--no-verify" {
			a.judge(inv, effect.GuardChange{Change: effect.NoVerify, Command: "git " + sub})
			break
		}
		if x.Static() && x.Text == "--" {
			break
		}
	}
	switch sub {
	case "commit", "merge", "am", "cherry-pick", "revert":
		a.commitsOnto(g, sub, args)
	case "clone", "fetch", "pull", "ls-remote", "push", "remote", "submodule":
		a.gitURLCredentials(inv, sub, args)
	}
	switch sub {
	case "push":
		a.gitPush(g, args)
	case "commit":
		a.gitCommit(g, args)
	case "merge", "pull", "am", "cherry-pick", "revert", "tag", "notes":
		a.gitPassive(g, sub, args)
	case "checkout-index":
		p := shell.ParseOpts(args, shell.Spec{Long: shell.Longs("prefix", "stage")})
		if p.Has("f", "force") {
			a.judge(inv, effect.Discard{Loss: effect.LostFiles, Command: "git checkout-index --force"})
		}
	case "read-tree":
		p := shell.ParseOpts(args, shell.Spec{Long: shell.Longs("prefix", "index-output", "exclude-per-directory")})
		if p.Has("u") && (p.Has("reset") || p.Has("m")) {
			a.judge(inv, effect.Discard{Loss: effect.LostFiles, Command: "git read-tree -u --reset"})
		}
	case "difftool", "mergetool":
		p := shell.ParseOpts(args, shell.Spec{Short: "xt", Long: shell.Longs("extcmd", "tool")})
		for _, c := range p.Values("x", "extcmd") {
			a.x.RunScript(inv, c, "git "+sub+" --extcmd")
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
	case "remote":
		a.gitRemote(g, args)
	case "filter-branch", "filter-repo":
		a.judge(inv, effect.Discard{Loss: effect.LostHistory, Command: "git " + sub})
	case "reflog":
		if len(args) > 0 && (args[0].Text == "expire" || args[0].Text == "delete") {
			a.judge(inv, effect.Discard{Loss: effect.LostReflog, Command: "git reflog " + args[0].Text})
		}
	case "gc":
		for _, x := range args {
			if x.Text == "--prune=now" || x.Text == "--prune=all" {
				a.judge(inv, effect.Discard{Loss: effect.LostUnreachableNow, Command: "git gc " + x.Text})
			}
		}
	case "prune":
		a.judge(inv, effect.Discard{Loss: effect.LostUnreachable, Command: "git prune"})
	case "commit-tree":
		a.judge(inv, effect.GuardChange{Change: effect.CommitTree})
	case "fast-import":
		a.judge(inv, effect.GuardChange{Change: effect.FastImport})
	case "hash-object":
		a.hashObjectCommit(inv, args)
	case "replace":
		a.gitReplace(inv, args)
	case "rm":
		a.gitRm(g, args)
	case "update-index":
		a.gitUpdateIndex(g.inv, args)
	case "mv":
		p := shell.ParseOpts(args, shell.Spec{})
		if len(p.Operands) >= 2 {
			for _, s := range p.Operands[:len(p.Operands)-1] {
				a.deletePath(inv, s, true)
			}
			a.writePath(inv, p.Operands[len(p.Operands)-1], "git mv writes to")
		}
	case "add", "stage", "diff", "show", "blame", "annotate", "cat-file", "format-patch":
		a.gitReads(g, sub, args)
	case "log", "whatchanged":
		// Only a patch shows file contents: git log --oneline -- .env does not.
		if hasAnyFlag(args, "-p", "-u", "--patch", "--word-diff", "--full-diff") || hasPrefixFlag(args, "--word-diff=") {
			a.gitReads(g, sub, args)
		}
	case "bundle":
		// git bundle create FILE REVS: FILE holds the history, and an
		// upload of it later is the repository leaving (exfil.go).
		if len(args) >= 2 && args[0].Text == "create" && args[1].Static() && args[1].Text != "-" {
			a.writePath(inv, args[1], "git bundle writes")
			a.recordBody(inv, args[1], &shell.Input{Secret: &effect.Source{Kind: effect.RepositoryBundle}, Desc: "a git bundle", File: true})
		}
	case "archive":
		p := shell.ParseOpts(args, shell.Spec{Short: "o", Long: shell.Longs("output", "format", "prefix", "remote", "exec", "add-file", "add-virtual-file")})
		for _, o := range p.Values("o", "output") {
			a.writePath(inv, o, "git archive writes")
			a.recordBody(inv, o, &shell.Input{Secret: &effect.Source{Kind: effect.RepositoryArchive}, Desc: "a git archive", File: true})
		}
		for _, f := range p.Values("add-file") {
			a.readPath(inv, f)
		}
	case "grep":
		p := shell.ParseOpts(args, shell.Spec{Short: "efmABC", Long: shell.Longs("max-depth", "max-count", "context", "after-context", "before-context", "threads")})
		for k, x := range p.Operands {
			if k == 0 && len(p.Values("e", "f")) == 0 && !p.DashDash {
				continue
			}
			a.readPath(inv, x)
		}
	case "submodule":
		if len(args) > 0 && args[0].Text == "deinit" && hasAnyFlag(args, "-f", "--force") {
			a.judge(inv, effect.Discard{Loss: effect.LostSubmodules, Command: "git submodule deinit --force"})
		}
		for k, x := range args {
			if x.Text == "foreach" {
				rest := args[k+1:]
				for len(rest) > 0 && strings.HasPrefix(rest[0].Text, "--") {
					rest = rest[1:]
				}
				a.x.RunScript(inv, shell.JoinWords(rest), "git submodule foreach")
				return
			}
		}
	case "bisect":
		if len(args) > 1 && args[0].Text == "run" {
			a.x.Reinvoke(inv, args[1:], "git bisect run")
		}
	case "fetch":
		a.gitFetch(g, args)
	case "clone":
		a.gitClone(g, args)
	case "init":
		a.gitInit(g, args)
	case "send-pack":
		a.gitPush(g, args)
	}
}

// gitInit notes the repository git init creates, for the commands after
// it in the same call: a brand-new repository has no branch to lose and
// no remote yet, so naming its first branch main (git branch -M main) and
// adding its origin are setting it up. Re-running git init in an existing
// repository (the agent's own worktree) changes nothing, and is not noted.
func (a *analyzer) gitInit(g *gitCtx, args []shell.Word) {
	st := g.inv.State
	if st.Remote || st.CwdUnknown || len(st.Cwds) != 1 || explicitRepo(g) {
		return
	}
	p := shell.ParseOpts(args, shell.Spec{Short: "b", Long: shell.Longs("template", "separate-git-dir", "object-format", "ref-format", "initial-branch", "shared")})
	if p.Has("bare") || len(p.Operands) > 1 {
		return
	}
	dir := st.Cwds[0]
	if len(p.Operands) == 1 {
		if !p.Operands[0].Static() {
			return
		}
		dir = shell.CleanJoin(dir, p.Operands[0].Text)
	}
	if a.existingRepo(dir) {
		return
	}
	a.freshRepos = append(a.freshRepos, dir)
}

// existingRepo reports whether dir is (or may be) inside a repository that
// exists already: the agent's worktree or an ancestor of it, another
// agent's, or one whose .git the adapter sees.
func (a *analyzer) existingRepo(dir string) bool {
	if under(a.env.Root, dir) {
		return true // the worktree itself or an ancestor: commands there still work on the worktree's repository
	}
	for _, w := range a.m.worktrees {
		if !under(a.env.Root, w) && (under(dir, w) || under(w, dir)) {
			return true
		}
	}
	if a.env.Repo == nil {
		return !under(dir, a.env.Root) // outside, nothing says it is new
	}
	for d := dir; d != "/" && d != "." && d != a.env.Root; d = path.Dir(d) {
		if a.env.Repo.Exists(d + "/.git") {
			return true
		}
	}
	return false
}

// unsharedRename reports whether git branch -m renames the current branch
// of a repository nobody else uses yet (no remote, no other worktree) to a
// name no branch has: git branch -M main after git init and a first
// commit, in a call of its own.
func (a *analyzer) unsharedRename(g *gitCtx, ops []shell.Word) bool {
	if len(ops) != 1 || !ops[0].Static() || len(a.env.Remotes) > 0 || len(a.env.OtherWorktrees) > 0 || a.env.Repo == nil || !a.inOwnRepo(g) {
		return false
	}
	return !a.env.Repo.HasBranch(g.inv.State.Cwds[0], ops[0].Text)
}

// currentBranches returns the branches checked out where this git command
// runs; unknown is true when some location cannot be told.
func (a *analyzer) currentBranches(g *gitCtx) (branches []string, unknown bool) {
	st := g.inv.State
	if st.Remote || g.gitDir.Dynamic {
		return nil, true
	}
	if g.gitDir.Text != "" {
		// --git-dir / GIT_DIR: the branch of that repository.
		if a.env.Repo == nil || len(st.Cwds) == 0 {
			return nil, true
		}
		dir := shell.CleanJoin(st.Cwds[0], g.gitDir.Text)
		if b, ok := a.env.Repo.BranchAt(dir); ok {
			return []string{b}, false
		}
		return nil, true
	}
	if st.CwdUnknown {
		unknown = true
	}
	for _, c := range st.Cwds {
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

// protected reports whether a ref names a protected branch. The rules
// decide; the git code asks only to know when nothing else follows (git
// branch -D main is protected-branch's alone).
func (a *analyzer) protected(ref string) bool { return rules.ProtectedRef(a.pol, ref) }

var pushSpec = sync.OnceValue(func() shell.Spec {
	return shell.Spec{Short: "o", Long: shell.Longs("repo", "receive-pack", "exec", "push-option"),
		OptionalLong: shell.Longs("force-with-lease", "signed", "recurse-submodules", "force-if-includes")}
})

func (a *analyzer) gitPush(g *gitCtx, args []shell.Word) {
	inv := g.inv
	p := shell.ParseOpts(args, pushSpec())
	for _, c := range p.Values("receive-pack", "exec") {
		remote := *inv
		remote.State = remoteState(inv.State)
		a.x.RunScript(&remote, c, "git push --receive-pack")
	}
	if p.Has("n", "dry-run") {
		return // a dry run changes nothing
	}
	e := effect.Push{
		Force: p.Has("f", "force"), Lease: p.Has("force-with-lease"), IfIncludes: p.Has("force-if-includes"),
		Mirror: p.Has("mirror"), All: p.Has("all", "branches"), Prune: p.Has("prune"), Tags: p.Has("tags"),
		Delete: p.Has("d", "delete"), Dynamic: p.DynamicOption(),
	}
	if e.Dynamic {
		a.judge(inv, e)
		return
	}
	refspecs := p.Operands
	if len(refspecs) > 0 {
		e.Remote = refspecs[0].Text
		a.remoteURL(inv, "git push", refspecs[0])
		refspecs = refspecs[1:]
	}
	if repo, ok := p.Value("repo"); ok {
		a.remoteURL(inv, "git push", repo)
	}
	e.Matching = len(refspecs) == 0 && strings.EqualFold(g.config["push.default"], "matching")
	a.judge(inv, a.describePush(g, e, refspecs))
}

// pushRefspecConfig: remote.<name>.push sets a refspec every later push
// of that remote uses; it is judged as a push of that refspec.
func (a *analyzer) pushRefspecConfig(inv *shell.Invocation, val shell.Word) {
	a.judge(inv, a.describePush(&gitCtx{inv: inv}, effect.Push{}, []shell.Word{val}))
}

// describePush completes a push's effect from its refspecs: each one
// normalized, with the remote ref it writes; the branches HEAD names when
// the push sends the current branch; whether branch ownership applies.
func (a *analyzer) describePush(g *gitCtx, e effect.Push, refspecs []shell.Word) effect.Push {
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
func (a *analyzer) describeRefspec(g *gitCtx, r shell.Word, deleting, inSwarm bool) effect.Refspec {
	if r.Dynamic {
		return effect.Refspec{Text: r.Show(), Dynamic: true}
	}
	rs := effect.Refspec{Text: r.Text, Glob: r.Glob}
	spec := r.Text
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

func (a *analyzer) gitCommit(g *gitCtx, args []shell.Word) {
	p := shell.ParseOpts(args, shell.Spec{Short: "mFCct", Long: shell.Longs("message", "file", "reuse-message", "reedit-message", "template",
		"author", "date", "cleanup", "fixup", "squash", "trailer", "pathspec-from-file"), OptionalLong: shell.Longs("gpg-sign", "untracked-files")})
	if p.Has("n") {
		a.judge(g.inv, effect.GuardChange{Change: effect.NoVerifyShort})
	}
	for _, f := range p.Values("F", "file", "t", "template", "pathspec-from-file") {
		a.readPath(g.inv, f)
	}
	for _, x := range p.Operands {
		a.readPath(g.inv, x)
	}
}

// gitPassive: subcommands whose only concerns are --no-verify (checked by
// the caller) and paths that may be secret files.
func (a *analyzer) gitPassive(g *gitCtx, sub string, args []shell.Word) {
	p := shell.ParseOpts(args, shell.Spec{Short: "mFsXSC", Long: shell.Longs("message", "file", "strategy", "strategy-option", "cleanup", "into-name")})
	for _, f := range p.Values("F", "file") {
		a.readPath(g.inv, f)
	}
	if sub == "am" {
		for _, x := range p.Operands {
			a.readPath(g.inv, x)
		}
	}
}

func (a *analyzer) gitRebase(g *gitCtx, args []shell.Word) {
	p := shell.ParseOpts(args, shell.Spec{Short: "sXxC", Long: shell.Longs("onto", "strategy", "strategy-option", "exec", "empty", "whitespace"),
		OptionalLong: shell.Longs("gpg-sign", "rebase-merges", "autosquash")})
	for _, c := range p.Values("x", "exec") {
		a.x.RunScript(g.inv, c, "git rebase --exec")
	}
	if p.Has("abort", "quit", "continue", "skip", "edit-todo", "show-current-patch") {
		return
	}
	var branch string
	switch {
	case p.Has("root") && len(p.Operands) >= 1:
		branch = p.Operands[0].Text
	case len(p.Operands) >= 2:
		branch = p.Operands[1].Text
	}
	if branch != "" {
		a.judge(g.inv, effect.BranchChange{Op: effect.RebaseBranch, Branch: branch})
		return
	}
	if branches, _ := a.currentBranches(g); len(branches) > 0 {
		a.judge(g.inv, effect.BranchChange{Op: effect.RebaseCurrent, Current: branches})
	}
}

var checkoutSpec = sync.OnceValue(func() shell.Spec {
	return shell.Spec{Short: "bBt", Long: shell.Longs("orphan", "conflict", "pathspec-from-file"), OptionalLong: shell.Longs("track", "recurse-submodules")}
})

func (a *analyzer) gitCheckout(g *gitCtx, args []shell.Word) {
	inv := g.inv
	p := shell.ParseOpts(args, checkoutSpec())
	if p.Has("p", "patch") {
		return // interactive; nothing happens without a terminal
	}
	if v, ok := p.Value("B"); ok {
		a.judge(inv, effect.BranchChange{Op: effect.CheckoutReset, Branch: v.Text})
	}
	for _, v := range append(p.Values("b", "orphan"), p.Values("B")...) {
		a.judge(inv, effect.BranchChange{Op: effect.CheckoutCreate, Branch: v.Text})
		a.createsBranch(v)
	}
	if _, ok := p.Value("pathspec-from-file"); ok {
		a.judge(inv, effect.Discard{Loss: effect.LostToCommitted, Command: "git checkout --pathspec-from-file"})
		return
	}
	creating := len(p.Values("b", "B", "orphan")) > 0
	force := p.Has("f", "force")
	// Operands before "--" may be a branch or paths; after "--" they are paths.
	var before, paths []shell.Word
	if p.DashDash {
		n := len(args)
		for k := range args {
			if args[k].Text == "--" {
				n = len(args) - k - 1
				break
			}
		}
		before = p.Operands[:len(p.Operands)-n]
		paths = p.Operands[len(p.Operands)-n:]
	} else {
		before = p.Operands
	}
	if len(before) > 0 && !creating {
		t := before[0]
		rest := before[1:]
		switch {
		case t.Dynamic:
			a.judge(inv, effect.BranchChange{Op: effect.Checkout, Branch: t.Show(), Dynamic: true})
		case t.Text == "." || (len(rest) == 0 && !p.DashDash && a.isWorktreePath(g, t.Text)):
			paths = append(paths, t)
		default:
			if len(rest) == 0 && len(paths) == 0 && !p.Has("detach") {
				a.judge(inv, effect.BranchChange{Op: effect.Checkout, Branch: t.Text})
			}
			paths = append(paths, rest...) // git checkout <tree-ish> <paths>
		}
	}
	if len(paths) > 0 && p.Has("ours", "theirs") && a.resolvingConflict(g) {
		return // picking a side of a conflicted file is how a merge is resolved
	}
	if len(paths) > 0 {
		a.judge(inv, effect.Discard{Loss: effect.LostToCommitted, Command: "git checkout " + showArgs(paths)})
		return
	}
	if force {
		a.judge(inv, effect.Discard{Loss: effect.LostOnSwitch, Command: "git checkout --force"})
	}
}

// resolvingConflict reports whether the repository the git command works
// in is in the middle of a merge, rebase, cherry-pick or revert, as the
// files git leaves in its git directory say: git checkout --ours/--theirs
// then takes one side of the conflicted files, the resolution the user
// asked for. Without them, it overwrites files like any checkout of paths.
func (a *analyzer) resolvingConflict(g *gitCtx) bool {
	if a.env.Repo == nil || a.env.GitDir == "" || !a.inOwnRepo(g) {
		return false
	}
	for _, f := range []string{"MERGE_HEAD", "REBASE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "rebase-merge", "rebase-apply"} {
		if a.env.Repo.Exists(a.env.GitDir + "/" + f) {
			return true
		}
	}
	return false
}

func showArgs(xs []shell.Word) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = x.Show()
	}
	return strings.Join(parts, " ")
}

// isWorktreePath decides "git checkout X" the way git does: a local branch
// named X wins; otherwise an existing path means files are overwritten.
func (a *analyzer) isWorktreePath(g *gitCtx, name string) bool {
	st := g.inv.State
	if a.env.Repo != nil {
		for _, c := range st.Cwds {
			if a.env.Repo.HasBranch(c, name) {
				return false
			}
		}
		for _, c := range st.Cwds {
			if a.env.Repo.Exists(shell.CleanJoin(c, name)) {
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

func (a *analyzer) gitSwitch(g *gitCtx, args []shell.Word) {
	inv := g.inv
	p := shell.ParseOpts(args, shell.Spec{Short: "cCt", Long: shell.Longs("create", "force-create", "orphan", "conflict"), OptionalLong: shell.Longs("track", "recurse-submodules", "guess")})
	for _, v := range p.Values("C", "force-create") {
		a.judge(inv, effect.BranchChange{Op: effect.SwitchReset, Branch: v.Text})
		a.createsBranch(v)
	}
	for _, v := range p.Values("c", "create", "orphan") {
		a.judge(inv, effect.BranchChange{Op: effect.SwitchCreate, Branch: v.Text})
		a.createsBranch(v)
	}
	if p.Has("f", "force", "discard-changes") {
		a.judge(inv, effect.Discard{Loss: effect.LostOnSwitch, Command: "git switch --discard-changes"})
	}
	if len(p.Values("c", "C", "create", "force-create", "orphan")) == 0 && len(p.Operands) > 0 && !p.Has("d", "detach") {
		t := p.Operands[0]
		if t.Dynamic {
			a.judge(inv, effect.BranchChange{Op: effect.Switch, Branch: t.Show(), Dynamic: true})
		} else {
			a.judge(inv, effect.BranchChange{Op: effect.Switch, Branch: t.Text})
		}
	}
}

func (a *analyzer) gitRestore(g *gitCtx, args []shell.Word) {
	p := shell.ParseOpts(args, shell.Spec{Short: "s", Long: shell.Longs("source", "conflict", "pathspec-from-file"), OptionalLong: shell.Longs("recurse-submodules")})
	if p.Has("p", "patch") {
		return
	}
	staged := p.Has("S", "staged")
	worktree := p.Has("W", "worktree")
	if staged && !worktree {
		return // only the index changes
	}
	if len(p.Operands) > 0 || p.Has("pathspec-from-file") {
		a.judge(g.inv, effect.Discard{Loss: effect.LostFiles, Command: "git restore " + showArgs(p.Operands)})
	}
}

func (a *analyzer) gitReset(g *gitCtx, args []shell.Word) {
	p := shell.ParseOpts(args, shell.Spec{Long: shell.Longs("pathspec-from-file")})
	if p.DynamicOption() {
		a.judge(g.inv, effect.Discard{Loss: effect.LostReset, Command: "git reset", Dynamic: true})
		return
	}
	if p.Has("hard") {
		a.judge(g.inv, effect.Discard{Loss: effect.LostReset, Command: "git reset --hard"})
		return
	}
	if p.Has("merge") {
		a.judge(g.inv, effect.Discard{Loss: effect.LostResetMerge, Command: "git reset --merge"})
		return
	}
	if (p.Has("soft", "mixed", "keep") || len(p.Operands) > 0) && !p.DashDash {
		moves := false
		for _, x := range p.Operands {
			if x.Text != "HEAD" && x.Text != "@" {
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

func (a *analyzer) gitClean(g *gitCtx, args []shell.Word) {
	p := shell.ParseOpts(args, shell.Spec{Short: "e", Long: shell.Longs("exclude")})
	forced := p.Has("f", "force")
	if p.DynamicOption() && !p.Has("n", "dry-run") {
		forced = true // an unknown word may be -f
	}
	if v, ok := g.config["clean.requireforce"]; ok && isFalse(v) {
		forced = true // -c clean.requireForce=false: git clean deletes without -f
	}
	if !forced || p.Has("n", "dry-run") || p.Has("i", "interactive") {
		return
	}
	// Where does it clean? Outside the worktree it is a delete outside
	// first, and it destroys untracked work wherever it runs.
	defer a.judge(g.inv, effect.Discard{Loss: effect.LostUntracked, Command: "git clean -f"})
	dir := shell.Word{Text: "."}
	if g.workTree.Text != "" || g.workTree.Dynamic {
		dir = g.workTree
	}
	targets := p.Operands
	if len(targets) == 0 {
		targets = []shell.Word{dir}
	}
	for _, t := range targets {
		x := t
		if !t.Dynamic && dir.Text != "." && !path.IsAbs(t.Text) {
			x = shell.Word{Text: path.Join(dir.Text, t.Text), Dynamic: dir.Dynamic, Src: t.Src}
		}
		rt := a.resolveArg(x, g.inv.State)
		if rt.unknown || g.inv.State.Remote {
			a.judge(g.inv, effect.Delete{Target: effect.Target{Tool: "git clean", Shown: quoteShow(x), Dynamic: true}})
			continue
		}
		for _, p := range rt.paths {
			if p == a.env.Root {
				continue // the worktree's own untracked files: covered by destructive-git
			}
			// Judged like rm's deletes: outside the worktree, or in another
			// agent's worktree (foreign-worktree).
			a.judge(g.inv, effect.Delete{Target: a.pathTarget("git clean", p, g.inv.State), Verb: "git clean deletes untracked files in"})
		}
	}
}

func (a *analyzer) gitStash(g *gitCtx, args []shell.Word) {
	if len(args) == 0 {
		return
	}
	if args[0].Dynamic {
		a.judge(g.inv, effect.Discard{Loss: effect.LostStash, Command: "git stash", Subject: quoteShow(args[0]), Dynamic: true})
		return
	}
	switch args[0].Text {
	case "show":
		a.gitReads(g, "stash", args[1:])
	case "drop":
		a.judge(g.inv, effect.Discard{Loss: effect.LostStash, Command: "git stash drop"})
	case "clear":
		a.judge(g.inv, effect.Discard{Loss: effect.LostStashes, Command: "git stash clear"})
	}
}

func (a *analyzer) gitBranch(g *gitCtx, args []shell.Word) {
	inv := g.inv
	p := shell.ParseOpts(args, shell.Spec{Short: "u", Long: shell.Longs("set-upstream-to", "contains", "no-contains", "merged", "no-merged", "points-at", "sort", "format"),
		OptionalLong: shell.Longs("track", "column", "color", "abbrev", "recurse-submodules")})
	del := p.Has("d", "D", "delete")
	force := p.Has("f", "force")
	if !del && branchDynamicOption(p) {
		a.judge(inv, effect.Discard{Loss: effect.LostUnmerged, Command: "git branch", Dynamic: true})
		return
	}
	if del {
		for _, x := range p.Operands {
			switch {
			case x.Dynamic:
				a.judge(inv, effect.BranchChange{Op: effect.BranchDelete, Branch: x.Show(), Dynamic: true})
				continue
			case !p.Has("r", "remotes"):
				a.branchChange(inv, effect.BranchChange{Op: effect.BranchDelete, Branch: x.Text})
			}
			switch {
			case a.protected(x.Text) && !p.Has("r", "remotes"): // protected-branch's
			case p.Has("D") || force:
				a.judge(inv, effect.Discard{Loss: effect.LostUnmerged, Command: "git branch -D", Subject: x.Text})
			}
		}
		return
	}
	if p.Has("m", "M", "move") && a.unsharedRename(g, p.Operands) || p.Has("m", "M", "move", "c", "C", "copy") && a.inFreshRepo(g) {
		return // git init && ... && git branch -M main: naming a new repository's first branch
	}
	if p.Has("m", "M", "move", "c", "C", "copy") {
		ops := p.Operands
		names := make([]string, 0, 2)
		for _, x := range ops {
			names = append(names, x.Text)
		}
		if len(ops) == 1 && p.Has("m", "M", "move") {
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
		if len(ops) > 0 && (p.Has("M", "C") || force) {
			target := ops[len(ops)-1]
			switch {
			case target.Dynamic:
				a.judge(inv, effect.Discard{Loss: effect.LostOverwritten, Command: "git branch " + showArgs(ops), Subject: quoteShow(target), Dynamic: true})
			case a.env.Repo != nil && a.env.Repo.HasBranch(g.inv.State.FirstCwd(a.env.Cwd), target.Text):
				a.judge(inv, effect.Discard{Loss: effect.LostOverwritten, Command: "git branch " + showArgs(ops), Subject: target.Text})
			}
		}
		return
	}
	if force && len(p.Operands) > 0 {
		x := p.Operands[0]
		a.branchChange(inv, effect.BranchChange{Op: effect.BranchForce, Branch: x.Show(), Dynamic: x.Dynamic})
	}
	if len(p.Operands) > 0 && !p.Has("l", "list", "a", "all", "r", "remotes", "v", "vv", "show-current", "u", "set-upstream-to", "unset-upstream", "edit-description") {
		a.createsBranch(p.Operands[0]) // git branch NAME [START]
	}
}

// createsBranch records a branch the command creates, for the pushes
// after it (remoteRefName).
func (a *analyzer) createsBranch(x shell.Word) {
	if !x.Static() || x.Text == "" {
		return
	}
	if a.newBranches == nil {
		a.newBranches = map[string]bool{}
	}
	a.newBranches[x.Text] = true
}

// branchDynamicOption reports whether an unknown word may turn git branch
// into a delete or a forced rename. -D, -M and -C need a branch name after
// them, so one quoted word alone ("$name": create a branch) cannot; an
// unquoted expansion may split into both, and so may a quoted word next to
// another operand (git branch "$opt" feature).
func branchDynamicOption(p shell.Parsed) bool {
	n := 0
	unquoted := false
	for _, o := range p.Opts {
		if o.Name == "?" {
			n++
			src := o.Value.Src
			if !(len(src) > 1 && src[0] == '"' && src[len(src)-1] == '"') {
				unquoted = true
			}
		}
	}
	if n == 0 {
		return false
	}
	others := 0
	for _, x := range p.Operands {
		if !(x.Dynamic && shell.MayBeOption(x)) {
			others++
		}
	}
	return unquoted || n > 1 || others > 0
}

func (a *analyzer) gitUpdateRef(g *gitCtx, args []shell.Word) {
	inv := g.inv
	p := shell.ParseOpts(args, shell.Spec{Short: "m", Long: shell.Longs("message")})
	if p.Has("stdin") {
		if inv.Stdin == nil || inv.Stdin.Dynamic {
			a.judge(inv, effect.BranchChange{Op: effect.UpdateRefStdin, Dynamic: true})
			return
		}
		for _, line := range strings.Split(inv.Stdin.Text, "\n") {
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
	if len(p.Operands) > 0 {
		r := p.Operands[0]
		a.branchChange(inv, effect.BranchChange{Op: effect.UpdateRef, Branch: r.Show(), Dynamic: r.Dynamic, Delete: p.Has("d")})
		if r.Dynamic || a.protected(r.Text) {
			return
		}
		if p.Has("d") && strings.HasPrefix(r.Text, "refs/heads/") {
			a.judge(inv, effect.Discard{Loss: effect.LostUnmerged, Command: "git update-ref -d", Subject: "the branch " + strings.TrimPrefix(r.Text, "refs/heads/")})
		}
	}
}

func (a *analyzer) gitSymbolicRef(g *gitCtx, args []shell.Word) {
	p := shell.ParseOpts(args, shell.Spec{Short: "m"})
	if len(p.Operands) >= 2 && p.Operands[0].Text == "HEAD" {
		a.judge(g.inv, effect.BranchChange{Op: effect.SymbolicRefHEAD, Branch: p.Operands[1].Show(), Dynamic: p.Operands[1].Dynamic})
	}
}

func (a *analyzer) gitWorktree(g *gitCtx, args []shell.Word) {
	if len(args) == 0 {
		return
	}
	inv := g.inv
	rest := args[1:]
	switch args[0].Text {
	case "add":
		p := shell.ParseOpts(rest, shell.Spec{Short: "bB", Long: shell.Longs("reason", "orphan")})
		if p.Has("f", "force") && len(p.Values("b", "B", "orphan")) == 0 && len(p.Operands) >= 2 && !p.Operands[1].Dynamic {
			a.branchChange(inv, effect.BranchChange{Op: effect.WorktreeAddForce, Branch: p.Operands[1].Text})
		}
		for _, v := range p.Values("B") {
			a.judge(inv, effect.BranchChange{Op: effect.WorktreeAddReset, Branch: v.Text})
		}
		if len(p.Values("b", "B", "orphan")) == 0 && !p.Has("detach", "d") && len(p.Operands) >= 2 {
			a.judge(inv, effect.BranchChange{Op: effect.WorktreeAdd, Branch: p.Operands[1].Text})
		}
	case "prune":
		a.worktreePrune(inv, rest)
	case "remove":
		p := shell.ParseOpts(rest, shell.Spec{})
		for _, x := range p.Operands {
			a.deletePath(inv, x, true)
		}
	case "move":
		p := shell.ParseOpts(rest, shell.Spec{})
		if len(p.Operands) == 2 {
			a.deletePath(inv, p.Operands[0], true)
			a.writePath(inv, p.Operands[1], "git worktree move writes to")
		}
	}
}

func (a *analyzer) gitConfig(g *gitCtx, args []shell.Word) {
	inv := g.inv
	p := shell.ParseOpts(args, shell.Spec{Short: "f", Long: shell.Longs("file", "blob", "type", "default", "comment", "value", "url")})
	ops := p.Operands
	sub := ""
	if len(ops) > 0 {
		switch ops[0].Text {
		case "get", "set", "unset", "list", "edit", "rename-section", "remove-section":
			sub = ops[0].Text
			ops = ops[1:]
		}
	}
	read := p.Has("get", "get-all", "get-regexp", "get-urlmatch", "list", "l", "get-color", "get-colorbool") || sub == "get" || sub == "list"
	unset := p.Has("unset", "unset-all") || sub == "unset"
	edit := p.Has("e", "edit") || sub == "edit"
	if edit {
		a.judge(inv, effect.GuardChange{Change: effect.ConfigEdit})
		return
	}
	if p.Has("rename-section", "remove-section") || sub == "rename-section" || sub == "remove-section" {
		if len(ops) > 0 && (ops[0].Dynamic || strings.EqualFold(ops[0].Text, "core") || strings.HasPrefix(strings.ToLower(ops[0].Text), "include")) {
			a.judge(inv, effect.GuardChange{Change: effect.ConfigSection, Subject: ops[0].Show()})
		}
		return
	}
	if read || len(ops) == 0 {
		return
	}
	key := ops[0]
	if key.Dynamic {
		a.judge(inv, effect.GuardChange{Change: effect.ConfigUnreadKey})
		return
	}
	write := unset || p.Has("add", "replace-all") || sub == "set" || len(ops) >= 2
	if !write {
		return
	}
	for _, f := range p.Values("f", "file") {
		a.writePath(inv, f, "git config --file writes")
	}
	val := shell.Word{}
	if len(ops) >= 2 {
		val = ops[1]
	} else if v, ok := p.Value("value"); ok && sub == "set" {
		val = v
	}
	a.gitConfigWrite(inv, key.Text, val, !unset && len(ops) >= 2, nil)
}

func (a *analyzer) gitRm(g *gitCtx, args []shell.Word) {
	p := shell.ParseOpts(args, shell.Spec{Long: shell.Longs("pathspec-from-file")})
	if p.Has("n", "dry-run") {
		return
	}
	if p.Has("cached") {
		if f, ok := p.Value("pathspec-from-file"); ok {
			a.judge(g.inv, effect.GuardChange{Change: effect.UntrackUnread, Subject: f.Show()})
		}
		a.untrackProtected(g.inv, p.Operands) // only the index changes
		return
	}
	recursive := p.Has("r")
	for _, x := range p.Operands {
		a.deletePath(g.inv, x, recursive)
	}
}

func (a *analyzer) gitReads(g *gitCtx, sub string, args []shell.Word) {
	for _, x := range args {
		if x.Dynamic || strings.HasPrefix(x.Text, "-") {
			continue
		}
		if rev, p, ok := strings.Cut(x.Text, ":"); ok && !strings.Contains(rev, "/") {
			a.readPath(g.inv, shell.Word{Text: p, Src: x.Src}) // HEAD:.env, :.env
			continue
		}
		a.readPath(g.inv, x)
	}
	_ = sub
}

func (a *analyzer) gitFetch(g *gitCtx, args []shell.Word) {
	p := shell.ParseOpts(args, shell.Spec{Short: "jo", Long: shell.Longs("depth", "deepen", "shallow-since", "shallow-exclude", "upload-pack", "refmap", "jobs", "negotiation-tip", "server-option", "filter"),
		OptionalLong: shell.Longs("recurse-submodules")})
	for _, c := range p.Values("upload-pack") {
		remote := *g.inv
		remote.State = remoteState(g.inv.State)
		a.x.RunScript(&remote, c, "git fetch --upload-pack")
	}
	force := p.Has("f", "force")
	if len(p.Operands) < 2 {
		return
	}
	for _, r := range p.Operands[1:] {
		spec := r.Text
		plus := strings.HasPrefix(spec, "+")
		_, dst, ok := strings.Cut(strings.TrimPrefix(spec, "+"), ":")
		// From a remote, a fast-forward of local main only catches up with
		// it; from this repository (".") or by force, it moves main.
		local := p.Operands[0].Text == "." || isLocalPath(p.Operands[0].Text)
		if ok && (plus || force || local) {
			a.judge(g.inv, effect.BranchChange{Op: effect.FetchInto, Branch: dst, Args: spec})
		}
	}
}

func (a *analyzer) gitClone(g *gitCtx, args []shell.Word) {
	p := shell.ParseOpts(args, shell.Spec{Short: "obcujq", Long: shell.Longs("origin", "branch", "config", "upload-pack", "template", "reference", "separate-git-dir", "depth", "shallow-since", "shallow-exclude", "jobs", "filter", "server-option", "bundle-uri", "ref-format")})
	for _, c := range p.Values("u", "upload-pack") {
		a.x.RunScript(g.inv, c, "git clone --upload-pack")
	}
	for _, op := range p.Operands {
		if rest, ok := strings.CutPrefix(op.Text, "ext::"); ok {
			a.x.RunScript(g.inv, shell.Word{Text: rest, Src: op.Src}, "git clone ext::")
		}
	}
	if len(p.Operands) >= 2 {
		a.writePath(g.inv, p.Operands[1], "git clone writes to")
	}
}
