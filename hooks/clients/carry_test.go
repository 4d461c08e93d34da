package clients

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestFileCarry(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "carry")
	now := time.Unix(1_800_000_000, 0)
	f := FileCarry{Dir: dir, Now: func() time.Time { return now }}
	if got := f.Take("k1"); got != "" {
		t.Fatalf("Take before Put = %q", got)
	}
	f.Put("k1", "would deny: rule x")
	if got := f.Take("k1"); got != "would deny: rule x" {
		t.Fatalf("Take = %q", got)
	}
	if got := f.Take("k1"); got != "" {
		t.Fatalf("second Take = %q, want it forgotten", got)
	}
	// A warning left behind is swept once it is over an hour old.
	f.Put("old", "left behind")
	old := now.Add(-2 * time.Hour)
	if err := os.Chtimes(filepath.Join(dir, "old"), old, old); err != nil {
		t.Fatal(err)
	}
	f.Put("k2", "fresh")
	if _, err := os.Stat(filepath.Join(dir, "old")); !os.IsNotExist(err) {
		t.Fatalf("the stale warning is still there (%v)", err)
	}
	if got := f.Take("k2"); got != "fresh" {
		t.Fatalf("Take = %q", got)
	}
}
