package scanner

import (
	"slices"
	"testing"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/keywords"
)

// TestKeywordsMatchTheRules: the light binary's keyword list is the
// default rules' own, and every default rule without keywords looks at
// file paths only, so a text without a keyword cannot hold a finding.
func TestKeywordsMatchTheRules(t *testing.T) {
	c := defaultCatalogue()
	if got := c.keywordList(); !slices.Equal(got, keywords.Default) {
		t.Fatalf("hooks/secretscan/keywords.Default is out of date; set it to the default rules' keywords:\n%q", got)
	}
	for _, r := range c.always {
		vc, err := r.spec()
		if err != nil {
			t.Fatal(err)
		}
		if len(vc.Rules) != 1 || vc.Rules[0].Regex != "" || vc.Rules[0].Path == "" {
			t.Errorf("default rule %s has no keywords and looks at content: keywords.Any cannot rule a text out", r.id)
		}
	}
}
