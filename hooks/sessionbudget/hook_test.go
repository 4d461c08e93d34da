package sessionbudget

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/swarm-guard/swarm-guard/guard"
	"github.com/swarm-guard/swarm-guard/hooks/event"
	"github.com/swarm-guard/swarm-guard/hooks/hookenv"
	"github.com/swarm-guard/swarm-guard/policy"
)

// TestBudgetCheckOffDoesNoIO: with both limits at 0 (the default) the
// check returns before touching the state directory.
func TestBudgetCheckOffDoesNoIO(t *testing.T) {
	stateDir := filepath.Join(t.TempDir(), "state")
	in := &event.Event{SessionID: "s", TranscriptPath: "/nonexistent/t.jsonl"}
	ctx := &hookenv.Context{Env: &guard.Env{}, StateDir: stateDir}
	for range 3 {
		if d := HookCheck(in, ctx, policy.Default()); d.Action != "" {
			t.Fatalf("decision %+v", d)
		}
	}
	if _, err := os.Stat(stateDir); !os.IsNotExist(err) {
		t.Fatalf("the state directory was touched: %v", err)
	}
	// rule budget = "off" is the same.
	pol := policy.Default().Clone()
	pol.Budget.MaxToolCalls = 1
	pol.Rules[policy.RuleBudget] = policy.Off
	for range 3 {
		HookCheck(in, ctx, pol)
	}
	if _, err := os.Stat(stateDir); !os.IsNotExist(err) {
		t.Fatalf("the state directory was touched with the rule off: %v", err)
	}
}

func TestBudgetCheckDenies(t *testing.T) {
	ctx := &hookenv.Context{Env: &guard.Env{}, StateDir: t.TempDir()}
	pol := policy.Default().Clone()
	pol.Budget.MaxToolCalls = 1
	in := &event.Event{SessionID: "s"}
	if d := HookCheck(in, ctx, pol); d.Action != "" {
		t.Fatalf("first call: %+v", d)
	}
	d := HookCheck(in, ctx, pol)
	if d.Action != policy.Deny || d.Rule != policy.RuleBudget {
		t.Fatalf("second call: %+v", d)
	}
	if want := "swarm-guard blocked this call (rule budget): this session has made 2 tool calls and the policy allows 1 per session ([budget] max_tool_calls). Instead: stop, and write down what is done and what is left; more work needs a new session or a higher limit in .swarm-guard.toml."; d.Message() != want {
		t.Fatalf("message %q", d.Message())
	}
}

// TestBudgetCheckCopilot: Copilot CLI's events name no transcript; the
// hook reads the session file under ~/.copilot ($COPILOT_HOME when set)
// named by the session id, and denies once its tokens pass the limit.
func TestBudgetCheckCopilot(t *testing.T) {
	for _, viaEnv := range []bool{false, true} {
		home := t.TempDir()
		copilotHome := filepath.Join(home, ".copilot")
		t.Setenv("COPILOT_HOME", "")
		if viaEnv {
			copilotHome = filepath.Join(home, "elsewhere")
			t.Setenv("COPILOT_HOME", copilotHome)
		}
		id := "491fce91-bc29-4e02-8eef-821886f6bba5"
		must(t, os.MkdirAll(filepath.Join(copilotHome, "session-state", id), 0o755))
		events := filepath.Join(copilotHome, "session-state", id, "events.jsonl")
		ctx := &hookenv.Context{Env: &guard.Env{Home: home}, StateDir: filepath.Join(home, "state")}
		pol := policy.Default().Clone()
		pol.Budget.MaxTokens = 250
		in := &event.Event{SessionID: id, Client: "copilot"}
		for i, want := range []policy.Action{"", "", policy.Deny} {
			appendTo(t, events, copilotUsage(fmt.Sprintf("chatcmpl-%d", i), 100, 0, 10))
			if d := HookCheck(in, ctx, pol); d.Action != want || want != "" && d.Rule != policy.RuleBudget {
				t.Fatalf("COPILOT_HOME set %v, call %d: %+v, want %q", viaEnv, i+1, d, want)
			}
		}
	}
}

// BenchmarkBudgetCheckOff is the cost of the hook-side budget with the
// default policy: nothing.
func BenchmarkBudgetCheckOff(b *testing.B) {
	ctx := &hookenv.Context{Env: &guard.Env{}, StateDir: b.TempDir()}
	in := &event.Event{SessionID: "s"}
	pol := policy.Default()
	for b.Loop() {
		HookCheck(in, ctx, pol)
	}
}
