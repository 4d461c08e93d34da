package trailer

import (
	"reflect"
	"strings"
	"testing"
)

// shapes are commit messages with the Agent-Id values git log reads from
// them (TestMatchesGit checks the table against git itself).
var shapes = []struct {
	name string
	msg  string
	want []string
}{
	{"subject only", "subject\n", nil},
	{"empty", "", nil},
	{"subject-only trailer is the subject", "Agent-Id: x\n", nil},
	{"simple", "subject\n\nAgent-Id: a\n", []string{"a"}},
	{"no final newline", "subject\n\nAgent-Id: a", []string{"a"}},
	{"merge message without newline", "Merge branch 'side'", nil},
	{"body then trailers", "subject\n\nbody\n\nAgent-Id: a\nCo-authored-by: X <x@y>\n", []string{"a"}},
	{"lower-case key", "subject\n\nagent-id: lower\n", []string{"lower"}},
	{"space before colon", "subject\n\nAgent-Id : spaced\n", []string{"spaced"}},
	{"value whitespace trimmed", "subject\n\nAgent-Id:    padded   \n", []string{"padded"}},
	{"folded", "subject\n\nAgent-Id: one\n  two\n\tthree\n", []string{"one two three"}},
	{"two values", "subject\n\nAgent-Id: a\nAgent-Id: b\n", []string{"a", "b"}},
	{"in the body paragraph is no trailer", "subject\n\nbody text\nAgent-Id: a\n", nil},
	{"25% with Signed-off-by", "subject\n\nsome text\nmore\nAgent-Id: a\nSigned-off-by: A <a@b>\n", []string{"a"}},
	{"under 25% with Signed-off-by", "subject\n\nt1\nt2\nt3\nt4\nt5\nt6\nt7\nAgent-Id: a\nSigned-off-by: A <a@b>\n", nil},
	{"cherry-picked note counts", "subject\n\nnote\nAgent-Id: a\n(cherry picked from commit 0123456789abcdef)\n", []string{"a"}},
	{"not the last paragraph", "subject\n\nAgent-Id: a\n\nlast words\n", nil},
	{"trailing blank lines", "subject\n\nAgent-Id: a\n\n\n", []string{"a"}},
	{"comment lines after", "subject\n\nAgent-Id: a\n# Please enter the commit message\n#\n", []string{"a"}},
	{"comment inside block", "subject\n\nAgent-Id: a\n# note\nCo-authored-by: b\n", []string{"a"}},
	{"divider is not honoured", "subject\n\nbody\n---\n\nAgent-Id: a\n", []string{"a"}},
	{"divider line in the block", "subject\n\n--- x\nAgent-Id: a\n", nil},
	{"scissors cut", "subject\n\nbody\n# ------------------------ >8 ------------------------\n\nAgent-Id: a\n", nil},
	{"trailer above scissors", "subject\n\nAgent-Id: a\n# ------------------------ >8 ------------------------\ndiff --git a/x b/x\n", []string{"a"}},
	{"conflicts block", "subject\n\nAgent-Id: a\n\nConflicts:\n\tfile.go\n", []string{"a"}},
	{"empty value", "subject\n\nAgent-Id:\n", []string{""}},
	{"key with a space is no key", "subject\n\nAgent Id: a\n", nil},
	{"indented first line", "subject\n\n  Agent-Id: a\n", nil},
	{"crlf", "subject\r\n\r\nAgent-Id: a\r\n", []string{"a"}},
	{"whitespace-only separator line", "subject\n   \nAgent-Id: a\n", []string{"a"}},
	{"leading blank lines are skipped, as git log does", "\n \nAgent-Id: a\n", nil},
	{"unicode value", "subject\n\nAgent-Id: ağent\n", []string{"ağent"}},
	{"colon in value", "subject\n\nAgent-Id: a:b\n", []string{"a:b"}},
	{"url-like line is a trailer", "subject\n\nhttps://example.com\n", nil},
}

func TestValuesTable(t *testing.T) {
	for _, s := range shapes {
		if got := Values(s.msg, "Agent-Id", Options{}); !reflect.DeepEqual(got, s.want) {
			t.Errorf("%s: Values(%q) = %q, want %q", s.name, s.msg, got, s.want)
		}
	}
}

