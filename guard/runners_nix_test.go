package guard

import (
	"testing"

	"github.com/swarm-guard/swarm-guard/policy"
)

// TestNixProfileInstallAllowlist: nix profile install goes through the
// [packages] system allowlist like apt-get install; before, it was denied
// whatever the allowlist said.
func TestNixProfileInstallAllowlist(t *testing.T) {
	pol, err := policy.Parse([]byte("[packages]\nsystem = [\"nixpkgs#jq\"]\n"), "p.toml")
	if err != nil {
		t.Fatal(err)
	}
	e := New(pol)
	for _, c := range []struct{ cmd, rule, reason string }{
		{"nix profile install nixpkgs#jq", "", ""},
		{"nix profile add --impure nixpkgs#jq", "", ""},
		{"nix profile install nixpkgs#curl", policy.RulePackageInstall, "nix profile install installs nixpkgs#curl, not on the system package allowlist"},
		{"nix profile install nixpkgs#jq nixpkgs#curl", policy.RulePackageInstall, "nix profile install installs nixpkgs#curl, not on the system package allowlist"},
		{"nix profile list", "", ""},
	} {
		d := e.CheckCommand(c.cmd, testEnv())
		if d.Rule != c.rule || d.Reason != c.reason {
			t.Errorf("%s: got %s %q, want %s %q", c.cmd, d.Rule, d.Reason, c.rule, c.reason)
		}
	}
}
