package ci_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/hooks/ci"
	"github.com/swarm-guard/swarm-guard/hooks/ci/citest"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/fakesecret"
	"github.com/swarm-guard/swarm-guard/policy"
)

func TestMain(m *testing.M) {
	citest.SetHermeticGitEnv()
	if _, err := exec.LookPath("git"); err != nil {
		os.Stdout.WriteString("skipping hooks/ci tests: git is not installed\n")
		os.Exit(0)
	}
	os.Exit(m.Run())
}

const readme = "# project\n"

// pr builds main with one base commit (also origin/main) and a feature
// branch of the given commits on top, checked out.
func pr(t *testing.T, commits ...citest.Commit) (*citest.Repo, []citest.Mark) {
	t.Helper()
	h := &citest.History{}
	base := h.Commit("main", citest.Commit{Message: "base\n\nAgent-Id: human\n", Files: map[string]string{"README.md": readme}})
	h.Reset("refs/remotes/origin/main", base)
	marks := []citest.Mark{base}
	for i, c := range commits {
		if i == 0 && len(c.Parents) == 0 {
			c.Parents = []citest.Mark{base}
		}
		marks = append(marks, h.Commit("feature", c))
	}
	return citest.Build(t, t.TempDir(), h, "feature"), marks
}

func verify(t *testing.T, o ci.Options) *ci.Report {
	t.Helper()
	if o.MinAgents == 0 {
		o.MinAgents = -1
	}
	rep, err := ci.Verify(context.Background(), o)
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	return rep
}

func msg(body, trailers string) string { return body + "\n\n" + trailers + "\n" }

func kinds(rep *ci.Report) []string {
	var out []string
	for _, v := range rep.Violations {
		out = append(out, string(v.Kind)+": "+v.Message)
	}
	return out
}

func TestVerifyPassingRange(t *testing.T) {
	t.Parallel()
	repo, _ := pr(t,
		citest.Commit{Message: msg("add a", "Agent-Id: agent-a"), Files: map[string]string{"a.go": "package a\n"}},
		citest.Commit{Message: msg("add b", "Co-authored-by: x <x@example.com>\nAgent-Id: agent-b@host/1"), Files: map[string]string{"b.go": "package b\n"}},
	)
	scanner := &citest.PatternScanner{}
	rep := verify(t, ci.Options{Dir: repo.Dir, Scanner: scanner})
	if !rep.Passed() || rep.Commits != 2 {
		t.Fatalf("want a pass over 2 commits, got %d commits, violations %q", rep.Commits, kinds(rep))
	}
	if got := strings.Join(rep.Agents, ","); got != "agent-a,agent-b@host/1" {
		t.Errorf("agents = %q", got)
	}
	if len(scanner.Ranges) != 1 || scanner.Ranges[0] != rep.Range {
		t.Errorf("scanner ranges = %+v, want exactly the verified range %+v", scanner.Ranges, rep.Range)
	}
	if !strings.Contains(rep.Range.How, "origin/main") {
		t.Errorf("range how = %q, want it to name origin/main", rep.Range.How)
	}
	if rep.Policy != policy.DefaultSource {
		t.Errorf("policy = %q, want the default", rep.Policy)
	}
}

