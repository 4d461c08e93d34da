package scanner

import (
	"encoding/base64"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/fakesecret"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/keywords"
)

// TestCleanMatchesTheRules holds keywords.Clean's tables to the linked
// default rules: the patterns its conditions are proven for, which rules
// list the keywords it may pass, and the path-only rules.
func TestCleanMatchesTheRules(t *testing.T) {
	c := defaultCatalogue()
	if keywords.Covered[genericID] != genericRegex {
		t.Errorf("keywords.Covered holds another generic pattern than window.go")
	}
	for id, want := range keywords.Covered {
		r := c.byID[id]
		if r == nil {
			t.Errorf("no default rule %s", id)
			continue
		}
		vc, err := r.spec()
		if err != nil {
			t.Fatal(err)
		}
		if got := vc.Rules[0].Regex; got != want || vc.Rules[0].Path != "" || len(r.layers) > 0 {
			t.Errorf("default rule %s changed: pattern %q, path %q; check its condition in hooks/secretscan/keywords and update Covered", id, got, vc.Rules[0].Path)
		}
		if id != genericID {
			continue
		}
		// MayGeneric counts on the rule's entropy and on an allowlist that
		// drops a plain secret whatever else holds (no AND, no target).
		plain := false
		for _, a := range vc.Rules[0].Allowlists {
			if a.Condition == "" && a.RegexTarget == "" && len(a.Paths)+len(a.Commits) == 0 && slices.Contains(a.Regexes, keywords.GenericPlain) {
				plain = true
			}
		}
		if vc.Rules[0].Entropy != keywords.GenericEntropy || !plain {
			t.Errorf("the generic rule's entropy (%v) or its allowlist of plain secrets changed: check keywords.MayGeneric (genericKept)", vc.Rules[0].Entropy)
		}
	}
	for k, ids := range keywords.CoveredKeywords {
		var got []string
		for _, r := range c.keywords[k] {
			got = append(got, r.id)
		}
		sort.Strings(got)
		want := slices.Sorted(slices.Values(ids))
		if !slices.Equal(got, want) {
			t.Errorf("keyword %q belongs to the default rules %v, keywords.CoveredKeywords says %v", k, got, want)
		}
	}
	var always []string
	for _, r := range c.always {
		always = append(always, r.id)
		vc, err := r.spec()
		if err != nil {
			t.Fatal(err)
		}
		if want, ok := keywords.PathRules[r.id]; !ok || vc.Rules[0].Path != want || vc.Rules[0].Regex != "" {
			t.Errorf("default rule %s has no keywords: path %q, pattern %q; keywords.PathRules must name it with its path pattern, and Clean check it", r.id, vc.Rules[0].Path, vc.Rules[0].Regex)
		}
	}
	if len(always) != len(keywords.PathRules) {
		t.Errorf("rules without keywords %v, keywords.PathRules %v", always, keywords.PathRules)
	}
}

// TestMayTwilioIsNecessary: whatever twilio-api-key's regex matches passes
// its condition.
func TestMayTwilioIsNecessary(t *testing.T) {
	re := regexp.MustCompile(keywords.Covered["twilio-api-key"])
	matched := 0
	for range 20000 {
		text := randomFrom(alnumChars, mustInt(4)) + pick("SK", "SK", "Sk", "sK", "S") + randomFrom("0123456789abcdefABCDEF", 29+mustInt(6)) + pick("", "x", " ", "\n")
		if mustInt(2) == 0 {
			at := mustInt(len(text) + 1)
			text = text[:at] + pick("SK", "g", " ", "0") + text[at:]
		}
		if re.MatchString(text) {
			matched++
			if !keywords.MayTwilio(text) {
				t.Fatalf("twilio-api-key matches %q but its condition says it cannot", text)
			}
		}
	}
	if matched < 1000 {
		t.Fatalf("only %d texts matched", matched)
	}
}

// TestCleanFindsNothing: a text keywords.Clean passes gets no finding from
// the scanner (every rule in gitleaks' one detector, on the whole text),
// over real code from GOROOT, the same code with fake secrets of every
// kind put in, and near misses of the covered rules. And most plain code
// is clean, or Clean spares nothing.
func TestCleanFindsNothing(t *testing.T) {
	texts := goSources(t, 12, "net/http", "crypto/tls", "os", "strings", "encoding/json")
	plain := len(texts)
	secrets := []string{
		`token := "` + fakeJWT() + `"`, `VAULT_TOKEN=` + fakeVaultShort(), `export VAULT_TOKEN=` + fakeVaultLong(),
		`sid := "S` + `K` + randomFrom("0123456789abcdef", 32) + `"`,
		`blob: "` + base64.StdEncoding.EncodeToString([]byte(`{"t":"`+fakeJWT()+`"}`)) + `"`,
		"password:\n\n  \"" + fakesecret.GenericAPIKey().Value + "\"\n",
		`apiKey = "` + randomFrom(alnumChars, 9) + `"`, // a near miss: 9 characters
		"S" + "K" + randomFrom("0123456789abcdef", 31), // a near miss
		"auth := ::= x",
		"// — the auth token refresh, café", // non-ASCII bytes that fold to no ASCII letter
		`clé_api = "` + fakesecret.GenericAPIKey().Value + `"`,
		`name := "José"; key := "` + fakesecret.GenericAPIKey().Value + `"`,
		"\tkey := cfg.Lookup(\"service.api.key\")", // a match gitleaks drops (allowlist): Clean proves it
		`apiKey: "0123456789"`,                     // entropy below the rule's
	}
	for _, s := range fakesecret.All() {
		secrets = append(secrets, s.Line)
	}
	for i := range plain {
		for k, s := range secrets {
			lines := strings.Split(texts[i], "\n")
			at := (k*31 + i*7) % len(lines)
			texts = append(texts, strings.Join(slices.Insert(lines, at, s), "\n"))
		}
	}
	texts = append(texts, secrets...)
	stock := &Scanner{cat: defaultCatalogue(), depth: DefaultDecodeDepth, workers: 1}
	var err error
	if stock.comp, err = newCompiler(defaultCatalogue(), DefaultDecodeDepth, true); err != nil {
		t.Fatal(err)
	}
	clean, cleanPlain := 0, 0
	for i, text := range texts {
		if !keywords.Clean("f.go", text) {
			continue
		}
		clean++
		if i < plain {
			cleanPlain++
		}
		if fs := scanAll(t, stock, "f.go", text); len(fs) > 0 {
			t.Fatalf("keywords.Clean passes text %d, where gitleaks finds %+v", i, fs)
		}
	}
	t.Logf("%d of %d texts clean (%d of %d plain files)", clean, len(texts), cleanPlain, plain)
	if cleanPlain < plain/4 {
		t.Errorf("only %d of %d plain Go files are clean: Clean spares the scanner almost nothing", cleanPlain, plain)
	}
	if keywords.Clean("certs/client.P12", "x") || keywords.Clean("f.go", "x := \u212Aey") {
		t.Error("Clean passes a .p12 path or a text with the Kelvin sign")
	}
	for _, c := range []string{"// — the auth token refresh, café\n", "\tkey := cfg.Lookup(\"service.api.key\")\n"} {
		if !keywords.Clean("f.go", c) {
			t.Errorf("Clean cannot prove %q clean", c)
		}
	}
}
