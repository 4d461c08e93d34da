package policy

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The embedded default.toml and the Go default must say the same thing:
// one is what install writes and users read, the other is what a hook
// process uses without parsing TOML.
func TestDefaultTextMatches(t *testing.T) {
	parsed, err := decode([]byte(DefaultText), DefaultSource, nil)
	if err != nil {
		t.Fatalf("default.toml does not parse: %v", err)
	}
	if got, want := parsed, builtinDefault(); !reflect.DeepEqual(got, want) {
		t.Errorf("default.toml and builtinDefault differ:\n toml: %+v\n   go: %+v", got, want)
	}
	for _, r := range Rules {
		if _, ok := parsed.Rules[r.ID]; !ok {
			t.Errorf("default.toml [rules] does not list %s", r.ID)
		}
	}
}

func TestParseUnchangedDefaultIsDefault(t *testing.T) {
	p, err := Parse([]byte(DefaultText), "/repo/.swarm-guard.toml")
	if err != nil {
		t.Fatal(err)
	}
	if p.Source != "/repo/.swarm-guard.toml" {
		t.Errorf("Source = %q", p.Source)
	}
	p.Source = DefaultSource
	if !reflect.DeepEqual(p, Default()) {
		t.Error("parsing the default text gives something else than Default()")
	}
}

func TestValidPolicies(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "policy", "valid", "*.toml"))
	if len(files) == 0 {
		t.Fatal("no valid policies")
	}
	for _, f := range files {
		if _, err := LoadFile(f); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// Each invalid policy file starts with "# want: <substring of the error>".
// Errors must be one line that names the file, the line and the key.
func TestInvalidPolicies(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "policy", "invalid", "*.toml"))
	if len(files) < 10 {
		t.Fatalf("only %d invalid policies", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		first, _, _ := strings.Cut(string(data), "\n")
		want, ok := strings.CutPrefix(first, "# want: ")
		if !ok {
			t.Fatalf("%s: first line must be # want: ...", f)
		}
		_, err = LoadFile(f)
		if err == nil {
			t.Errorf("%s: no error, want %q", f, want)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, want) || !strings.HasPrefix(msg, f) || strings.Contains(msg, "\n") {
			t.Errorf("%s:\n got: %s\nwant: %s (prefixed by the file name, one line)", f, msg, want)
		}
	}
}

func TestOverridesKeepDefaults(t *testing.T) {
	p, err := Parse([]byte("[rules]\nforce-push = \"ask\"\n"), "x.toml")
	if err != nil {
		t.Fatal(err)
	}
	if p.RuleAction(RuleForcePush) != Ask || p.RuleAction(RuleProtectedBranch) != Deny {
		t.Errorf("rule actions: force-push %s, protected-branch %s", p.RuleAction(RuleForcePush), p.RuleAction(RuleProtectedBranch))
	}
	if !reflect.DeepEqual(p.ProtectedBranches, []string{"main", "master"}) {
		t.Errorf("protected branches lost their default: %q", p.ProtectedBranches)
	}
	if Default().RuleAction(RuleForcePush) != Deny {
		t.Error("parsing a policy changed the shared default")
	}
}

