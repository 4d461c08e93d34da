package ci

import (
	"strconv"
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/hooks/identity"
)

// recorder is a historyVisitor that writes down what it is told.
type recorder struct {
	commits []*commit
	events  []string
}

func (r *recorder) commit(c *commit) {
	r.commits = append(r.commits, c)
	r.events = append(r.events, "commit "+c.Subject)
}
func (r *recorder) file(path string) { r.events = append(r.events, "file "+path) }
func (r *recorder) added(line int, text []byte) {
	r.events = append(r.events, "+"+strconv.Itoa(line)+" "+string(text))
}

const hash1 = "1111111111111111111111111111111111111111"
const hash2 = "2222222222222222222222222222222222222222"

func TestParseHistory(t *testing.T) {
	log := "\x00" + hash1 + "\x1f" + hash2 + "\x1fa@example.com\x1fAgent-Id\x1da\x1eagent-id\x1db\x1f\x1fsubject one\n" +
		"\n" +
		"diff --git a/x b/x\nindex 1..2 100644\n--- a/x\n+++ b/x\n" +
		"@@ -1,0 +2,3 @@ func context\n+one\n+++ b/not-a-header\n+three\n" +
		"@@ -9 +12 @@\n-removed\n+replaced\n\\ No newline at end of file\n" +
		"diff --git a/gone b/gone\ndeleted file mode 100644\n--- a/gone\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n" +
		"\x00" + hash2 + "\x1f" + hash1 + " " + hash2 + "\x1fm@example.com\x1f\x1fCommitted-By\x1dhuman\x1fmerge\n" +
		"\ndiff --cc \"odd\\303\\251\"\nindex 1,2..3\n--- a/odd\n+++ \"b/odd\\303\\251\"\n" +
		"@@@ -2,1 -2,1 +2,4 @@@\n++<<<<<<< HEAD\n +ours\n+ theirs\n- gone\n++>>>>>>> side\n"
	rec := &recorder{}
	if err := parseHistory(strings.NewReader(log), rec); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"commit subject one", "file x", "+2 one", "+3 ++ b/not-a-header", "+4 three", "+12 replaced",
		"file ", "commit merge", "file oddé", "+2 <<<<<<< HEAD", "+5 >>>>>>> side",
	}
	if strings.Join(rec.events, "\n") != strings.Join(want, "\n") {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(rec.events, "\n"), strings.Join(want, "\n"))
	}
	c := rec.commits[0]
	if c.Hash != hash1 || len(c.Parents) != 1 || c.AuthorEmail != "a@example.com" || strings.Join(c.AgentTrailers, ",") != "a,b" || c.isMerge() {
		t.Errorf("commit 1 = %+v", c)
	}
	if m := rec.commits[1]; !m.isMerge() || len(m.AgentTrailers) != 0 || strings.Join(m.HumanTrailers, ",") != "human" {
		t.Errorf("commit 2 = %+v", m)
	}
}

func TestParseHistoryLongLines(t *testing.T) {
	long := strings.Repeat("x", 3*maxLineBytes)
	log := "\x00" + hash1 + "\x1f\x1fa@example.com\x1f\x1f\x1f" + long + "\n" +
		"diff --git a/x b/x\n+++ b/x\n@@ -0,0 +1,2 @@\n+" + long + "\n+<<<<<<< after\n"
	rec := &recorder{}
	if err := parseHistory(strings.NewReader(log), rec); err != nil {
		t.Fatal(err)
	}
	if len(rec.commits) != 1 || rec.commits[0].Subject != long {
		t.Fatalf("a long subject must be read whole")
	}
	last := rec.events[len(rec.events)-1]
	if last != "+2 <<<<<<< after" {
		t.Errorf("the line after a long line: %q", last)
	}
	if n := len(rec.events[len(rec.events)-2]); n > maxLineBytes+10 {
		t.Errorf("a long patch line is kept whole (%d bytes), want it cut", n)
	}
}

func TestParseHistoryRejectsGarbage(t *testing.T) {
	for _, in := range []string{"diff --git a/x b/x\n", "\x00short\x1f\n", "\x00" + hash1 + "\x1f\x1f\x1f\x1f\x1fs\n@@ nonsense @@\n"} {
		if err := parseHistory(strings.NewReader(in), &recorder{}); err == nil {
			t.Errorf("parseHistory(%q): no error", in)
		}
	}
}

