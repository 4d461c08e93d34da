package sessionbudget

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/swarm-guard/swarm-guard/guard/budget"
)

// readSnapshot takes the session's running total from a small file the
// client rewrites (Droid's settings file, the opencode plugin's usage
// file), parse reading the total out of it. A file not written yet counts
// nothing; one that does not parse (caught while it is rewritten, or
// changed in a way this does not know) keeps the total read last: the
// next call reads it again.
func readSnapshot(t *budget.FileTally, path string, parse func([]byte) (budget.Usage, bool)) error {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("read the session's usage: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("read the session's usage: %w", err)
	}
	if fi.Size() > MaxReadPerCall {
		return fmt.Errorf("read the session's usage: %s is %d MiB, over the %d MiB one call reads", path, fi.Size()>>20, MaxReadPerCall>>20)
	}
	data := make([]byte, fi.Size())
	n, err := f.ReadAt(data, 0)
	if err != nil && n < len(data) {
		return fmt.Errorf("read the session's usage: %w", err)
	}
	u, ok := parse(data)
	if !ok || u.Budgeted() < t.Usage.Budgeted() {
		return nil // a running total only grows; a smaller one is not newer
	}
	if u != t.Usage {
		t.Turns++
	}
	t.Usage, t.Offset = u, fi.Size()
	return nil
}
