package install

import "testing"

// TestClaudeVersionGates pins the two client versions install and doctor
// gate on, at their boundaries, as `claude --version` prints them.
func TestClaudeVersionGates(t *testing.T) {
	for _, tt := range []struct {
		version         string
		runs, onFailure bool
	}{
		{"2.0.0 (Claude Code)", false, false},
		{"2.0.55 (Claude Code)", false, false},
		{"2.0.56 (Claude Code)", true, false},
		{"2.1.138 (Claude Code)", true, false},
		{"2.1.294 (Claude Code)", true, false},
		{"2.1.295 (Claude Code)", true, true},
		{"2.1.330 (Claude Code)", true, true},
		{"3.0.0 (Claude Code)", true, true},
		{"1.0.128 (Claude Code)", false, false},
		{"not a version", false, false},
		{"", false, false},
	} {
		if got := RunsOurHooks(tt.version); got != tt.runs {
			t.Errorf("RunsOurHooks(%q) = %v, want %v", tt.version, got, tt.runs)
		}
		if got := SupportsOnFailure(tt.version); got != tt.onFailure {
			t.Errorf("SupportsOnFailure(%q) = %v, want %v", tt.version, got, tt.onFailure)
		}
	}
}
