package guard

import (
	"testing"

	"github.com/swarm-guard/swarm-guard/policy"
)

// Where a command's lines end is bash's reading, not the parser's: a
// comment ending in a backslash, or a backslash before a CR LF line end,
// does not join the next line, so the command on it is judged. Kept here
// rather than in the corpus files: an editor or git may rewrite CR LF in
// a text file. guard/internal/shell's TestBashRunsWhatTheGuardSees compares the
// shell layer with real bash.
func TestLineEndsAreBashs(t *testing.T) {
	eng := New(policy.Default())
	for _, tc := range []struct {
		cmd  string
		rule string // "" for no decision
	}{
		{"echo ok # note \\\nrm -rf ~/precious", policy.RuleDeleteOutside},
		{"echo ok # note\nrm -rf ~/precious", policy.RuleDeleteOutside},
		{"echo ok \\\nrm -rf ~/precious", ""}, // a real continuation: rm is echo's argument
		{"echo a \\\r\nrm -rf ~/precious", policy.RuleDeleteOutside},
		{"echo a\r\nrm -rf ~/precious\r\n", policy.RuleDeleteOutside},
		{"echo a \\\r\ngit push --force origin main", policy.RuleForcePush},
		{"echo a \\\r\ngit push origin HEAD", ""},
		{"ls # list \\\r\ngit push -f", policy.RuleForcePush},
		{"ls\r\n", ""},
	} {
		d := eng.CheckCommand(tc.cmd, testEnv())
		if d.Rule != tc.rule {
			t.Errorf("%q: rule %q (%s), want %q", tc.cmd, d.Rule, d.Reason, tc.rule)
		}
	}
}