func TestAdd(t *testing.T) {
	a := []Trailer{{"Agent-Id", "me"}}
	tests := []struct {
		name, msg string
		add       []Trailer
		o         Options
		want      string
	}{
		{"subject", "subject\n", a, Options{}, "subject\n\nAgent-Id: me\n"},
		{"no final newline", "Merge branch 'side'", a, Options{}, "Merge branch 'side'\n\nAgent-Id: me\n"},
		{"after the block", "s\n\nbody\n\nSigned-off-by: A <a@b>\n", a, Options{}, "s\n\nbody\n\nSigned-off-by: A <a@b>\nAgent-Id: me\n"},
		{"block without final newline", "s\n\nCo-authored-by: b", a, Options{}, "s\n\nCo-authored-by: b\nAgent-Id: me\n"},
		{"existing kept", "s\n\nAgent-Id: other\n", a, Options{}, "s\n\nAgent-Id: other\n"},
		{"existing in other case kept", "s\n\nAGENT-ID: other\n", a, Options{}, "s\n\nAGENT-ID: other\n"},
		{"body mention is not a trailer", "s\n\nsee\nAgent-Id: old\n", a, Options{}, "s\n\nsee\nAgent-Id: old\n\nAgent-Id: me\n"},
		{"before comments", "s\n\n# Please enter\n# lines\n", a, Options{}, "s\n\nAgent-Id: me\n\n# Please enter\n# lines\n"},
		{"before comments, no blank", "s\n# Please enter\n", a, Options{}, "s\n\nAgent-Id: me\n# Please enter\n"},
		{"before scissors", "s\n# ------------------------ >8 ------------------------\ndiff\n", a, Options{}, "s\n\nAgent-Id: me\n# ------------------------ >8 ------------------------\ndiff\n"},
		{"two at once", "s\n", []Trailer{{"Agent-Id", "me"}, {"Agent-Session", "s1"}}, Options{}, "s\n\nAgent-Id: me\nAgent-Session: s1\n"},
		{"only the missing one", "s\n\nAgent-Id: x\n", []Trailer{{"Agent-Id", "me"}, {"Agent-Session", "s1"}}, Options{}, "s\n\nAgent-Id: x\nAgent-Session: s1\n"},
		{"duplicates in the request", "s\n", []Trailer{{"Agent-Id", "me"}, {"agent-id", "again"}}, Options{}, "s\n\nAgent-Id: me\n"},
		{"empty message unchanged", "", a, Options{}, ""},
		{"comments only unchanged", "\n# Please enter the commit message\n", a, Options{}, "\n# Please enter the commit message\n"},
		{"blank lines only unchanged", "\n\n", a, Options{}, "\n\n"},
		{"custom comment char", "s\n\n; comment\n", a, Options{CommentChar: ';'}, "s\n\nAgent-Id: me\n\n; comment\n"},
		{"conventional subject after a blank line", "\nfix: x\n# c\n", a, Options{Uncleaned: true}, "\nfix: x\n\nAgent-Id: me\n# c\n"},
		{"comment inside the block of a message file", "s\n\nA: b\n# c\n  folded\n# d\n", a, Options{Uncleaned: true}, "s\n\nA: b\n# c\n  folded\nAgent-Id: me\n# d\n"},
		{"trailing whitespace of a message file", "s\n\nA: b  \n", a, Options{Uncleaned: true}, "s\n\nA: b  \nAgent-Id: me\n"},
		{"divider honoured when asked", "s\n\nbody\n--- \npatch\n", a, Options{Divider: true}, "s\n\nbody\n\nAgent-Id: me\n--- \npatch\n"},
	}
	for _, tt := range tests {
		got := Add(tt.msg, tt.add, tt.o)
		if got != tt.want {
			t.Errorf("%s: Add(%q) =\n%q, want\n%q", tt.name, tt.msg, got, tt.want)
		}
		if again := Add(got, tt.add, tt.o); again != got {
			t.Errorf("%s: adding twice gave %q, once %q", tt.name, again, got)
		}
	}
}

func TestUncleanedSkipsLeadingLines(t *testing.T) {
	msg := "\n# comment\n\nfeat: thing\n\nAgent-Id: a\n"
	if got := Values(msg, "agent-id", Options{Uncleaned: true}); !reflect.DeepEqual(got, []string{"a"}) {
		t.Fatalf("got %q", got)
	}
	if got := Values("\nfeat: thing\n", "feat", Options{Uncleaned: true}); got != nil {
		t.Fatalf("the subject was read as a trailer: %q", got)
	}
	if HasContent("\n# a\n\n#b\n", Options{}) || !HasContent("# a\nx", Options{}) {
		t.Fatal("HasContent is wrong")
	}
}

func TestRecognized(t *testing.T) {
	msg := "s\n\ntext\nmore\nReviewed-by: r\n"
	if got := Values(msg, "Reviewed-by", Options{}); got != nil {
		t.Fatalf("without configuration: %q", got)
	}
	if got := Values(msg, "Reviewed-by", Options{Recognized: []string{"reviewed-by"}}); !reflect.DeepEqual(got, []string{"r"}) {
		t.Fatalf("with configuration: %q", got)
	}
}

func FuzzAdd(f *testing.F) {
	for _, s := range shapes {
		f.Add(s.msg, "me", false)
	}
	f.Add("\nfix: x\n", "me", true)
	f.Fuzz(func(t *testing.T, msg, id string, uncleaned bool) {
		if strings.ContainsAny(id, "\n\r") || trimSpace(id) != id {
			id = "me"
		}
		o := Options{Uncleaned: uncleaned}
		add := []Trailer{{"Agent-Id", id}}
		once := Add(msg, add, o)
		if twice := Add(once, add, o); twice != once {
			t.Fatalf("not idempotent:\nmsg   %q\nonce  %q\ntwice %q", msg, once, twice)
		}
		if !strings.HasPrefix(once, msg[:Parse(msg, o).End]) {
			t.Fatalf("Add changed the text before the insertion point: %q -> %q", msg, once)
		}
		if HasContent(msg, o) && len(Values(once, "agent-id", o)) == 0 {
			t.Fatalf("Add(%q) = %q has no Agent-Id trailer", msg, once)
		}
		Parse(msg, Options{Divider: true, CommentChar: ';', Separators: ":=", Recognized: []string{"a"}})
	})
}
