package docs

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestShippedLinks runs ship.sh, the copy of the documentation every
// release carries (make dist-archives, npm/build.sh), and follows each
// relative link of the copy inside it: a README link to docs/ that a
// release lacks is a dead link for everyone who installed from one. A link
// into the source tree must have become the same path on GitHub at the
// commit, and that path must exist here.
func TestShippedLinks(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	const commit = "0123456789abcdef0123456789abcdef01234567"
	dest := t.TempDir()
	if out, err := exec.Command("sh", "ship.sh", dest, commit).CombinedOutput(); err != nil {
		t.Fatalf("ship.sh: %v\n%s", err, out)
	}
	want, _ := filepath.Glob("*.md")
	for _, f := range want {
		if _, err := os.Stat(filepath.Join(dest, "docs", f)); err != nil {
			t.Errorf("docs/%s is not shipped", f)
		}
	}
	pages := []string{"README.md", "CHANGELOG.md", "SECURITY.md"}
	for _, f := range want {
		pages = append(pages, filepath.Join("docs", f))
	}
	github := "https://github.com/swarm-guard/swarm-guard/tree/" + commit + "/"
	local, remote := 0, 0
	for _, page := range pages {
		data, err := os.ReadFile(filepath.Join(dest, page))
		if err != nil {
			t.Fatalf("%s is not shipped: %v", page, err)
		}
		for _, m := range link.FindAllStringSubmatch(stripCode(string(data)), -1) {
			target, _, _ := strings.Cut(m[1], "#")
			if path, ok := strings.CutPrefix(target, github); ok {
				remote++
				if _, err := os.Stat(filepath.Join("..", filepath.FromSlash(path))); err != nil {
					t.Errorf("%s: link %q names %s, which the repository lacks", page, m[1], path)
				}
				continue
			}
			if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			local++
			if _, err := os.Stat(filepath.Join(dest, filepath.Dir(page), filepath.FromSlash(target))); err != nil {
				t.Errorf("%s: link %q has no file in the release (ship it, or add its folder to ship.sh's tree)", page, m[1])
			}
		}
	}
	if local < 20 || remote < 5 {
		t.Errorf("followed only %d links inside the release and %d to GitHub", local, remote)
	}
}
