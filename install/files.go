package install

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// How install reads and writes the files it touches: a missing file reads
// as nil, a write replaces the file atomically, and the first original of
// a file it changes is kept as a backup in the state directory.

// backupPath is where the original of path is kept: named after the file
// and a hash of its absolute path, because worktrees share the state
// directory and each has its own .claude/settings.json.
func backupPath(stateDir, path string) string {
	sum := sha256.Sum256([]byte(path))
	return filepath.Join(stateDir, "backup", filepath.Base(path)+"."+hex.EncodeToString(sum[:6]))
}

// readOptional is the file at path, or nil when there is none.
func readOptional(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return data, nil
}

// writeAtomic writes data to a temporary file next to path and renames it
// into place, so a reader never sees half a file.
func writeAtomic(path string, data []byte, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// fileMode is the permission bits of the file at path, or def when there
// is none: a rewritten file keeps its mode.
func fileMode(path string, def os.FileMode) os.FileMode {
	if fi, err := os.Stat(path); err == nil {
		return fi.Mode().Perm()
	}
	return def
}

// removeBackup removes the backup at path (none for "") once uninstall
// no longer needs it, and the backup directory when that leaves it empty.
func removeBackup(path string) error {
	if path == "" {
		return nil
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove the backup %s: %w", path, err)
	}
	os.Remove(filepath.Dir(path)) // the backup directory, when empty
	return nil
}