func TestVerifyTrailerProblems(t *testing.T) {
	t.Parallel()
	repo, m := pr(t,
		citest.Commit{Message: msg("ok", "Agent-Id: agent-a")},
		citest.Commit{Message: "no trailer at all\n"},
		citest.Commit{Message: msg("malformed", "Agent-Id: not an id!")},
		citest.Commit{Message: msg("two", "Agent-Id: agent-a\nAgent-Id: agent-b")},
		citest.Commit{Message: "in the body\n\nAgent-Id: agent-a\nthis paragraph is prose, not a trailer block\nand more prose\n"},
		citest.Commit{Message: msg("empty", "Agent-Id:")},
		citest.Commit{Message: msg("lower-case key", "agent-id: agent-c")},
	)
	rep := verify(t, ci.Options{Dir: repo.Dir})
	want := []struct {
		mark citest.Mark
		text string
	}{
		{m[2], "no Agent-Id trailer"},
		{m[3], `malformed Agent-Id trailer "not an id!"`},
		{m[4], `2 Agent-Id trailers ("agent-a", "agent-b"); exactly one is allowed`},
		{m[5], "no Agent-Id trailer"},
		{m[6], "the Agent-Id trailer is empty"},
	}
	if len(rep.Violations) != len(want) {
		t.Fatalf("violations = %q, want %d", kinds(rep), len(want))
	}
	for i, w := range want {
		v := rep.Violations[i]
		if v.Kind != ci.KindTrailer || v.Commit != repo.ID(w.mark) || !strings.HasPrefix(v.Message, w.text) {
			t.Errorf("violation %d = %s %s %q, want trailer on %s: %q", i, v.Kind, v.Commit, v.Message, repo.ID(w.mark), w.text)
		}
	}
	if got := strings.Join(rep.Agents, ","); got != "agent-a,agent-b,agent-c" {
		t.Errorf("agents = %q", got)
	}
}

func TestVerifySecretAddedAndRemovedIsStillAFinding(t *testing.T) {
	t.Parallel()
	key := fakesecret.AWSAccessKeyID().Value
	repo, m := pr(t,
		citest.Commit{Message: msg("one", "Agent-Id: a"), Files: map[string]string{"app.go": "package app\n"}},
		citest.Commit{Message: msg("add config", "Agent-Id: a"), Files: map[string]string{"config.env": "region=eu\naws_key=" + key + "\n"}},
		citest.Commit{Message: msg("remove config", "Agent-Id: a"), Deleted: []string{"config.env"}},
	)
	rep := verify(t, ci.Options{Dir: repo.Dir, Scanner: &citest.PatternScanner{}})
	if len(rep.Violations) != 1 {
		t.Fatalf("violations = %q, want the one secret", kinds(rep))
	}
	v := rep.Violations[0]
	if v.Kind != ci.KindSecret || v.Commit != repo.ID(m[2]) || v.File != "config.env" || v.Line != 2 || v.Rule != "aws-access-token" {
		t.Errorf("violation = %+v, want the secret at config.env:2 in %s", v, repo.ID(m[2]))
	}
	if v.Subject != "add config" {
		t.Errorf("subject = %q", v.Subject)
	}
	for _, s := range []string{v.Message, v.Preview} {
		if strings.Contains(s, key) {
			t.Fatalf("the secret leaked into the report: %q", s)
		}
	}
}

func TestVerifyScannerFailureIsAnError(t *testing.T) {
	t.Parallel()
	repo, _ := pr(t, citest.Commit{Message: msg("one", "Agent-Id: a")})
	_, err := ci.Verify(context.Background(), ci.Options{Dir: repo.Dir, MinAgents: -1, Scanner: &citest.PatternScanner{Err: errors.New("scanner exploded")}})
	if err == nil || !strings.Contains(err.Error(), "scanner exploded") {
		t.Fatalf("err = %v, want the scanner's error", err)
	}
}

func TestVerifyMergeCommits(t *testing.T) {
	t.Parallel()
	h := &citest.History{}
	base := h.Commit("main", citest.Commit{Message: msg("base", "Agent-Id: a"), Files: map[string]string{"README.md": readme}})
	h.Reset("refs/remotes/origin/main", base)
	side := h.Commit("side", citest.Commit{Message: msg("side", "Agent-Id: b"), Parents: []citest.Mark{base}, Files: map[string]string{"s.go": "package s\n"}})
	f1 := h.Commit("feature", citest.Commit{Message: msg("feature", "Agent-Id: a"), Parents: []citest.Mark{base}, Files: map[string]string{"f.go": "package f\n"}})
	merge := h.Commit("feature", citest.Commit{Message: "Merge branch 'side'\n", Parents: []citest.Mark{f1, side},
		Files: map[string]string{"s.go": "package s\n"}})
	repo := citest.Build(t, t.TempDir(), h, "feature")

	rep := verify(t, ci.Options{Dir: repo.Dir})
	if !rep.Passed() || rep.ExemptMerges != 1 || rep.Commits != 3 {
		t.Fatalf("exempt merges: passed=%v exempt=%d commits=%d violations=%q", rep.Passed(), rep.ExemptMerges, rep.Commits, kinds(rep))
	}

	pol := policy.Default().Clone()
	pol.Verify.ExemptMerges = false
	rep = verify(t, ci.Options{Dir: repo.Dir, Policy: pol})
	if len(rep.Violations) != 1 || rep.Violations[0].Commit != repo.ID(merge) || rep.Violations[0].Kind != ci.KindTrailer {
		t.Fatalf("merges not exempt: violations = %q, want the merge's missing trailer", kinds(rep))
	}
}

