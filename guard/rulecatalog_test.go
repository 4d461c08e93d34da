package guard

import (
	"fmt"

	"flag"
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/packs"
	"github.com/swarm-guard/swarm-guard/guard/rules"
	"github.com/swarm-guard/swarm-guard/policy"
)

var updateRules = flag.Bool("update-rules", false, "rewrite the rule tables of docs/rules.md and README.md from guard/rules")

// checkExample decides one catalog example in the corpus world: a Bash
// command, "<Tool> <path>" for the file tools and EnterWorktree, "Grep
// <pattern> <path>", "WebFetch <url>", or "mcp__server__tool {json}".
func checkExample(eng *Engine, ex string) Decision {
	head, rest, _ := strings.Cut(ex, " ")
	switch {
	case strings.HasPrefix(head, "mcp__"):
		return eng.CheckMCP(head, []byte(rest), testEnv())
	case head == ToolRead || head == ToolWrite || head == ToolEdit:
		return eng.Check(head, ToolInput{FilePath: rest}, testEnv())
	case head == ToolGlob || head == ToolLS || head == ToolEnterWorktree:
		return eng.Check(head, ToolInput{Path: rest}, testEnv())
	case head == ToolWebFetch:
		return eng.Check(head, ToolInput{URL: rest}, testEnv())
	case head == ToolGrep:
		pat, path, _ := strings.Cut(rest, " ")
		return eng.Check(head, ToolInput{Pattern: pat, Path: path}, testEnv())
	case head == "ci:":
		// a command of a committed CI file, whose job has these secrets
		// (guard/committed fills Env.Secrets the same way)
		env := testEnv()
		env.Secrets = map[string]string{"SECRETS_DEPLOY_KEY": "secrets.DEPLOY_KEY", "CODECOV_TOKEN": "secrets.CODECOV_TOKEN"}
		return eng.CheckCommand(rest, env)
	}
	return eng.CheckCommand(ex, testEnv())
}

// TestRuleCatalog runs every core rule's examples through the whole
// engine: each Deny example is decided by that rule, each Allow example
// gets no decision at all.
func TestRuleCatalog(t *testing.T) {
	eng := New(corpusPolicy())
	seen := map[string]bool{}
	for _, r := range rules.All() {
		if seen[r.ID] {
			t.Errorf("rule %s is in the catalog twice", r.ID)
		}
		seen[r.ID] = true
		if r.ID == "" || r.Reason == "" || r.Instead == "" {
			t.Errorf("rule %q has no id, reason or instead", r.ID)
		}
		if !policy.IsRule(r.ID) && r.ID != policy.RuleDynamicCommand {
			t.Errorf("rule %s is not a policy rule id", r.ID)
		}
		if r.TestedBy == "" && (len(r.Deny) < 2 || len(r.Allow) < 2) {
			t.Errorf("rule %s has %d deny and %d allow examples; want at least 2 of each (or TestedBy)", r.ID, len(r.Deny), len(r.Allow))
		}
		for _, ex := range r.Deny {
			d := checkExample(eng, ex)
			if d.Action == "" || d.Rule != r.ID {
				t.Errorf("rules/%s: %q must be decided by %s, got %q (%s): %s", r.ID, ex, r.ID, d.Action, d.Rule, d.Reason)
			}
		}
		for _, ex := range r.Allow {
			if d := checkExample(eng, ex); d.Action != "" {
				t.Errorf("rules/%s: %q must be allowed, got %s (%s): %s", r.ID, ex, d.Action, d.Rule, d.Reason)
			}
		}
	}
	// Every policy rule is in the catalog, the packs' too: a pack
	// pattern's match is judged by its rule's file in guard/rules.
	for _, r := range policy.Rules {
		if !seen[r.ID] {
			t.Errorf("policy rule %s has no file in guard/rules", r.ID)
		}
	}
	for _, p := range packs.All() {
		for _, r := range p.Rules {
			if rr, ok := rules.ByID(r.ID); !ok || rr.Judge == nil {
				t.Errorf("pack %s pattern %s: rule %s has no judge in guard/rules", p.Name, r.Name, r.ID)
			}
		}
	}
}

// ruleTable renders the catalog as the rule table of docs/rules.md.
func ruleTable() string {
	var b strings.Builder
	b.WriteString("| id | | why | denied | allowed | instead |\n|---|---|---|---|---|---|\n")
	code := func(list []string) string {
		var parts []string
		for _, c := range list {
			parts = append(parts, "`"+strings.ReplaceAll(c, "|", `\|`)+"`")
		}
		return strings.Join(parts, ", ")
	}
	for _, r := range rules.All() {
		deny, allow := code(r.Deny), code(r.Allow)
		if r.TestedBy != "" {
			deny = r.Summary()
		}
		b.WriteString("| `" + r.ID + "` | " + r.Label() + " | " + r.Reason + " | " + deny + " | " + allow + " | " +
			strings.ReplaceAll(r.Instead, "|", `\|`) + " |\n")
	}
	return b.String()
}

