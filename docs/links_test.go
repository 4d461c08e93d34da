// Package docs holds the user's documentation (Markdown); its test keeps
// the relative links of README.md and docs/*.md pointing at files and
// headings that exist.
package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// link is a Markdown inline link or image: [text](target) or
// [text](target "title"). Reference-style links are not used here.
var link = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)

// TestRelativeLinks: every relative link of README.md and docs/*.md names
// a file or directory of the repository, and every #fragment a heading of
// the page it points at (GitHub's anchors: lower case, punctuation
// dropped, spaces to hyphens).
func TestRelativeLinks(t *testing.T) {
	pages, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, filepath.Join("..", "README.md"))
	if len(pages) < 5 {
		t.Fatalf("found only %v", pages)
	}
	anchors := map[string]map[string]bool{}
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		a := headingAnchors(string(data))
		anchors[path] = a
		return a
	}
	checked := 0
	for _, page := range pages {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(stripCode(string(data)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, frag, _ := strings.Cut(target, "#")
			dest := page
			if file != "" {
				dest = filepath.Join(filepath.Dir(page), filepath.FromSlash(file))
				if _, err := os.Stat(dest); err != nil {
					t.Errorf("%s: link %q: %s does not exist", page, target, file)
					continue
				}
			}
			checked++
			if frag == "" {
				continue
			}
			if !strings.HasSuffix(dest, ".md") {
				t.Errorf("%s: link %q: a #fragment on a file that is not Markdown", page, target)
				continue
			}
			if !anchorsOf(dest)[frag] {
				t.Errorf("%s: link %q: %s has no heading with the anchor #%s", page, target, filepath.Base(dest), frag)
			}
		}
	}
	if checked < 20 {
		t.Errorf("checked only %d relative links", checked)
	}
}

// stripCode removes fenced code blocks and inline code, where a
// "](...)" is text, not a link.
func stripCode(s string) string {
	var b strings.Builder
	fenced := false
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		parts := strings.Split(line, "`")
		for i := 0; i < len(parts); i += 2 {
			b.WriteString(parts[i])
		}
		b.WriteString("\n")
	}
	return b.String()
}

var anchorDrop = regexp.MustCompile(`[^\p{L}\p{N} _-]`)

// headingAnchors returns the anchors GitHub gives the page's headings:
// the heading's text in lower case, punctuation other than hyphens and
// underscores dropped, spaces turned into hyphens; a repeated anchor
// gets -1, -2, ...
func headingAnchors(s string) map[string]bool {
	a := map[string]bool{}
	count := map[string]int{}
	fenced := false
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
		}
		if fenced || !strings.HasPrefix(line, "#") {
			continue
		}
		text := strings.TrimSpace(strings.TrimLeft(line, "#"))
		text = strings.ReplaceAll(text, "`", "")
		id := strings.ReplaceAll(anchorDrop.ReplaceAllString(strings.ToLower(text), ""), " ", "-")
		if n := count[id]; n > 0 {
			a[id+"-"+strconv.Itoa(n)] = true
		} else {
			a[id] = true
		}
		count[id]++
	}
	return a
}
