package decide

import (
	"fmt"
	"strings"
	"time"

	"github.com/swarm-guard/swarm-guard/guard"
	"github.com/swarm-guard/swarm-guard/guard/redact"
	"github.com/swarm-guard/swarm-guard/hooks/approval"
	"github.com/swarm-guard/swarm-guard/policy"
)

// approval looks up a human's approval of a call the guard would stop
// and that a human may allow (an ask, checkpoint oversight, a rule of
// [approvals] rules). ok: an approval held and is now used up, so the
// call runs once. Otherwise d gets the pending request's code in its
// Instead, so the agent can hand it to a human. A store that cannot be
// read leaves d as it was: the call stays stopped.
//
// Only the hook looks: an approval is used up by the call it lets run,
// and a request is left pending for the human, neither of which check or
// replay may do.
func (s *session) approval(d *guard.Decision, command, path string) (guard.Decision, bool) {
	if !s.f.Effects || !d.Stops() || s.pol == nil || s.ctx.StateDir == "" || policy.Enforced(d.Rule) ||
		d.Action != policy.Ask && !s.pol.Approvable(d.Rule) {
		return guard.Decision{}, false
	}
	agent := s.agentID()
	if agent == "" {
		agent = "session " + s.in.SessionID
	}
	shown := command
	if shown == "" {
		shown = path
	}
	if shown == "" {
		shown = string(s.in.ToolInput)
	}
	b := approval.Binding{Tool: s.in.ToolName, Input: s.in.ToolInput, Agent: agent, Worktree: s.ctx.Env.Root, Policy: approval.PolicyHash(s.pol)}
	out, err := approval.Open(s.ctx.StateDir).Lift(b, approval.Request{Command: redact.String(truncate(shown)), Rule: d.Rule, Reason: redact.String(d.Reason)}, s.pol.ApprovalExpiry())
	if err != nil {
		return guard.Decision{}, false
	}
	if out.Allowed {
		lifted := *d
		lifted.Reason = fmt.Sprintf("approved by %s (code %s): %s", out.Request.By, out.Request.Code, d.Reason)
		return lifted, true
	}
	alt := strings.TrimSuffix(d.Alternative, ".")
	if alt != "" {
		alt += "; or "
	}
	d.Alternative = alt + fmt.Sprintf("ask a human to run `swarm-guard approve %s` outside this session (valid %s), then retry exactly this call: it runs once",
		out.Request.Code, roundDuration(out.Request.Expires.Sub(s.f.Now())))
	return guard.Decision{}, false
}

func roundDuration(d time.Duration) string {
	d = d.Round(time.Minute)
	switch {
	case d >= time.Hour && d%time.Hour == 0:
		return fmt.Sprintf("%dh", int(d/time.Hour))
	case d >= time.Minute:
		return fmt.Sprintf("%dm", int(d.Round(time.Minute)/time.Minute))
	}
	return "less than a minute"
}