func TestVerifyConflictMarkers(t *testing.T) {
	t.Parallel()
	conflicted := "package x\n<<<<<<< HEAD\nconst a = 1\n=======\nconst a = 2\n>>>>>>> side\n"
	repo, m := pr(t,
		citest.Commit{Message: msg("markers", "Agent-Id: a"), Files: map[string]string{"x.go": conflicted}},
		citest.Commit{Message: msg("docs", "Agent-Id: a"), Files: map[string]string{"doc.md": "Title\n=======\n\ntext\n"}},
		citest.Commit{Message: msg("fix", "Agent-Id: a"), Files: map[string]string{"x.go": "package x\nconst a = 2\n"}},
	)
	rep := verify(t, ci.Options{Dir: repo.Dir})
	if len(rep.Violations) != 1 {
		t.Fatalf("violations = %q, want one conflict-marker violation", kinds(rep))
	}
	v := rep.Violations[0]
	if v.Kind != ci.KindConflict || v.Commit != repo.ID(m[1]) || v.File != "x.go" || v.Line != 2 || !strings.Contains(v.Message, "3 unresolved") {
		t.Errorf("violation = %+v", v)
	}

	pol := policy.Default().Clone()
	pol.Secrets.ConflictMarkers = false
	rep = verify(t, ci.Options{Dir: repo.Dir, Policy: pol})
	if !rep.Passed() || rep.ConflictScan {
		t.Errorf("with conflict_markers = false: violations %q", kinds(rep))
	}
}

func TestVerifyMergeThatCommitsConflictMarkers(t *testing.T) {
	t.Parallel()
	h := &citest.History{}
	base := h.Commit("main", citest.Commit{Message: msg("base", "Agent-Id: a"), Files: map[string]string{"f.txt": "a\nb\nc\n"}})
	h.Reset("refs/remotes/origin/main", base)
	side := h.Commit("side", citest.Commit{Message: msg("side", "Agent-Id: a"), Parents: []citest.Mark{base}, Files: map[string]string{"f.txt": "a\nB-side\nc\n"}})
	ours := h.Commit("feature", citest.Commit{Message: msg("ours", "Agent-Id: a"), Parents: []citest.Mark{base}, Files: map[string]string{"f.txt": "a\nB-ours\nc\n"}})
	merge := h.Commit("feature", citest.Commit{Message: "Merge side\n", Parents: []citest.Mark{ours, side},
		Files: map[string]string{"f.txt": "a\n<<<<<<< HEAD\nB-ours\n=======\nB-side\n>>>>>>> side\nc\n"}})
	repo := citest.Build(t, t.TempDir(), h, "feature")
	rep := verify(t, ci.Options{Dir: repo.Dir})
	if len(rep.Violations) != 1 {
		t.Fatalf("violations = %q, want the merge's conflict markers", kinds(rep))
	}
	if v := rep.Violations[0]; v.Kind != ci.KindConflict || v.Commit != repo.ID(merge) || v.File != "f.txt" || v.Line != 2 {
		t.Errorf("violation = %+v", v)
	}
	if rep.ExemptMerges != 1 {
		t.Errorf("the merge is still exempt from the trailer check: exempt = %d", rep.ExemptMerges)
	}
}

