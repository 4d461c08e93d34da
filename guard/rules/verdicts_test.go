package rules

import (
	"testing"

	"github.com/swarm-guard/swarm-guard/guard/effect"
)

// verdictCase is one effect and the verdicts every judge gives it, as rule
// ids in order, and the first verdict's reason ("" to skip).
type verdictCase struct {
	e      effect.Effect
	rules  []string
	reason string
}

func checkVerdicts(t *testing.T, f *Facts, cases []verdictCase) {
	t.Helper()
	for _, c := range cases {
		vs := JudgeEffect(c.e, f)
		var got []string
		for _, v := range vs {
			got = append(got, v.Rule)
			if v.Instead == "" {
				t.Errorf("%#v: verdict of %s without Instead", c.e, v.Rule)
			}
		}
		if len(got) != len(c.rules) {
			t.Errorf("%#v: verdicts %v, want %v", c.e, got, c.rules)
			continue
		}
		for i := range got {
			if got[i] != c.rules[i] {
				t.Errorf("%#v: verdicts %v, want %v", c.e, got, c.rules)
				break
			}
		}
		if c.reason != "" && len(vs) > 0 && vs[0].Reason != c.reason {
			t.Errorf("%#v: reason %q, want %q", c.e, vs[0].Reason, c.reason)
		}
	}
}
