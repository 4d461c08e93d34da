package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// CorruptError reports a state file that exists but cannot be decoded.
type CorruptError struct {
	Path string
	Err  error
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("state file %s is corrupt (%v); it was left untouched", e.Path, e.Err)
}

func (e *CorruptError) Unwrap() error { return e.Err }

// Checker is implemented by state types that validate what was decoded,
// for example a format version newer than the program.
type Checker interface{ Check() error }

// Update locks path, decodes the file into a T (the zero T when it does
// not exist yet), calls fn and, when fn returns nil and changed the value,
// writes the file. fn's error is returned as it is, and the file is left
// alone.
func Update[T any](path string, fn func(*T) error) error {
	unlock, err := lock(path, syscall.LOCK_EX)
	if err != nil {
		return err
	}
	defer unlock()
	var v T
	old, err := load(path, &v)
	if err != nil {
		return err
	}
	if err := fn(&v); err != nil {
		return err
	}
	data, err := json.MarshalIndent(&v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode state file %s: %w", path, err)
	}
	data = append(data, '\n')
	if bytes.Equal(data, old) {
		return nil
	}
	if len(data) <= pageSize && len(old) <= pageSize {
		return overwrite(path, data, len(old))
	}
	return replace(path, data)
}

// Read returns the content of path under a shared lock, or the zero T when
// the file does not exist.
func Read[T any](path string) (T, error) {
	var v T
	if _, err := os.Stat(filepath.Dir(path)); errors.Is(err, fs.ErrNotExist) {
		return v, nil // nothing was ever written; do not create directories to read
	}
	unlock, err := lock(path, syscall.LOCK_SH)
	if err != nil {
		return v, err
	}
	defer unlock()
	_, err = load(path, &v)
	return v, err
}

// MoveAside renames a (corrupt) state file to <path>.corrupt-<unix time>
// under the lock, so that a human can start over without losing it, and
// returns the new name; "" when there was no file.
func MoveAside(path string, now time.Time) (string, error) {
	unlock, err := lock(path, syscall.LOCK_EX)
	if err != nil {
		return "", err
	}
	defer unlock()
	aside := path + ".corrupt-" + strconv.FormatInt(now.Unix(), 10)
	if err := os.Rename(path, aside); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", nil
		}
		return "", fmt.Errorf("move state file %s aside: %w", path, err)
	}
	return aside, nil
}

// load decodes path into v and returns the raw bytes; a missing file
// leaves v alone.
func load(path string, v any) ([]byte, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read state file: %w", err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &CorruptError{Path: path, Err: errors.New("the file is empty")}
	}
	if err := json.Unmarshal(data, v); err != nil {
		return nil, &CorruptError{Path: path, Err: err}
	}
	if c, ok := v.(Checker); ok {
		if err := c.Check(); err != nil {
			return nil, fmt.Errorf("state file %s: %w", path, err)
		}
	}
	return data, nil
}

// lock takes a flock on path's lock file, creating the directory and the
// lock file as needed.
func lock(path string, how int) (unlock func(), err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("create state directory: %w", err)
	}
	f, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open lock file: %w", err)
	}
	for {
		err = syscall.Flock(int(f.Fd()), how)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path+".lock", err)
	}
	// Closing the descriptor releases the lock.
	return func() { f.Close() }, nil
}

// pageSize bounds the files written in place. The kernel copies a write
// of one page at offset 0 in one step, so even a process killed during the
// write leaves the old content or the new one.
const pageSize = 4096

// overwrite writes a small file in place: on ext4, renaming over an
// existing file forces its data to disk and costs about a millisecond,
// which the hook, running on every tool call, cannot afford. New content
// shorter than the old is padded with spaces (valid after JSON) in the
// same write, and only then truncated, so no moment shows a mix.
func overwrite(path string, data []byte, oldLen int) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("write state file: %w", err)
	}
	buf := data
	if pad := oldLen - len(data); pad > 0 {
		buf = append(append([]byte(nil), data...), bytes.Repeat([]byte{' '}, pad)...)
	}
	_, err = f.WriteAt(buf, 0)
	if err == nil && len(buf) > len(data) {
		err = f.Truncate(int64(len(data)))
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write state file %s: %w", path, err)
	}
	return nil
}

// replace writes data to a temporary file next to path and renames it over
// path, so readers see the old file or the new one, never a mix. It is for
// files larger than a page, which a single write might leave half done.
func replace(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("write state file: %w", err)
	}
	name := tmp.Name()
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(name, 0o644)
	}
	if werr == nil {
		werr = os.Rename(name, path)
	}
	if werr != nil {
		os.Remove(name)
		return fmt.Errorf("write state file %s: %w", path, werr)
	}
	return nil
}