func TestVerifyShallowCloneIsAnEnvironmentError(t *testing.T) {
	t.Parallel()
	repo, _ := pr(t, citest.Commit{Message: msg("one", "Agent-Id: a")}, citest.Commit{Message: msg("two", "Agent-Id: a")})
	clone := filepath.Join(t.TempDir(), "clone")
	citest.Git(t, t.TempDir(), "clone", "-q", "--depth", "1", "--branch", "feature", "file://"+repo.Dir, clone)
	_, err := ci.Verify(context.Background(), ci.Options{Dir: clone, Range: "HEAD~1..HEAD", MinAgents: -1})
	if !errors.Is(err, ci.ErrShallow) || !strings.Contains(err.Error(), "fetch-depth: 0") {
		t.Fatalf("err = %v, want ErrShallow naming fetch-depth: 0", err)
	}
}

func TestVerifyEmptyRange(t *testing.T) {
	t.Parallel()
	repo, _ := pr(t, citest.Commit{Message: "no trailer\n"})
	rep := verify(t, ci.Options{Dir: repo.Dir, Range: "HEAD..HEAD", MinAgents: 2, Scanner: &citest.PatternScanner{}})
	if !rep.Passed() || rep.Commits != 0 {
		t.Fatalf("empty range: commits=%d violations=%q", rep.Commits, kinds(rep))
	}
	if !strings.Contains(strings.Join(rep.Notes, "\n"), "has no commits") {
		t.Errorf("notes = %q, want one saying the range is empty", rep.Notes)
	}
}

func TestVerifyExemptAuthors(t *testing.T) {
	t.Parallel()
	repo, _ := pr(t,
		citest.Commit{Message: "Bump x from 1 to 2\n", Author: "49699333+dependabot[bot]@users.noreply.github.com"},
		citest.Commit{Message: "release\n", Author: "Release@Example.com"},
		citest.Commit{Message: "no trailer\n", Author: "someone@example.com"},
	)
	pol := policy.Default().Clone()
	pol.Verify.ExemptAuthors = []string{"*[bot]@users.noreply.github.com", "release@example.com"}
	rep := verify(t, ci.Options{Dir: repo.Dir, Policy: pol})
	if rep.ExemptAuthors != 2 || len(rep.Violations) != 1 || !strings.Contains(rep.Violations[0].Subject, "no trailer") {
		t.Fatalf("exempt=%d violations=%q, want 2 exempt and the third commit flagged", rep.ExemptAuthors, kinds(rep))
	}
}

func TestVerifyMinAgents(t *testing.T) {
	t.Parallel()
	repo, _ := pr(t,
		citest.Commit{Message: msg("work", "Agent-Id: writer")},
		citest.Commit{Message: msg("more work", "Agent-Id: writer")},
	)
	rep := verify(t, ci.Options{Dir: repo.Dir, MinAgents: 2})
	if len(rep.Violations) != 1 || rep.Violations[0].Kind != ci.KindMinAgents ||
		rep.Violations[0].Message != "1 distinct agent in the range (writer); at least 2 are required" {
		t.Fatalf("violations = %q", kinds(rep))
	}
	pol := policy.Default().Clone()
	pol.Verify.MinAgents = 1
	if rep := verify(t, ci.Options{Dir: repo.Dir, Policy: pol}); !rep.Passed() || rep.MinAgents != 1 {
		t.Errorf("policy min_agents 1: violations %q", kinds(rep))
	}
	if rep := verify(t, ci.Options{Dir: repo.Dir, Policy: pol, MinAgents: 3}); rep.Passed() {
		t.Error("--min-agents 3 must override the policy's 1")
	}
}

