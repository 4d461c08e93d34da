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
	var (
		mu   sync.Mutex
		last = time.Now()
		busy int
	)
	exe, _ := os.Executable()
	built, _ := os.Stat(exe)
	go func() {
		for range time.Tick(10 * time.Second) {
			mu.Lock()
			idle := busy == 0 && time.Since(last) > ServeIdle
			mu.Unlock()
			_, sockErr := os.Stat(socket)
			now, exeErr := os.Stat(exe)
			replaced := built == nil || exeErr != nil || now.Size() != built.Size() || !now.ModTime().Equal(built.ModTime())
			if sockErr != nil || idle || replaced {
				ln.Close() // idle, the socket was removed, or the scanner was replaced
				return
			}
		}
	}()
	for {
		conn, err := ln.Accept()
		if err != nil {
			return nil
		}
		mu.Lock()
		busy++
		mu.Unlock()
		go func() {
			serveConn(conn)
			mu.Lock()
			busy--
			last = time.Now()
			mu.Unlock()
		}()
	}
}

// serveConn answers one request; a panic becomes an error result.
func serveConn(conn net.Conn) {
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
		findings, err := scanRequest(conn)
		if err != nil {
			res.Error = err.Error()
			return
		}
		res.Findings = findings
		_, _ = io.Copy(io.Discard, conn) // the client's half-close
	}()
	_ = writeResult(conn, res)
}
