package packs

import (
	"slices"
	"testing"

	"github.com/swarm-guard/swarm-guard/guard/shell"
)

// TestNewCallKeepsWords: a Call keeps the shell core's words, so a word
// only known at run time stays marked where it is (an option's value, an
// operand) and is never read as text.
func TestNewCallKeepsWords(t *testing.T) {
	lit := func(s string) shell.Word { return shell.Word{Text: s, Src: s} }
	dyn := shell.Word{Text: "", Dynamic: true, Src: "$(docker ps -aq)"}
	glob := shell.Word{Text: "web-*", Glob: true, Src: "web-*"}
	cases := []struct {
		words        []shell.Word
		args, pos    []string
		dynamic      bool
		skip         int
		dynamicAfter bool
	}{
		{[]shell.Word{lit("rm"), lit("-f"), dyn}, []string{"rm", "-f", ""}, []string{"rm"}, true, 1, true},
		{[]shell.Word{lit("--context"), dyn, lit("rm"), lit("web")}, []string{"--context", "", "rm", "web"}, []string{"rm", "web"}, true, 1, false},
		{[]shell.Word{lit("rm"), glob}, []string{"rm", ""}, []string{"rm", ""}, true, 1, true},
		{[]shell.Word{lit("rm"), lit("--"), lit("-x")}, []string{"rm", "--", "-x"}, []string{"rm", "-x"}, false, 1, false},
		{[]shell.Word{lit("rm")}, []string{"rm"}, []string{"rm"}, false, 2, false},
	}
	for _, tc := range cases {
		c := containers.NewCall("docker", tc.words)
		if !slices.Equal(c.Args, tc.args) || !slices.Equal(c.Positional, tc.pos) || c.Dynamic != tc.dynamic {
			t.Errorf("%v: args %q positional %q dynamic %v, want %q %q %v", tc.words, c.Args, c.Positional, c.Dynamic, tc.args, tc.pos, tc.dynamic)
		}
		if got := c.DynamicAfter(tc.skip); got != tc.dynamicAfter {
			t.Errorf("%v: DynamicAfter(%d) = %v, want %v", tc.words, tc.skip, got, tc.dynamicAfter)
		}
		if len(c.Words) != len(tc.words) {
			t.Errorf("%v: %d words kept, want all %d", tc.words, len(c.Words), len(tc.words))
		}
	}
}
