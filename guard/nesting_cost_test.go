package guard

import (
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/policy"
)

// TestNestedSubstitutionsCostLinearWork: the work of judging nested
// substitutions grows with their depth, not exponentially. Expanding a
// substitution once for its known output and once more for its value
// doubled the work per level: $(cat $(cat …)) 16 deep took half a second,
// and 18 deep ran into the hook's deadline (internal-error, a denial of a
// command bash runs at once). Measured in allocations, which do not depend
// on the machine's load: 16 levels may cost a few times 8 levels, never
// the 256 times that doubling costs.
func TestNestedSubstitutionsCostLinearWork(t *testing.T) {
	eng := New(policy.Default())
	env := testEnv()
	for _, form := range [][2]string{
		{"$(cat ", ")"},
		{"$( ", ")"},
		{`"$(`, `)"`},
		{"$(echo ", ")"},
		{"$(printf %s ", ")"},
	} {
		cost := func(depth int) float64 {
			cmd := "echo " + strings.Repeat(form[0], depth) + "x" + strings.Repeat(form[1], depth)
			return testing.AllocsPerRun(1, func() { eng.CheckCommand(cmd, env) })
		}
		if shallow, deep := cost(8), cost(16); deep > 8*shallow {
			t.Errorf("%sx%s: 16 levels cost %.0f allocations, 8 levels %.0f: more than 8 times", form[0], form[1], deep, shallow)
		}
	}
}
