package main

import (
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestDemo runs `make demo`'s script (testdata/demo/demo.sh) against this
// test binary, so a change that breaks the README's first command fails
// go test, not only CI's make demo: testdata/demo/demo.txtar pins its
// exit code and its counts.
func TestDemo(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "..", "testdata", "demo")
	demo, err := filepath.Abs(filepath.Join(dir, "demo.sh"))
	if err != nil {
		t.Fatal(err)
	}
	p := scriptParams(dir)
	setup := p.Setup
	p.Setup = func(e *testscript.Env) error {
		e.Setenv("DEMO", demo)
		return setup(e)
	}
	testscript.Run(t, p)
}
