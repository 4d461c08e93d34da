package scanner

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
	"github.com/zricethezav/gitleaks/v8/config"

	"github.com/swarm-guard/swarm-guard/policy/tomlkeys"
)

// ConfigFileName is the repository's gitleaks config, read from the root.
const ConfigFileName = ".gitleaks.toml"

// maxExtendDepth is how many configs may extend each other in a chain,
// as in gitleaks.
const maxExtendDepth = 2

// ConfigError is a broken gitleaks config, located as precisely as the
// decoder allows. The scan fails closed on it.
type ConfigError struct {
	File string
	Line int // 0 when unknown
	Key  string
	Msg  string
}

func (e *ConfigError) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc += ":" + strconv.Itoa(e.Line)
	}
	if e.Key != "" {
		return fmt.Sprintf("gitleaks config %s: key %s: %s", loc, e.Key, e.Msg)
	}
	return fmt.Sprintf("gitleaks config %s: %s", loc, e.Msg)
}

// loadCatalogue returns the rules for a worktree: root/.gitleaks.toml when
// it exists, else gitleaks' defaults.
func loadCatalogue(root string) (*catalogue, error) {
	if root == "" {
		return defaultCatalogue(), nil
	}
	path := filepath.Join(root, ConfigFileName)
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return defaultCatalogue(), nil
	}
	c, err := loadConfigFile(root, path, 0)
	if err != nil {
		return nil, err
	}
	c.configPath = ConfigFileName
	return c, nil
}

// loadConfigFile decodes one config file and resolves its [extend].
// gitleaks' own loader goes through viper and a package-global depth
// counter that breaks every load after the first in a process; this one
// decodes with BurntSushi/toml and merges by hand, with the same result.
func loadConfigFile(root, path string, depth int) (*catalogue, error) {
	display := path
	if rel, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(rel, "..") {
		display = filepath.ToSlash(rel)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &ConfigError{File: display, Msg: fmt.Sprintf("cannot read it (%v)", err)}
	}
	var vc config.ViperConfig
	md, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&vc)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, &ConfigError{File: display, Line: pe.Position.Line, Key: pe.LastKey, Msg: firstLine(pe.Message) + "; fix the TOML syntax"}
		}
		return nil, &ConfigError{File: display, Msg: firstLine(err.Error())}
	}
	if und := md.Undecoded(); len(und) > 0 {
		k := und[0].String()
		return nil, &ConfigError{File: display, Line: findKeyLine(data, k), Key: k,
			Msg: "not a gitleaks " + defaultRulesVersion + " config key; check the spelling against the gitleaks documentation"}
	}
	if err := validateUserConfig(&vc, data, display); err != nil {
		return nil, err
	}

	var base *catalogue
	switch ext := vc.Extend; {
	case ext.UseDefault && ext.Path != "":
		return nil, &ConfigError{File: display, Line: findKeyLine(data, "extend.path"), Key: "extend",
			Msg: "useDefault and path cannot both be set; gitleaks refuses such a config"}
	case ext.UseDefault:
		base = defaultCatalogue().clone()
	case ext.Path != "":
		if depth+1 > maxExtendDepth {
			return nil, &ConfigError{File: display, Key: "extend.path", Msg: fmt.Sprintf("configs extend each other more than %d deep", maxExtendDepth)}
		}
		p := ext.Path
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		if base, err = loadConfigFile(root, p, depth+1); err != nil {
			return nil, err
		}
	default:
		base = newCatalogue() // without [extend] a config replaces the defaults
	}
	base.remove(vc.Extend.DisabledRules)

	// Merge the rules of this file into the base.
	for i := range vc.Rules {
		layer := config.ViperConfig{}
		layer.Rules = append(layer.Rules, vc.Rules[i])
		r := &layer.Rules[0]
		if r.AllowList != nil {
			r.Allowlists = append(r.Allowlists, r.AllowList)
			r.AllowList = nil
		}
		var requires []string
		for _, q := range r.Required {
			if q != nil {
				requires = append(requires, q.ID)
			}
		}
		if old, ok := base.byID[r.ID]; ok {
			merged := *old
			merged.keywords = lowerAll(append(append([]string(nil), old.keywords...), r.Keywords...))
			merged.layers = append(append([]config.ViperConfig(nil), old.layers...), layer)
			base.add(&merged)
		} else {
			base.add(&ruleSource{id: r.ID, keywords: lowerAll(r.Keywords), requires: requires, layers: []config.ViperConfig{layer}})
		}
	}
	base.reindex()
	normaliseGlobals(&vc)
	base.globals.Allowlists = append(base.globals.Allowlists, vc.Allowlists...)
	base.ownGlobals = base.ownGlobals || len(vc.Allowlists) > 0

	// Requirements and allowlist targets can be checked only now that the
	// whole rule set is known.
	for _, r := range base.rules {
		for _, id := range r.requires {
			if _, ok := base.byID[id]; !ok {
				return nil, &ConfigError{File: display, Key: "rules.required", Msg: fmt.Sprintf("rule %q requires rule %q, which does not exist", r.id, id)}
			}
		}
	}
	for i, a := range base.globals.Allowlists {
		for _, id := range a.TargetRules {
			if _, ok := base.byID[id]; !ok {
				return nil, &ConfigError{File: display, Key: fmt.Sprintf("allowlists[%d].targetRules", i), Msg: fmt.Sprintf("target rule %q does not exist", id)}
			}
		}
	}
	return base, nil
}

