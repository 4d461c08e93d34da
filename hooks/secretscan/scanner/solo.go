package scanner

import (
	"sync"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/keywords"
)

// Some default rules have keywords that ordinary code holds everywhere:
// vault-service-token's "s." (os.Exit, s.mu, ...) and jwt's "ey" (key,
// they, ...). gitleaks then runs their unanchored regexes over the whole
// text, and Go's regexp cannot skip ahead to a literal behind the leading
// \b: on a clean 10 KB Go file those two rules cost about 0.8 ms, more
// than all the other rules together.
//
// Each such rule has a cheap necessary condition, checked here by hand: a
// text that fails it holds no match of the rule's regex, so the rule can
// find nothing in it and is not run at all. A text that passes is
// scanned by the rule exactly as gitleaks would, on the whole text. The
// rules run in detectors of their own ("solo"), never in the main one,
// whose rule set only grows: once compiled in, gitleaks would run them on
// every text with the keyword again. Across detectors the only thing
// gitleaks relates is a generic finding shadowed by a specific one on the
// same line, which dropShadowedGeneric applies over all findings.
//
// The conditions are proven for the patterns below (soloRegex), read
// rune by rune:
//
//   - vault-service-token, \b((?:hvs\.[\w-]{90,120}|s\.(?i:[a-z0-9]{24})))…:
//     a match holds "hvs." and then 90 bytes of [\w-] (ASCII in Go), or
//     "s." and then 24 runes of (?i:[a-z0-9]), which are ASCII letters and
//     digits or the two non-ASCII runes that fold to one (U+212A, U+017F):
//     at least 24 bytes that are each an ASCII letter, digit or >= 0x80.
//   - jwt, \b(ey[a-zA-Z0-9]{17,}\.ey…: a match holds "ey", then at least
//     17 ASCII letters or digits, then ".ey".
//
// When the text has something to decode, gitleaks also runs the rules on
// the decoded text, which these checks do not see: a solo rule then runs
// whenever its keyword is found, as gitleaks does. Only gitleaks' own
// default rules take this path; TestSoloRulesAreUnchanged fails when a
// gitleaks update changes a pattern, and TestSoloScanAgrees compares the
// findings with the rules run on every text.
var soloRegex = map[string]string{
	"vault-service-token": keywords.Covered["vault-service-token"],
	"jwt":                 keywords.Covered["jwt"],
}

// soloMay holds each solo rule's necessary condition.
var soloMay = map[string]func(text string) bool{
	"vault-service-token": keywords.MayVaultToken,
	"jwt":                 keywords.MayJWT,
}

// soloOrder fixes the order solo rules run in.
var soloOrder = []string{"jwt", "vault-service-token"}

// soloRule is a rule run in a detector of its own, when may allows.
type soloRule struct {
	src  *ruleSource
	may  func(string) bool
	comp *compiler
}

// defaultSolo returns the solo rules of the default rules that are the
// ones proven for, with their compilers (shared by all scans of the
// process, one per decode depth and gitleaks:allow setting).
func defaultSolo(depth int, ignoreAllow bool) ([]soloRule, error) {
	var out []soloRule
	for i, id := range soloOrder {
		src := defaultSoloSources()[id]
		if src == nil {
			continue
		}
		comp, err := defaultCompiler(depth, ignoreAllow, 2+i)
		if err != nil {
			return nil, err
		}
		out = append(out, soloRule{src: src, may: soloMay[id], comp: comp})
	}
	return out, nil
}

// defaultSoloSources are the default rules that match soloRegex and that
// no other rule requires, once.
var defaultSoloSources = sync.OnceValue(func() map[string]*ruleSource {
	cat := defaultCatalogue()
	out := map[string]*ruleSource{}
	for id, want := range soloRegex {
		r := cat.byID[id]
		if r == nil || len(r.layers) > 0 || len(r.requires) > 0 || requiredByOthers(cat, id) {
			continue
		}
		vc, err := r.spec()
		if err == nil && len(vc.Rules) == 1 && vc.Rules[0].Regex == want {
			out[id] = r
		}
	}
	return out
})

func requiredByOthers(cat *catalogue, id string) bool {
	for _, o := range cat.rules {
		for _, x := range o.requires {
			if x == id {
				return true
			}
		}
	}
	return false
}
