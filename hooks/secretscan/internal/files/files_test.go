package files

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "a.txt")
	var b strings.Builder
	for b.Len() < blockBytes+100 {
		b.WriteString("a line of text\n")
	}
	b.WriteString("last line")
	if err := os.WriteFile(text, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var pieces []Piece
	skip, err := Read(text, 0, func(p Piece) error { pieces = append(pieces, p); return nil })
	if err != nil || skip != nil {
		t.Fatalf("skip %+v, err %v", skip, err)
	}
	var joined []byte
	for _, p := range pieces {
		joined = append(joined, p.Data...)
	}
	if string(joined) != b.String() || len(pieces) != 2 || !bytes.HasSuffix(pieces[0].Data, []byte("\n")) {
		t.Fatalf("%d pieces do not rebuild the file", len(pieces))
	}
	if want := bytes.Count(pieces[0].Data, []byte("\n")) + 1; pieces[1].Line != want {
		t.Fatalf("second piece starts on line %d, want %d", pieces[1].Line, want)
	}

	bin := filepath.Join(dir, "b.bin")
	os.WriteFile(bin, []byte("PNG\x00\x01"), 0o644)
	if skip, _ := Read(bin, 0, func(Piece) error { t.Fatal("binary file read"); return nil }); skip == nil || skip.Reason != ReasonBinary {
		t.Fatalf("binary: %+v", skip)
	}
	if skip, _ := Read(text, 1000, func(Piece) error { return nil }); skip == nil || skip.Reason != ReasonTooLarge || !strings.Contains(skip.Detail, "MB") {
		t.Fatalf("too large: %+v", skip)
	}
	if skip, _ := Read(filepath.Join(dir, "missing"), 0, func(Piece) error { return nil }); skip == nil || skip.Reason != ReasonUnreadable {
		t.Fatalf("missing: %+v", skip)
	}
	if skip, _ := Read(dir, 0, func(Piece) error { return nil }); skip == nil || skip.Reason != ReasonUnreadable {
		t.Fatalf("directory: %+v", skip)
	}
	if os.Getuid() != 0 {
		locked := filepath.Join(dir, "locked")
		os.WriteFile(locked, []byte("x"), 0o000)
		if skip, _ := Read(locked, 0, func(Piece) error { return nil }); skip == nil || skip.Reason != ReasonUnreadable {
			t.Fatalf("unreadable: %+v", skip)
		}
	}
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, nil, 0o644)
	if skip, err := Read(empty, 0, func(Piece) error { t.Fatal("empty file has pieces"); return nil }); skip != nil || err != nil {
		t.Fatalf("empty: %+v %v", skip, err)
	}
}

func TestWalkAndModifiedSince(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"a/x.txt", "a/.git/config", "b.txt"} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), []byte("x"), 0o644)
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(dir, "b.txt"), old, old)
	var seen []string
	if err := Walk(dir, func(p string) error { seen = append(seen, p); return nil }, func(Skip) {}); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 2 {
		t.Fatalf("walk saw %v", seen)
	}
	got, err := ModifiedSince(dir, time.Now().Add(-time.Minute), 0)
	if err != nil || len(got) != 1 || filepath.Base(got[0]) != "x.txt" {
		t.Fatalf("modified since: %v %v", got, err)
	}
	if err := Walk(filepath.Join(dir, "nope"), func(string) error { return nil }, func(Skip) {}); err == nil {
		t.Fatal("walking a missing root is not an error")
	}
}
