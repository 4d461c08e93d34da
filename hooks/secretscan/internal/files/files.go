package files

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// blockBytes is how much of a file goes into one block. The scanner cuts
// blocks further; this only bounds memory on the light side.
const blockBytes = 1 << 20

// binarySniff is how much of a file git looks at to call it binary.
const binarySniff = 8000

// Reasons a file was not scanned.
const (
	ReasonBinary     = "binary"
	ReasonUnreadable = "unreadable"
	ReasonTooLarge   = "too large"
)

// Skip is a file that was not scanned, and why.
type Skip struct {
	Path   string `json:"file"`
	Reason string `json:"reason"`
	Detail string `json:"detail,omitempty"`
}

// Piece is part of a file: its text and the number of its first line.
type Piece struct {
	Line int
	Data []byte
}

// IsBinary applies git's test: a NUL byte in the first 8000 bytes.
func IsBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), binarySniff)], 0) >= 0
}

// Read calls fn with the pieces of the file at path, at most maxBytes of
// it (0: no limit). It returns a Skip instead when the file is binary,
// bigger than maxBytes, or unreadable.
func Read(path string, maxBytes int64, fn func(Piece) error) (*Skip, error) {
	f, err := os.Open(path)
	if err != nil {
		return &Skip{Path: path, Reason: ReasonUnreadable, Detail: errText(err)}, nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return &Skip{Path: path, Reason: ReasonUnreadable, Detail: errText(err)}, nil
	}
	if !fi.Mode().IsRegular() {
		return &Skip{Path: path, Reason: ReasonUnreadable, Detail: "not a regular file"}, nil
	}
	if maxBytes > 0 && fi.Size() > maxBytes {
		return &Skip{Path: path, Reason: ReasonTooLarge, Detail: fmt.Sprintf("%.1f MB, over the %d MB limit", float64(fi.Size())/(1<<20), maxBytes>>20)}, nil
	}
	r := bufio.NewReaderSize(f, 64<<10)
	head, err := r.Peek(binarySniff)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return &Skip{Path: path, Reason: ReasonUnreadable, Detail: errText(err)}, nil
	}
	if IsBinary(head) {
		return &Skip{Path: path, Reason: ReasonBinary}, nil
	}
	line := 1
	for {
		buf := make([]byte, blockBytes)
		n, err := io.ReadFull(r, buf)
		buf = buf[:n]
		if n == blockBytes {
			// Finish the line so no line is cut in two.
			rest, rerr := r.ReadBytes('\n')
			buf = append(buf, rest...)
			if rerr != nil && !errors.Is(rerr, io.EOF) {
				return &Skip{Path: path, Reason: ReasonUnreadable, Detail: errText(rerr)}, nil
			}
		}
		if len(buf) > 0 {
			if ferr := fn(Piece{Line: line, Data: buf}); ferr != nil {
				return nil, ferr
			}
			line += bytes.Count(buf, []byte{'\n'})
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, nil
		}
		if err != nil {
			return &Skip{Path: path, Reason: ReasonUnreadable, Detail: errText(err)}, nil
		}
		if len(buf) == 0 {
			return nil, nil
		}
	}
}

// Walk calls fn for every regular file under root (root itself when it is
// a file), skipping .git directories and not following symbolic links.
// Directories that cannot be read are reported through skip.
func Walk(root string, fn func(path string) error, skip func(Skip)) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return fmt.Errorf("cannot read %s: %s", root, errText(err))
			}
			skip(Skip{Path: p, Reason: ReasonUnreadable, Detail: errText(err)})
			if d != nil && d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if d.Name() == ".git" && p != root {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		return fn(p)
	})
}

// ModifiedSince returns the regular files under dir modified at or after
// since, at most limit of them (0: no limit), skipping .git directories.
// It is how the files a command wrote into a directory are found.
func ModifiedSince(dir string, since time.Time, limit int) ([]string, error) {
	var out []string
	errLimit := errors.New("limit")
	err := Walk(dir, func(p string) error {
		fi, err := os.Lstat(p)
		if err != nil || fi.ModTime().Before(since) {
			return nil
		}
		out = append(out, p)
		if limit > 0 && len(out) >= limit {
			return errLimit
		}
		return nil
	}, func(Skip) {})
	if errors.Is(err, errLimit) {
		err = nil
	}
	return out, err
}

// errText is an error without the path os errors repeat.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
