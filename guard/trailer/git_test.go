package trailer

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// gitRepo is a throwaway repository with no user or system configuration.
type gitRepo struct {
	t   *testing.T
	dir string
}

func newGitRepo(t *testing.T) *gitRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	r := &gitRepo{t: t, dir: t.TempDir()}
	r.git(nil, "init", "-q")
	return r
}

func (r *gitRepo) git(stdin []byte, args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+r.dir, "GIT_DIR=", "GIT_INDEX_FILE=")
	cmd.Env = cmd.Env[:len(cmd.Env)-2] // GIT_DIR= would be an error; the two are listed only to be dropped
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, errb.String())
	}
	return out.String()
}

// logValues commits each message verbatim (git fast-import, one process)
// and returns what git log reads as their Agent-Id trailers.
func (r *gitRepo) logValues(msgs []string) [][]string {
	r.t.Helper()
	var stream bytes.Buffer
	for i, m := range msgs {
		fmt.Fprintf(&stream, "commit refs/t/%d\nmark :%d\ncommitter T <t@example.com> 0 +0000\ndata %d\n%s\n", i, i+1, len(m), m)
	}
	marks := filepath.Join(r.dir, "marks")
	r.git(stream.Bytes(), "fast-import", "--quiet", "--export-marks="+marks)
	data, err := os.ReadFile(marks)
	if err != nil {
		r.t.Fatal(err)
	}
	sha := make([]string, len(msgs))
	var list bytes.Buffer
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var mark int
		var h string
		if _, err := fmt.Sscanf(line, ":%d %s", &mark, &h); err != nil {
			r.t.Fatalf("marks line %q: %v", line, err)
		}
		sha[mark-1] = h
		list.WriteString(h + "\n")
	}
	out := r.git(list.Bytes(), "log", "--no-walk=unsorted", "--stdin", "-z",
		"--format=%H%x1f%(trailers:key=Agent-Id,unfold,separator=%x1e,key_value_separator=%x1d)")
	byHash := map[string][]string{}
	for _, rec := range strings.Split(strings.TrimSuffix(out, "\x00"), "\x00") {
		h, trailers, _ := strings.Cut(rec, "\x1f")
		var vals []string
		if trailers != "" {
			for _, kv := range strings.Split(trailers, "\x1e") {
				_, v, _ := strings.Cut(kv, "\x1d")
				vals = append(vals, v)
			}
		}
		byHash[h] = vals
	}
	res := make([][]string, len(msgs))
	for i := range msgs {
		res[i] = byHash[sha[i]]
	}
	return res
}

var pieces = []string{
	"subject", "fix: thing", "Agent-Id: p", "agent-id: q", "AGENT-ID : r", "Agent-Id:", "Agent-Id: folded\n  more",
	"Signed-off-by: A <a@b>", "(cherry picked from commit 0123abcd)", "Co-authored-by: X <x@y>", "Key: v",
	"body text", "two\nlines", "---", "--- x", "# comment", ";semi", "Conflicts:\n\tf.go", "  indented",
	"\tAgent-Id: tab", "Agent Id: no", "https://example.com/x", "a: b: c", "Reviewed-by: r", "-: dash", "ü: x",
	"# ------------------------ >8 ------------------------", "Agent-Id: é", "x\r", "Agent-Id: cr\r",
}

var joins = []string{"\n", "\n\n", "\n\n\n", "\n \n", "\n# c\n", "\n\t\n"}

// messages returns the table's shapes plus random compositions.
func messages(n int) []string {
	var out []string
	for _, s := range shapes {
		out = append(out, s.msg)
	}
	rng := rand.New(rand.NewSource(4))
	for len(out) < n {
		var b strings.Builder
		parts := 1 + rng.Intn(6)
		for i := 0; i < parts; i++ {
			if i > 0 {
				b.WriteString(joins[rng.Intn(len(joins))])
			}
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		switch rng.Intn(4) {
		case 0: // no final newline
		case 1:
			b.WriteString("\n\n")
		default:
			b.WriteString("\n")
		}
		out = append(out, b.String())
	}
	return out
}

// TestMatchesGit checks Values against git log's %(trailers) on the same
// messages, and that every message Add changed carries the new trailer as
// git log reads it.
func TestMatchesGit(t *testing.T) {
	t.Parallel()
	r := newGitRepo(t)
	msgs := messages(1500)
	var all []string
	all = append(all, msgs...)
	added := make([]string, len(msgs))
	for i, m := range msgs {
		added[i] = Add(m, []Trailer{{"Agent-Id", fmt.Sprintf("added-%d", i)}}, Options{})
		all = append(all, added[i])
	}
	got := r.logValues(all)
	for i, m := range all {
		if mine := Values(m, "Agent-Id", Options{}); !reflect.DeepEqual(mine, got[i]) {
			t.Errorf("message %q: Values = %q, git log reads %q", m, mine, got[i])
		}
	}
	for i, m := range msgs {
		gitVals := got[len(msgs)+i]
		if HasContent(m, Options{}) && len(gitVals) == 0 {
			t.Errorf("Add(%q) = %q: git log reads no Agent-Id", m, added[i])
		}
		if added[i] != m && !contains(gitVals, fmt.Sprintf("added-%d", i)) {
			t.Errorf("Add(%q) = %q: git log reads %q, not the added value", m, added[i], gitVals)
		}
	}
}

// TestUncleanedMatchesCommittedMessage checks the hooks' reading of a
// message file (Options.Uncleaned) against git log's reading of the
// message git commits from it after `git stripspace --strip-comments`.
func TestUncleanedMatchesCommittedMessage(t *testing.T) {
	t.Parallel()
	r := newGitRepo(t)
	var msgs, cleaned, added []string
	o := Options{Uncleaned: true}
	for _, m := range messages(120) {
		if strings.Contains(m, ">8") {
			continue // commit's scissors mode, not stripspace, handles those
		}
		for _, v := range []string{m, "\n" + m, "# c\n\n" + m} {
			msgs = append(msgs, v)
			cleaned = append(cleaned, r.git([]byte(v), "stripspace", "--strip-comments"))
			a := Add(v, []Trailer{{"Agent-Id", fmt.Sprintf("added-%d", len(added))}}, o)
			added = append(added, r.git([]byte(a), "stripspace", "--strip-comments"))
		}
	}
	got := r.logValues(append(append([]string(nil), cleaned...), added...))
	for i, m := range msgs {
		if cleaned[i] == "" {
			continue
		}
		if mine := Values(m, "Agent-Id", o); !reflect.DeepEqual(mine, got[i]) {
			t.Errorf("message file %q: Values = %q, git log reads %q from the committed %q", m, mine, got[i], cleaned[i])
		}
		vals := got[len(msgs)+i]
		if mine := Values(m, "Agent-Id", o); len(mine) == 0 && !contains(vals, fmt.Sprintf("added-%d", i)) {
			t.Errorf("message file %q: after Add git log reads %q from the committed %q", m, vals, added[i])
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
