package scanner

import (
	"fmt"
	"sync"

	"github.com/zricethezav/gitleaks/v8/config"
	"github.com/zricethezav/gitleaks/v8/detect"
)

// compiler turns rules from source form into a gitleaks Detector, a batch
// at a time: compiling all ~220 default regexes takes about 20 ms, more
// than the whole budget of a hook call, while a typical file needs a
// handful of them.
//
// It is safe for concurrent use. Every detector it hands out owns its
// rule map and is never changed afterwards, so workers may keep scanning
// with an older detector while a newer one is built.
type compiler struct {
	cat         *catalogue
	decodeDepth int
	ignoreAllow bool

	mu       sync.Mutex
	rules    map[string]config.Rule
	keywords map[string]struct{}
	globals  []*config.Allowlist
	// det runs the decoding passes, flat does not; both hold the same
	// rules. flat is for text the decoder has nothing to decode in.
	det, flat *detect.Detector
}

func newCompiler(cat *catalogue, decodeDepth int, ignoreAllow bool) (*compiler, error) {
	c := &compiler{cat: cat, decodeDepth: decodeDepth, ignoreAllow: ignoreAllow,
		rules: map[string]config.Rule{}, keywords: map[string]struct{}{}}
	var globals config.ViperConfig
	for _, a := range cat.globals.Allowlists {
		if len(a.TargetRules) == 0 {
			globals.Allowlists = append(globals.Allowlists, a)
		}
	}
	if cat.ownGlobals {
		cfg, err := c.translate(globals)
		if err != nil {
			return nil, err
		}
		c.globals = cfg.Allowlists
	} else {
		var err error
		if c.globals, err = directGlobals(globals); err != nil {
			return nil, err
		}
	}
	// Rules a config file defines or changes are compiled now, whatever the
	// text holds: a broken rule must fail every scan, not only the ones
	// that happen to contain its keywords.
	var user []*ruleSource
	for _, r := range cat.rules {
		if len(r.layers) > 0 {
			user = append(user, r)
		}
	}
	if len(user) > 0 {
		if err := c.compile(user); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// detectorFor returns a detector that holds at least the rules a piece of
// text needs, and runs the decoding passes only when they can find
// something.
func (c *compiler) detectorFor(a analysis) (*detect.Detector, error) {
	det, flat, err := c.detectors(a.rules)
	if a.decodes {
		return det, err
	}
	return flat, err
}

// pathMisses reports whether the main detector can find nothing in a
// piece of file that needs rules (analyse) and has nothing to decode:
// every rule it needs is compiled, has no regex and a path that file
// does not match. gitleaks then runs only those rules (the others' keywords
// are not in the text), and a rule without a regex reports nothing but a
// matching path. That is a clean file's usual case with the default
// rules, whose one rule without keywords is pkcs12-file (*.p12, *.pfx):
// Detect would lower-case and search the whole text to report nothing.
func (c *compiler) pathMisses(need []*ruleSource, file string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range need {
		rule, ok := c.rules[r.id]
		if !ok || rule.Regex != nil || rule.Path != nil && rule.Path.MatchString(file) {
			return false
		}
	}
	return true
}

func (c *compiler) detectors(need []*ruleSource) (det, flat *detect.Detector, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var missing []*ruleSource
	for _, r := range need {
		if _, ok := c.rules[r.id]; !ok {
			missing = append(missing, r)
		}
	}
	if len(missing) == 0 && c.det != nil {
		return c.det, c.flat, nil
	}
	if len(missing) > 0 {
		if err := c.compile(missing); err != nil {
			return nil, nil, err
		}
	}
	cfg := config.Config{
		Rules:      make(map[string]config.Rule, len(c.rules)),
		Keywords:   make(map[string]struct{}, len(c.keywords)),
		Allowlists: c.globals,
		Path:       c.cat.configPath,
	}
	for id, r := range c.rules {
		cfg.Rules[id] = r
		cfg.OrderedRules = append(cfg.OrderedRules, id)
	}
	for k := range c.keywords {
		cfg.Keywords[k] = struct{}{}
	}
	c.det = detect.NewDetector(cfg)
	c.det.MaxDecodeDepth = c.decodeDepth
	c.det.IgnoreGitleaksAllow = c.ignoreAllow
	c.flat = detect.NewDetector(cfg)
	c.flat.IgnoreGitleaksAllow = c.ignoreAllow
	return c.det, c.flat, nil
}

// compile translates a batch of rules, with their [[rules.required]]
// companions and the allowlists that target them, and records the result.
// The caller holds c.mu or owns c.
func (c *compiler) compile(batch []*ruleSource) error {
	batch = c.cat.withRequired(batch)
	targeted := map[string]bool{}
	for _, a := range c.cat.globals.Allowlists {
		for _, id := range a.TargetRules {
			targeted[id] = true
		}
	}
	in := map[string]bool{}
	var vc config.ViperConfig
	for _, r := range batch {
		spec, err := r.spec()
		if err != nil {
			return err
		}
		if r.doc != "" && len(r.layers) == 0 && len(r.requires) == 0 && !targeted[r.id] {
			rule, err := directRule(spec)
			if err != nil {
				return err
			}
			c.add(rule)
			continue
		}
		vc.Rules = append(vc.Rules, spec.Rules[0])
		in[r.id] = true
	}
	if len(vc.Rules) == 0 {
		return nil
	}
	for _, a := range c.cat.globals.Allowlists {
		var targets []string
		for _, id := range a.TargetRules {
			if in[id] {
				targets = append(targets, id)
			}
		}
		if len(targets) > 0 {
			cp := *a
			cp.TargetRules = targets
			vc.Allowlists = append(vc.Allowlists, &cp)
		}
	}
	cfg, err := c.translate(vc)
	if err != nil {
		return err
	}
	for _, r := range cfg.Rules {
		c.add(r)
	}
	return nil
}

// add records a compiled rule and its keywords.
func (c *compiler) add(r config.Rule) {
	c.rules[r.RuleID] = r
	for _, k := range r.Keywords {
		c.keywords[k] = struct{}{}
	}
}

// translate runs gitleaks' Translate with its panics turned into errors:
// it compiles regexes with MustCompile. The config never has an [extend]
// section here, so gitleaks' package-global extend counter stays at zero
// and every call validates rules and attaches targeted allowlists.
func (c *compiler) translate(vc config.ViperConfig) (cfg config.Config, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = c.configError(fmt.Sprint(r))
		}
	}()
	vc.Extend = config.Extend{}
	cfg, err = vc.Translate()
	if err != nil {
		return cfg, c.configError(err.Error())
	}
	return cfg, nil
}

func (c *compiler) configError(msg string) error {
	file := c.cat.configPath
	if file == "" {
		file = "<gitleaks default config " + defaultRulesVersion + ">"
	}
	return &ConfigError{File: file, Msg: firstLine(msg)}
}
