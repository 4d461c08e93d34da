package gitchanges

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func collect(t *testing.T, patch string) []Hunk {
	t.Helper()
	var out []Hunk
	if err := Parse(strings.NewReader(patch), func(h Hunk) error { out = append(out, h); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestParse(t *testing.T) {
	patch := `commit 1111111111111111111111111111111111111111

diff --git a/a.go b/a.go
index 1..2 100644
--- a/a.go
+++ b/a.go
@@ -3 +3,2 @@ func x() {
-old
+new one
+new two
@@ -10,0 +12 @@
+last
\ No newline at end of file
diff --git a/gone.txt b/gone.txt
deleted file mode 100644
--- a/gone.txt
+++ /dev/null
@@ -1 +0,0 @@
-bye
diff --git "a/t\303\244st file.txt" "b/t\303\244st file.txt"
new file mode 100644
--- /dev/null
+++ "b/t\303\244st file.txt"
@@ -0,0 +1 @@
++++ looks like a header
diff --git a/img.png b/img.png
new file mode 100644
Binary files /dev/null and b/img.png differ
commit 2222222222222222222222222222222222222222

diff --git a/a.go b/a.go
--- a/a.go
+++ b/a.go
@@ -1 +0,0 @@
-new one
`
	got := collect(t, patch)
	want := []Hunk{
		{Commit: "1111111111111111111111111111111111111111", File: "a.go", Line: 3, Text: []byte("new one\nnew two\n")},
		{Commit: "1111111111111111111111111111111111111111", File: "a.go", Line: 12, Text: []byte("last")},
		{Commit: "1111111111111111111111111111111111111111", File: "täst file.txt", Line: 1, Text: []byte("+++ looks like a header\n")},
		{Commit: "1111111111111111111111111111111111111111", File: "img.png", Binary: true},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d hunks: %+v", len(got), got)
	}
	for i := range want {
		if got[i].Commit != want[i].Commit || got[i].File != want[i].File || got[i].Line != want[i].Line ||
			string(got[i].Text) != string(want[i].Text) || got[i].Binary != want[i].Binary {
			t.Errorf("hunk %d = %+v (%q), want %+v (%q)", i, got[i], got[i].Text, want[i], want[i].Text)
		}
	}
	if l := got[0].Lines(); len(l) != 2 || l[1] != "new two" {
		t.Errorf("Lines() = %q", l)
	}
}

func TestParseErrors(t *testing.T) {
	for name, patch := range map[string]string{
		"truncated hunk": "diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -1 +1,3 @@\n-x\n+y\n",
		"bad header":     "diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -x +1 @@\n+y\n",
		"garbage line":   "diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -1 +1 @@\n?x\n",
		"no +++ line":    "diff --git a/a b/a\n@@ -1 +1 @@\n-x\n+y\n",
	} {
		err := Parse(strings.NewReader(patch), func(Hunk) error { return nil })
		if err == nil || !strings.Contains(err.Error(), "git output line") {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}

// git runs git in dir with a hermetic configuration.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func TestStagedAndRangeWithRealGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.txt", "one\ntwo\n")
	git(t, dir, "add", "a.txt")
	git(t, dir, "commit", "-q", "-m", "base")
	base := git(t, dir, "rev-parse", "HEAD")
	write("a.txt", "one\nadded in c1\ntwo\n")
	git(t, dir, "commit", "-q", "-am", "c1")
	c1 := git(t, dir, "rev-parse", "HEAD")
	write("a.txt", "one\ntwo\n")
	git(t, dir, "commit", "-q", "-am", "c2 removes it")

	var hunks []Hunk
	if err := Range(context.Background(), dir, base+"..HEAD", func(h Hunk) error { hunks = append(hunks, h); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(hunks) != 1 || hunks[0].Commit != c1 || string(hunks[0].Text) != "added in c1\n" || hunks[0].Line != 2 {
		t.Fatalf("range hunks %+v", hunks)
	}

	write("b.txt", "staged\n")
	git(t, dir, "add", "b.txt")
	write("b.txt", "staged\nnot staged\n")
	hunks = nil
	if err := Staged(context.Background(), dir, func(h Hunk) error { hunks = append(hunks, h); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(hunks) != 1 || hunks[0].File != "b.txt" || string(hunks[0].Text) != "staged\n" || hunks[0].Commit != "" {
		t.Fatalf("staged hunks %+v", hunks)
	}

	if err := Range(context.Background(), dir, "nope..HEAD", func(Hunk) error { return nil }); err == nil || !strings.Contains(err.Error(), "git log failed") {
		t.Fatalf("bad range: %v", err)
	}
	if err := Range(context.Background(), dir, "--output=x", func(Hunk) error { return nil }); err == nil {
		t.Fatal("an option as a range was accepted")
	}
}
