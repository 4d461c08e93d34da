package guard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkREADMESection keeps the part of README.md between begin and end
// equal to content: with update it rewrites that part, else it fails
// with how to update it.
func checkREADMESection(t *testing.T, begin, end, content string, update bool, what, how string) {
	t.Helper()
	path := filepath.Join("..", "README.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("README.md has no %q ... %q section", begin, end)
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
	t.Errorf("README.md's %s; run: %s", what, how)
}
