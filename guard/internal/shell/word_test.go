package shell

import (
	"reflect"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

func parseWord(t *testing.T, src string) *syntax.Word {
	t.Helper()
	f, err := syntax.NewParser().Parse(strings.NewReader("x "+src), "")
	if err != nil {
		t.Fatal(err)
	}
	return f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1]
}

// TestBraceWords pins brace expansion to what bash prints (zero padding,
// steps, descending ranges, nesting), and its limit.
func TestBraceWords(t *testing.T) {
	cases := []struct {
		word string
		want []string
	}{
		{"out{01..03}.txt", []string{"out01.txt", "out02.txt", "out03.txt"}},
		{"{a,b{1,2}}", []string{"a", "b1", "b2"}},
		{"{9..1..4}", []string{"9", "5", "1"}},
		{"{c..a}", []string{"c", "b", "a"}},
		{"pre{x,}", []string{"prex", "pre"}},
	}
	for _, c := range cases {
		w := parseWord(t, c.word)
		if !HasBraces(w) {
			t.Errorf("%s: HasBraces false", c.word)
			continue
		}
		syntax.SplitBraces(w)
		var got []string
		for _, x := range BraceWords(w, MaxAlternatives) {
			got = append(got, x.Lit())
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %q, want %q", c.word, got, c.want)
		}
	}
	w := parseWord(t, "{1..100}")
	syntax.SplitBraces(w)
	if BraceWords(w, MaxAlternatives) != nil {
		t.Error("{1..100} is more than MaxAlternatives words: want nil (unknown)")
	}
}

// TestTrimPattern pins ${x#p} and friends to bash's pattern semantics.
func TestTrimPattern(t *testing.T) {
	cases := []struct {
		s, pat string
		op     syntax.ParExpOperator
		want   string
	}{
		{"x.git", "[!.]", syntax.RemSmallPrefix, ".git"},
		{"*.git", `\*`, syntax.RemSmallPrefix, ".git"},
		{"a/b/c", "*/", syntax.RemSmallPrefix, "b/c"},
		{"a/b/c", "*/", syntax.RemLargePrefix, "c"},
		{"f.tar.gz", ".*", syntax.RemSmallSuffix, "f.tar"},
		{"f.tar.gz", ".*", syntax.RemLargeSuffix, "f"},
		{"abc", "z", syntax.RemSmallPrefix, "abc"},
	}
	for _, c := range cases {
		rx, err := PatternRegexp(c.pat)
		if err != nil {
			t.Fatal(err)
		}
		if got := TrimPattern(c.s, rx, c.op); got != c.want {
			t.Errorf("%s %s %s: %q, want %q", c.s, c.op, c.pat, got, c.want)
		}
	}
}

func TestWordText(t *testing.T) {
	for _, c := range []struct {
		in, want string
		glob     bool
	}{
		{`a\ b`, "a b", false}, {`*.go`, "*.go", true}, {`\*.go`, "*.go", false}, {`[`, "[", false}, {`x[ab]`, "x[ab]", true},
	} {
		if got, glob := UnescapeUnquoted(c.in); got != c.want || glob != c.glob {
			t.Errorf("UnescapeUnquoted(%q) = %q %v, want %q %v", c.in, got, glob, c.want, c.glob)
		}
	}
	if got := UnescapeDouble(`a\"b\$c\d`); got != `a"b$c\d` {
		t.Errorf("UnescapeDouble: %q", got)
	}
	for src, want := range map[string]string{`'a b'c`: "a bc", `"x"y`: "xy", `$'\x41'`: "A", `$HOME/x`: "", `"$a"`: ""} {
		if got := WordLiteral(parseWord(t, src)); got != want {
			t.Errorf("WordLiteral(%s) = %q, want %q", src, got, want)
		}
	}
	dyn := Word{Text: "x", Dynamic: true, Tmpl: "x" + UnknownMark, Src: "x$y"}
	if dyn.Static() || dyn.Show() != "x$y" || dyn.Template() != "x\x00" {
		t.Errorf("dynamic word: static %v show %q template %q", dyn.Static(), dyn.Show(), dyn.Template())
	}
	if (Word{Dynamic: true}).Template() != UnknownMark {
		t.Error("an unknown word's template is one unknown mark")
	}
	if w := (Word{Text: "*.go", Glob: true}); w.Static() {
		t.Error("a pattern is not static")
	}
}

// TestState pins how conditional code changes what the walk knows: a
// weak clone adds values, never replaces them, and merging back unions
// directories and values.
func TestState(t *testing.T) {
	st := NewState("/w")
	st.Assign("x", []Word{{Text: "a"}})
	branch := st.Weak()
	branch.Assign("x", []Word{{Text: "b"}})
	branch.SetCwds([]string{"/w/sub"}, false)
	if got := texts(st.Vars["x"]); !reflect.DeepEqual(got, []string{"a"}) {
		t.Fatalf("the clone changed the original: %q", got)
	}
	st.Merge(branch)
	if got := texts(st.Vars["x"]); !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Errorf("after the branch x is %q, want a or b", got)
	}
	if !reflect.DeepEqual(st.Cwds, []string{"/w", "/w/sub"}) || st.CwdUnknown {
		t.Errorf("cwds %q unknown %v", st.Cwds, st.CwdUnknown)
	}
	fresh := NewState("/w").Weak()
	fresh.Assign("y", []Word{{Text: "v"}})
	if got := fresh.Vars["y"]; len(got) != 2 || !got[0].Dynamic {
		t.Errorf("a variable first set in conditional code may still be unset: %+v", got)
	}
	many := make([]string, 9)
	for i := range many {
		many[i] = "/d" + string(rune('a'+i))
	}
	st.SetCwds(many, false)
	if st.Cwds != nil || !st.CwdUnknown {
		t.Errorf("nine directories: %q unknown %v, want unknown", st.Cwds, st.CwdUnknown)
	}
	var lots []Word
	for i := 0; i <= MaxAlternatives; i++ {
		lots = append(lots, Word{Text: strings.Repeat("x", i+1)})
	}
	if u := UnionWords(nil, lots); len(u) != 1 || !u[0].Dynamic {
		t.Errorf("more than MaxAlternatives values: %d words", len(u))
	}
}

func TestInvocation(t *testing.T) {
	inv := &Invocation{Name: "rm", Argv: []Word{{Text: "rm"}, {Text: "-rf"}, {Dynamic: true, Src: `"$d"`}}, Via: []string{"command"}}
	if inv.Canon() != `rm -rf "$d"` {
		t.Errorf("Canon: %q", inv.Canon())
	}
	if got := texts(inv.Args()); !reflect.DeepEqual(got, []string{"-rf", `"$d"`}) {
		t.Errorf("Args: %q", got)
	}
	if !inv.InThisShell() || !inv.ViaBuiltin() {
		t.Error("through command: still this shell")
	}
	inv.Via = []string{"sudo", "command"}
	if inv.InThisShell() {
		t.Error("through sudo: another process")
	}
}
