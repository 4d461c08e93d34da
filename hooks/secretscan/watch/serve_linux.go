//go:build linux

package watch

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"github.com/swarm-guard/swarm-guard/hooks/gitx"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/internal/rundir"
)

const supported = true

const (
	// dirMask is what the watcher hears about in each directory. Moving a
	// directory (IN_MOVED_FROM on a directory, IN_MOVE_SELF) leaves the
	// names of the watches under it stale: the watcher stops.
	dirMask = syscall.IN_CREATE | syscall.IN_MODIFY | syscall.IN_CLOSE_WRITE | syscall.IN_MOVED_TO |
		syscall.IN_MOVED_FROM | syscall.IN_MOVE_SELF | syscall.IN_DELETE_SELF | syscall.IN_ONLYDIR | syscall.IN_DONT_FOLLOW
	maxWatches = 100000
	// keep is how long a write is remembered: Bash calls time out after
	// ten minutes at most.
	keep = 30 * time.Minute
)

// checkEvery is how often the watcher checks that its worktree is still
// there and that it had a question within Idle.
var checkEvery = 10 * time.Second

type server struct {
	p        Paths
	fd       int
	rootWd   int32
	cookieWd int32

	mu      sync.Mutex
	dirs    map[int32]string
	changed map[string]time.Time
	armed   time.Time
	cookies map[string]chan struct{}
	seq     int
	last    time.Time // the last question

	stop    sync.Once
	done    chan struct{}
	stopWhy string
	ignored map[string]bool // root-relative directories git ignores, at start
}

// Serve runs the watcher of p.Root in this process until it is idle for
// Idle, the worktree disappears, or a change it cannot follow happens. It
// returns nil at once when another watcher holds the lock. A watcher that
// cannot start writes why to p.Failed, so that no new one is tried for an
// hour.
func Serve(p Paths) error {
	if err := os.MkdirAll(filepath.Dir(p.Lock), 0o700); err != nil {
		return err
	}
	lock, err := os.OpenFile(p.Lock, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	defer lock.Close()
	if syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return nil // another watcher serves this worktree
	}
	s := &server{p: p, dirs: map[int32]string{}, changed: map[string]time.Time{}, cookies: map[string]chan struct{}{},
		done: make(chan struct{}), last: time.Now()}
	if err := s.arm(); err != nil {
		_ = os.WriteFile(p.Failed, []byte(err.Error()+"\n"), 0o600)
		return err
	}
	defer syscall.Close(s.fd)
	_ = os.Remove(p.Failed)
	if dir := filepath.Dir(p.Socket); dir != filepath.Dir(p.Lock) {
		if err := rundir.Make(dir); err != nil {
			_ = os.WriteFile(p.Failed, []byte(err.Error()+"\n"), 0o600)
			return err
		}
	}
	_ = os.Remove(p.Socket) // a watcher that died left it; the lock is ours
	ln, err := net.Listen("unix", p.Socket)
	if err != nil {
		_ = os.WriteFile(p.Failed, []byte(err.Error()+"\n"), 0o600)
		return err
	}
	defer os.Remove(p.Socket)
	defer ln.Close()
	go s.read()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				s.quit("the socket closed")
				return
			}
			go s.answer(conn)
		}
	}()
	exe, _ := os.Executable()
	tick := time.NewTicker(checkEvery)
	defer tick.Stop()
	for {
		select {
		case <-s.done:
			return nil
		case now := <-tick.C:
			s.mu.Lock()
			idle := now.Sub(s.last) > Idle
			s.mu.Unlock()
			_, rootErr := os.Stat(p.Root)
			exeGone := false
			if exe != "" {
				_, err := os.Stat(exe)
				exeGone = err != nil
			}
			if rootErr != nil || exeGone || idle {
				return nil // gone, or uninstalled (a test run's copy removed)
			}
		}
	}
}

func (s *server) quit(why string) {
	s.stop.Do(func() {
		s.mu.Lock()
		s.stopWhy = why
		s.mu.Unlock()
		close(s.done)
	})
}