func TestIsProtectedBranch(t *testing.T) {
	p, err := Parse([]byte(`protected_branches = ["main", "release/*"]`), "x.toml")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"main": true, "refs/heads/main": true, "release/1.0": true, "release": false, "feature/main": false, "maint": false} {
		if got := p.IsProtectedBranch(name); got != want {
			t.Errorf("IsProtectedBranch(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestExpandPath(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"~/.ssh/**", "/home/u/.ssh/**"},
		{"{temp}/**", "/tmp/**"},
		{"**/.env", "**/.env"},
		{".gitleaks.toml", "/repo/.gitleaks.toml"},
		{"/abs/x", "/abs/x"},
	} {
		if got := ExpandPath(c.in, "/repo", "/home/u", "/tmp/"); got != c.want {
			t.Errorf("ExpandPath(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func BenchmarkParseDefaultText(b *testing.B) {
	for b.Loop() {
		if _, err := Parse([]byte(DefaultText), "x"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseEditedDefault(b *testing.B) {
	edited := []byte(strings.Replace(DefaultText, `dynamic_commands = "deny"`, `dynamic_commands = "ask"`, 1))
	for b.Loop() {
		if _, err := Parse(edited, "x"); err != nil {
			b.Fatal(err)
		}
	}
}

func TestStripComments(t *testing.T) {
	for in, want := range map[string]string{
		"a = 1 # c\n":                "a = 1\n",
		"# only\nb = 2\n":            "\nb = 2\n",
		`x = "a#b" # c` + "\n":       `x = "a#b"` + "\n",
		`y = 'c#d'`:                  `y = 'c#d'`,
		`z = "q\"#" # c` + "\n":      `z = "q\"#"` + "\n",
		"arr = [\n  \"x\", # one\n]": "arr = [\n  \"x\",\n]",
	} {
		if got := string(stripComments([]byte(in))); got != want {
			t.Errorf("stripComments(%q) = %q, want %q", in, got, want)
		}
	}
}

// A file with several problems reports all of them in one run, in file
// order, each in plain words; the one-line message a hook prints names the
// first and says how to list the rest.
func TestEveryProblemInFileOrder(t *testing.T) {
	data := `version = 1
dynamic_commands = "dny"
protected_branches = "main"
fail_mod = "closed"

[rules]
force-pusj = "deny"
destructive-git = "block"

[[allow]]
command = "make *"

[[allow]]
command = ""
rules = ["remote-code"]

[budget]
worker_tokens = "500k"
`
	_, err := Parse([]byte(data), "p.toml")
	if err == nil {
		t.Fatal("no error")
	}
	var got []string
	for _, e := range List(err) {
		got = append(got, e.Error())
	}
	// Shapes (a type error stops BurntSushi/toml) and values, in one run.
	valueProblems := []string{
		`p.toml:2: key "dynamic_commands": must be "deny", "ask", "warn", "log" or "allow", not "dny" (did you mean "deny"?)`,
		`p.toml:7: key "rules.force-pusj": unknown rule (did you mean "force-push"?); known rules are ` + strings.Join(ruleIDs(), ", ") + ` (dynamic commands are set by the top-level dynamic_commands key)`,
		`p.toml:8: key "rules.destructive-git": must be "deny", "ask", "warn", "log" or "off", not "block"`,
		`p.toml:14: key "allow[1].command": an [[allow]] entry needs a command glob`,
	}
	want := []string{
		valueProblems[0],
		`p.toml:3: key "protected_branches": expected a list of strings in brackets, like protected_branches = ["a", "b"], got the string "main"`,
		`p.toml:4: key "fail_mod": unknown key (did you mean "fail_mode"?); check the spelling against the policy reference, docs/policy.md, or delete it`,
		valueProblems[1], valueProblems[2], valueProblems[3],
		`p.toml:18: key "budget.worker_tokens": expected a whole number, like 3, got the string "500k"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("every problem:\n got: %q\nwant: %q", got, want)
	}
	if msg := err.Error(); !strings.HasPrefix(msg, want[0]) || !strings.HasSuffix(msg, "(and 6 more; swarm-guard policy check lists them all)") {
		t.Errorf("one-line message %q", msg)
	}

	// With the shapes fixed, the value problems are the ones left.
	data = strings.NewReplacer(`protected_branches = "main"`, `protected_branches = ["main"]`,
		`fail_mod =`, `fail_mode =`, `"500k"`, `500000`).Replace(data)
	_, err = Parse([]byte(data), "p.toml")
	got = nil
	for _, e := range List(err) {
		got = append(got, e.Error())
	}
	want = valueProblems
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("value problems:\n got: %q\nwant: %q", got, want)
	}
}

// The policy-wide mode shadows deny and ask rules, never guard-tamper nor
// the guard's own failures, and leaves rules set to off, warn or log alone.
func TestModeShadowsRules(t *testing.T) {
	p, err := Parse([]byte("mode = \"warn\"\n[rules]\nforce-push = \"ask\"\ndestructive-git = \"log\"\nremote-code = \"off\"\n"), "x.toml")
	if err != nil {
		t.Fatal(err)
	}
	for rule, want := range map[string]Action{
		RuleForcePush: Warn, RuleProtectedBranch: Warn, RuleDestructiveGit: Log, RuleRemoteCode: Off,
		RuleGuardTamper: Deny, RuleInternalError: Deny, RuleDynamicCommand: Warn,
	} {
		if got := p.RuleAction(rule); got != want {
			t.Errorf("mode warn: %s acts as %q, want %q", rule, got, want)
		}
	}
	if got := p.ConfiguredAction(RuleForcePush); got != Ask {
		t.Errorf("ConfiguredAction(force-push) = %q, want ask", got)
	}
	if got := Default().RuleAction(RuleForcePush); got != Deny {
		t.Errorf("default policy: force-push acts as %q, want deny", got)
	}
	p, err = Parse([]byte("[approvals]\nrules = [\"destructive-git\"]\nexpiry = \"30m\"\n"), "x.toml")
	if err != nil {
		t.Fatal(err)
	}
	if !p.Approvable(RuleDestructiveGit) || p.Approvable(RuleForcePush) || p.ApprovalExpiry().Minutes() != 30 || Default().ApprovalExpiry().Hours() != 1 {
		t.Errorf("approvals: %+v, expiry %v", p.Approvals, p.ApprovalExpiry())
	}
}
