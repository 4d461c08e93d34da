package postrecord

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/swarm-guard/swarm-guard/hooks/internal/jsonobj"
)

// Version of the record format: a record of another version is no record.
const Version = 1

// SubDir is the records' directory inside the state directory.
const SubDir = "post"

// MaxAge is how old a record may be when PostToolUse reads it: a Bash call
// runs for at most ten minutes (its largest timeout); an older record is
// left over from a call that never reached PostToolUse (denied by the
// user, interrupted) and is swept away.
const MaxAge = time.Hour

// sweepEvery bounds how often Write looks for left-over records.
const sweepEvery = 10 * time.Minute

// Record is what PreToolUse proved about one Bash call.
type Record struct {
	V         int    `json:"v"`
	SessionID string `json:"session_id"`
	ToolUseID string `json:"tool_use_id"`
	Tool      string `json:"tool"`
	// Command is the exact command text PreToolUse judged.
	Command string `json:"command"`
	// Root is the worktree root PreToolUse judged the command in.
	Root string `json:"root"`
	// Unix is when PreToolUse wrote the record (seconds).
	Unix int64 `json:"unix"`
}

// Home is the directory a hook call's repository is looked up from:
// SWARM_GUARD_HOME under swarm-guard run, else CLAUDE_PROJECT_DIR; "" when
// neither is an absolute path. The full hook uses it too (hookenv.HomeDir).
func Home(getenv func(string) string) string {
	if getenv("SWARM_GUARD_RUN") != "" {
		if h := getenv("SWARM_GUARD_HOME"); filepath.IsAbs(h) {
			return filepath.Clean(h)
		}
	}
	if pd := getenv("CLAUDE_PROJECT_DIR"); filepath.IsAbs(pd) {
		return filepath.Clean(pd)
	}
	return ""
}

// StateDir locates the state directory of a hook call without running git:
// from the home directory (Home), else the event's cwd, walk up to .git,
// follow a "gitdir:" file (linked worktree, submodule) and its commondir;
// the state directory is <common dir>/swarm-guard with symbolic links
// resolved, as the full hook's. ok is false when there is no repository,
// or when cwd lies in a repository with another common dir than the home
// (the full hook may then judge in cwd's worktree): no record is written
// or read there.
func StateDir(cwd string, getenv func(string) string) (dir string, ok bool) {
	if !filepath.IsAbs(cwd) {
		cwd = ""
	}
	start := Home(getenv)
	if start == "" {
		start = cwd
	}
	if start == "" {
		return "", false
	}
	common, ok := commonDir(start)
	if !ok {
		return "", false
	}
	if cwd != "" && filepath.Clean(cwd) != start {
		if other, found := commonDir(cwd); found && other != common {
			return "", false
		}
	}
	return filepath.Join(common, "swarm-guard"), true
}

