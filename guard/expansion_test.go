package guard

import (
	"os/exec"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
	"github.com/swarm-guard/swarm-guard/policy"
)

// TestExpansionMatchesBash compares the engine's static expansion of words
// with what real bash prints for them: brace sequences (zero padding,
// letters, steps), pattern removal with bash's pattern semantics ([!.],
// escaped and quoted metacharacters), and defaults and alternatives of set
// and unset variables. Each case is "assignments; WORD".
func TestExpansionMatchesBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not found")
	}
	cases := []string{
		`out{01..03}.txt`,
		`{a..e}`,
		`{9..1..2}`,
		`x{a,b}{1,2}`,
		`{1..3}-{x,y}`,
		`x=.git; ${x#[!.]}`,
		`x=.git; ${x#[.]}`,
		`x='*.git'; ${x#\*}`,
		`x='*.git'; ${x#'*'}`,
		`x='*.git'; "${x#"*"}"`,
		`x=abc.git; ${x#*.}`,
		`x=a/b/c.tar.gz; ${x##*/}`,
		`x=a/b/c.tar.gz; ${x%.*}`,
		`x=a/b/c.tar.gz; ${x%%.*}`,
		`x=a/b/c; ${x%/*}`,
		`p='[ab]'; x=bcd; ${x#$p}`,
		`unset V; ${V:-/tmp}/build`,
		`unset V; ${V-/tmp}/build`,
		`V=; ${V:-dflt}`,
		`V=set; ${V:+alt}`,
		`unset V; x${V:+alt}y`,
		`V=/srv; ${V:-/tmp}/data`,
	}
	eng := New(policy.Default())
	for _, c := range cases {
		script := c
		prefix, word := "", c
		if i := strings.LastIndex(c, "; "); i >= 0 {
			prefix, word = c[:i+2], c[i+2:]
		}
		out, err := exec.Command(bash, "-c", prefix+"printf '%s\\n' "+word).Output()
		if err != nil {
			t.Fatalf("bash %q: %v", script, err)
		}
		got := engineWords(t, eng, prefix, word)
		if strings.Join(got, "\n")+"\n" != string(out) {
			t.Errorf("%s\n\tbash:   %q\n\tengine: %q", c, strings.Split(strings.TrimSuffix(string(out), "\n"), "\n"), got)
		}
	}
}

// engineWords runs the assignments of prefix in the analyzer, then
// expands word as the arguments of a command.
func engineWords(t *testing.T, eng *Engine, prefix, word string) []string {
	t.Helper()
	a := eng.newAnalyzer(testEnv())
	st := a.initialState()
	if prefix != "" {
		a.x.Script(prefix, st, nil)
		if len(a.findings) > 0 && a.findings[0].rule == policy.RuleBadInput {
			t.Fatal(a.findings[0].reason)
		}
	}
	f, err := shell.Parse("printf " + word)
	if err != nil {
		t.Fatal(err)
	}
	ce := f.Stmts[0].Cmd.(*syntax.CallExpr)
	cands := a.x.ArgvCandidates(ce.Args[1:], st)
	if len(cands) != 1 {
		return []string{"<several alternatives>"}
	}
	var out []string
	for _, x := range cands[0] {
		if x.Dynamic {
			out = append(out, "<dynamic>")
			continue
		}
		out = append(out, x.Text)
	}
	return out
}
