package guard

import (
	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
	"github.com/swarm-guard/swarm-guard/guard/rules"
	"github.com/swarm-guard/swarm-guard/guard/swarm"
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
	if a.literalOnly > 0 && unknownEffect(e) {
		return // a program file's code: only what it does literally is judged (filestate.go)
	}
	for _, v := range rules.JudgeEffect(e, a.facts()) {
		n := len(a.findings)
		a.report(inv, v.Rule, v.Reason, v.Instead)
		if len(a.findings) > n {
			a.findings[len(a.findings)-1].ask = v.Ask
			a.findings[len(a.findings)-1].runTime = v.RunTime
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

// unknownEffect reports whether an effect is about something only known
// at run time (a path, a command or code built from data), rather than a
// literal operation: for a repository's program file read as code
// (python3 tools/x.py), those are its ordinary work on its inputs.
func unknownEffect(e effect.Effect) bool {
	switch x := e.(type) {
	case effect.HiddenCode:
		return true
	case effect.UnreadCode:
		return x.How == effect.CodeWord || x.How == effect.ScriptWord && x.From != effect.FromNetwork
	case effect.Delete:
		return x.Dynamic
	case effect.Write:
		return x.Dynamic || x.Anywhere
	case effect.PackageInstall:
		return x.Unreadable
	}
	return false
}

// report records a rule match for this invocation.
func (a *analyzer) report(inv *shell.Invocation, rule, reason, alt string) {
	f := finding{rule: rule, reason: reason, alt: alt}
	if inv != nil {
		f.trigger = a.excerpt(inv.Node)
		if f.trigger == "" {
			f.trigger = clip(inv.Canon())
		}
		f.canon = inv.Canon()
	}
	a.add(f)
}

// oversight is the oversight mode in force: run's override, else the policy's.
func (e *Engine) oversight(env *Env) string {
	switch env.Oversight {
	case policy.OversightPRGated, policy.OversightAutonomous, policy.OversightCheckpoint:
		return env.Oversight
	}
	if e.pol.Swarm.Oversight != "" {
		return e.pol.Swarm.Oversight
	}
	return policy.OversightPRGated
}

// agent is the swarm.Agent the engine judges for.
func (a *analyzer) agent() swarm.Agent {
	home := a.env.HomeBranch
	if home == "" {
		home = a.env.Branch
	}
	return swarm.Agent{ID: a.env.AgentID, HomeBranch: home, Branch: a.env.Branch, OwnBranches: a.pol.Swarm.OwnBranches}
}

// pathFacts copies what the path rules know about this Env into f.
func (a *analyzer) pathFacts(f *rules.Facts) {
	f.Root, f.Home, f.Temp = a.env.Root, a.env.Home, a.env.Temp
	f.GoCache = a.env.Vars["GOCACHE"]
	f.OtherWorktrees = a.m.worktrees
}