func TestParseHunkHeader(t *testing.T) {
	for _, tc := range []struct {
		in          string
		start, cols int
		ok          bool
	}{
		{"@@ -1,2 +3,4 @@", 3, 1, true},
		{"@@ -1 +7 @@ func f() {", 7, 1, true},
		{"@@ -0,0 +1 @@", 1, 1, true},
		{"@@@ -2,1 -2,1 +2,5 @@@", 2, 2, true},
		{"@@@@ -1 -1 -1 +9,2 @@@@", 9, 3, true},
		{"@@ -1 @@ +5", 0, 0, false},
		{"@ -1 +1 @", 0, 0, false},
	} {
		start, cols, ok := parseHunkHeader([]byte(tc.in))
		if start != tc.start || cols != tc.cols || ok != tc.ok {
			t.Errorf("parseHunkHeader(%q) = %d, %d, %v; want %d, %d, %v", tc.in, start, cols, ok, tc.start, tc.cols, tc.ok)
		}
	}
}

func TestConflictMarker(t *testing.T) {
	for in, want := range map[string]byte{
		"<<<<<<< HEAD": '<', "<<<<<<<": '<', "=======": '=', "======= ": '=', ">>>>>>> branch": '>', "||||||| base": '|',
		"<<<<<<<<": 0, "========": 0, "<<<<<<": 0, "<<<<<<<x": 0, " <<<<<<< HEAD": 0, "": 0, "+++++++ x": 0, "=======\r": '=',
	} {
		if got := conflictMarker([]byte(in)); got != want {
			t.Errorf("conflictMarker(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFileMarkersNeedsAnOpeningOrClosingMarker(t *testing.T) {
	var underline fileMarkers
	underline.add(2, []byte("======="))
	if underline.found() {
		t.Error("a lone ======= (a Markdown underline) is not a conflict")
	}
	var conflict fileMarkers
	for i, l := range []string{"x", "<<<<<<< a", "y", "=======", "z", ">>>>>>> b"} {
		conflict.add(10+i, []byte(l))
	}
	if !conflict.found() || conflict.first != 11 || conflict.count != 3 {
		t.Errorf("conflict = %+v", conflict)
	}
}

func TestTrailerProblem(t *testing.T) {
	for _, tc := range []struct {
		values []string
		want   string
	}{
		{[]string{"agent-1"}, ""},
		{nil, "no Agent-Id trailer"},
		{[]string{""}, "the Agent-Id trailer is empty"},
		{[]string{"-leading-dash"}, `malformed Agent-Id trailer "-leading-dash"`},
		{[]string{strings.Repeat("a", 129)}, "malformed Agent-Id trailer"},
		{[]string{"a", "a"}, `2 Agent-Id trailers ("a", "a"); exactly one is allowed`},
	} {
		got := trailerProblem(tc.values, "Agent-Id", identity.Valid)
		if (tc.want == "") != (got == "") || !strings.HasPrefix(got, tc.want) {
			t.Errorf("trailerProblem(%q) = %q, want %q", tc.values, got, tc.want)
		}
	}
	token := "ghp_" + strings.Repeat("Ab1", 12)
	if got := trailerProblem([]string{"x " + token}, "Agent-Id", identity.Valid); strings.Contains(got, token) {
		t.Errorf("a token in a malformed trailer must be redacted: %q", got)
	}
}

func TestMatchAuthor(t *testing.T) {
	globs := []string{"*[bot]@users.noreply.github.com", "release-?@example.com", "ci@*"}
	for email, want := range map[string]bool{
		"49699333+dependabot[bot]@users.noreply.github.com": true,
		"29139614+Renovate[Bot]@users.noreply.github.com":   true,
		"b@users.noreply.github.com":                        false,
		"release-1@example.com":                             true,
		"release-12@example.com":                            false,
		"CI@anything":                                       true,
		"someone@example.com":                               false,
	} {
		if got := matchAuthor(globs, email); got != want {
			t.Errorf("matchAuthor(%q) = %v, want %v", email, got, want)
		}
	}
	if matchAuthor(nil, "a@b") {
		t.Error("no globs must match nothing")
	}
}
