package guard

import (
	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
	"github.com/swarm-guard/swarm-guard/guard/rules"
	"github.com/swarm-guard/swarm-guard/policy"
)

// judge hands one effect of inv to the rules (guard/rules.JudgeEffect)
// and records their verdicts as findings of inv. Tool code that has moved
// to the effects model describes what an invocation does and calls judge;
// it no longer decides rules itself.
func (a *analyzer) judge(inv *shell.Invocation, e effect.Effect) {
	if a.traceEffect != nil {
		a.traceEffect(e)
	}
	for _, v := range rules.JudgeEffect(e, a.facts()) {
		n := len(a.findings)
		a.report(inv, v.Rule, v.Reason, v.Instead)
		if v.Ask && len(a.findings) > n {
			a.findings[len(a.findings)-1].ask = true
		}
	}
}

// facts is what the rules may know about this decision besides the
// effect, built once per decision.
func (a *analyzer) facts() *rules.Facts {
	if a.ruleFacts == nil {
		a.ruleFacts = &rules.Facts{Policy: a.pol, Agent: a.agent()}
		a.pathFacts(a.ruleFacts)
		a.ruleFacts.Oversight = a.eng.oversight(a.env)
		a.ruleFacts.Mode = a.pol.Mode
		if a.ruleFacts.Mode == "" {
			a.ruleFacts.Mode = policy.ModeEnforce
		}
		a.ruleFacts.RemoteHosts = remoteHosts(a.env.Remotes)
		a.ruleFacts.ContextSecrets = a.env.Secrets
	}
	return a.ruleFacts
}
