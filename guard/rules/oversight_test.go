package rules

import (
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/policy"
)

// The oversight judge on forge effects: the same effect from gh and from
// an MCP server gets the same verdict, by mode.
func TestJudgeOversight(t *testing.T) {
	gh := effect.ForgeAction{Op: effect.ForgeMerge, By: "gh", Args: "pr merge", Does: effect.MergesPullRequest}
	mcpMerge := effect.ForgeAction{Op: effect.ForgeMerge, By: "MCP server github, tool merge_pull_request", Does: effect.MergesPullRequest, MCP: true}
	autoOwn := effect.ForgeAction{Op: effect.ForgeAutoMerge, By: "gh", Args: "pr merge", Does: effect.MergesPullRequest, Own: true}
	autoOther := effect.ForgeAction{Op: effect.ForgeAutoMerge, By: "gh", Args: "pr merge", Does: effect.MergesPullRequest, Target: "12"}
	admin := effect.ForgeAction{Op: effect.ForgeAdmin, By: "gh", Args: "repo delete", Does: effect.ChangesRepository}
	issue := effect.ForgeAction{Op: effect.ForgeState, By: "gh", Args: "issue close", Does: effect.ClosesIssue, Issue: true}
	unread := effect.ForgeAction{Op: effect.ForgeUnread, By: "gh", Does: effect.UnreadSubcommand}
	const (
		gated = policy.OversightPRGated
		auto  = policy.OversightAutonomous
		check = policy.OversightCheckpoint
		none  = ""
		deny  = "deny"
		ask   = "ask"
	)
	for _, tc := range []struct {
		name string
		e    effect.Effect
		mode string
		want string // "", "deny" or "ask"
	}{
		{"gh merge", gh, gated, deny},
		{"mcp merge", mcpMerge, gated, deny},
		{"gh merge autonomous", gh, auto, deny},
		{"mcp merge autonomous", mcpMerge, auto, deny},
		{"gh merge checkpoint", gh, check, ask},
		{"mcp merge checkpoint", mcpMerge, check, ask},
		{"auto-merge own", autoOwn, gated, deny},
		{"auto-merge own autonomous", autoOwn, auto, none},
		{"auto-merge own checkpoint", autoOwn, check, ask},
		{"auto-merge another's autonomous", autoOther, auto, deny},
		{"admin autonomous", admin, auto, deny},
		{"admin checkpoint", admin, check, ask},
		{"issue close", issue, gated, deny},
		{"unread checkpoint", unread, check, deny},
		{"unread autonomous", unread, auto, deny},
		{"no effect", nil, gated, none},
	} {
		vs := JudgeEffect(tc.e, &Facts{Policy: policy.Default(), Oversight: tc.mode})
		got := none
		for _, v := range vs {
			if v.Rule != policy.RuleOversight {
				t.Errorf("%s: verdict of rule %s", tc.name, v.Rule)
			}
			got = deny
			if v.Ask {
				got = ask
			}
			if v.Reason == "" || v.Instead == "" {
				t.Errorf("%s: verdict without reason or alternative: %+v", tc.name, v)
			}
		}
		if len(vs) > 1 || got != tc.want {
			t.Errorf("%s under %s: got %s (%+v), want %s", tc.name, tc.mode, got, vs, tc.want)
		}
	}
	// The texts: the tool's words, the mode, the alternative for the case.
	v := judgeOversight(gh, &Facts{Oversight: gated})[0]
	if v.Reason != "gh pr merge merges a pull request, which oversight pr-gated leaves to a human" {
		t.Errorf("gh merge reason: %q", v.Reason)
	}
	if v := judgeOversight(issue, &Facts{Oversight: gated})[0]; !strings.Contains(v.Instead, "Fixes #N") {
		t.Errorf("issue close alternative: %q", v.Instead)
	}
	if v := judgeOversight(mcpMerge, &Facts{Oversight: check})[0]; !strings.HasSuffix(v.Reason, "(checkpoint: a human approves this call)") || strings.Contains(v.Instead, "gh ") {
		t.Errorf("mcp merge under checkpoint: %+v", v)
	}
	if v := judgeOversight(unread, &Facts{Oversight: gated})[0]; v.Instead != "write the gh command literally" || v.Reason != "gh runs a subcommand only known at run time, which may merge or delete" {
		t.Errorf("unread: %+v", v)
	}
	if v := judgeOversight(mcpMerge, &Facts{Oversight: auto})[0]; v.Reason != "MCP server github, tool merge_pull_request merges a pull request at once, without the required checks auto-merge waits for" {
		t.Errorf("mcp merge under autonomous: %q", v.Reason)
	}
	state := effect.ForgeAction{Op: effect.ForgeState, By: "MCP server github, tool update_issue", Does: effect.SetsIssueState, Subject: "closed", Issue: true, MCP: true}
	if v := judgeOversight(state, &Facts{Oversight: gated})[0]; !strings.HasPrefix(v.Reason, "MCP server github, tool update_issue sets an issue's state to closed, closing") {
		t.Errorf("mcp issue state: %q", v.Reason)
	}
}

