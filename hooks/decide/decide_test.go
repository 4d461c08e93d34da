package decide

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/hooks/event"
	"github.com/swarm-guard/swarm-guard/policy"
)

func gitRepo(t *testing.T) string {
	t.Helper()
	repo := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Skipf("git init: %v %s", err, out)
	}
	return repo
}

func bash(repo, cmd string) *event.Event {
	in, _ := json.Marshal(map[string]string{"command": cmd})
	return &event.Event{SessionID: "s", Cwd: repo, HookEventName: event.PreToolUse, ToolName: "Bash", ToolInput: in}
}

// TestDecideEffects: the hook's effects (the audit log) happen only when
// asked for; the decision is the same either way.
func TestDecideEffects(t *testing.T) {
	repo := gitRepo(t)
	getenv := func(k string) string { return map[string]string{"HOME": t.TempDir()}[k] }
	log := filepath.Join(repo, ".git", "swarm-guard", "audit.jsonl")
	quiet := Decide(bash(repo, "git push --force origin main"), Facts{Getenv: getenv})
	if quiet.Action != policy.Deny || quiet.Rule != "force-push" || !strings.HasPrefix(quiet.Message, "swarm-guard blocked this call (rule force-push") {
		t.Fatalf("without effects: %+v", quiet)
	}
	if _, err := os.Stat(log); err == nil {
		t.Fatal("deciding without effects wrote the audit log")
	}
	loud := Decide(bash(repo, "git push --force origin main"), Facts{Getenv: getenv, Effects: true})
	if loud.Rule != quiet.Rule || loud.Message != quiet.Message {
		t.Fatalf("with effects %+v, without %+v", loud, quiet)
	}
	if data, err := os.ReadFile(log); err != nil || !strings.Contains(string(data), `"rule":"force-push"`) {
		t.Fatalf("audit log after the hook's decision: %q %v", data, err)
	}
}

// TestDecideBadEvents: an event the guard cannot place is a denial
// naming what is missing; one it has no say in gets no decision.
func TestDecideBadEvents(t *testing.T) {
	for _, tc := range []struct {
		ev   event.Event
		want string
	}{
		{event.Event{ToolName: "Bash"}, "no hook_event_name"},
		{event.Event{HookEventName: event.PreToolUse, ToolName: "Bash"}, "no cwd"},
		{event.Event{HookEventName: event.PreToolUse, ToolName: "Bash", Cwd: "rel"}, "not an absolute path"},
	} {
		a := Decide(&tc.ev, Facts{})
		if a.Action != policy.Deny || a.Rule != policy.RuleBadInput || !strings.Contains(a.Message, tc.want) {
			t.Errorf("%+v: %+v, want a bad-input denial naming %q", tc.ev, a, tc.want)
		}
	}
	if a := Decide(&event.Event{HookEventName: "Stop"}, Facts{}); a.Action != "" {
		t.Errorf("Stop: %+v", a)
	}
}
