package scanner

import (
	"fmt"
	"strings"

	"github.com/zricethezav/gitleaks/v8/config"
	"github.com/zricethezav/gitleaks/v8/regexp"
)

// directRule builds a default rule without Translate. Translate validates
// each allowlist, which joins its regexes into one more regex and builds an
// Aho-Corasick trie of its stop words: for generic-api-key (about 1,500 stop
// words), the rule almost every source file triggers, that is over 3 ms,
// more than scanning the file. Unvalidated allowlists answer the same
// questions with loops (see config.Allowlist's methods), which costs
// microseconds per candidate secret. Only gitleaks' own default rules take
// this path; TestDefaultsCompileLikeGitleaks compares the result with
// Translate's.
func directRule(vc config.ViperConfig) (rule config.Rule, err error) {
	vr := vc.Rules[0]
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("default rule %s: %v", vr.ID, r)
		}
	}()
	rule = config.Rule{
		RuleID:      vr.ID,
		Description: vr.Description,
		Entropy:     vr.Entropy,
		SecretGroup: vr.SecretGroup,
		Keywords:    []string{},
		Tags:        vr.Tags,
		SkipReport:  vr.SkipReport,
	}
	if rule.Tags == nil {
		rule.Tags = []string{}
	}
	for _, k := range vr.Keywords {
		rule.Keywords = append(rule.Keywords, strings.ToLower(k))
	}
	if vr.Regex != "" {
		rule.Regex = regexp.MustCompile(vr.Regex)
	}
	if vr.Path != "" {
		rule.Path = regexp.MustCompile(vr.Path)
	}
	for _, a := range vr.Allowlists {
		rule.Allowlists = append(rule.Allowlists, directAllowlist(a.Description, a.Condition, a.RegexTarget, a.Commits, a.Paths, a.Regexes, a.StopWords))
	}
	return rule, nil
}

// directGlobals builds gitleaks' default global allowlists the same way.
func directGlobals(vc config.ViperConfig) (lists []*config.Allowlist, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("default global allowlist: %v", r)
		}
	}()
	for _, a := range vc.Allowlists {
		lists = append(lists, directAllowlist(a.Description, a.Condition, a.RegexTarget, a.Commits, a.Paths, a.Regexes, a.StopWords))
	}
	return lists, nil
}

// directAllowlist mirrors Translate's parseAllowlist without Validate.
// It panics on a bad regex, like Translate; callers recover.
func directAllowlist(description, condition, target string, commits, paths, regexes, stopWords []string) *config.Allowlist {
	al := &config.Allowlist{Description: description, Commits: commits, RegexTarget: target}
	switch strings.ToUpper(condition) {
	case "AND", "&&":
		al.MatchCondition = config.AllowlistMatchAnd
	}
	if al.RegexTarget == "secret" {
		al.RegexTarget = ""
	}
	for _, p := range regexes {
		al.Regexes = append(al.Regexes, regexp.MustCompile(p))
	}
	for _, p := range paths {
		al.Paths = append(al.Paths, regexp.MustCompile(p))
	}
	for _, w := range stopWords {
		al.StopWords = append(al.StopWords, strings.ToLower(w))
	}
	return al
}
