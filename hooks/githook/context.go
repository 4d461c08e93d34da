package githook

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/swarm-guard/swarm-guard/guard/trailer"
	"github.com/swarm-guard/swarm-guard/hooks/gitrepo"
	"github.com/swarm-guard/swarm-guard/hooks/hookenv"
	"github.com/swarm-guard/swarm-guard/hooks/identity"
	"github.com/swarm-guard/swarm-guard/policy"
)

// envSession names the session of the agent wrapper (swarm-guard run);
// when set, commits also get the policy's session trailer.
const envSession = "SWARM_GUARD_SESSION"

// Env is the process a git hook runs in.
type Env struct {
	Stdin  io.Reader
	Stderr io.Writer
	Getenv func(string) string
	// Workdir is the directory git runs the hook in: the worktree's top
	// level, or the git dir of a bare repository.
	Workdir func() (string, error)
	// Executable is this program's path, for the secret scanner that
	// runs next to it.
	Executable func() (string, error)
	// AgentAncestor is hookenv.AgentAncestor when nil; tests replace it
	// so that scripts are not judged by the session they happen to run in.
	AgentAncestor func() int
}

// The exit codes git acts on.
const (
	Pass    = 0 // the git operation goes on
	Blocked = 1 // the hook printed why, and git stops the operation
)

// errBlocked is what refuse returns: the hook printed its problems.
var errBlocked = errors.New("blocked")

// exitCode turns a hook's result into Pass or Blocked.
func exitCode(err error) int {
	if err != nil {
		return Blocked
	}
	return Pass
}

// gitHookContext is what every git hook starts from: the worktree git
// runs the hook in (its top level is the working directory) and its policy.
type gitHookContext struct {
	c    Env
	hook string
	repo *gitrepo.Repo // nil when git ran the hook outside a worktree (bare repository)
	pol  *policy.Policy
}

// newGitHookContext loads the worktree and its policy. A broken policy
// blocks every git hook: guessing what it meant is worse.
func newGitHookContext(c Env, hook string) (*gitHookContext, error) {
	wd, err := c.Workdir()
	if err != nil {
		return nil, refuse(c, hook, fmt.Sprintf("cannot tell the current directory (%v); run git from inside the worktree", err))
	}
	hc := &gitHookContext{c: c, hook: hook}
	if hc.repo, _, hc.pol, err = hookenv.RepoPolicy(wd, ""); err != nil {
		return nil, refuse(c, hook, fmt.Sprintf("the policy is broken, so every swarm-guard git hook refuses: %v; fix it (swarm-guard policy check)", err))
	}
	if hc.pol, err = hc.pol.WithMode(c.Getenv(policy.ModeEnv)); err != nil { // swarm-guard run --mode
		return nil, refuse(c, hook, err.Error()+"; start the agent with swarm-guard run --mode enforce, warn or log")
	}
	return hc, nil
}

// newMessageHook starts prepare-commit-msg and commit-msg: the context,
// and the message git is about to commit, read from file.
func newMessageHook(c Env, hook, file string) (*gitHookContext, string, error) {
	hc, err := newGitHookContext(c, hook)
	if err != nil {
		return nil, "", err
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, "", refuse(c, hook, fmt.Sprintf("cannot read the commit message: %v", err))
	}
	return hc, string(data), nil
}

// refuse prints one line per problem and blocks the git operation.
func refuse(c Env, hook string, problems ...string) error {
	for _, p := range problems {
		fmt.Fprintf(c.Stderr, "swarm-guard %s: %s\n", hook, p)
	}
	return errBlocked
}

// warn prints a problem that does not block.
func (hc *gitHookContext) warn(format string, args ...any) {
	fmt.Fprintf(hc.c.Stderr, "swarm-guard %s: warning: %s\n", hc.hook, fmt.Sprintf(format, args...))
}

// shadowed reports whether a problem of a rule only warns or logs under
// the policy's modes (rule "" for the hooks' own checks, such as missing
// trailers: the policy-wide mode alone), and prints it when it warns: in
// a shadow week the git hooks let the operation through, as the Claude
// Code hook lets the call run.
func (hc *gitHookContext) shadowed(rule, problem string) bool {
	act := policy.Action(hc.pol.Mode)
	if rule != "" {
		act = hc.pol.RuleAction(rule)
	}
	switch act {
	case policy.Warn:
		hc.warn("%s (%s mode: not blocked)", problem, act)
		return true
	case policy.Log:
		return true
	}
	return false
}

// agent resolves the agent id for this worktree.
func (hc *gitHookContext) agent() (identity.Identity, error) {
	return identity.InWorktree(hc.c.Getenv, hc.repo, hc.pol)
}

// trailerOptions reads how git parses this repository's messages: its
// comment character and trailer separators. Only the repository's own
// config is read (hooks/gitrepo reads no global config), and
// core.commentChar=auto counts as '#'.
func (hc *gitHookContext) trailerOptions() trailer.Options {
	o := trailer.Options{Uncleaned: true}
	if hc.repo == nil {
		return o
	}
	if cc := hc.repo.ConfigValue("core", "commentchar"); len(cc) == 1 {
		o.CommentChar = cc[0]
	}
	o.Separators = hc.repo.ConfigValue("trailer", "separators")
	return o
}

// trailersFor returns the trailers a commit message should get, given
// the agent-id values it already has: the agent id, and the session when
// the message is, or becomes, this agent's. Another agent's Agent-Id is
// never replaced, and its commit does not get this agent's session.
//
// A commit outside any agent session (hookenv.AgentCommit) is a human's:
// it gets the human marker ([trailers] human_key: human) and no agent id,
// so verify can tell it from an agent's and from one that skipped the
// hooks.
func (hc *gitHookContext) trailersFor(existing []string) ([]trailer.Trailer, error) {
	if !agentCommit(hc.c) {
		return []trailer.Trailer{{Key: hc.pol.Trailers.HumanKey, Value: policy.HumanValue}}, nil
	}
	id, err := hc.agent()
	if err != nil {
		return nil, err
	}
	ts := []trailer.Trailer{{Key: hc.pol.Trailers.AgentKey, Value: id.ID}}
	if s := hc.c.Getenv(envSession); s != "" && (len(existing) == 0 || slices.Contains(existing, id.ID)) {
		if identity.Valid(s) {
			ts = append(ts, trailer.Trailer{Key: hc.pol.Trailers.SessionKey, Value: s})
		} else {
			hc.warn("%s=%q is not well formed (%s), so the commit gets no %s trailer", envSession, s, identity.Pattern, hc.pol.Trailers.SessionKey)
		}
	}
	return ts, nil
}
