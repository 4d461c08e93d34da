package ci_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/swarm-guard/swarm-guard/hooks/ci"
	"github.com/swarm-guard/swarm-guard/hooks/ci/citest"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan"
	"github.com/swarm-guard/swarm-guard/policy"
)

const benchCommits = 10_000

// benchRepo is a linear history of 10,000 commits shaped like the one in
// the tech notes: 80% carry Agent-Id and Co-authored-by, 10% only
// Signed-off-by, 10% no trailer; each commit changes one line of one of
// 50 files. It is built once with fast-import and kept in the temp dir
// between runs (delete it to rebuild).
var benchRepo = sync.OnceValues(func() (*citest.Repo, error) {
	dir := filepath.Join(os.TempDir(), "swarm-guard-ci-bench-v1")
	done := filepath.Join(dir, ".git", "bench-complete")
	if _, err := os.Stat(done); err != nil {
		os.RemoveAll(dir)
		h := &citest.History{}
		files := map[string][]string{}
		for i := 1; i <= benchCommits; i++ {
			name := fmt.Sprintf("pkg%02d/file.go", i%50)
			files[name] = append(files[name], fmt.Sprintf("var v%d = %d", i, i))
			msg := fmt.Sprintf("change %d\n\nsome explanation of change %d\n\n", i, i)
			switch i % 10 {
			case 0:
				msg += "Signed-off-by: Dev <dev@example.com>\n"
			case 1:
			default:
				msg += fmt.Sprintf("Agent-Id: agent-%d\nCo-authored-by: Bot <bot@example.com>\n", i%7)
			}
			h.Commit("main", citest.Commit{Message: msg, Files: map[string]string{name: strings.Join(files[name], "\n") + "\n"}})
		}
		tb := &onceTB{}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		citest.Build(tb, dir, h, "main")
		if tb.err != nil {
			return nil, tb.err
		}
		if err := os.WriteFile(done, nil, 0o644); err != nil {
			return nil, err
		}
	}
	return &citest.Repo{Dir: dir}, nil
})

// onceTB lets citest.Build run outside a single benchmark's lifetime.
type onceTB struct {
	testing.TB
	err error
}

func (o *onceTB) Helper() {}
func (o *onceTB) Fatal(args ...any) {
	o.err = fmt.Errorf("%s", fmt.Sprint(args...))
	panic(o.err)
}
func (o *onceTB) Fatalf(format string, args ...any) {
	o.err = fmt.Errorf(format, args...)
	panic(o.err)
}

func benchVerify(b *testing.B, pol *policy.Policy, scanner ci.SecretScanner) {
	repo, err := benchRepo()
	if err != nil {
		b.Fatal(err)
	}
	root := citest.Git(b, repo.Dir, "rev-list", "--max-parents=0", "main")
	o := ci.Options{Dir: repo.Dir, Range: root + "..main", Policy: pol, MinAgents: -1, Scanner: scanner}
	b.ResetTimer()
	for b.Loop() {
		rep, err := ci.Verify(context.Background(), o)
		if err != nil {
			b.Fatal(err)
		}
		// 10% have no trailer and 10% only Signed-off-by; the root is the base.
		if rep.Commits != benchCommits-1 || len(rep.Violations) < 1999 {
			b.Fatalf("commits %d, violations %d", rep.Commits, len(rep.Violations))
		}
	}
}

// BenchmarkVerify10kTrailersOnly is the speed target: ≤ 1 s for
// 10,000 commits with one git log pass.
func BenchmarkVerify10kTrailersOnly(b *testing.B) {
	pol := policy.Default().Clone()
	pol.Secrets.ConflictMarkers = false
	benchVerify(b, pol, nil)
}

// BenchmarkVerify10kWithConflictMarkers adds the patch of every commit to
// the same log pass.
func BenchmarkVerify10kWithConflictMarkers(b *testing.B) {
	benchVerify(b, policy.Default(), nil)
}

// BenchmarkVerify10kWithScanner runs the real secret scan too, in
// verify's own log pass, with the swarm-guard executable named in
// SWARM_GUARD_BENCH_SCANNER (swarm-guard-secrets next to it).
func BenchmarkVerify10kWithScanner(b *testing.B) {
	exe := benchScannerExe(b)
	benchVerify(b, policy.Default(), ci.ScannerProcess{Runner: secretscan.Runner{Self: exe}})
}

// BenchmarkVerify10kWithScanRange is the same with the separate
// `swarm-guard scan --range` process, which reads the history again.
func BenchmarkVerify10kWithScanRange(b *testing.B) {
	exe := benchScannerExe(b)
	benchVerify(b, policy.Default(), ci.CommandScanner{Command: []string{exe, "scan"}})
}

func benchScannerExe(b *testing.B) string {
	exe := strings.Fields(os.Getenv("SWARM_GUARD_BENCH_SCANNER"))
	if len(exe) == 0 {
		b.Skip("set SWARM_GUARD_BENCH_SCANNER to the swarm-guard executable, e.g. \"$PWD/bin/swarm-guard\" after make build")
	}
	return exe[0]
}

// BenchmarkGitleaksGit is the comparison: gitleaks' own history scan over
// the same range.
func BenchmarkGitleaksGit(b *testing.B) {
	gitleaks, err := exec.LookPath("gitleaks")
	if err != nil {
		b.Skip("gitleaks is not on PATH")
	}
	repo, err := benchRepo()
	if err != nil {
		b.Fatal(err)
	}
	root := citest.Git(b, repo.Dir, "rev-list", "--max-parents=0", "main")
	b.ResetTimer()
	for b.Loop() {
		cmd := exec.Command(gitleaks, "git", "--no-banner", "--redact", "--exit-code", "0", "--log-opts", root+"..main", repo.Dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("gitleaks: %v\n%s", err, out)
		}
	}
}
