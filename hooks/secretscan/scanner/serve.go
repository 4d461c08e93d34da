package scanner

import (
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"
	"time"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/internal/rundir"
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
		findings, err := scanRequest(dec, &serveProcs)
		if err != nil {
			res.Error = err.Error()
			return
		}
		res.Findings = findings
		_, _ = io.Copy(io.Discard, conn) // the client's half-close
	}()
	_ = writeResult(conn, res)
}

// serveProcs are the scan server's: it runs on one P (GOMAXPROCS 1). A
// request of at most inlineBytes is scanned on one goroutine anyway, and
// with a second P idle the Go scheduler wakes and parks a second thread
// around every request (a spinning M looking for work), which on a loaded
// machine costs the waiting hook about half a millisecond: the hook's
// clean 10 KB Write went from 3.6x to 3.05x an empty Go program. A
// request scanned by workers (bigger than inlineBytes) widens the server
// to all its CPUs while it runs.
var serveProcs procs

// procs narrows and widens GOMAXPROCS.
type procs struct {
	mu   sync.Mutex
	all  int // GOMAXPROCS before narrow; 0 when never narrowed
	wide int // requests that widened it and are still running
}

// narrow sets GOMAXPROCS to 1 and remembers the setting it had.
func (p *procs) narrow() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.all == 0 {
		p.all = runtime.GOMAXPROCS(1)
	}
}

// workers is the number of goroutines a scan that widens should use: the
// CPUs before narrow, or 0 (GOMAXPROCS) for a nil or never narrowed p.
func (p *procs) workers() int {
	if p == nil {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.all
}

// widen restores GOMAXPROCS to its setting before narrow until every
// caller has called the function it returns. A nil or never narrowed p
// does nothing.
func (p *procs) widen() (done func()) {
	if p == nil {
		return func() {}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.all <= 1 {
		return func() {}
	}
	if p.wide == 0 {
		runtime.GOMAXPROCS(p.all)
	}
	p.wide++
	return func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.wide--; p.wide == 0 {
			runtime.GOMAXPROCS(1)
		}
	}
}
