package hookenv

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard"
	"github.com/swarm-guard/swarm-guard/hooks/audit"
	"github.com/swarm-guard/swarm-guard/hooks/gitrepo"
	"github.com/swarm-guard/swarm-guard/hooks/internal/postrecord"
)

// Options describe where a tool call happens.
type Options struct {
	Cwd string // the agent's working directory
	// Home is a directory inside the agent's home worktree (see HomeDir).
	// Every path rule is measured against that worktree, wherever Cwd
	// moved to. Empty means the worktree containing Cwd.
	Home        string
	ProjectDir  string              // CLAUDE_PROJECT_DIR, the fallback root outside git
	Getenv      func(string) string // the hook process environment
	Executables []string            // the swarm-guard executables, protected from the agent
}

// Context is an Env plus where it came from.
type Context struct {
	Env      *guard.Env
	Repo     *gitrepo.Repo // nil outside a git worktree
	StateDir string        // where the audit log and state files live
}

// caseInsensitiveFS: macOS's default file systems (APFS, HFS+) and
// Windows' compare names without case, so .GIT is .git and RM runs rm.
// The engine is told, it never asks.
var caseInsensitiveFS = runtime.GOOS == "darwin" || runtime.GOOS == "windows"

// passedVars are environment variables the agent's shell sees with the
// same values as the hook, so the engine may expand them.
var passedVars = []string{"TMPDIR", "USER", "LOGNAME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "CLAUDE_PROJECT_DIR"}

// AgentSession reports whether the process runs on behalf of an agent:
// inside a Claude Code session (CLAUDECODE=1, which Claude Code exports to
// its hooks and to the Bash tool's shell, so a git hook run by the agent's
// git sees it), in another client's session (GEMINI_CLI, QWEN_CODE,
// OPENCODE, COPILOT_CLI, CODEX_*: SessionClient) or under swarm-guard run
// (SWARM_GUARD_RUN). A human at a
// plain shell is neither; the git hooks treat that human as the owner of
// every branch. An agent cannot pass as a human by unsetting the variables:
// the engine denies commands that unset or override them, and on Linux the
// git hooks also look for them in their parent processes (AgentAncestor).
func AgentSession(getenv func(string) string) bool {
	if getenv == nil {
		getenv = os.Getenv
	}
	return SessionClient(getenv) != ""
}

// AgentCommit reports whether a commit made by this process is an agent's
// (the hooks write its Agent-Id) rather than a human's (the hooks write
// the human marker, [trailers] human_key): inside an agent session
// (AgentSession), or with an agent id named in the environment
// (SWARM_GUARD_AGENT_ID, AGENT_ID), which is how an orchestrator tells a
// client other than Claude Code who it is. A human at a plain shell has
// none of these. The engine denies an agent's commands that unset or
// override them, so an agent cannot commit as a human.
func AgentCommit(getenv func(string) string) bool {
	if getenv == nil {
		getenv = os.Getenv
	}
	return AgentSession(getenv) || getenv("SWARM_GUARD_AGENT_ID") != "" || getenv("AGENT_ID") != ""
}

// HomeDir returns the directory that fixes the agent's home worktree:
// SWARM_GUARD_HOME under swarm-guard run, else CLAUDE_PROJECT_DIR (the
// directory the Claude Code session started in). "" when neither is an
// absolute path. The home never follows cd, git -C or EnterWorktree.
//
// The rule is written once, in postrecord (which swarm-guard-post links
// without this package), so the post binary finds the same home.
func HomeDir(getenv func(string) string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	return postrecord.Home(getenv)
}

// Build finds the agent's home worktree (o.Home, else the worktree
// containing o.Cwd) and describes it. The root is that git top level, else
// CLAUDE_PROJECT_DIR, else cwd. Every worktree of the repository other than
// the home one, including the one containing cwd, is another worktree.
func Build(o Options) *Context {
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	r := newResolver()
	cwd := filepath.Clean(o.Cwd)
	if !filepath.IsAbs(cwd) {
		if wd, err := os.Getwd(); err == nil {
			cwd = filepath.Join(wd, cwd)
		}
	}
	cwd = r.resolve(cwd)
	env := &guard.Env{
		Cwd:     cwd,
		Home:    r.resolve(filepath.Clean(getenv("HOME"))),
		Temp:    r.resolve(filepath.Clean(os.TempDir())),
		Vars:    map[string]string{},
		Resolve: r.resolve,
		Repo:    &repoInfo{clones: map[string]string{}, find: r.find},
	}
	env.ReadFile = readFile
	for _, d := range filepath.SplitList(getenv("PATH")) {
		if filepath.IsAbs(d) {
			env.PathDirs = append(env.PathDirs, filepath.Clean(d))
		}
	}
	env.CaseInsensitive = caseInsensitiveFS
	// swarm-guard run's --oversight for this task: set in the agent's
	// environment by run, which the agent's commands cannot change.
	env.Oversight = getenv("SWARM_GUARD_OVERSIGHT")
	if getenv("HOME") == "" {
		env.Home = ""
	}
	for _, v := range passedVars {
		if val, ok := lookup(getenv, v); ok {
			env.Vars[v] = val
		} else {
			if env.Unset == nil {
				env.Unset = map[string]bool{}
			}
			env.Unset[v] = true
		}
	}
	ctx := &Context{Env: env}
	where := cwd
	if o.Home != "" && filepath.IsAbs(o.Home) {
		where = r.resolve(filepath.Clean(o.Home))
	}
	if iso := isolatedWorktree(r, where, cwd); iso != "" {
		where = iso // a worktree Claude Code made for this agent is its own
	}
	if repo, ok := r.find(where); ok {
		ctx.Repo = repo
		cfg := repo.ReadConfig()
		if ri, ok := env.Repo.(*repoInfo); ok {
			ri.home, ri.origin = repo, normalizeRemote(cfg.Value(`remote "origin"`, "url"), repo.Root)
		}
		env.Remotes = cfg.RemoteURLs()
		env.Root = r.resolve(repo.Root)
		env.GitDir = r.resolve(repo.GitDir)
		env.CommonDir = r.resolve(repo.CommonDir)
		env.Branch, env.Detached = repo.Branch, repo.Detached
		hooks := r.resolve(repo.HooksDirIn(cfg))
		env.HooksDirs = []string{hooks}
		if def := filepath.Join(env.CommonDir, "hooks"); def != hooks {
			env.HooksDirs = append(env.HooksDirs, def)
		}
		for _, w := range repo.OtherWorktrees() {
			if IsolatedUnder(env.Root, r.resolve(w)) {
				continue // made by Claude Code for this agent: its own
			}
			env.OtherWorktrees = append(env.OtherWorktrees, r.resolve(w))
		}
	} else if pd := getenv("CLAUDE_PROJECT_DIR"); pd != "" && filepath.IsAbs(pd) {
		env.Root = r.resolve(filepath.Clean(pd))
	} else {
		env.Root = cwd
	}
	for _, exe := range o.Executables {
		if exe != "" {
			env.GuardPaths = append(env.GuardPaths, r.resolve(exe))
		}
	}
	env.GuardPaths = append(env.GuardPaths, clientGuardFiles(env.Root, env.Home, getenv)...)
	ctx.StateDir = audit.Dir(env.CommonDir, getenv)
	// The guard's own files outside the repository: the per-machine agent
	// id and the state and audit directories. Rewriting them changes who
	// the agent is or what was recorded (rule guard-tamper).
	for _, d := range guardDirs(getenv, ctx.StateDir) {
		d = r.resolve(d)
		env.GuardPaths = append(env.GuardPaths, d, d+"/**")
	}
	return ctx
}

func lookup(getenv func(string) string, name string) (string, bool) {
	if getenv == nil {
		return os.LookupEnv(name)
	}
	v := getenv(name)
	return v, v != ""
}

// resolver resolves symlinks in paths that may not exist yet: the longest
// existing prefix is resolved and the rest appended. It also remembers the
// worktrees found during one Build (find), so .git/HEAD and commondir are
// read once per call, not once per question.
//
// An absolute clean path is resolved one component at a time on top of
// its resolved parent, which is remembered: the hook resolves a dozen
// paths under the same few directories (the worktree, .git, HOME), and
// each directory is looked at once per call instead of once per path
// below it (filepath.EvalSymlinks starts from / every time). The answer
// is EvalSymlinks' where that succeeds, and the resolved parent plus the
// last name where it fails, as before.
type resolver struct {
	cache map[string]resolved
	repos map[string]*gitrepo.Repo // directory -> gitrepo.Find's answer (nil: none)
}

// resolved is one path's answer; ok when the whole path exists and every
// link in it resolved (filepath.EvalSymlinks would succeed).
type resolved struct {
	path string
	ok   bool
}

func newResolver() *resolver {
	return &resolver{cache: map[string]resolved{}, repos: map[string]*gitrepo.Repo{}}
}

// find is gitrepo.Find, answered once per directory during one Build. A
// worktree's root is remembered too: Find from it finds the same worktree.
// Each caller gets its own copy of the Repo.
func (r *resolver) find(dir string) (*gitrepo.Repo, bool) {
	dir = filepath.Clean(dir)
	repo, seen := r.repos[dir]
	if !seen {
		repo, _ = gitrepo.Find(dir)
		r.repos[dir] = repo
		if repo != nil {
			r.repos[repo.Root] = repo
		}
	}
	if repo == nil {
		return nil, false
	}
	cp := *repo
	return &cp, true
}

func (r *resolver) resolve(p string) string {
	if p == "" || p == "/" || p == "." || perProcess(p) {
		return p
	}
	if filepath.IsAbs(p) && filepath.Clean(p) == p {
		return r.walk(p).path
	}
	if v, ok := r.cache[p]; ok {
		return v.path
	}
	out := p
	if real, err := filepath.EvalSymlinks(p); err == nil {
		out = real
	} else if parent := filepath.Dir(p); parent != p {
		out = filepath.Join(r.resolve(parent), filepath.Base(p))
	}
	r.cache[p] = resolved{path: out}
	return out
}

// perProcess reports whether p is a file whose link depends on the
// process that follows it and whose meaning the engine knows by name: the
// environment and the file descriptors of /proc/self and /proc/thread-self,
// and /dev/fd (a link to /proc/self/fd). Resolved in the hook they would
// name the hook's own process, not the shell that runs the command:
// /proc/self/environ would read as another process's environment, and
// /dev/fd/1 as a file outside the worktree. /proc/self itself stays as
// written; the other links below it (root, cwd) are still resolved: they
// lead to real paths the rules must see.
func perProcess(p string) bool {
	if p == "/dev/fd" || strings.HasPrefix(p, "/dev/fd/") {
		return true
	}
	for _, self := range []string{"/proc/self", "/proc/thread-self"} {
		if p == self {
			return true
		}
		if rest, ok := strings.CutPrefix(p, self+"/"); ok {
			return rest == "environ" || rest == "fd" || strings.HasPrefix(rest, "fd/")
		}
	}
	return false
}

// walk resolves the absolute clean path p on top of its resolved parent.
// A link is left to filepath.EvalSymlinks from there: its target may
// climb out of another link with "..", which only a walk of the real
// directories gets right.
func (r *resolver) walk(p string) resolved {
	if p == "/" {
		return resolved{path: p, ok: true}
	}
	if v, ok := r.cache[p]; ok {
		return v
	}
	if perProcess(p) {
		return resolved{path: p, ok: true}
	}
	parent := r.walk(filepath.Dir(p))
	out := resolved{path: filepath.Join(parent.path, filepath.Base(p))}
	if parent.ok {
		if fi, err := os.Lstat(out.path); err == nil && fi.Mode()&os.ModeSymlink == 0 {
			out.ok = true
		} else if err == nil {
			if real, err := filepath.EvalSymlinks(out.path); err == nil {
				out = resolved{path: real, ok: true}
			}
		}
	}
	r.cache[p] = out
	return out
}

// repoInfo answers the engine's questions about other directories.
type repoInfo struct {
	home   *gitrepo.Repo     // the agent's home worktree; nil outside git
	origin string            // its remote.origin.url, normalised
	clones map[string]string // directory -> root of a checkout of the same repository ("" none)
	// find is gitrepo.Find, answered once per directory during one hook
	// call (the resolver's): the engine asks about the same directory for
	// every git command of a script. Nil means gitrepo.Find.
	find func(string) (*gitrepo.Repo, bool)
}

func (ri *repoInfo) findRepo(dir string) (*gitrepo.Repo, bool) {
	if ri.find != nil {
		return ri.find(dir)
	}
	return gitrepo.Find(dir)
}

func (ri *repoInfo) BranchAt(dir string) (string, bool) {
	repo, ok := ri.findRepo(dir)
	if !ok || (repo.Branch == "" && !repo.Detached) {
		return "", false
	}
	return repo.Branch, true
}

func (ri *repoInfo) HasBranch(dir, name string) bool {
	repo, ok := ri.findRepo(dir)
	return ok && repo.HasBranch(name)
}

func (*repoInfo) Exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// isolatedWorktree returns the worktree containing cwd when it lies under
// <home>/.claude/worktrees: Claude Code's isolation feature (EnterWorktree
// with a name, isolated subagents) makes it for the agent itself, so it
// is the agent's own, not another agent's. "" otherwise.
func isolatedWorktree(r *resolver, home, cwd string) string {
	homeRepo, ok := r.find(home)
	if !ok {
		return ""
	}
	cur, ok := r.find(cwd)
	if !ok || r.resolve(cur.Root) == r.resolve(homeRepo.Root) {
		return ""
	}
	if strings.HasPrefix(r.resolve(cur.Root)+"/", r.resolve(filepath.Join(homeRepo.Root, ".claude", "worktrees"))+"/") {
		return cur.Root
	}
	return ""
}

// SameRepoCheckout reports whether path lies in a checkout of the home's
// repository that is not one of its worktrees: another clone with the same
// origin, a clone of the home, or the clone the home was made from. Such a
// checkout is another agent's (or a human's), read-only like a sibling
// worktree. Results are cached per checkout root.
func (ri *repoInfo) SameRepoCheckout(path string) (string, bool) {
	if ri.home == nil {
		return "", false
	}
	r, ok := ri.findRepo(path)
	if !ok || filepath.Clean(r.CommonDir) == filepath.Clean(ri.home.CommonDir) {
		return "", false
	}
	if v, ok := ri.clones[r.Root]; ok {
		return v, v != ""
	}
	same := false
	theirs := normalizeRemote(r.ConfigValue(`remote "origin"`, "url"), r.Root)
	switch {
	case theirs != "" && theirs == ri.origin:
		same = true
	case theirs != "" && (theirs == filepath.Clean(ri.home.Root) || theirs == filepath.Clean(ri.home.CommonDir)):
		same = true // cloned from the home
	case ri.origin != "" && (ri.origin == filepath.Clean(r.Root) || ri.origin == filepath.Clean(r.CommonDir)):
		same = true // the home was cloned from it
	}
	root := ""
	if same {
		root = r.Root
	}
	ri.clones[r.Root] = root
	return root, same
}

// normalizeRemote makes remote URLs comparable: no trailing slash or .git,
// scp-like and ssh:// spellings alike, local paths absolute and clean.
func normalizeRemote(url, base string) string {
	u := strings.TrimSpace(url)
	if u == "" {
		return ""
	}
	u = strings.TrimSuffix(strings.TrimSuffix(u, "/"), ".git")
	if p, ok := strings.CutPrefix(u, "file://"); ok {
		u = p
	}
	if strings.HasPrefix(u, "/") || strings.HasPrefix(u, ".") {
		if !filepath.IsAbs(u) {
			u = filepath.Join(base, u)
		}
		return filepath.Clean(u)
	}
	for _, pre := range []string{"ssh://", "https://", "http://", "git://"} {
		u = strings.TrimPrefix(u, pre)
	}
	if at := strings.Index(u, "@"); at >= 0 && at < strings.IndexAny(u+":/", ":/") {
		u = u[at+1:]
	}
	u = strings.Replace(u, ":", "/", 1)
	return strings.ToLower(u)
}

// scannerName is the secret scanner's file name (secretscan/client's
// ExecutableName; TestGuardExecutables keeps them equal).
const scannerName = "swarm-guard-secrets"

// GuardExecutables are the swarm-guard executables a hook call protects
// from the agent (rule guard-tamper), given the running one: itself,
// swarm-guard-post, which the hook command runs beside it ($sg-post), and
// the scanner swarm-guard-secrets in its directory. Replacing either of
// the other two switches PostToolUse or the secret scan off as surely as
// replacing the hook itself.
func GuardExecutables(exe string) []string {
	if exe == "" {
		return nil
	}
	return []string{exe, exe + "-post", filepath.Join(filepath.Dir(exe), scannerName)}
}

// guardDirs are the directories of the guard's own state outside the
// worktree: where the agent id file lives ($XDG_CONFIG_HOME/swarm-guard,
// ~/.config/swarm-guard) and where state and audit logs live.
func guardDirs(getenv func(string) string, stateDir string) []string {
	var dirs []string
	if x := getenv("XDG_CONFIG_HOME"); filepath.IsAbs(x) {
		dirs = append(dirs, filepath.Join(x, "swarm-guard"))
	}
	if h := getenv("HOME"); filepath.IsAbs(h) {
		dirs = append(dirs, filepath.Join(h, ".config", "swarm-guard"), filepath.Join(h, ".local", "state", "swarm-guard"))
	}
	if x := getenv("XDG_STATE_HOME"); filepath.IsAbs(x) {
		dirs = append(dirs, filepath.Join(x, "swarm-guard"))
	}
	if filepath.IsAbs(stateDir) {
		dirs = append(dirs, stateDir)
	}
	return dirs
}

// IsolatedUnder reports whether worktree w lies under home's
// .claude/worktrees: Claude Code's isolation feature (EnterWorktree with a
// name, isolated subagents) made it for the agent of home, so it is that
// agent's own, not another agent's.
func IsolatedUnder(home, w string) bool {
	return home != "" && strings.HasPrefix(filepath.Clean(w)+"/", filepath.Join(home, ".claude", "worktrees")+"/")
}
