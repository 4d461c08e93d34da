package state

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/swarm-guard/swarm-guard/guard/budget"
)

type counter struct {
	Version int   `json:"version"`
	N       int64 `json:"n"`
}

func (c *counter) Check() error {
	if c.Version > 1 {
		return errors.New("too new")
	}
	return nil
}

// TestParallelUpdatesSumExactly: 64 goroutines, each with its own open
// file description (flock excludes those within one process too), add 1
// ten times; nothing is lost.
func TestParallelUpdatesSumExactly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "c.json")
	const workers, each = 64, 10
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				errs <- Update(path, func(c *counter) error { c.Version = 1; c.N++; return nil })
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	c, err := Read[counter](path)
	if err != nil {
		t.Fatal(err)
	}
	if c.N != workers*each {
		t.Fatalf("N = %d, want %d: updates were lost", c.N, workers*each)
	}
}

func TestCorruptFileIsNeverOverwritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.json")
	for _, content := range []string{`{"n": 1`, "", "  \n", `[1,2]`} {
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		called := false
		err := Update(path, func(c *counter) error { called = true; return nil })
		var ce *CorruptError
		if !errors.As(err, &ce) || ce.Path != path || called {
			t.Fatalf("content %q: err %v, fn called %v; want a CorruptError naming the file before fn", content, err, called)
		}
		if _, err := Read[counter](path); !errors.As(err, &ce) {
			t.Fatalf("Read of %q: %v", content, err)
		}
		if data, _ := os.ReadFile(path); string(data) != content {
			t.Fatalf("the corrupt file was changed to %q", data)
		}
	}
	aside, err := MoveAside(path, time.Unix(1700000000, 0))
	if err != nil || aside != path+".corrupt-1700000000" {
		t.Fatalf("MoveAside = %q, %v", aside, err)
	}
	if err := Update(path, func(c *counter) error { c.N = 5; return nil }); err != nil {
		t.Fatalf("after moving it aside: %v", err)
	}
}

func TestUpdate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.json")
	if c, err := Read[counter](path); err != nil || c.N != 0 {
		t.Fatalf("missing file: %+v, %v", c, err)
	}
	if err := Update(path, func(c *counter) error { c.N = 7; return nil }); err != nil {
		t.Fatal(err)
	}
	// fn's error is returned and nothing is written.
	boom := errors.New("boom")
	if err := Update(path, func(c *counter) error { c.N = 99; return boom }); err != boom {
		t.Fatalf("err = %v", err)
	}
	// An unchanged value is not rewritten.
	fi1, _ := os.Stat(path)
	if err := Update(path, func(c *counter) error { return nil }); err != nil {
		t.Fatal(err)
	}
	fi2, _ := os.Stat(path)
	if !os.SameFile(fi1, fi2) {
		t.Error("an unchanged file was replaced")
	}
	if c, _ := Read[counter](path); c.N != 7 {
		t.Fatalf("N = %d, want 7", c.N)
	}
	// A newer format is refused, not misread.
	os.WriteFile(path, []byte(`{"version":2,"n":1}`), 0o644)
	if err := Update(path, func(c *counter) error { return nil }); err == nil {
		t.Fatal("a file of a newer version was accepted")
	}
	// No temporary files are left behind.
	entries, _ := os.ReadDir(filepath.Dir(path))
	for _, e := range entries {
		if e.Name() != "c.json" && e.Name() != "c.json.lock" {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// BenchmarkUpdate is the cost of one locked read-modify-write.
func BenchmarkUpdate(b *testing.B) {
	path := filepath.Join(b.TempDir(), "c.json")
	for b.Loop() {
		if err := Update(path, func(c *counter) error { c.N++; return nil }); err != nil {
			b.Fatal(err)
		}
	}
}

type list struct {
	Items []int `json:"items"`
}

// TestGrowAndShrink goes through both ways of writing: in place (small
// files, padded when they shrink) and by rename (more than a page).
func TestGrowAndShrink(t *testing.T) {
	path := filepath.Join(t.TempDir(), "l.json")
	for _, n := range []int{3, 2000, 1, 0, 500, 2} {
		if err := Update(path, func(l *list) error { l.Items = make([]int, n); return nil }); err != nil {
			t.Fatal(err)
		}
		l, err := Read[list](path)
		if err != nil || len(l.Items) != n {
			t.Fatalf("after writing %d items: %d items, %v", n, len(l.Items), err)
		}
		data, _ := os.ReadFile(path)
		if data[len(data)-1] != '\n' || data[len(data)-2] == ' ' {
			t.Fatalf("after writing %d items the file ends in %q", n, data[len(data)-min(len(data), 5):])
		}
	}
}

// TestParallelLedgerCharges is the same with the wrapper's ledger: 64
// concurrent charges to one task.
func TestParallelLedgerCharges(t *testing.T) {
	path := filepath.Join(t.TempDir(), "budget.json")
	now := time.Unix(1700000000, 0).UTC()
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- Update(path, func(l *budget.Ledger) error {
				l.EnsureSession("s", now)
				l.Charge("task", budget.Usage{Input: int64(i + 1), Output: 1}, now)
				return nil
			})
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	l, err := Read[budget.Ledger](path)
	if err != nil {
		t.Fatal(err)
	}
	// 1+2+...+64 input tokens and 64 output tokens.
	if task, session := l.Spent("task"); task != 64*65/2+64 || session != task {
		t.Fatalf("task %d, session %d, want %d", task, session, 64*65/2+64)
	}
}