func (s *server) stopped() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// arm watches every directory of the worktree but .git and the
// directories git ignores, and the cookie directory.
func (s *server) arm() error {
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC)
	if err != nil {
		return fmt.Errorf("inotify: %v", err)
	}
	s.fd = fd
	_ = os.RemoveAll(s.p.Cookies)
	if err := os.MkdirAll(s.p.Cookies, 0o700); err != nil {
		syscall.Close(fd)
		return err
	}
	wd, err := syscall.InotifyAddWatch(fd, s.p.Cookies, syscall.IN_CREATE|syscall.IN_ONLYDIR)
	if err != nil {
		syscall.Close(fd)
		return fmt.Errorf("inotify: %v", err)
	}
	s.cookieWd = int32(wd)
	s.ignored = ignoredDirs(s.p.Root)
	if err := s.addTree(s.p.Root, time.Time{}); err != nil {
		syscall.Close(fd)
		return err
	}
	s.mu.Lock()
	for wd, d := range s.dirs {
		if d == s.p.Root {
			s.rootWd = wd
		}
	}
	s.armed = time.Now()
	s.mu.Unlock()
	return nil
}

// ignoredDirs lists the directories git ignores in root (node_modules,
// build output): writes there are not scanned, so they are not watched.
func ignoredDirs(root string) map[string]bool {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	git := gitx.Runner{Dir: root, Env: append(os.Environ(), "GIT_OPTIONAL_LOCKS=0")}
	out, _ := git.OutputContext(ctx, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory")
	dirs := map[string]bool{}
	for _, e := range bytes.Split(out, []byte{0}) {
		if rel, ok := strings.CutSuffix(string(e), "/"); ok && rel != "" {
			dirs[rel] = true
		}
	}
	return dirs
}

// addTree watches dir and every directory below it. With a zero time it
// only watches (start-up); otherwise it also records every file in the
// tree as written at that time: the files of a directory created or moved
// in during a call were written before the watch could see them.
func (s *server) addTree(dir string, at time.Time) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return err
			}
			return nil // gone again, or unreadable: nothing of it to scan
		}
		if d.Name() == ".git" && p != s.p.Root {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() {
			if !at.IsZero() && d.Type().IsRegular() {
				s.mu.Lock()
				s.changed[p] = at
				s.mu.Unlock()
			}
			return nil
		}
		if rel, err := filepath.Rel(s.p.Root, p); err == nil && s.ignored[filepath.ToSlash(rel)] {
			return filepath.SkipDir
		}
		// The watch comes before the directory is read: a file created
		// after the read is heard, one created before it is listed.
		wd, err := syscall.InotifyAddWatch(s.fd, p, dirMask)
		if err != nil {
			if p == dir {
				return fmt.Errorf("inotify: watching %s: %v", p, err)
			}
			return fmt.Errorf("inotify: %v (fs.inotify.max_user_watches)", err)
		}
		s.mu.Lock()
		s.dirs[int32(wd)] = p
		n := len(s.dirs)
		s.mu.Unlock()
		if n > maxWatches {
			return errors.New("more than 100,000 directories")
		}
		return nil
	})
}

// read takes the kernel's events in order until the watcher stops.
func (s *server) read() {
	buf := make([]byte, 64<<10)
	for !s.stopped() {
		n, err := syscall.Read(s.fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			s.quit("inotify read failed")
			return
		}
		now := time.Now()
		for off := 0; off+syscall.SizeofInotifyEvent <= n; {
			ev := (*syscall.InotifyEvent)(unsafe.Pointer(&buf[off]))
			name := ""
			if ev.Len > 0 {
				raw := buf[off+syscall.SizeofInotifyEvent : off+syscall.SizeofInotifyEvent+int(ev.Len)]
				name = string(bytes.TrimRight(raw, "\x00"))
			}
			off += syscall.SizeofInotifyEvent + int(ev.Len)
			s.event(ev.Wd, ev.Mask, name, now)
		}
	}
}

