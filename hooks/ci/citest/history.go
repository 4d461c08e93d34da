package citest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/hooks/gitx"
)

// Mark names a commit inside a History before it has an id.
type Mark int

// Commit is one commit to build. Parents are marks of earlier commits;
// with none, the commit continues its branch (or starts it as a root).
type Commit struct {
	Message string
	Author  string // email; default agent@example.com
	Parents []Mark
	Files   map[string]string // path → new content
	Deleted []string
}

// History accumulates a fast-import stream.
type History struct {
	buf  bytes.Buffer
	next Mark
	time int64
}

// Commit adds a commit on branch and returns its mark.
func (h *History) Commit(branch string, c Commit) Mark {
	h.next++
	h.time += 60
	author := c.Author
	if author == "" {
		author = "agent@example.com"
	}
	b := &h.buf
	fmt.Fprintf(b, "commit refs/heads/%s\nmark :%d\n", branch, h.next)
	fmt.Fprintf(b, "author Test Agent <%s> %d +0000\n", author, 1767225600+h.time)
	fmt.Fprintf(b, "committer Test Agent <%s> %d +0000\n", author, 1767225600+h.time)
	fmt.Fprintf(b, "data %d\n%s\n", len(c.Message), c.Message)
	for i, p := range c.Parents {
		if i == 0 {
			fmt.Fprintf(b, "from :%d\n", p)
		} else {
			fmt.Fprintf(b, "merge :%d\n", p)
		}
	}
	paths := make([]string, 0, len(c.Files))
	for p := range c.Files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		fmt.Fprintf(b, "M 100644 inline %s\ndata %d\n%s\n", p, len(c.Files[p]), c.Files[p])
	}
	for _, p := range c.Deleted {
		fmt.Fprintf(b, "D %s\n", p)
	}
	b.WriteString("\n")
	return h.next
}

// Reset points branch at an existing commit (a remote-tracking ref, say:
// "refs/remotes/origin/main").
func (h *History) Reset(ref string, at Mark) {
	fmt.Fprintf(&h.buf, "reset %s\nfrom :%d\n\n", ref, at)
}

// Stream is the fast-import input built so far.
func (h *History) Stream() []byte { return h.buf.Bytes() }

// Repo is a repository built from a History.
type Repo struct {
	Dir string
	ids map[Mark]string
}

// ID is the commit id of a mark.
func (r *Repo) ID(m Mark) string { return r.ids[m] }

// Build creates a repository in dir from h, checks out branch (its files
// are in the worktree) and returns it with the commit id of every mark.
func Build(tb testing.TB, dir string, h *History, branch string) *Repo {
	tb.Helper()
	Git(tb, dir, "init", "-q", "-b", branch)
	marks := filepath.Join(dir, ".git", "citest-marks")
	fastImport := gitx.Runner{Dir: dir, Env: Env(), Stdin: bytes.NewReader(h.Stream())}
	if _, err := fastImport.Output("fast-import", "--quiet", "--export-marks="+marks); err != nil {
		tb.Fatalf("%v", err)
	}
	Git(tb, dir, "checkout", "-q", "-f", branch)
	data, err := os.ReadFile(marks)
	if err != nil {
		tb.Fatal(err)
	}
	r := &Repo{Dir: dir, ids: map[Mark]string{}}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var m Mark
		var id string
		if _, err := fmt.Sscanf(line, ":%d %s", &m, &id); err == nil {
			r.ids[m] = id
		}
	}
	return r
}

// Env is a hermetic environment for git: no system or global config.
func Env() []string {
	env := []string{"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=" + os.DevNull,
		"GIT_AUTHOR_NAME=Test Agent", "GIT_AUTHOR_EMAIL=agent@example.com",
		"GIT_COMMITTER_NAME=Test Agent", "GIT_COMMITTER_EMAIL=agent@example.com"}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	return env
}

// SetHermeticGitEnv makes every git the tests start, including the ones
// the code under test runs, ignore the machine's git configuration. Call
// it from TestMain.
func SetHermeticGitEnv() {
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "GIT_") {
			os.Unsetenv(k)
		}
	}
	for _, kv := range Env() {
		if k, v, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "GIT_") {
			os.Setenv(k, v)
		}
	}
}

// Git runs git in dir and returns its trimmed output.
func Git(tb testing.TB, dir string, args ...string) string {
	tb.Helper()
	out, err := gitx.Runner{Dir: dir, Env: Env()}.Output(args...)
	if err != nil {
		tb.Fatalf("%v", err)
	}
	return strings.TrimSpace(string(out))
}