func TestVerifyUsesThePolicyOfTheBase(t *testing.T) {
	t.Parallel()
	h := &citest.History{}
	base := h.Commit("main", citest.Commit{Message: msg("base", "Agent-Id: a"),
		Files: map[string]string{policy.FileName: "version = 1\n[verify]\nmin_agents = 0\n"}})
	h.Reset("refs/remotes/origin/main", base)
	h.Commit("feature", citest.Commit{Message: "relax the rules\n", Parents: []citest.Mark{base},
		Files: map[string]string{policy.FileName: "version = 1\n[verify]\nexempt_authors = [\"*\"]\n"}})
	repo := citest.Build(t, t.TempDir(), h, "feature")
	rep := verify(t, ci.Options{Dir: repo.Dir})
	if len(rep.Violations) != 1 || rep.ExemptAuthors != 0 {
		t.Fatalf("violations = %q, exempt = %d: the pull request's own policy change must not apply", kinds(rep), rep.ExemptAuthors)
	}
	if !strings.HasSuffix(rep.Policy, ":"+policy.FileName) || !strings.Contains(strings.Join(rep.Notes, "\n"), "changes "+policy.FileName) {
		t.Errorf("policy = %q, notes = %q", rep.Policy, rep.Notes)
	}
}

func TestVerifyBrokenBasePolicyIsAnError(t *testing.T) {
	t.Parallel()
	h := &citest.History{}
	base := h.Commit("main", citest.Commit{Message: "base\n", Files: map[string]string{policy.FileName: "version = 1\nnot toml at all [\n"}})
	h.Reset("refs/remotes/origin/main", base)
	h.Commit("feature", citest.Commit{Message: msg("x", "Agent-Id: a"), Parents: []citest.Mark{base}})
	repo := citest.Build(t, t.TempDir(), h, "feature")
	_, err := ci.Verify(context.Background(), ci.Options{Dir: repo.Dir, MinAgents: -1})
	if err == nil || !strings.Contains(err.Error(), "policy of the range's base") {
		t.Fatalf("err = %v", err)
	}
}

