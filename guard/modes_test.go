package guard

import (
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/policy"
)

// TestShadowModes: a rule in warn or log mode lets the call run and says
// what it stands in for; a rule that still denies wins over it in the same
// command; the policy-wide mode shadows deny and ask rules but never
// guard-tamper; checkpoint oversight under warn is a warning that would
// have asked.
func TestShadowModes(t *testing.T) {
	for _, c := range []struct {
		name  string
		setup func(p *policy.Policy)
		env   func(e *Env)
		cmd   string
		want  policy.Action
		would policy.Action
		rule  string
	}{
		{"rule warn", func(p *policy.Policy) { p.Rules[policy.RuleForcePush] = policy.Warn }, nil,
			"git push --force origin agent-1", policy.Warn, policy.Deny, policy.RuleForcePush},
		{"rule log", func(p *policy.Policy) { p.Rules[policy.RuleForcePush] = policy.Log }, nil,
			"git push --force origin agent-1", policy.Log, policy.Deny, policy.RuleForcePush},
		{"deny beats warn", func(p *policy.Policy) { p.Rules[policy.RuleForcePush] = policy.Warn }, nil,
			"git push --force origin agent-1; git reset --hard HEAD~3", policy.Deny, "", policy.RuleDestructiveGit},
		{"warn beats log", func(p *policy.Policy) {
			p.Rules[policy.RuleForcePush] = policy.Log
			p.Rules[policy.RuleDestructiveGit] = policy.Warn
		}, nil, "git push --force origin agent-1; git reset --hard HEAD~3", policy.Warn, policy.Deny, policy.RuleDestructiveGit},
		{"policy-wide warn", func(p *policy.Policy) { p.Mode = policy.ModeWarn }, nil,
			"git reset --hard HEAD~3", policy.Warn, policy.Deny, policy.RuleDestructiveGit},
		{"policy-wide log keeps guard-tamper", func(p *policy.Policy) { p.Mode = policy.ModeLog }, nil,
			"git commit --no-verify -m x", policy.Deny, "", policy.RuleGuardTamper},
		{"checkpoint under warn would ask", func(p *policy.Policy) { p.Mode = policy.ModeWarn },
			func(e *Env) { e.Oversight = policy.OversightCheckpoint },
			"gh pr merge 3 --squash", policy.Warn, policy.Ask, policy.RuleOversight},
	} {
		p := corpusPolicy()
		c.setup(p)
		env := testEnv()
		if c.env != nil {
			c.env(env)
		}
		d := New(p).CheckCommand(c.cmd, env)
		if d.Action != c.want || d.Would != c.would || d.Rule != c.rule {
			t.Errorf("%s: %s decided %q (would %q, rule %s), want %q (would %q, rule %s)", c.name, c.cmd, d.Action, d.Would, d.Rule, c.want, c.would, c.rule)
		}
		if d.Action.Shadow() && (d.Stops() || !strings.HasPrefix(d.Message(), "swarm-guard warning: this call runs ("+string(d.Action)+" mode)") || !strings.Contains(d.Message(), "Instead: ")) {
			t.Errorf("%s: message %q", c.name, d.Message())
		}
	}
}
