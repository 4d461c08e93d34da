package rules

import (
	"testing"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/policy"
)

// TestPackOperationVerdicts: a pack's operation is judged by the rule it
// names and by no other, with the pattern's reason and alternative.
func TestPackOperationVerdicts(t *testing.T) {
	op := func(rule string) effect.ToolOperation {
		return effect.ToolOperation{Pack: "p", Pattern: "pat", Rule: rule, Program: "prog", Op: "does harm", Instead: "do less"}
	}
	var cases []verdictCase
	for _, id := range []string{policy.RuleDestructiveTerraform, policy.RuleDestructiveKubernetes, policy.RuleDestructiveCloud,
		policy.RuleDestructiveContainer, policy.RuleDestructiveDatastore, policy.RuleDestructiveSystem} {
		cases = append(cases, verdictCase{e: op(id), rules: []string{id}, reason: "prog does harm (p pack: pat)"})
	}
	cases = append(cases, verdictCase{e: op("no-such-rule")})
	f := &Facts{Policy: policy.Default()}
	checkVerdicts(t, f, cases)
	if vs := JudgeEffect(op(policy.RuleDestructiveSystem), f); len(vs) != 1 || vs[0].Instead != "do less" {
		t.Errorf("verdicts %+v, want the pattern's own Instead", vs)
	}
}