// TestOversightAction: what each mode does with each kind of forge
// operation that reaches the rule.
func TestOversightAction(t *testing.T) {
	op := func(o effect.ForgeOp, own bool) effect.ForgeAction { return effect.ForgeAction{Op: o, Own: own} }
	for _, c := range []struct {
		mode string
		fa   effect.ForgeAction
		want policy.Action
	}{
		{policy.OversightPRGated, op(effect.ForgeAutoMerge, true), policy.Deny},
		{policy.OversightPRGated, op(effect.ForgeMerge, false), policy.Deny},
		{policy.OversightPRGated, op(effect.ForgeApprove, false), policy.Deny},
		{policy.OversightPRGated, op(effect.ForgeState, false), policy.Deny},
		{policy.OversightPRGated, op(effect.ForgeAdmin, false), policy.Deny},
		{policy.OversightAutonomous, op(effect.ForgeAutoMerge, true), ""},
		{policy.OversightAutonomous, op(effect.ForgeAutoMerge, false), policy.Deny},
		{policy.OversightAutonomous, op(effect.ForgeMerge, false), policy.Deny},
		{policy.OversightAutonomous, op(effect.ForgeAdmin, false), policy.Deny},
		{policy.OversightCheckpoint, op(effect.ForgeAutoMerge, true), policy.Ask},
		{policy.OversightCheckpoint, op(effect.ForgeMerge, false), policy.Ask},
		{policy.OversightCheckpoint, op(effect.ForgeAdmin, false), policy.Ask},
	} {
		if got := oversightAction(c.mode, c.fa); got != c.want {
			t.Errorf("oversightAction(%s, %+v) = %q, want %q", c.mode, c.fa, got, c.want)
		}
	}
}

// Every thing a forge call may do has its sentence and a call that does
// it (run through the engine by guard's TestForgeExamples).
func TestForgeWords(t *testing.T) {
	if len(forgeDoes) != int(effect.PublishesReleasePackages) {
		t.Errorf("%d things a forge call does are worded, want all %d", len(forgeDoes), effect.PublishesReleasePackages)
	}
	for d := effect.MergesPullRequest; d <= effect.PublishesReleasePackages; d++ {
		w, ok := forgeDoes[d]
		if !ok || w.Deny == "" || w.Says == "" {
			t.Errorf("forge does %d: %+v, want an example and a sentence", d, w)
			continue
		}
		fa := effect.ForgeAction{Op: effect.ForgeAdmin, By: "BY", Args: "ARGS", Does: d, Subject: "SUBJECT"}
		vs := JudgeEffect(fa, &Facts{Oversight: policy.OversightPRGated})
		if len(vs) != 1 || !strings.HasPrefix(vs[0].Reason, "BY ARGS ") || strings.ContainsAny(vs[0].Reason+vs[0].Instead, "{}") || vs[0].Instead == "" ||
			strings.Contains(w.Says, "{subject}") != strings.Contains(vs[0].Reason, "SUBJECT") {
			t.Errorf("forge does %d: %+v", d, vs)
		}
	}
}
