package rundir

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// MaxSocketPath is what a unix socket address holds on Linux (108 bytes
// with the terminating NUL) and macOS (104), with a margin.
const MaxSocketPath = 100

// Dirs are the candidate directories, best first:
// $XDG_RUNTIME_DIR/swarm-guard, then swarm-guard-<uid> in $TMPDIR and in /tmp.
func Dirs() []string {
	var out []string
	if d := os.Getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(d) {
		out = append(out, filepath.Join(d, "swarm-guard"))
	}
	own := fmt.Sprintf("swarm-guard-%d", os.Getuid())
	return append(out, filepath.Join(os.TempDir(), own), filepath.Join("/tmp", own))
}

// Socket returns the first candidate path for a socket called name that
// fits in an address, "" when none does.
func Socket(name string) string {
	for _, d := range Dirs() {
		if s := filepath.Join(d, name); len(s) <= MaxSocketPath {
			return s
		}
	}
	return ""
}

// Own reports whether dir is a real directory owned by this user that no
// one else can write.
func Own(dir string) bool {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid() && fi.Mode().Perm()&0o022 == 0
}

// Make creates dir for this user alone, or checks that it is.
func Make(dir string) error {
	if err := os.Mkdir(dir, 0o700); err != nil && !os.IsExist(err) {
		return err
	}
	if !Own(dir) {
		return fmt.Errorf("%s is not a directory of this user's alone", dir)
	}
	return nil
}
