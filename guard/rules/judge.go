package rules

import (
	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/swarm"
	"github.com/swarm-guard/swarm-guard/policy"
)

// Verdict is one rule's judgement of one effect.
type Verdict struct {
	Rule    string // the policy rule id
	Reason  string // what this effect does that the rule forbids, for this case
	Instead string // the safe alternative for this case ("" for the rule's own Instead)
	// Ask turns the denial into a question for a human (checkpoint
	// oversight); the rule's policy action still applies first.
	Ask bool
	// RunTime: the verdict rests on a word only known at run time (a
	// variable, a command's output), not on what the command literally
	// does. Where the command's author sets that word (a CI job's matrix
	// value, a build argument), guard.Finding.RunTime lets the caller
	// leave the finding out.
	RunTime bool
}

// Facts is what a judge may know besides the effect: the policy and the
// agent it judges for. The caller (the engine, the pre-push hook, verify)
// fills it; judges never look anything up themselves.
type Facts struct {
	Policy  *policy.Policy
	Agent   swarm.Agent
	Root    string // the agent's worktree (its home), absolute
	Home    string // the user's home directory, absolute, or ""
	Temp    string // the temp dir ($TMPDIR or /tmp)
	GoCache string // $GOCACHE as the command would see it, or ""

	OtherWorktrees []string // the repository's worktrees that are not the agent's, absolute
	// RemoteHosts are the hosts the repository's configured remotes name
	// (url and pushurl of each): where its commits may go.
	RemoteHosts []string
	// ContextSecrets are the variables a committed file's context fills
	// with secrets of no known service (guard.Env.Secrets): name -> source.
	ContextSecrets map[string]string
	// Oversight is the oversight mode in force (run's override, else the
	// policy's; never ""): oversight.go.
	Oversight string
	// Mode is the policy-wide mode in force (run --mode's, else the
	// policy's; never ""): a nested run may not ask for another.
	Mode string
}

// A Judge returns its rule's verdicts on one effect: none when the rule
// has nothing to say about it.
type Judge func(e effect.Effect, f *Facts) []Verdict

// JudgeEffect returns every core rule's verdicts on e, in documentation order.
// A verdict without its own Instead gets its rule's.
func JudgeEffect(e effect.Effect, f *Facts) []Verdict {
	var out []Verdict
	for i := range judged {
		r := &judged[i]
		for _, v := range r.Judge(e, f) {
			if v.Rule == "" {
				v.Rule = r.ID
			}
			if v.Instead == "" {
				v.Instead = r.Instead
			}
			out = append(out, v)
		}
	}
	return out
}

// judged is the catalog's rules that have a Judge, computed once: the
// engine calls JudgeEffect for every effect of every command.
var judged = func() []Rule {
	var rs []Rule
	for _, r := range All() {
		if r.Judge != nil {
			rs = append(rs, r)
		}
	}
	return rs
}()
