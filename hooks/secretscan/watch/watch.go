package watch

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/internal/rundir"
)

const (
	// MaxPaths bounds an answer: a call that wrote more files than this
	// (npm install) gets "unknown" and the worktree-wide scan.
	MaxPaths = 1000
	// Idle is how long a watcher lives without a question.
	Idle = 30 * time.Minute
	// retryFailed is how long after a failed start no new watcher is tried.
	retryFailed = time.Hour
)

// Paths are a worktree's watcher files in a state directory.
type Paths struct {
	Root, Socket, Lock, Failed, Cookies string
}

// For returns the watcher files of worktree root in stateDir. When the
// socket's path there is too long for a unix socket address, the socket
// goes into a directory of this user's own (package rundir).
func For(root, stateDir string) Paths {
	sum := sha256.Sum256([]byte(root))
	base := filepath.Join(stateDir, "watch-"+hex.EncodeToString(sum[:6]))
	p := Paths{Root: root, Socket: base + ".sock", Lock: base + ".lock", Failed: base + ".failed", Cookies: base + ".cookies"}
	if len(p.Socket) > rundir.MaxSocketPath {
		sum := sha256.Sum256([]byte(root + "\x00" + stateDir))
		if s := rundir.Socket("watch-" + hex.EncodeToString(sum[:8]) + ".sock"); s != "" {
			p.Socket = s
		}
	}
	return p
}

// Usable reports whether a watcher can serve this worktree here: the
// platform has one, the socket path fits in an address, and its
// directory, when outside the state directory, is this user's alone.
func (p Paths) Usable() bool {
	if !supported || len(p.Socket) > rundir.MaxSocketPath {
		return false
	}
	if filepath.Dir(p.Socket) == filepath.Dir(p.Lock) {
		return true
	}
	return rundir.Own(filepath.Dir(p.Socket))
}

// ShouldStart reports whether PostToolUse should start a watcher: none
// answered, and none failed to start within the last hour.
func (p Paths) ShouldStart(now time.Time) bool {
	if !supported || len(p.Socket) > rundir.MaxSocketPath {
		return false
	}
	if fi, err := os.Stat(p.Failed); err == nil && now.Sub(fi.ModTime()) < retryFailed {
		return false
	}
	return true
}

// Changed asks the worktree's watcher for the files written at or after
// since, as absolute paths. ok is false when no watcher answers or it
// cannot vouch for the whole time since then: the caller must look at the
// whole worktree.
func Changed(p Paths, since time.Time, timeout time.Duration) (paths []string, ok bool) {
	if !p.Usable() {
		return nil, false
	}
	conn, err := net.DialTimeout("unix", p.Socket, timeout)
	if err != nil {
		return nil, false
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(timeout))
	if _, err := fmt.Fprintf(conn, "since %d\n", since.UnixNano()); err != nil {
		return nil, false
	}
	r := bufio.NewReader(conn)
	head, err := r.ReadString('\n')
	if err != nil || head != "ok\n" {
		return nil, false
	}
	for {
		line, err := r.ReadString(0)
		if err != nil {
			// The answer ends with an empty entry; a cut one is no answer.
			return nil, false
		}
		line = strings.TrimSuffix(line, "\x00")
		if line == "" {
			return paths, true
		}
		if len(paths) >= MaxPaths || !filepath.IsAbs(line) {
			return nil, false
		}
		paths = append(paths, line)
	}
}

// parseQuery reads "since <unix nanoseconds>".
func parseQuery(line string) (time.Time, bool) {
	f := strings.Fields(line)
	if len(f) != 2 || f[0] != "since" {
		return time.Time{}, false
	}
	n, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return time.Time{}, false
	}
	return time.Unix(0, n), true
}
