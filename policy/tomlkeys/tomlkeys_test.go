package tomlkeys

import "testing"

func TestFind(t *testing.T) {
	policyFile := `# a policy
protected_branches = ["main"]

[rules]
force-push = "ask"
"guard-tamper" = "deny"

[[allow]]
command = "x"

[[allow]]
command = "y"
rules = ["force-push"]
`
	gitleaks := `[extend]
useDefault = true

[[rules]]
id = "one"
regex = '''a'''

[[rules]]
id = "two"
regex = '''b'''
  [[rules.allowlists]]
  regexes = ['''c''']
  [[rules.allowlists]]
  RegexTarget = "line"
  regexes = ['''d''']

[[allowlists]]
paths = ['''e''']
`
	cases := []struct {
		data, key string
		fold      bool
		want      int
	}{
		{policyFile, "protected_branches", false, 2},
		{policyFile, "protected_branches[0]", false, 2},
		{policyFile, "rules", false, 4},
		{policyFile, "rules.force-push", false, 5},
		{policyFile, "rules.guard-tamper", false, 6},
		{policyFile, "rules.unknown", false, 4}, // its table
		{policyFile, "allow[0].command", false, 9},
		{policyFile, "allow[1].command", false, 12},
		{policyFile, "allow[1].rules[0]", false, 13},
		{policyFile, "allow[1].nope", false, 11}, // its entry's header
		{policyFile, "nothing", false, 0},
		{gitleaks, "extend.useDefault", false, 2},
		{gitleaks, "extend.path", false, 1},
		{gitleaks, "rules[0].regex", false, 6},
		{gitleaks, "rules[1].regex", false, 10},
		{gitleaks, "rules[1].allowlists[0].regexes[0]", false, 12},
		{gitleaks, "rules[1].allowlists[1].regexes[0]", false, 15},
		{gitleaks, "rules[1].allowlists[1].regexTarget", false, 13}, // the entry: the key is spelled RegexTarget
		{gitleaks, "rules[1].allowlists[1].regexTarget", true, 14},
		{gitleaks, "rules.allowlists[1].regexes", false, 15}, // counted over the file
		{gitleaks, "allowlists[0].paths[0]", false, 18},
		{gitleaks, "rules.regexx", false, 4},
	}
	for _, c := range cases {
		lines := Index([]byte(c.data))
		got := lines.Find(c.key)
		if c.fold {
			got = lines.FindFold(c.key)
		}
		if got != c.want {
			t.Errorf("Find(%q) (fold %v) = %d, want %d", c.key, c.fold, got, c.want)
		}
	}
}
