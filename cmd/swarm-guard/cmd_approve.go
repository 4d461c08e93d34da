package main

import (
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/swarm-guard/swarm-guard/hooks/approval"
	"github.com/swarm-guard/swarm-guard/hooks/audit"
	"github.com/swarm-guard/swarm-guard/hooks/gitrepo"
	"github.com/swarm-guard/swarm-guard/hooks/hookenv"
)

func init() {
	commands = append(commands, &command{
		name:    "approve",
		summary: "let one denied call run once (a human's approval; refused inside an agent)",
		usage: `Usage: swarm-guard approve [--remote R] CODE

Approves the pending request CODE: a call the guard stopped that a human
may allow (an ask rule, checkpoint oversight, a rule of [approvals] rules).
The agent then retries exactly that call and it runs, once. The approval
holds for that tool input, agent, worktree and policy until it expires
([approvals] expiry, 1h by default). swarm-guard approvals lists the
pending requests.

approve refuses to run inside an agent session (CLAUDECODE=1,
SWARM_GUARD_RUN, SWARM_GUARD_AGENT_ID or AGENT_ID set, or an agent among
its parent processes): only a human approves.

  --remote R  approve a request of another clone or container, published
              through the git remote R (swarm-guard approvals --remote R
              there and here); that clone's next approvals --remote R
              applies it
Exit codes: 0 approved, 1 refused or no such request, 2 usage error.`,
		run: runApprove,
	})
	commands = append(commands, &command{
		name:    "approvals",
		summary: "list the pending requests a human may approve",
		usage: `Usage: swarm-guard approvals [--all] [--remote R]

Lists the calls the guard stopped that a human may allow once with
swarm-guard approve CODE: code, age, agent, worktree, rule and command.

  --all       also approved, used and expired requests
  --remote R  sync through the git remote R, for swarms across clones and
              containers: apply the grants humans pushed for this clone's
              requests, publish this clone's pending requests, and list
              the other clones' too (refs/swarm-guard/approvals/)`,
		run: runApprovals,
	})
}

// approveAncestor is hookenv.AgentAncestor; the test binary confines it
// to the processes its scripts start.
var approveAncestor = hookenv.AgentAncestor

// agentSessionSign names why this process runs on an agent's behalf, or "".
func agentSessionSign(getenv func(string) string) string {
	for _, v := range []string{"CLAUDECODE", "SWARM_GUARD_RUN", "SWARM_GUARD_AGENT_ID", "AGENT_ID"} {
		if getenv(v) != "" {
			return v + " is set"
		}
	}
	if pid := approveAncestor(); pid != 0 {
		return fmt.Sprintf("process %d above this one runs in an agent session", pid)
	}
	return ""
}

func approvalStore(c *cli) (approval.Store, error) {
	wd, err := c.workdir()
	if err != nil {
		return approval.Store{}, fmt.Errorf("cannot find the working directory: %w", err)
	}
	repo, ok := gitrepo.Find(wd)
	if !ok {
		return approval.Store{}, usageErrorf("usage: run inside the repository whose agent asked (approvals are kept per clone)")
	}
	return approval.Open(audit.Dir(repo.CommonDir, c.getenv)), nil
}

func runApprove(c *cli, args []string) error {
	fs := newFlags("approve")
	remote := fs.String("remote", "", "")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageErrorf("usage: swarm-guard approve CODE (swarm-guard approvals lists the codes)")
	}
	if why := agentSessionSign(c.getenv); why != "" {
		return &exitError{code: exitBlock, msg: "refused: only a human approves, and this runs inside an agent session (" + why + "); run swarm-guard approve from your own terminal"}
	}
	st, err := approvalStore(c)
	if err != nil {
		return err
	}
	by := c.getenv("USER")
	if by == "" {
		by = "a human"
	}
	r, err := st.Approve(fs.Arg(0), by)
	if errors.Is(err, approval.ErrUnknown) && *remote != "" {
		return approveRemote(c, approval.Remote{Dir: wdOrDot(c), Name: *remote}, st, strings.ToUpper(fs.Arg(0)), by)
	}
	if errors.Is(err, approval.ErrUnknown) {
		return &exitError{code: exitBlock, msg: fmt.Sprintf("no pending request has the code %q in this clone; swarm-guard approvals lists them", fs.Arg(0))}
	}
	if err != nil {
		return &exitError{code: exitBlock, msg: err.Error()}
	}
	fmt.Fprintf(c.stdout, "approved %s: %s %s (rule %s) for agent %s in %s, until %s; the agent may now retry exactly this call, once\n",
		r.Code, r.Tool, r.Command, r.Rule, r.Agent, r.Worktree, r.Expires.Local().Format("15:04"))
	return nil
}

