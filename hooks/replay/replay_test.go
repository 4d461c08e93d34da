package replay

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/hooks/history"
	"github.com/swarm-guard/swarm-guard/policy"
)

func replayGenerated(t testing.TB, n int, pol, against *policy.Policy) Report {
	var buf bytes.Buffer
	if err := history.Generate(&buf, n, "/home/dev/repo"); err != nil {
		t.Fatal(err)
	}
	r := &Replayer{Policy: pol, Against: against, Decide: HookDecider(func(k string) string {
		if k == "HOME" {
			return "/home/tester"
		}
		return ""
	})}
	var st history.Stats
	if err := history.Read(&buf, "gen.jsonl", history.Transcript, &st, r.Add); err != nil {
		t.Fatal(err)
	}
	return r.Report(st)
}

// TestReplayGenerated replays a generated 10,000-call history recorded on
// another machine (/home/dev/repo does not exist here): the everyday calls
// are allowed, each stopped call is counted under its rule with its first
// place, and its agents (the session and its subagent).
func TestReplayGenerated(t *testing.T) {
	rep := replayGenerated(t, 10000, policy.Default(), nil)
	var got []string
	for _, r := range rep.Rules {
		got = append(got, strings.Join([]string{r.Rule, itoa(r.Deny), itoa(r.Ask), itoa(len(r.Agents)), r.First.Source, r.First.Call}, " "))
	}
	want := []string{
		"destructive-git 500 0 2 gen.jsonl:37 git reset --hard HEAD~1",
		"force-push 500 0 2 gen.jsonl:39 git push --force origin main",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || rep.Calls != 10000 || rep.Allowed != 9000 || rep.Sessions != 1 || rep.Agents != 2 {
		t.Errorf("replay: %d calls, %d allowed, %d sessions, %d agents, rules:\n%s\nwant:\n%s", rep.Calls, rep.Allowed, rep.Sessions, rep.Agents, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestReplayAgainst keeps only the decisions that change: with
// destructive-git in warn mode, the resets; nothing else.
func TestReplayAgainst(t *testing.T) {
	other := policy.Default().Clone()
	other.Source = "warn.toml"
	other.Rules[policy.RuleDestructiveGit] = policy.Warn
	rep := replayGenerated(t, 100, policy.Default(), other)
	if len(rep.Changes) != 5 {
		t.Fatalf("%d changes, want the 5 resets: %+v", len(rep.Changes), rep.Changes)
	}
	for _, c := range rep.Changes {
		if c.Call != "git reset --hard HEAD~1" || c.Before.Action != "deny" || c.After.Action != "warn" || c.After.Rule != policy.RuleDestructiveGit {
			t.Errorf("change %+v", c)
		}
	}
	var out bytes.Buffer
	if err := Write(&out, rep, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "5 calls decided differently under warn.toml:\n  gen.jsonl:37  deny destructive-git -> warn destructive-git  Bash: git reset --hard HEAD~1  (agent 5e55e55e)\n") {
		t.Errorf("text report:\n%s", out.String())
	}
	out.Reset()
	if err := Write(&out, rep, true); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(out.Bytes(), &back); err != nil || len(back.Changes) != 5 || back.Against != "warn.toml" {
		t.Errorf("JSON report does not read back (%v): %s", err, out.String())
	}
}

// BenchmarkReplay10K is replay's speed figure (make bench): reading and
// judging a generated 10,000-call history. The goal is 2 s on two cores.
func BenchmarkReplay10K(b *testing.B) {
	var buf bytes.Buffer
	if err := history.Generate(&buf, 10000, "/home/dev/repo"); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := &Replayer{Policy: policy.Default(), Decide: HookDecider(nil)}
		var st history.Stats
		if err := history.Read(bytes.NewReader(data), "gen.jsonl", history.Transcript, &st, r.Add); err != nil {
			b.Fatal(err)
		}
		if st.Calls != 10000 {
			b.Fatalf("%d calls", st.Calls)
		}
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