func (s *server) event(wd int32, mask uint32, name string, now time.Time) {
	if mask&syscall.IN_Q_OVERFLOW != 0 {
		s.quit("the kernel dropped events")
		return
	}
	if wd == s.cookieWd {
		if mask&syscall.IN_IGNORED != 0 {
			// The state directory went, with the worktree or by hand. (The
			// worktree's own IN_DELETE_SELF waits until the watcher closes
			// the files it holds below it.)
			s.quit("the state directory is gone")
			return
		}
		s.mu.Lock()
		if ch, ok := s.cookies[name]; ok {
			close(ch)
			delete(s.cookies, name)
		}
		s.mu.Unlock()
		return
	}
	s.mu.Lock()
	dir, ok := s.dirs[wd]
	if ok && mask&syscall.IN_IGNORED != 0 {
		delete(s.dirs, wd)
	}
	s.mu.Unlock()
	switch {
	case !ok:
		return
	case mask&(syscall.IN_DELETE_SELF|syscall.IN_IGNORED) != 0:
		if wd == s.rootWd {
			s.quit("the worktree is gone")
		}
		return
	case mask&syscall.IN_MOVE_SELF != 0:
		s.quit("a directory moved")
		return
	case name == "" || name == ".git":
		return
	}
	p := filepath.Join(dir, name)
	if mask&syscall.IN_ISDIR != 0 {
		switch {
		case mask&syscall.IN_MOVED_FROM != 0:
			s.quit("a directory moved")
		case mask&(syscall.IN_CREATE|syscall.IN_MOVED_TO) != 0:
			if err := s.addTree(p, now); err != nil {
				s.quit(err.Error())
			}
		}
		return
	}
	if mask&syscall.IN_MOVED_FROM != 0 {
		return
	}
	s.mu.Lock()
	s.changed[p] = now
	s.mu.Unlock()
}

// sync returns once every event queued before it was called is read: it
// creates a cookie file and waits to hear of it (one inotify queue keeps
// its order).
func (s *server) sync(timeout time.Duration) bool {
	s.mu.Lock()
	s.seq++
	name := fmt.Sprintf("c%d", s.seq)
	ch := make(chan struct{})
	s.cookies[name] = ch
	s.mu.Unlock()
	p := filepath.Join(s.p.Cookies, name)
	defer os.Remove(p)
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		return false
	}
	select {
	case <-ch:
		return true
	case <-s.done:
		return false
	case <-time.After(timeout):
		s.mu.Lock()
		delete(s.cookies, name)
		s.mu.Unlock()
		return false
	}
}

// answer serves one question: "since N" → "ok\n" and the files written at
// or after N, each followed by a NUL, then an empty entry; or "unknown\n".
func (s *server) answer(conn net.Conn) {
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		return
	}
	since, ok := parseQuery(line)
	if !ok || !s.sync(2*time.Second) {
		_, _ = conn.Write([]byte("unknown\n"))
		return
	}
	now := time.Now()
	s.mu.Lock()
	s.last = now
	var paths []string
	vouch := !s.stopped() && !since.Before(s.armed)
	for p, t := range s.changed {
		if now.Sub(t) > keep {
			delete(s.changed, p)
			continue
		}
		if vouch && !t.Before(since) {
			paths = append(paths, p)
		}
	}
	s.mu.Unlock()
	if !vouch || len(paths) > MaxPaths {
		_, _ = conn.Write([]byte("unknown\n"))
		return
	}
	var b strings.Builder
	b.WriteString("ok\n")
	for _, p := range paths {
		b.WriteString(p)
		b.WriteByte(0)
	}
	b.WriteByte(0)
	_, _ = conn.Write([]byte(b.String()))
}

// Start starts `exe args...` (the watcher, swarm-guard hook --watch) in the
// background in a session of its own, detached from the hook's pipes, so
// Claude Code never waits for it.
func Start(exe string, args ...string) error {
	cmd := exec.Command(exe, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}