// ruleGlance renders the catalog as README.md's "rules at a glance": one
// line per rule, its reason and its first denied example (the shortest
// when the first is too long for a glance). The tool packs' rules share
// one line: their ids and an example of each family are enough at a
// glance, and docs/rules.md has each of them whole.
func ruleGlance() string {
	var b strings.Builder
	b.WriteString("| rule | | stops | for example |\n|---|---|---|---|\n")
	var packIDs, packExamples []string
	for _, r := range rules.All() {
		ex := r.Summary()
		if r.TestedBy == "" && len(r.Deny) > 0 {
			short := r.Deny[0]
			for _, d := range r.Deny[1:] {
				if len(short) > 60 && len(d) < len(short) {
					short = d
				}
			}
			ex = "`" + strings.ReplaceAll(short, "|", `\|`) + "`"
		}
		if rules.OfToolPacks(r.ID) {
			packIDs = append(packIDs, "`"+r.ID+"`")
			if len(packExamples) < 2 {
				packExamples = append(packExamples, ex)
			}
			continue
		}
		b.WriteString("| `" + r.ID + "` | " + r.Label() + " | " + r.Reason + " | " + ex + " |\n")
	}
	if len(packIDs) > 0 {
		b.WriteString("| " + strings.Join(packIDs, ", ") + " | | the tool packs: infrastructure, clusters, cloud resources, containers, datastores, the machine and hosted services are shared, and an agent's delete is gone for everyone | " +
			strings.Join(packExamples, ", ") + " |\n")
	}
	return b.String()
}

const (
	rulesBegin  = "<!-- rules:begin (generated by go test ./guard -run TestRuleTables -update-rules) -->\n"
	rulesEnd    = "<!-- rules:end -->"
	glanceBegin = "<!-- rules-glance:begin (generated by go test ./guard -run TestRuleTables -update-rules) -->\n"
	glanceEnd   = "<!-- rules-glance:end -->"
)

// TestRuleTables keeps the rule table of docs/rules.md and the rules at a
// glance of README.md equal to the catalog's rules and examples.
func TestRuleTables(t *testing.T) {
	const how = "go test ./guard -run TestRuleTables -update-rules"
	checkGeneratedSection(t, "docs/rules.md", rulesBegin, rulesEnd, ruleTable(), *updateRules,
		"rule table is out of date with guard/rules", how)
	checkGeneratedSection(t, "README.md", glanceBegin, glanceEnd, ruleGlance(), *updateRules,
		"rules at a glance are out of date with guard/rules", how)
}

// TestGuardChangeExamples runs the call beside each sentence of the
// guard-tamper rule (guard/rules/guard_tamper.go, guardChanges) through
// the whole engine: a shell command must make that kind of change, and
// every call must be denied by the rule; the safe twin must not be.
func TestGuardChangeExamples(t *testing.T) {
	eng := New(corpusPolicy())
	tamper := func(d Decision) bool {
		for _, f := range d.Findings {
			if f.Rule == policy.RuleGuardTamper {
				return true
			}
		}
		return false
	}
	for c := effect.SetupUnread; c <= effect.ToolWrite; c++ {
		deny, allow := rules.ChangeExamples(c)
		if deny == "" {
			t.Errorf("change %d has no example", c)
			continue
		}
		if !tamper(checkExample(eng, deny)) {
			t.Errorf("change %d: %s is not denied by %s", c, deny, policy.RuleGuardTamper)
		}
		if !strings.HasPrefix(deny, "mcp__") && !strings.HasPrefix(deny, ToolWrite+" ") {
			made := false
			mark := fmt.Sprintf("effect: effect.GuardChange {Change:%d ", c)
			eng.Explaining(func(line string) { made = made || strings.HasPrefix(line, mark) }).CheckCommand(deny, testEnv())
			if !made {
				t.Errorf("change %d: %s makes no such change (%v)", c, deny, eng.Explain(deny, testEnv()))
			}
		}
		if allow != "" && tamper(checkExample(eng, allow)) {
			t.Errorf("change %d: the safe twin %s is denied by %s", c, allow, policy.RuleGuardTamper)
		}
	}
}

// TestForgeExamples runs the call beside each sentence of the oversight
// rule (guard/rules/oversight.go, forgeDoes) through the whole engine
// under the default oversight: a shell command must do that, and every
// call must be denied by the rule; the safe twin must not be.
func TestForgeExamples(t *testing.T) {
	eng := New(corpusPolicy())
	overseen := func(d Decision) bool {
		for _, f := range d.Findings {
			if f.Rule == policy.RuleOversight {
				return true
			}
		}
		return false
	}
	for d := effect.MergesPullRequest; d <= effect.PublishesReleasePackages; d++ {
		deny, allow := rules.ForgeExamples(d)
		if deny == "" {
			t.Errorf("forge does %d: no example", d)
			continue
		}
		if !overseen(checkExample(eng, deny)) {
			t.Errorf("forge does %d: %s is not denied by %s", d, deny, policy.RuleOversight)
		}
		if !strings.HasPrefix(deny, "mcp__") {
			made := false
			mark := fmt.Sprintf(" Does:%d ", d)
			eng.Explaining(func(line string) {
				made = made || strings.HasPrefix(line, "effect: effect.ForgeAction {") && strings.Contains(line, mark)
			}).CheckCommand(deny, testEnv())
			if !made {
				t.Errorf("forge does %d: %s does not do that (%v)", d, deny, eng.Explain(deny, testEnv()))
			}
		}
		if allow != "" && overseen(checkExample(eng, allow)) {
			t.Errorf("forge does %d: the safe twin %s is denied by %s", d, allow, policy.RuleOversight)
		}
	}
}