func TestDefaultRange(t *testing.T) {
	t.Parallel()
	h := &citest.History{}
	root := h.Commit("main", citest.Commit{Message: msg("root", "Agent-Id: a")})
	trunk := h.Commit("main", citest.Commit{Message: msg("trunk", "Agent-Id: a")})
	h.Reset("refs/remotes/origin/trunk", trunk)
	h.Reset("refs/remotes/origin/main", root)
	h.Commit("feature", citest.Commit{Message: msg("feature", "Agent-Id: a"), Parents: []citest.Mark{trunk}})
	repo := citest.Build(t, t.TempDir(), h, "feature")

	rep := verify(t, ci.Options{Dir: repo.Dir})
	if rep.Range.Base != repo.ID(root) || rep.Commits != 2 || !strings.Contains(rep.Range.How, "origin/main exists") {
		t.Errorf("without origin/HEAD: range %+v, %d commits", rep.Range, rep.Commits)
	}

	citest.Git(t, repo.Dir, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/trunk")
	rep = verify(t, ci.Options{Dir: repo.Dir})
	if rep.Range.Base != repo.ID(trunk) || rep.Commits != 1 || !strings.Contains(rep.Range.How, "origin/trunk (origin/HEAD") {
		t.Errorf("with origin/HEAD -> trunk: range %+v, %d commits", rep.Range, rep.Commits)
	}

	citest.Git(t, repo.Dir, "symbolic-ref", "--delete", "refs/remotes/origin/HEAD")
	citest.Git(t, repo.Dir, "update-ref", "-d", "refs/remotes/origin/main")
	_, err := ci.Verify(context.Background(), ci.Options{Dir: repo.Dir, MinAgents: -1})
	if err == nil || !strings.Contains(err.Error(), "--range") {
		t.Errorf("without remote-tracking refs: err = %v, want a hint to pass --range", err)
	}
}

func TestBadRanges(t *testing.T) {
	t.Parallel()
	repo, _ := pr(t, citest.Commit{Message: msg("x", "Agent-Id: a")})
	for _, spec := range []string{"main...HEAD", "HEAD", "..HEAD", "nosuchref..HEAD", "--output=x..HEAD"} {
		_, err := ci.Verify(context.Background(), ci.Options{Dir: repo.Dir, Range: spec, MinAgents: -1})
		if err == nil {
			t.Errorf("--range %q: no error", spec)
		}
	}
	_, err := ci.Verify(context.Background(), ci.Options{Dir: t.TempDir(), MinAgents: -1})
	if err == nil || !strings.Contains(err.Error(), "not a git repository") {
		t.Errorf("outside a repository: err = %v", err)
	}
}

func TestCustomAgentKeyAndValidator(t *testing.T) {
	t.Parallel()
	repo, _ := pr(t,
		citest.Commit{Message: msg("x", "Agent: bot-1")},
		citest.Commit{Message: msg("y", "Agent-Id: bot-2")},
	)
	pol := policy.Default().Clone()
	pol.Trailers.AgentKey = "Agent"
	rep := verify(t, ci.Options{Dir: repo.Dir, Policy: pol, ValidAgentID: func(id string) bool { return strings.HasPrefix(id, "bot-") }})
	if len(rep.Violations) != 1 || rep.Violations[0].Message != "no Agent trailer" {
		t.Fatalf("violations = %q, want only the commit without an Agent trailer", kinds(rep))
	}
}

// TestVerifySinglePass runs the secret scan inside verify's own log pass
// (ci.PassScanner): the scanner gets each run of added lines once, with
// its file, commit and first line, and its findings become violations
// exactly as with a separate scan.
func TestVerifySinglePass(t *testing.T) {
	t.Parallel()
	key := fakesecret.AWSAccessKeyID().Value
	repo, m := pr(t,
		citest.Commit{Message: msg("one", "Agent-Id: a"), Files: map[string]string{"app.go": "package app\n\nfunc A() {}\n"}},
		citest.Commit{Message: msg("add config", "Agent-Id: a"), Files: map[string]string{"config.env": "region=eu\naws_key=" + key + "\n"}},
		citest.Commit{Message: msg("edit app", "Agent-Id: a"), Files: map[string]string{"app.go": "package app\n\nfunc B() {}\n"}},
		citest.Commit{Message: msg("remove config", "Agent-Id: a"), Deleted: []string{"config.env"}},
	)
	scanner := &citest.PassPatternScanner{}
	rep := verify(t, ci.Options{Dir: repo.Dir, Scanner: scanner})
	if len(scanner.Ranges) != 0 {
		t.Errorf("the separate range scan ran too: %+v", scanner.Ranges)
	}
	if scanner.Policy == nil || scanner.Policy.Source != rep.Policy {
		t.Errorf("ScanPass got policy %v, want the one verify applied (%s)", scanner.Policy, rep.Policy)
	}
	want := []citest.Block{
		{File: "app.go", Commit: repo.ID(m[1]), Line: 1, Text: "package app\n\nfunc A() {}"},
		{File: "config.env", Commit: repo.ID(m[2]), Line: 1, Text: "region=eu\naws_key=" + key},
		{File: "app.go", Commit: repo.ID(m[3]), Line: 3, Text: "func B() {}"},
	}
	if len(scanner.Blocks) != len(want) {
		t.Fatalf("blocks = %+v, want %+v", scanner.Blocks, want)
	}
	for i, w := range want {
		if scanner.Blocks[i] != w {
			t.Errorf("block %d = %+v, want %+v", i, scanner.Blocks[i], w)
		}
	}
	if len(rep.Violations) != 1 {
		t.Fatalf("violations = %q, want the one secret", kinds(rep))
	}
	if v := rep.Violations[0]; v.Kind != ci.KindSecret || v.Commit != repo.ID(m[2]) || v.File != "config.env" || v.Line != 2 {
		t.Errorf("violation = %+v, want the secret at config.env:2", v)
	}
}

func TestVerifySinglePassScannerFailureIsAnError(t *testing.T) {
	t.Parallel()
	repo, _ := pr(t, citest.Commit{Message: msg("one", "Agent-Id: a")})
	_, err := ci.Verify(context.Background(), ci.Options{Dir: repo.Dir, MinAgents: -1,
		Scanner: &citest.PassPatternScanner{PatternScanner: citest.PatternScanner{Err: errors.New("scanner exploded")}}})
	if err == nil || !strings.Contains(err.Error(), "scanner exploded") {
		t.Fatalf("err = %v, want the scanner's error", err)
	}
}
