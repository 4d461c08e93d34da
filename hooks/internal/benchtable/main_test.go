package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestTable(t *testing.T) {
	in := `goos: linux
BenchmarkHookPaths/empty-go-2         	      20	   3345772 ns/op	         0.9000 median-ms
BenchmarkHookPaths/pre-bash-allow-2   	      20	   3241541 ns/op	         2.700 median-ms	         2.500 x-empty
BenchmarkHookPaths/pre-bash-deny-2   	      20	   3241541 ns/op	         1.800 median-ms
BenchmarkHookProcessBashAllow-2   	      20	   3241541 ns/op	         2.5 ms-median	 3.1 ms-p90
PASS
`
	h := header{date: time.Date(2026, 11, 27, 18, 30, 0, 0, time.UTC), machine: "Test CPU, 2 CPUs, linux/amd64", commit: "0123abc", benchtime: "20x"}
	var out strings.Builder
	if err := run(strings.NewReader(in), &out, h); err != nil {
		t.Fatal(err)
	}
	want := "# Benchmarks\n\n" +
		"Written by `make bench` (how it measures: [performance.md](performance.md)); do not edit by hand.\n\n" +
		"- date: 2026-11-27 18:30 UTC\n" +
		"- machine: Test CPU, 2 CPUs, linux/amd64\n" +
		"- commit: 0123abc\n" +
		"- benchtime: 20x\n\n" +
		`| benchmark | path | what it times | median | × empty Go program |
|---|---|---|---|---|
| HookPaths | empty-go | an empty Go program (the unit) | 0.90 ms | 1.0× |
| HookPaths | pre-bash-allow | PreToolUse Bash, allowed (` + "`go test ./... && git add -A && git commit -m wip`" + `) | 2.70 ms | 2.5× |
| HookPaths | pre-bash-deny | PreToolUse Bash, denied (` + "`git push --force origin main`" + `) | 1.80 ms | 2.0× |
| HookProcessBashAllow |  |  | 2.50 ms | – |
`
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	if err := run(strings.NewReader("PASS\n"), &out, h); err == nil {
		t.Error("no medians: want an error")
	}
}

// TestPathsAreDescribed: every hook path the benchmarks of make bench
// time (their names in cmd/swarm-guard-secrets) has its words in the
// results file, and no description is left over from a path that is gone.
func TestPathsAreDescribed(t *testing.T) {
	name := regexp.MustCompile(`(?:\{|b\.Run\()"([a-z0-9-]+)",`)
	seen := map[string]bool{}
	for _, f := range []string{"hookpaths_bench_test.go", "monorepo_bench_test.go"} {
		src, err := os.ReadFile(filepath.Join("..", "..", "..", "cmd", "swarm-guard-secrets", f))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range name.FindAllSubmatch(src, -1) {
			seen[string(m[1])] = true
		}
	}
	if len(seen) < 10 {
		t.Fatalf("found only %d hook paths in the benchmarks: %v", len(seen), seen)
	}
	for n := range seen {
		if paths[n] == "" {
			t.Errorf("hook path %s has no description in benchtable's paths", n)
		}
	}
	for n := range paths {
		if !seen[n] {
			t.Errorf("benchtable describes %s, which no benchmark times", n)
		}
	}
}
