package doctor

import (
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/install"
)

// TestFailClosed: what doctor (and install's note) says about whether this
// machine's Claude Code blocks a call when the hook cannot do its job, for
// each kind of client version and settings file.
func TestFailClosed(t *testing.T) {
	ours := map[string][]string{"PreToolUse": {"launcher"}}
	for _, tc := range []struct {
		name    string
		s       install.SettingsState
		version string
		status  string
		detail  string // a part of the detail
		fix     string // a part of the fix; "" for none
	}{
		{"no hooks", install.SettingsState{}, "2.1.330", Skip, "no swarm-guard hook", ""},
		{"no claude", install.SettingsState{Ours: ours}, "", Skip, "claude is not on PATH", ""},
		{"before PostToolUseFailure", install.SettingsState{Ours: ours}, "2.0.55", Fail, "no swarm-guard hook runs here", "update Claude Code to " + install.OnFailureSince},
		{"onFailure honoured and set", install.SettingsState{Ours: ours, OnFailureBlock: true}, "2.1.330", OK, "honours onFailure: block", ""},
		{"onFailure honoured, not set", install.SettingsState{Ours: ours}, "2.1.330", Fail, "lack onFailure: block", "swarm-guard install --on-failure block"},
		{"onFailure not known yet", install.SettingsState{Ours: ours, OnFailureBlock: true}, "2.1.200", Warn, "ignores onFailure", "claude update"},
	} {
		r := FailClosed(tc.s, tc.version)
		if r.Name != "fail closed" || r.Status != tc.status || !strings.Contains(r.Detail, tc.detail) {
			t.Errorf("%s: got %s %q, want %s with %q", tc.name, r.Status, r.Detail, tc.status, tc.detail)
		}
		if (tc.fix == "") != (r.Fix == "") || !strings.Contains(r.Fix, tc.fix) {
			t.Errorf("%s: fix %q, want one with %q", tc.name, r.Fix, tc.fix)
		}
	}
}
