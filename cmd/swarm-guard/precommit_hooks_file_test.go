package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPreCommitHooksFile checks .pre-commit-hooks.yaml at the repository
// root the way the pre-commit framework reads it: every hook is golang
// (built with go install ./... from this module), has the ids docs/git-hooks.md
// names, and its entry is a swarm-guard command line this binary accepts.
// The framework itself (PyPI) is not installable on every machine, so the
// entries are run here as the framework would run them: entry + arguments.
func TestPreCommitHooksFile(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	type hook struct{ id, entry, language string }
	var hooks []hook
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		key, val, ok := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(line, "- "), "  "), ": ")
		if !ok {
			continue
		}
		switch key {
		case "id":
			hooks = append(hooks, hook{id: val})
		case "entry":
			hooks[len(hooks)-1].entry = val
		case "language":
			hooks[len(hooks)-1].language = val
		}
	}
	ids := map[string]bool{}
	for _, h := range hooks {
		ids[h.id] = true
		if h.language != "golang" {
			t.Errorf("%s: language %q, want golang", h.id, h.language)
		}
		words := strings.Fields(h.entry)
		if len(words) < 2 || words[0] != "swarm-guard" || findCommand(words[1]) == nil {
			t.Errorf("%s: entry %q is not a swarm-guard command", h.id, h.entry)
			continue
		}
		// The entry's flags parse: the command accepts them with --help.
		var out bytes.Buffer
		c := defaultCLI()
		c.stdout, c.stderr = &out, &out
		if code := run(append(words[1:], "--help"), c); code != 0 {
			t.Errorf("%s: %q --help exited %d: %s", h.id, h.entry, code, out.String())
		}
	}
	for _, want := range []string{"swarm-guard-secrets", "swarm-guard-pre-commit", "swarm-guard-trailers"} {
		if !ids[want] {
			t.Errorf("no hook id %s in .pre-commit-hooks.yaml", want)
		}
	}
}