// validateUserConfig compiles every pattern of a decoded config and checks
// the values gitleaks' Translate would reject, so that a mistake is
// reported with the file and the key instead of a panic (Translate uses
// regexp.MustCompile) or a bare message. Rule-level checks that need the
// merged rule (regex and path both empty, secretGroup) run when the rules
// are compiled, see compileUserRules.
func validateUserConfig(vc *config.ViperConfig, data []byte, file string) error {
	bad := func(key, format string, args ...any) error {
		return &ConfigError{File: file, Line: findKeyLine(data, key), Key: key, Msg: fmt.Sprintf(format, args...)}
	}
	checkRegex := func(key, pattern string) error {
		if pattern == "" {
			return nil
		}
		if _, err := regexp.Compile(pattern); err != nil {
			return bad(key, "%v", err)
		}
		return nil
	}
	seen := map[string]bool{}
	for i, r := range vc.Rules {
		key := fmt.Sprintf("rules[%d]", i)
		if strings.TrimSpace(r.ID) == "" {
			return bad(key+".id", "every rule needs an id")
		}
		if seen[r.ID] {
			return bad(key+".id", "rule id %q is defined twice", r.ID)
		}
		seen[r.ID] = true
		key = fmt.Sprintf("rules[%d] (id %q)", i, r.ID)
		if err := checkRegex(key+".regex", r.Regex); err != nil {
			return err
		}
		if err := checkRegex(key+".path", r.Path); err != nil {
			return err
		}
		if r.AllowList != nil && len(r.Allowlists) > 0 {
			return bad(key+".allowlist", "[rules.allowlist] is deprecated and cannot be used alongside [[rules.allowlists]]")
		}
		lists := r.Allowlists
		if r.AllowList != nil {
			lists = append(lists, r.AllowList)
		}
		for j, a := range lists {
			if err := checkAllowlist(fmt.Sprintf("%s.allowlists[%d]", key, j), a.Condition, a.RegexTarget, a.Regexes, a.Paths, len(a.Commits)+len(a.StopWords), checkRegex, bad); err != nil {
				return err
			}
		}
		for j, q := range r.Required {
			if q == nil || q.ID == "" {
				return bad(fmt.Sprintf("%s.required[%d].id", key, j), "a required rule needs an id")
			}
		}
	}
	if vc.AllowList != nil && len(vc.Allowlists) > 0 {
		return bad("allowlist", "[allowlist] is deprecated and cannot be used alongside [[allowlists]]")
	}
	globals := vc.Allowlists
	if vc.AllowList != nil {
		globals = append(globals, vc.AllowList)
	}
	for j, a := range globals {
		if err := checkAllowlist(fmt.Sprintf("allowlists[%d]", j), a.Condition, a.RegexTarget, a.Regexes, a.Paths, len(a.Commits)+len(a.StopWords), checkRegex, bad); err != nil {
			return err
		}
	}
	return nil
}

func checkAllowlist(key, condition, target string, regexes, paths []string, others int,
	checkRegex func(key, pattern string) error, bad func(key, format string, args ...any) error) error {
	switch strings.ToUpper(condition) {
	case "", "OR", "||", "AND", "&&":
	default:
		return bad(key+".condition", "%q is not a condition; use \"OR\" or \"AND\"", condition)
	}
	switch target {
	case "", "secret", "match", "line":
	default:
		return bad(key+".regexTarget", "%q is not a regex target; use \"secret\", \"match\" or \"line\"", target)
	}
	for i, p := range regexes {
		if err := checkRegex(fmt.Sprintf("%s.regexes[%d]", key, i), p); err != nil {
			return err
		}
	}
	for i, p := range paths {
		if err := checkRegex(fmt.Sprintf("%s.paths[%d]", key, i), p); err != nil {
			return err
		}
	}
	if len(regexes)+len(paths)+others == 0 {
		return bad(key, "an allowlist needs at least one of commits, paths, regexes or stopwords")
	}
	return nil
}

// findKeyLine finds the line that defines a key as validation names it,
// such as `rules[2] (id "x").regex`, `rules[0] (id "x").allowlists[1].regexes[0]`
// or `extend.path`: the key, else its closest parent (the [[rules]] entry's
// header). 0 means unknown.
func findKeyLine(data []byte, key string) int {
	return tomlkeys.Index(data).FindFold(ruleIDRE().ReplaceAllString(key, ""))
}

// ruleIDRE matches the ` (id "x")` validation adds after a rule's index.
var ruleIDRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(` \(id "(?:[^"\\]|\\.)*"\)`) })

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}
