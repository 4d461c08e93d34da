package rules

import (
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/policy"
)

// PackageInstall (G10): a new dependency is a supply-chain decision for a
// human; the project's declared dependencies install freely.
var PackageInstall = Rule{
	ID:      policy.RulePackageInstall,
	Reason:  "a package outside the allowlist is a supply-chain decision for a human",
	Instead: "install what the project already declares, or ask a human to add the package to [packages] in .swarm-guard.toml",
	Deny: []string{
		"npm install left-pad",
		"pip install requests",
		"go install example.com/x@latest",
		"cargo add serde",
		"apt-get install jq",
		"composer require x/y",
		"npx some-random-pkg",
		"pnpm dlx eslint .",
	},
	Allow: []string{
		"npm ci",
		"pip install -r requirements.txt",
		`pip install -e ".[dev]"`,
		"go mod download",
		"npx tsc",
		"pnpm exec eslint .",
	},
	Judge: judgePackageInstall,
}

// judgePackageInstall denies the packages an install fetches that are not
// on its ecosystem's [packages] allowlist; the project's own installed
// tools fetch nothing. A runner fetching a tool the project's package.json
// declares (pnpm dlx eslint) is told first to run the project's own copy
// through the same manager (pnpm exec eslint; npx --no-install eslint;
// yarn eslint), installed first when it is not yet (guard/packages.go,
// ownCopy), and only then about the allowlist.
func judgePackageInstall(e effect.Effect, f *Facts) []Verdict {
	x, ok := e.(effect.PackageInstall)
	if !ok {
		return nil
	}
	if x.Unreadable {
		return []Verdict{{Reason: x.By + " calls " + x.Manager + " with arguments the guard cannot read", Instead: "run " + x.Manager + " install in the shell"}}
	}
	var missing []string
	for _, p := range x.Packages {
		if !p.Local && !packageAllowed(f.Policy.Packages.Ecosystem(x.Ecosystem), x.Ecosystem, p.Name) {
			missing = append(missing, p.Name)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	q := make([]string, len(missing))
	for i, n := range missing {
		q[i] = `"` + n + `"`
	}
	alt := "ask a human to add " + strings.Join(q, ", ") + " to [packages] " + x.Ecosystem + " in .swarm-guard.toml"
	switch {
	case x.Own != "":
		alt = "run the project's own " + missing[0] + ", which package.json declares: " + x.Own + "; or " + alt
	case x.Declared != "":
		alt = "install what the project already declares (" + x.Declared + "), or " + alt
	}
	return []Verdict{{Reason: x.By + " installs " + strings.Join(missing, ", ") + ", not on the " + x.Ecosystem + " package allowlist", Instead: alt}}
}

// packageAllowed matches a package name against the ecosystem's allowlist
// (globs; pip names compare normalized, as PyPI does: Foo_Bar = foo-bar).
func packageAllowed(allow []string, eco, name string) bool {
	norm := name
	if eco == "pip" {
		norm = normalizePyName(name)
	}
	for _, pat := range allow {
		p := pat
		if eco == "pip" {
			p = normalizePyName(pat)
		}
		if doublestar.MatchUnvalidated(p, norm) || p == norm {
			return true
		}
	}
	return false
}

// normalizePyName lowercases a Python package name and folds every run of
// -, _ and . into one - (PEP 503).
func normalizePyName(s string) string {
	s = strings.ToLower(s)
	var b strings.Builder
	b.Grow(len(s))
	sep := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '-' || c == '_' || c == '.' {
			if !sep {
				b.WriteByte('-')
			}
			sep = true
			continue
		}
		sep = false
		b.WriteByte(c)
	}
	return b.String()
}
