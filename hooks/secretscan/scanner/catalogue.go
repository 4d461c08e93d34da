package scanner

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/zricethezav/gitleaks/v8/config"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/keywords"
)

// A catalogue is the rule set a scan may use, before compilation: gitleaks'
// default rules, a repository config, or the two merged. Rules are kept in
// source form and compiled on demand (see compiler).
type catalogue struct {
	rules    []*ruleSource
	byID     map[string]*ruleSource
	keywords map[string][]*ruleSource // lower-case keyword → rules that list it
	always   []*ruleSource            // rules without keywords run on every text
	index    *keywords.Index          // finds the keywords in a text
	// globals holds the global allowlists in its Allowlists field; the
	// deprecated single [allowlist] is moved there on load.
	globals config.ViperConfig
	// configPath is the repository config relative to the root, "" when
	// the defaults apply. gitleaks never scans its own config file.
	configPath string
	// ownGlobals says a config file added global allowlists; without any,
	// the globals are gitleaks' defaults and skip Translate (see directRule).
	ownGlobals bool
}

// ruleSource is one rule in source form.
type ruleSource struct {
	id       string
	keywords []string // lower case
	requires []string // ids of [[rules.required]] companions
	// doc is the rule as JSON when it comes from gitleaks' defaults.
	doc string
	// layers are definitions from config files, each a ViperConfig holding
	// one rule. Without doc, layers[0] is the rule and the rest refine it;
	// with doc they all refine the default, as gitleaks' [extend] does.
	layers []config.ViperConfig
}

// defaultCatalogue is built once per process from the pre-decoded
// defaults. Callers must clone it before changing it.
var defaultCatalogue = sync.OnceValue(func() *catalogue {
	c := newCatalogue()
	for _, d := range defaultRules {
		c.add(&ruleSource{id: d.id, keywords: d.keywords, requires: d.requires, doc: d.doc})
	}
	c.reindex()
	if err := json.Unmarshal([]byte(defaultGlobalsDoc), &c.globals); err != nil {
		// The document is generated and checked by TestDefaultsMatchGitleaks.
		panic("scanner: the generated default allowlists do not decode: " + err.Error())
	}
	normaliseGlobals(&c.globals)
	return c
})

func newCatalogue() *catalogue {
	return &catalogue{byID: map[string]*ruleSource{}, keywords: map[string][]*ruleSource{}}
}

// add appends a rule, replacing one with the same id. Call reindex after
// the last add.
func (c *catalogue) add(r *ruleSource) {
	if old, ok := c.byID[r.id]; ok {
		for i, x := range c.rules {
			if x == old {
				c.rules[i] = r
			}
		}
	} else {
		c.rules = append(c.rules, r)
	}
	c.byID[r.id] = r
}

// reindex rebuilds the keyword index after rules changed.
func (c *catalogue) reindex() {
	c.keywords = map[string][]*ruleSource{}
	c.always = nil
	for _, r := range c.rules {
		if len(r.keywords) == 0 {
			c.always = append(c.always, r)
		}
		for _, k := range r.keywords {
			c.keywords[k] = append(c.keywords[k], r)
		}
	}
	c.index = keywords.NewIndex(c.keywordList())
}

// clone returns a copy whose rules can be changed without touching c.
func (c *catalogue) clone() *catalogue {
	n := newCatalogue()
	for _, r := range c.rules {
		cp := *r
		cp.keywords = append([]string(nil), r.keywords...)
		cp.requires = append([]string(nil), r.requires...)
		cp.layers = append([]config.ViperConfig(nil), r.layers...)
		n.rules = append(n.rules, &cp)
		n.byID[cp.id] = &cp
	}
	n.reindex()
	n.globals.Allowlists = append(n.globals.Allowlists, c.globals.Allowlists...)
	n.configPath = c.configPath
	n.ownGlobals = c.ownGlobals
	return n
}

// remove drops rules by id; unknown ids are ignored, as gitleaks does
// (it only logs a warning).
func (c *catalogue) remove(ids []string) {
	drop := map[string]bool{}
	for _, id := range ids {
		drop[id] = true
	}
	kept := c.rules[:0]
	for _, r := range c.rules {
		if drop[r.id] {
			delete(c.byID, r.id)
			continue
		}
		kept = append(kept, r)
	}
	c.rules = kept
	c.reindex()
}

// keywordList returns the distinct keywords, sorted.
func (c *catalogue) keywordList() []string {
	out := make([]string, 0, len(c.keywords))
	for k := range c.keywords {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// withRequired adds the companions of [[rules.required]] rules: a
// composite rule is evaluated against them, so they must be compiled with it.
func (c *catalogue) withRequired(rules []*ruleSource) []*ruleSource {
	seen := map[*ruleSource]bool{}
	var out []*ruleSource
	var visit func(r *ruleSource)
	visit = func(r *ruleSource) {
		if r == nil || seen[r] {
			return
		}
		seen[r] = true
		out = append(out, r)
		for _, id := range r.requires {
			visit(c.byID[id])
		}
	}
	for _, r := range rules {
		visit(r)
	}
	return out
}

// spec returns the rule as a ViperConfig holding it alone, with the layers
// merged the way gitleaks' Config.extend merges a child rule into the rule
// it extends.
func (r *ruleSource) spec() (config.ViperConfig, error) {
	var vc config.ViperConfig
	layers := r.layers
	if r.doc != "" {
		if err := json.Unmarshal([]byte(`{"Rules":[`+r.doc+`]}`), &vc); err != nil {
			return vc, fmt.Errorf("decode the default rule %s: %w", r.id, err)
		}
	} else {
		if len(layers) == 0 {
			return vc, fmt.Errorf("rule %s has no definition", r.id)
		}
		vc.Rules = append(vc.Rules, layers[0].Rules[0])
		layers = layers[1:]
	}
	base := &vc.Rules[0]
	base.Tags = append([]string(nil), base.Tags...)
	base.Keywords = append([]string(nil), base.Keywords...)
	base.Allowlists = append(base.Allowlists[:0:0], base.Allowlists...)
	for _, l := range layers {
		o := l.Rules[0]
		if o.Description != "" {
			base.Description = o.Description
		}
		if o.Entropy != 0 {
			base.Entropy = o.Entropy
		}
		if o.SecretGroup != 0 {
			base.SecretGroup = o.SecretGroup
		}
		if o.Regex != "" {
			base.Regex = o.Regex
		}
		if o.Path != "" {
			base.Path = o.Path
		}
		base.Tags = append(base.Tags, o.Tags...)
		base.Keywords = append(base.Keywords, o.Keywords...)
		base.Allowlists = append(base.Allowlists, o.Allowlists...)
	}
	if base.AllowList != nil {
		base.Allowlists = append(base.Allowlists, base.AllowList)
		base.AllowList = nil
	}
	return vc, nil
}

// normaliseGlobals moves the deprecated single [allowlist] into
// [[allowlists]], where Translate expects one or the other.
func normaliseGlobals(vc *config.ViperConfig) {
	if vc.AllowList != nil {
		vc.Allowlists = append(vc.Allowlists, vc.AllowList)
		vc.AllowList = nil
	}
}

// lowerAll returns the lower-cased, de-duplicated words.
func lowerAll(words []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range words {
		w = strings.ToLower(w)
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}
