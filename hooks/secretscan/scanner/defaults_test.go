package scanner

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/zricethezav/gitleaks/v8/config"
	"github.com/zricethezav/gitleaks/v8/regexp"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/fakesecret"
)

// TestDefaultsMatchGitleaks checks defaults_gen.go against the default
// config of the gitleaks module this build links. It fails after a
// gitleaks upgrade until `go generate ./hooks/secretscan/scanner` runs.
func TestDefaultsMatchGitleaks(t *testing.T) {
	var vc config.ViperConfig
	if _, err := toml.Decode(config.DefaultConfig, &vc); err != nil {
		t.Fatal(err)
	}
	if len(vc.Rules) != len(defaultRules) {
		t.Fatalf("gitleaks has %d default rules, defaults_gen.go %d: run go generate", len(vc.Rules), len(defaultRules))
	}
	for i, r := range vc.Rules {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(r); err != nil {
			t.Fatal(err)
		}
		got := defaultRules[i]
		if got.id != r.ID || got.doc != strings.TrimSpace(want.String()) {
			t.Fatalf("rule %d (%s) differs from gitleaks' default config: run go generate", i, r.ID)
		}
		if strings.Join(got.keywords, ",") != strings.ToLower(strings.Join(r.Keywords, ",")) {
			t.Fatalf("keywords of %s differ: run go generate", r.ID)
		}
	}
}

// TestDefaultsCompileLikeGitleaks compiles every default rule through the
// lazy path and compares with gitleaks' own eager Translate.
func TestDefaultsCompileLikeGitleaks(t *testing.T) {
	var vc config.ViperConfig
	if _, err := toml.Decode(config.DefaultConfig, &vc); err != nil {
		t.Fatal(err)
	}
	want, err := vc.Translate()
	if err != nil {
		t.Fatal(err)
	}
	cat := defaultCatalogue()
	comp, err := newCompiler(cat, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	det, err := comp.detectorFor(analysis{rules: cat.rules, decodes: true})
	if err != nil {
		t.Fatal(err)
	}
	got := det.Config
	if len(got.Rules) != len(want.Rules) || len(got.Keywords) != len(want.Keywords) || len(got.Allowlists) != len(want.Allowlists) {
		t.Fatalf("rules %d/%d, keywords %d/%d, global allowlists %d/%d", len(got.Rules), len(want.Rules),
			len(got.Keywords), len(want.Keywords), len(got.Allowlists), len(want.Allowlists))
	}
	for i, w := range want.Allowlists {
		if describeAllowlist(got.Allowlists[i]) != describeAllowlist(w) {
			t.Errorf("global allowlist %d compiled differently", i)
		}
	}
	for id, w := range want.Rules {
		g := got.Rules[id]
		if describeRule(g) != describeRule(w) {
			t.Errorf("rule %s compiled differently:\n got %s\nwant %s", id, describeRule(g), describeRule(w))
		}
	}
}

// describeRule renders everything Detect reads from a rule.
func describeRule(r config.Rule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s|%s|%v|%d|%s|%s|%v|%v|%v|%d", r.RuleID, r.Description, r.Entropy, r.SecretGroup, reString(r.Regex), reString(r.Path),
		r.Tags, r.Keywords, r.SkipReport, len(r.RequiredRules))
	for _, a := range r.Allowlists {
		b.WriteString(describeAllowlist(a))
	}
	return b.String()
}

func describeAllowlist(a *config.Allowlist) string {
	var res, paths []string
	for _, x := range a.Regexes {
		res = append(res, x.String())
	}
	for _, x := range a.Paths {
		paths = append(paths, x.String())
	}
	words := append([]string(nil), a.StopWords...)
	commits := append([]string(nil), a.Commits...)
	sort.Strings(words)
	sort.Strings(commits)
	return fmt.Sprintf("|allow:%s %v %q %v %v %v %v", a.Description, a.MatchCondition, a.RegexTarget, res, paths, words, commits)
}

func reString(re interface{ String() string }) string {
	if re == nil || re == (*regexp.Regexp)(nil) {
		return ""
	}
	return re.String()
}

func TestRulesForSelectsByKeyword(t *testing.T) {
	cat := defaultCatalogue()
	ids := func(a analysis) string {
		var out []string
		for _, r := range a.rules {
			out = append(out, r.id)
		}
		return strings.Join(out, ",")
	}
	if got := ids(cat.analyse("x := 1\n", 0)); got != "pkcs12-file" {
		t.Errorf("plain code selects %q, want only the keyword-less rule", got)
	}
	got := ids(cat.analyse("v := \"GHP_abc\"\n", 0))
	if !strings.Contains(got, "github-pat") || strings.Contains(got, "slack") {
		t.Errorf("selected %q", got)
	}
	// A keyword visible only after base64 decoding still selects its rule.
	encoded := "data = \"" + base64.StdEncoding.EncodeToString([]byte(fakesecret.SlackBotToken().Line)) + "\"\n"
	if got := ids(cat.analyse(encoded, 0)); strings.Contains(got, "slack-bot-token") {
		t.Errorf("depth 0 selected %q", got)
	}
	if got := ids(cat.analyse(encoded, 2)); !strings.Contains(got, "slack-bot-token") {
		t.Errorf("depth 2 selected %q, want slack-bot-token", got)
	}
}
