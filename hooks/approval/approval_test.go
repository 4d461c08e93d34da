package approval

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/swarm-guard/swarm-guard/policy"
)

// TestLiftOnce: a request is approved once and used once, for its exact
// binding only; an expired approval and a changed policy find nothing.
func TestLiftOnce(t *testing.T) {
	now := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	st := Store{Dir: t.TempDir(), Now: func() time.Time { return now }}
	b := Binding{Tool: "Bash", Input: json.RawMessage(`{"command": "git reset --hard", "description":"x"}`), Agent: "agent-a", Worktree: "/w", Policy: PolicyHash(policy.Default())}
	first, err := st.Lift(b, Request{Command: "git reset --hard"}, time.Hour)
	if err != nil || first.Allowed || len(first.Request.Code) != 6 {
		t.Fatalf("first try: %+v, %v", first, err)
	}
	again, _ := st.Lift(b, Request{}, time.Hour)
	if again.Request.Code != first.Request.Code {
		t.Errorf("a retry before approval made a new request: %s, then %s", first.Request.Code, again.Request.Code)
	}
	if _, err := st.Approve(first.Request.Code, "alice"); err != nil {
		t.Fatal(err)
	}
	// The same input re-serialised binds the same approval; any other
	// part of the binding does not.
	edited := policy.Default().Clone()
	edited.Rules[policy.RuleDestructiveGit] = policy.Ask
	for name, other := range map[string]Binding{
		"other input":    {Tool: "Bash", Input: json.RawMessage(`{"command":"git reset --hard HEAD~2"}`), Agent: b.Agent, Worktree: b.Worktree, Policy: b.Policy},
		"other agent":    {Tool: b.Tool, Input: b.Input, Agent: "agent-b", Worktree: b.Worktree, Policy: b.Policy},
		"other worktree": {Tool: b.Tool, Input: b.Input, Agent: b.Agent, Worktree: "/w2", Policy: b.Policy},
		"other policy":   {Tool: b.Tool, Input: b.Input, Agent: b.Agent, Worktree: b.Worktree, Policy: PolicyHash(edited)},
	} {
		if out, _ := st.Lift(other, Request{}, time.Hour); out.Allowed {
			t.Errorf("%s: allowed by the approval of %s", name, first.Request.Code)
		}
	}
	respaced := b
	respaced.Input = json.RawMessage(`{"description":"x","command":"git reset --hard"}`)
	if out, _ := st.Lift(respaced, Request{}, time.Hour); !out.Allowed {
		t.Fatalf("the approved call was not allowed: %+v", out)
	}
	if out, _ := st.Lift(b, Request{}, time.Hour); out.Allowed || out.Request.Code == first.Request.Code {
		t.Errorf("second use: %+v", out)
	}
	// Expiry: an approval past its time allows nothing.
	late, _ := st.Lift(Binding{Tool: "Bash", Input: json.RawMessage(`{"command":"x"}`)}, Request{}, time.Minute)
	if _, err := st.Approve(late.Request.Code, "alice"); err != nil {
		t.Fatal(err)
	}
	now = now.Add(2 * time.Minute)
	if out, _ := st.Lift(Binding{Tool: "Bash", Input: json.RawMessage(`{"command":"x"}`)}, Request{}, time.Minute); out.Allowed {
		t.Errorf("an expired approval allowed the call")
	}
	if _, err := st.Approve(late.Request.Code, "alice"); err == nil {
		t.Errorf("an expired request was approved")
	}
}
