package doctor

import (
	"fmt"
	"os"
	"strings"

	"github.com/swarm-guard/swarm-guard/hooks/gitrepo"
	"github.com/swarm-guard/swarm-guard/hooks/identity"
	"github.com/swarm-guard/swarm-guard/install"
	"github.com/swarm-guard/swarm-guard/policy"
)

// The statuses of a check.
const (
	OK   = "ok"
	Fail = "FAIL" // counted as a problem: doctor exits 1
	Warn = "warn" // a weakness doctor cannot fix from the repository (an old client): printed with its hint
	Skip = "skip"
)

// Result is the outcome of one check.
type Result struct {
	Name   string
	Status string // OK, Fail, Warn or Skip
	Detail string
	// Fix is what to do: for Fail a remedy that works as printed, for Warn
	// a hint; empty otherwise.
	Fix string
}

func ok(name, detail string) Result   { return Result{Name: name, Status: OK, Detail: detail} }
func skip(name, detail string) Result { return Result{Name: name, Status: Skip, Detail: detail} }
func warn(name, detail, hint string) Result {
	return Result{Name: name, Status: Warn, Detail: detail, Fix: hint}
}
func fail(name, detail, remedy string) Result {
	return Result{Name: name, Status: Fail, Detail: detail, Fix: remedy}
}

// Place is what doctor checks: a worktree, its policy, and the swarm-guard
// that runs doctor.
type Place struct {
	Root   string            // the worktree's root
	Repo   *gitrepo.Repo     // nil outside git
	Git    *install.GitHooks // where git runs hooks; nil outside git
	Binary string            // the swarm-guard running doctor: its secret scanner is next to it
	Getenv func(string) string
	// Policy is the default when the policy file is broken (PolicyErr), so
	// the later checks still run.
	Policy    *policy.Policy
	PolicyErr error
}

type doctor struct{ Place }

// checks is the list of checks, in the order they print.
var checks = []func(d *doctor) []Result{
	(*doctor).checkPolicy,
	(*doctor).checkAgentID,
	(*doctor).checkSettings,
	(*doctor).checkFailClosed,
	(*doctor).checkClients,
	(*doctor).checkGitHooks,
	(*doctor).checkSecretScanner,
	(*doctor).checkMCPServers,
}

// Check runs every check on p, in order.
func Check(p Place) []Result {
	if p.Getenv == nil {
		p.Getenv = os.Getenv
	}
	if p.Policy == nil {
		p.Policy = policy.Default()
	}
	d := &doctor{p}
	var out []Result
	for _, check := range checks {
		out = append(out, check(d)...)
	}
	return out
}

func (d *doctor) checkPolicy() []Result {
	if d.PolicyErr != nil {
		return []Result{fail("policy", d.PolicyErr.Error(), "fix the policy file (swarm-guard policy check shows the problem); until then every hook refuses")}
	}
	return []Result{ok("policy", d.Policy.Source+" parses")}
}

func (d *doctor) checkAgentID() []Result {
	id, err := identity.InWorktree(d.Getenv, d.Repo, d.Policy)
	if err != nil {
		return []Result{fail("agent id", err.Error(), "set SWARM_GUARD_AGENT_ID to a well-formed id, or fix or delete the id file named above")}
	}
	detail := fmt.Sprintf("%s (from %s)", id.ID, id.Source)
	if id.File != "" {
		detail = fmt.Sprintf("%s (from %s)", id.ID, id.File)
	}
	return []Result{ok("agent id", detail)}
}

func isExecutableFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

func shellQuoteArg(s string) string {
	if strings.ContainsAny(s, " '\"$`\\") {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return s
}