// approveRemote grants a request another clone published.
func approveRemote(c *cli, rm approval.Remote, st approval.Store, code, by string) error {
	reqs, err := rm.Requests(st)
	if err != nil {
		return &exitError{code: exitBlock, msg: "cannot read the requests of remote " + rm.Name + ": " + err.Error()}
	}
	for _, r := range reqs {
		if r.Code != code {
			continue
		}
		if err := rm.Approve(r, by); err != nil {
			return &exitError{code: exitBlock, msg: "cannot push the approval to " + rm.Name + ": " + err.Error()}
		}
		fmt.Fprintf(c.stdout, "approved %s through %s: %s %s (rule %s) for agent %s in %s; it applies when that clone next runs swarm-guard approvals --remote %s, then the agent may retry exactly this call, once\n",
			r.Code, rm.Name, r.Tool, r.Command, r.Rule, r.Agent, r.Worktree, rm.Name)
		return nil
	}
	return &exitError{code: exitBlock, msg: fmt.Sprintf("no pending request has the code %q in this clone or on %s; swarm-guard approvals --remote %s lists them", code, rm.Name, rm.Name)}
}

func wdOrDot(c *cli) string {
	if wd, err := c.workdir(); err == nil {
		return wd
	}
	return "."
}

func runApprovals(c *cli, args []string) error {
	fs := newFlags("approvals")
	all := fs.Bool("all", false, "")
	remote := fs.String("remote", "", "")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usageErrorf("usage: swarm-guard approvals takes no arguments")
	}
	st, err := approvalStore(c)
	if err != nil {
		return err
	}
	var others []approval.Request
	if *remote != "" {
		rm := approval.Remote{Dir: wdOrDot(c), Name: *remote}
		applied, err := rm.Apply(st)
		if err != nil {
			return &exitError{code: exitBlock, msg: "cannot sync approvals through " + *remote + ": " + err.Error()}
		}
		published, err := rm.Publish(st)
		if err != nil {
			return &exitError{code: exitBlock, msg: "cannot publish requests to " + *remote + ": " + err.Error()}
		}
		if others, err = rm.Requests(st); err != nil {
			return &exitError{code: exitBlock, msg: "cannot read the requests of " + *remote + ": " + err.Error()}
		}
		fmt.Fprintf(c.stderr, "swarm-guard approvals: %s: %d grant(s) applied here, %d request(s) published\n", *remote, applied, published)
	}
	reqs, err := st.List()
	if err != nil {
		return &exitError{code: exitBlock, msg: "cannot read the approval store: " + err.Error()}
	}
	local := map[string]bool{}
	for _, r := range reqs {
		local[r.Code] = true
	}
	for _, r := range others {
		if !local[r.Code] {
			reqs = append(reqs, r)
		}
	}
	now := c.now()
	tw := tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
	n := 0
	for _, r := range reqs {
		state := "pending"
		switch {
		case !r.Used.IsZero():
			state = "used"
		case !now.Before(r.Expires):
			state = "expired"
		case !r.Approved.IsZero():
			state = "approved"
		}
		if state != "pending" && !*all {
			continue
		}
		if n == 0 {
			fmt.Fprintln(tw, "CODE\tSTATE\tAGE\tAGENT\tWORKTREE\tRULE\tCOMMAND")
		}
		n++
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s: %s\n", r.Code, state, age(now.Sub(r.Created)), r.Agent, r.Worktree, r.Rule, r.Tool, r.Command)
	}
	if n == 0 {
		fmt.Fprintln(c.stdout, "no pending requests")
		return nil
	}
	return tw.Flush()
}

func age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	}
	return fmt.Sprintf("%dh%02dm", int(d/time.Hour), int(d%time.Hour/time.Minute))
}
