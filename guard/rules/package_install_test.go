package rules

import (
	"testing"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/policy"
)

func TestJudgePackageInstall(t *testing.T) {
	pol := policy.Default().Clone()
	pol.Packages.NPM = []string{"@types/*", "typescript"}
	pol.Packages.Pip = []string{"Flask_Login"}
	pkg := policy.RulePackageInstall
	pkgs := func(names ...string) []effect.Package {
		var ps []effect.Package
		for _, n := range names {
			ps = append(ps, effect.Package{Name: n})
		}
		return ps
	}
	checkVerdicts(t, &Facts{Policy: pol}, []verdictCase{
		{effect.PackageInstall{By: "npm", Ecosystem: "npm", Packages: pkgs("left-pad"), Declared: "npm ci"}, []string{pkg},
			"npm installs left-pad, not on the npm package allowlist"},
		{effect.PackageInstall{By: "npm", Ecosystem: "npm", Packages: pkgs("typescript", "@types/node", "x")}, []string{pkg},
			"npm installs x, not on the npm package allowlist"},
		{effect.PackageInstall{By: "npm", Ecosystem: "npm", Packages: pkgs("typescript", "@types/node")}, nil, ""},
		// PyPI names compare normalized: flask-login is Flask_Login.
		{effect.PackageInstall{By: "pip", Ecosystem: "pip", Packages: pkgs("flask-login")}, nil, ""},
		{effect.PackageInstall{By: "pip", Ecosystem: "pip", Packages: pkgs("flask-login", "requests")}, []string{pkg}, "pip installs requests, not on the pip package allowlist"},
		// npx tsc with node_modules/.bin/tsc installed fetches nothing.
		{effect.PackageInstall{By: "npx", Ecosystem: "npm", Packages: []effect.Package{{Name: "tsc", Local: true}}}, nil, ""},
		{effect.PackageInstall{By: "npx", Ecosystem: "npm", Packages: pkgs("tsc")}, []string{pkg}, ""},
		{effect.PackageInstall{By: "python code", Ecosystem: "pip", Unreadable: true, Manager: "pip"}, []string{pkg},
			"python code calls pip with arguments the guard cannot read"},
		{effect.SQL{By: "psql -c/-e", Text: "SELECT 1"}, nil, ""},
	})
	vs := JudgeEffect(effect.PackageInstall{By: "npm", Ecosystem: "npm", Packages: pkgs("a", "b"), Declared: "npm ci"}, &Facts{Policy: pol})
	if want := `install what the project already declares (npm ci), or ask a human to add "a", "b" to [packages] npm in .swarm-guard.toml`; len(vs) != 1 || vs[0].Instead != want {
		t.Errorf("verdicts %+v, want one with Instead %q", vs, want)
	}
}

func TestNormalizePyName(t *testing.T) {
	for in, want := range map[string]string{"Flask_Login": "flask-login", "a.-_b": "a-b", "zope.interface": "zope-interface", "X": "x", "ÄB": "äb"} {
		if got := normalizePyName(in); got != want {
			t.Errorf("normalizePyName(%q) = %q, want %q", in, got, want)
		}
	}
}
