package main

import (
	"strings"
	"testing"
)

func TestTable(t *testing.T) {
	in := `goos: linux
BenchmarkHookPaths/empty-go-2         	      20	   3345772 ns/op	         0.9000 median-ms
BenchmarkHookPaths/pre-bash-allow-2   	      20	   3241541 ns/op	         2.700 median-ms	         2.500 x-empty
BenchmarkHookPaths/pre-bash-deny-2   	      20	   3241541 ns/op	         1.800 median-ms
BenchmarkHookProcessBashAllow-2   	      20	   3241541 ns/op	         2.5 ms-median	 3.1 ms-p90
PASS
`
	var out strings.Builder
	if err := run(strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	want := `| benchmark | path | median | × empty Go program |
|---|---|---|---|
| HookPaths | empty-go | 0.90 ms | 1.0× |
| HookPaths | pre-bash-allow | 2.70 ms | 2.5× |
| HookPaths | pre-bash-deny | 1.80 ms | 2.0× |
| HookProcessBashAllow |  | 2.50 ms | – |
`
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	if err := run(strings.NewReader("PASS\n"), &out); err == nil {
		t.Error("no medians: want an error")
	}
}
