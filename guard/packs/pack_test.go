package packs

import (
	"slices"
	"testing"

	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
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
		if c.PosDynamic(1) != (len(c.Positional) > 1 && c.Positional[1] == "" && len(tc.pos) > 1 && tc.pos[1] == "") {
			t.Errorf("%v: PosDynamic(1) = %v", tc.words, c.PosDynamic(1))
		}
		if len(c.Words) != len(tc.words) {
			t.Errorf("%v: %d words kept, want all %d", tc.words, len(c.Words), len(tc.words))
		}
	}
}

// TestBindSources: the containers pack names the host paths a container
// is given, as words, and leaves judging them to the rule: named volumes
// are not host paths, a source only known at run time stays dynamic.
func TestBindSources(t *testing.T) {
	lit := func(s string) shell.Word { return shell.Word{Text: s, Src: s} }
	words := func(ss ...string) []shell.Word {
		var out []shell.Word
		for _, s := range ss {
			out = append(out, lit(s))
		}
		return out
	}
	dynSrc := shell.Word{Dynamic: true, Tmpl: shell.UnknownMark + ":/h", Src: `"$X":/h`}
	cases := []struct {
		words []shell.Word
		want  []string // sources; "?" for a dynamic one
	}{
		{words("run", "-v", "/:/host", "alpine"), []string{"/"}},
		{words("run", "--volume=/srv:/srv:ro", "alpine"), []string{"/srv"}},
		{words("run", "-v./data:/data", "alpine"), []string{"./data"}},
		{words("run", "--mount", "type=bind,source=/etc,target=/etc", "alpine"), []string{"/etc"}},
		{words("run", "--mount=type=bind,src=.,dst=/src", "alpine"), []string{"."}},
		{words("run", "--mount", "type=volume,source=cache,target=/c", "alpine"), nil},
		{words("run", "-v", "cache:/root/.cache", "app"), nil},
		{words("compose", "run", "-v", "~/.aws:/root/.aws", "api"), []string{"~/.aws"}},
		{append(words("run", "-v"), dynSrc, lit("alpine")), []string{"?"}},
		{words("ps", "-v", "/:/x"), nil},
		{words("run", "alpine", "ls", "-v"), nil},
		{words("run", "--rm", "-e", "X=1", "alpine", "grep", "-v", "/:/x", "f"), nil},
		{words("run", "-p", "80:80", "--name", "web", "-v", "/:/h", "nginx"), []string{"/"}},
		{append(words("run"), shell.Word{Dynamic: true, Src: "$OPTS"}, lit("-v"), lit("/:/h"), lit("alpine")), []string{"/"}},
		{words("container", "run", "-v", "/srv:/srv", "alpine"), []string{"/srv"}},
	}
	for _, tc := range cases {
		var got []string
		for _, w := range bindSources(containers.NewCall("docker", tc.words)) {
			if w.Dynamic {
				got = append(got, "?")
			} else {
				got = append(got, w.Text)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("docker %v: sources %q, want %q", tc.words, got, tc.want)
		}
	}
}
