package guard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkGeneratedSection keeps the part of a document of the repository
// (README.md, docs/rules.md, ...; the path is relative to the repository
// root) between begin and end equal to content: with update it rewrites
// that part, else it fails with how to update it.
func checkGeneratedSection(t *testing.T, doc, begin, end, content string, update bool, what, how string) {
	t.Helper()
	path := filepath.Join("..", filepath.FromSlash(doc))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q ... %q section", doc, begin, end)
	}
	want := s[:i+len(begin)] + content + s[j:]
	if want == s {
		return
	}
	if update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s's %s; run: %s", doc, what, how)
}