// commonDir is the resolved git common dir of the repository holding dir,
// found as gitrepo.Find finds it (without reading HEAD, which it does not
// need): the nearest .git directory, or "gitdir:" file, above dir, then
// the git dir's commondir file.
func commonDir(dir string) (string, bool) {
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	dir = filepath.Clean(dir)
	for {
		dotgit := filepath.Join(dir, ".git")
		if fi, err := os.Stat(dotgit); err == nil {
			gitDir := ""
			if fi.IsDir() {
				gitDir = dotgit
			} else if gd, ok := readGitFile(dotgit); ok {
				gitDir = gd
			}
			if gitDir != "" {
				common := gitDir
				if data, err := readSmall(filepath.Join(gitDir, "commondir")); err == nil {
					cd := strings.TrimSpace(string(data))
					if !filepath.IsAbs(cd) {
						cd = filepath.Join(gitDir, cd)
					}
					common = filepath.Clean(cd)
				}
				if real, err := filepath.EvalSymlinks(common); err == nil {
					common = real
				}
				return common, true
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// readGitFile reads the "gitdir: <path>" file of a linked worktree or
// submodule, as gitrepo does.
func readGitFile(path string) (string, bool) {
	data, err := readSmall(path)
	if err != nil {
		return "", false
	}
	line, _, _ := strings.Cut(string(data), "\n")
	gd, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return "", false
	}
	gd = strings.TrimSpace(gd)
	if !filepath.IsAbs(gd) {
		gd = filepath.Join(filepath.Dir(path), gd)
	}
	return filepath.Clean(gd), true
}

// maxRead bounds the files readSmall reads: a record holds one command.
const maxRead = 4 << 20

// readSmall reads a small file with plain system calls: os.ReadFile
// would first set up the runtime's poller (five system calls more), a
// cost every PostToolUse would pay.
func readSmall(path string) ([]byte, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	var data []byte
	buf := make([]byte, 4096)
	for {
		n, err := syscall.Read(fd, buf)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		case n == 0:
			return data, nil
		}
		if data = append(data, buf[:n]...); len(data) > maxRead {
			return nil, errors.New(path + " is too large")
		}
	}
}

// validID reports whether a tool_use_id can name a record file: Claude
// Code's are "toolu_" and letters and digits.
func validID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// Path is the record file of a tool call in stateDir; "" when the id
// cannot name a file.
func Path(stateDir, toolUseID string) string {
	if !validID(toolUseID) {
		return ""
	}
	return filepath.Join(stateDir, SubDir, toolUseID)
}

// Write leaves r in stateDir (readable and writable by this user only),
// and now and then removes records older than MaxAge.
func Write(stateDir string, r Record, now time.Time) error {
	p := Path(stateDir, r.ToolUseID)
	if p == "" || r.SessionID == "" {
		return errors.New("the call has no usable session_id or tool_use_id")
	}
	r.V, r.Unix = Version, now.Unix()
	data := r.encode()
	dir := filepath.Dir(p)
	// O_EXCL never follows a planted symbolic link; a left-over record
	// of the same name is removed, a missing directory made, and the
	// create tried again. The first try is the common case: one system
	// call to create, one to write, one to close (PreToolUse pays them).
	create := func() (int, error) {
		return syscall.Open(p, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_EXCL|syscall.O_CLOEXEC, 0o600)
	}
	fd, err := create()
	switch {
	case err == syscall.EEXIST:
		_ = os.Remove(p)
		fd, err = create()
	case err == syscall.ENOENT:
		if err := os.MkdirAll(stateDir, 0o755); err != nil {
			return err
		}
		if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
		fd, err = create()
	}
	if err != nil {
		return &fs.PathError{Op: "create", Path: p, Err: err}
	}
	n, err := syscall.Write(fd, data)
	if cerr := syscall.Close(fd); err == nil {
		err = cerr
	}
	if err == nil && n != len(data) {
		err = errors.New("short write")
	}
	if err != nil {
		os.Remove(p)
		return &fs.PathError{Op: "write", Path: p, Err: err}
	}
	sweep(dir, filepath.Base(p), now)
	return nil
}

// sweep removes records older than MaxAge but keep, at most once per sweepEvery
// (the mtime of a marker file says when it last ran).
func sweep(dir, keep string, now time.Time) {
	marker := filepath.Join(dir, ".swept")
	if fi, err := os.Stat(marker); err == nil && now.Sub(fi.ModTime()) < sweepEvery {
		return
	}
	if err := os.WriteFile(marker, nil, 0o600); err != nil {
		return
	}
	_ = os.Chtimes(marker, now, now)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.Name() == ".swept" || e.Name() == keep {
			continue
		}
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > MaxAge {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// Take finds the record PreToolUse left for this call, checks it and
// removes it, so that it serves one PostToolUse only. It returns an error
// saying why when there is no valid record for exactly this session, call,
// tool and command text; a record for another session is left alone.
func Take(stateDir, sessionID, toolUseID, tool, command string, now time.Time) (Record, error) {
	var r Record
	p := Path(stateDir, toolUseID)
	if p == "" || sessionID == "" {
		return r, errors.New("no usable session_id or tool_use_id")
	}
	if err := private(filepath.Dir(p), true); err != nil {
		return r, err
	}
	if err := private(p, false); err != nil {
		return r, err
	}
	data, err := readSmall(p)
	if err != nil {
		return r, err
	}
	if !r.decode(data) {
		os.Remove(p)
		return r, errors.New("record " + p + " is corrupt")
	}
	if r.SessionID != sessionID {
		return r, errors.New("the record is another session's")
	}
	os.Remove(p) // this call's: used once, whatever it says
	switch {
	case r.V != Version:
		return r, errors.New("record version " + strconv.Itoa(r.V))
	case r.ToolUseID != toolUseID:
		return r, errors.New("the record is another call's")
	case r.Tool != tool:
		return r, errors.New("the record is for another tool")
	case r.Command != command:
		return r, errors.New("the record is for another command")
	case r.Root == "" || !filepath.IsAbs(r.Root):
		return r, errors.New("the record names no worktree")
	}
	age := now.Sub(time.Unix(r.Unix, 0))
	if age > MaxAge || age < -time.Minute {
		return r, errors.New("the record is stale")
	}
	return r, nil
}

// private checks that p is a directory (dir) or a regular file, not a
// symbolic link, owned by this user and writable by nobody else: a record
// anyone else could have put there is no record.
func private(p string, dir bool) error {
	var st syscall.Stat_t
	if err := syscall.Lstat(p, &st); err != nil {
		return &fs.PathError{Op: "lstat", Path: p, Err: err}
	}
	switch {
	case dir && st.Mode&syscall.S_IFMT != syscall.S_IFDIR:
		return errors.New(p + " is not a plain directory")
	case !dir && st.Mode&syscall.S_IFMT != syscall.S_IFREG:
		return errors.New(p + " is not a plain file")
	case st.Mode&0o022 != 0:
		return errors.New(p + " is writable by others")
	case int(st.Uid) != os.Geteuid():
		return errors.New(p + " belongs to another user")
	}
	return nil
}

// IsNotExist reports whether Take failed because there was no record.
func IsNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// encode is the record as one JSON object.
func (r Record) encode() []byte {
	b := []byte(`{"v":`)
	b = strconv.AppendInt(b, int64(r.V), 10)
	for _, f := range []struct{ key, val string }{
		{"session_id", r.SessionID}, {"tool_use_id", r.ToolUseID}, {"tool", r.Tool}, {"command", r.Command}, {"root", r.Root},
	} {
		b = append(b, ',')
		b = jsonobj.AppendString(b, f.key)
		b = append(b, ':')
		b = jsonobj.AppendString(b, f.val)
	}
	b = append(b, `,"unix":`...)
	b = strconv.AppendInt(b, r.Unix, 10)
	return append(b, '}', '\n')
}

// decode reads what encode wrote (members in any order, as encoding/json
// would); false for anything else.
func (r *Record) decode(data []byte) bool {
	var v int64
	ok := jsonobj.Members(data, func(key string, raw []byte) bool {
		switch key {
		case "v":
			return jsonobj.SetInt64(raw, &v)
		case "session_id":
			return jsonobj.SetString(raw, &r.SessionID)
		case "tool_use_id":
			return jsonobj.SetString(raw, &r.ToolUseID)
		case "tool":
			return jsonobj.SetString(raw, &r.Tool)
		case "command":
			return jsonobj.SetString(raw, &r.Command)
		case "root":
			return jsonobj.SetString(raw, &r.Root)
		case "unix":
			return jsonobj.SetInt64(raw, &r.Unix)
		}
		return false
	})
	r.V = int(v)
	return ok
}
