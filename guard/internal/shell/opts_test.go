package shell

import (
	"reflect"
	"strings"
	"testing"
)

func words(s ...string) []Word {
	out := make([]Word, len(s))
	for i, x := range s {
		if x == "$X" {
			out[i] = Word{Dynamic: true, Src: x}
			continue
		}
		out[i] = Word{Text: x, Glob: HasGlobMeta(x), Src: x}
	}
	return out
}

func texts(ws []Word) []string {
	var out []string
	for _, w := range ws {
		if w.Dynamic {
			out = append(out, w.Show())
			continue
		}
		out = append(out, w.Text)
	}
	return out
}

func optNames(p Parsed) string {
	var b []string
	for _, o := range p.Opts {
		s := o.Name
		if o.HasValue {
			s += "=" + o.Value.Text
		}
		b = append(b, s)
	}
	return strings.Join(b, ",")
}

// TestParseOpts pins the normalized view of an argv: which words are
// options (with their values) and which are operands, for getopt-style
// short groups, long options, "--", POSIX stop and words only known at
// run time.
func TestParseOpts(t *testing.T) {
	tar := Spec{Short: "fC", Long: Longs("file", "directory")}
	cases := []struct {
		argv     string
		spec     Spec
		opts     string
		operands []string
		rest     []string
	}{
		{"-rf dir", Spec{}, "r,f", []string{"dir"}, nil},
		{"-xzf a.tgz -C out b", tar, "x,z,f=a.tgz,C=out", []string{"b"}, nil},
		{"-fa.tgz", tar, "f=a.tgz", nil, nil},
		{"--file=a.tgz --directory out x", tar, "file=a.tgz,directory=out", []string{"x"}, nil},
		{"--force -- -rf", Spec{}, "force", []string{"-rf"}, nil},
		{"- x", Spec{}, "", []string{"-", "x"}, nil},
		{"-n 5 rm -rf /", Spec{Short: "n", Stop: true}, "n=5", nil, []string{"rm", "-rf", "/"}},
		{"-i rm x", Spec{OptionalShort: "i", Stop: true}, "i", nil, []string{"rm", "x"}},
		{"-i{} rm {}", Spec{OptionalShort: "i", Stop: true}, "i={}", nil, []string{"rm", "{}"}},
		{"--backup x", Spec{OptionalLong: Longs("backup"), Long: Longs("backup")}, "backup", []string{"x"}, nil},
		{"$X file", Spec{}, "?", []string{"$X", "file"}, nil},
		{"-* file", Spec{}, "?", []string{"-*", "file"}, nil},
		{"-f", tar, "f", nil, nil}, // a value option at the end has no value
	}
	for _, c := range cases {
		p := ParseOpts(words(strings.Fields(c.argv)...), c.spec)
		if got := optNames(p); got != c.opts {
			t.Errorf("%q: options %q, want %q", c.argv, got, c.opts)
		}
		if got := texts(p.Operands); !reflect.DeepEqual(got, c.operands) {
			t.Errorf("%q: operands %q, want %q", c.argv, got, c.operands)
		}
		if got := texts(p.Rest); !reflect.DeepEqual(got, c.rest) {
			t.Errorf("%q: rest %q, want %q", c.argv, got, c.rest)
		}
	}
}

func TestParsedLookups(t *testing.T) {
	p := ParseOpts(words("-e", "one", "--expression=two", "-n", "file"), Spec{Short: "e", Long: Longs("expression")})
	if !p.Has("n") || p.Has("x") {
		t.Errorf("Has: n=%v x=%v", p.Has("n"), p.Has("x"))
	}
	if v, ok := p.Value("e", "expression"); !ok || v.Text != "two" {
		t.Errorf("Value takes the last: %q %v", v.Text, ok)
	}
	if got := texts(p.Values("e", "expression")); !reflect.DeepEqual(got, []string{"one", "two"}) {
		t.Errorf("Values: %q", got)
	}
	if p.DynamicOption() {
		t.Error("no dynamic option here")
	}
	if !ParseOpts(words("$X"), Spec{}).DynamicOption() {
		t.Error("$X in option position may be any option")
	}
	// HEAD:$b is unknown but starts with known text: an operand, never an option.
	head := Word{Text: "HEAD:", Dynamic: true, Tmpl: "HEAD:" + UnknownMark, Src: "HEAD:$b"}
	if p := ParseOpts([]Word{head}, Spec{}); p.DynamicOption() || len(p.Operands) != 1 {
		t.Errorf("HEAD:$b: options %q operands %d", optNames(p), len(p.Operands))
	}
}
