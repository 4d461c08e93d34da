package committed

import (
	"strings"
	"testing"
	"time"
)

// TestHostileInputsStayFast: inputs built to make a reader quadratic or
// expand aliases exponentially are read in well under a second (the
// fuzzer found the first two stalls).
func TestHostileInputsStayFast(t *testing.T) {
	laughs := "a: &a [\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\njob:\n  script: *f\n"
	for name, in := range map[string]string{
		".gitlab-ci.yml": laughs,
		"main.tf":        strings.Repeat("provisioner \"local-exec\" {", 3000),
		"Makefile":       "x:\n\t" + strings.Repeat("$(", 5000) + "\n",
		"Dockerfile":     strings.Repeat("RUN <<A <<B <<C\n", 2000),
	} {
		start := time.Now()
		cmds, _ := Extract(name, []byte(in))
		// Not a timed assertion of speed: a bound on work, checked by the
		// number of commands, and the time only logged.
		if len(cmds) > maxNodes {
			t.Errorf("%s: %d commands, more than the %d nodes a list is walked through", name, len(cmds), maxNodes)
		}
		t.Logf("%s: %d commands in %v", name, len(cmds), time.Since(start))
	}
}
