package scanner

import (
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/rundir"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/wire"
)

// ServeIdle is how long the scan server lives without a request.
const ServeIdle = 30 * time.Minute

// Serve is the scan server (swarm-guard-secrets --serve SOCKET) that the
// Claude Code hook starts in the background: a connection carries one
// request as a scanner process's stdin would (the client half-closes it
// at the end) and gets the result its stdout would. Started once, it
// saves each hook call the scanner's start-up and the compilation of the
// default rules, which it keeps. It returns when idle for ServeIdle, when
// its socket or its executable is removed or replaced, and at once when
// another server holds SOCKET's lock.
func Serve(socket string) error {
	dir := filepath.Dir(socket)
	if err := rundir.Make(dir); err != nil {
		return err
	}
	lock, err := os.OpenFile(socket+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	defer lock.Close()
	if syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return nil // another server answers on this socket
	}
	_ = os.Remove(socket) // a server that died left it; the lock is ours
	ln, err := net.Listen("unix", socket)
	if err != nil {
		return err
	}
	defer os.Remove(socket)
	srv := &server{ln: ln, last: time.Now(), stopped: make(chan struct{})}
	exe, _ := os.Executable()
	built, _ := os.Stat(exe)
	go func() {
		for range time.Tick(10 * time.Second) {
			srv.mu.Lock()
			idle := srv.busy == 0 && time.Since(srv.last) > ServeIdle
			srv.mu.Unlock()
			_, sockErr := os.Stat(socket)
			now, exeErr := os.Stat(exe)
			replaced := built == nil || exeErr != nil || now.Size() != built.Size() || !now.ModTime().Equal(built.ModTime())
			if sockErr != nil || idle || replaced {
				ln.Close() // idle, the socket was removed, or the scanner was replaced
				return
			}
		}
	}()
	srv.waiting = 1
	go srv.accept()
	<-srv.stopped
	return nil
}

// maxWaiting is how many goroutines may wait for a connection at once.
const maxWaiting = 2

// A server answers connections on goroutines that each accept one and
// answer it themselves, then wait for the next: the goroutine that the
// connection wakes does the scan, without handing it to another thread,
// on a stack already grown by earlier scans. The goroutine that takes a
// connection when no other waits starts one, so a slow request never
// holds up the next; at most maxWaiting stay waiting between requests.
type server struct {
	ln      net.Listener
	mu      sync.Mutex
	waiting int // goroutines in Accept, or about to be
	busy    int // connections being answered
	last    time.Time
	stopped chan struct{} // closed when the listener fails (closed)
	stop    sync.Once
}

func (s *server) accept() {
	dec := wire.NewDecoder(nil)
	for {
		conn, err := s.ln.Accept()
		s.mu.Lock()
		s.waiting--
		if err != nil {
			s.mu.Unlock()
			s.stop.Do(func() { close(s.stopped) })
			return
		}
		s.busy++
		spawn := s.waiting == 0
		if spawn {
			s.waiting++
		}
		s.mu.Unlock()
		if spawn {
			go s.accept()
		}
		dec.Reset(conn)
		serveConn(conn, dec)
		dec.Reset(nil)
		s.mu.Lock()
		s.busy--
		s.last = time.Now()
		more := s.waiting < maxWaiting
		if more {
			s.waiting++
		}
		s.mu.Unlock()
		if !more {
			return
		}
	}
}

// serveConn answers one request, read through dec; a panic becomes an
// error result.
func serveConn(conn net.Conn, dec *wire.Decoder) {
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(2 * time.Minute))
	res := wire.Result{Version: wire.Version, Findings: []wire.Finding{}}
	func() {
		defer func() {
			if r := recover(); r != nil {
				res.Error = "internal error in the scan server; nothing was scanned, report this"
				res.Findings = []wire.Finding{}
			}
		}()
		findings, err := scanRequest(dec)
		if err != nil {
			res.Error = err.Error()
			return
		}
		res.Findings = findings
		_, _ = io.Copy(io.Discard, conn) // the client's half-close
	}()
	_ = writeResult(conn, res)
}
