package guard

import (
	"testing"

	"github.com/swarm-guard/swarm-guard/policy"
)

// A program named by its path (/bin/rm, the peers' "absolute path" class)
// is judged by its name. When it is a compiled executable the engine does
// not read it as a shell script; a text file without #! still is, because
// the shell runs it.
func TestCompiledProgramIsNotAScript(t *testing.T) {
	world := fakeFiles{
		"/usr/bin/rm":            "\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x03\x00>\x00\x01\x00\x00\x00\n",
		"/usr/bin/ls":            "\xcf\xfa\xed\xfe\x07\x00\x00\x01\x03\x00\x00\x00",
		"/work/repo/tool":        "rm -rf ~\n",
		"/work/repo/late-nul.sh": "git push -f\n\x00\n",
	}
	eng := New(policy.Default())
	cases := []struct{ cmd, want, rule string }{
		{"/usr/bin/rm -rf build", "allow", ""},
		{"/usr/bin/rm -rf /etc/nginx", "deny", policy.RuleDeleteOutside},
		{"/usr/bin/ls -la", "allow", ""},
		{"./tool", "deny", policy.RuleDeleteOutside},
		{"./late-nul.sh", "deny", policy.RuleForcePush},
	}
	for _, c := range cases {
		env := testEnv()
		env.ReadFile = world.read
		d := eng.CheckCommand(c.cmd, env)
		got := string(d.Action)
		if got == "" {
			got = "allow"
		}
		if got != c.want || (c.rule != "" && d.Rule != c.rule) {
			t.Errorf("%q: got %s %s (%s), want %s %s", c.cmd, got, d.Rule, d.Reason, c.want, c.rule)
		}
	}
}

// In containers and CI the home directory often lies under /tmp. It is
// still the home: a glob or find below it is not a temp-dir cleanup.
func TestHomeUnderTempIsStillHome(t *testing.T) {
	eng := New(policy.Default())
	for _, c := range []struct{ cmd, want string }{
		{"find ~ -name '*.md' -delete", policy.RuleDeleteOutside},
		{"rm -rf ~/*", policy.RuleDeleteOutside},
		{"rm -rf ~/projects/*.log", policy.RuleDeleteOutside},
		{"rm -rf ~", policy.RuleDeleteOutside},
		{"rm -rf /tmp/ci/build-cache/*", "allow"},
		{"find /tmp/ci/build-cache -name '*.o' -delete", "allow"},
	} {
		env := testEnv()
		env.Home = "/tmp/ci/home"
		d := eng.CheckCommand(c.cmd, env)
		got := "allow"
		if d.Action != "" {
			got = d.Rule
		}
		if got != c.want {
			t.Errorf("%q with HOME under /tmp: got %s (%s), want %s", c.cmd, got, d.Reason, c.want)
		}
	}
}
