package scanner

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/client"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/fakesecret"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/wire"
)

// serveOn starts a scan server in this process and waits for its socket.
func serveOn(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "sgs")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	socket := filepath.Join(dir, "s.sock")
	go func() { _ = Serve(socket) }()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(socket); err == nil {
			return socket
		}
		if time.Now().After(deadline) {
			t.Fatal("the scan server never listened")
		}
	}
}

func blocks(bs ...wire.Block) func(client.Emit) error {
	return func(emit client.Emit) error {
		for _, b := range bs {
			if err := emit(b); err != nil {
				return err
			}
		}
		return nil
	}
}

// The server answers what a scanner process answers, request after
// request, with the rules of each request's worktree.
func TestServerAnswersLikeTheProcess(t *testing.T) {
	socket := serveOn(t)
	pat := fakesecret.GitHubPAT()
	for i := 0; i < 3; i++ {
		res, ok, err := client.RunServer(context.Background(), socket, wire.Request{},
			blocks(wire.NewBlock("a.go", "", 1, []byte("package a\n"+pat.Line+"\n")), wire.NewBlock("clean.go", "", 1, []byte("package clean\n"))))
		if !ok || err != nil {
			t.Fatalf("request %d: ok %v, err %v", i, ok, err)
		}
		if len(res.Findings) != 1 || res.Findings[0].File != "a.go" || res.Findings[0].Line != 2 || res.Findings[0].Rule != "github-pat" {
			t.Fatalf("request %d: findings %+v, want github-pat at a.go:2", i, res.Findings)
		}
		if strings.Contains(res.Findings[0].Preview, pat.Value) {
			t.Fatalf("the preview holds the secret: %q", res.Findings[0].Preview)
		}
	}
	// A worktree whose .gitleaks.toml is broken gets the scanner's own
	// error, as from the process: the hook fails closed on it.
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, ConfigFileName), []byte("this is not toml\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, ok, err := client.RunServer(context.Background(), socket, wire.Request{Root: root}, blocks(wire.NewBlock("a.go", "", 1, []byte("x\n"))))
	if !ok || err == nil || !strings.Contains(err.Error(), ".gitleaks.toml") {
		t.Fatalf("broken config: ok %v, err %v; want the config error", ok, err)
	}
}

// Without a server, or with a socket in a directory others can write, the
// client says so and the caller runs the scanner process.
func TestNoServerNoAnswer(t *testing.T) {
	dir := t.TempDir()
	if _, ok, _ := client.RunServer(context.Background(), filepath.Join(dir, "none.sock"), wire.Request{}, nil); ok {
		t.Error("an answer without a server")
	}
	shared := filepath.Join(dir, "shared")
	if err := os.Mkdir(shared, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(shared, 0o777)
	if _, ok, _ := client.RunServer(context.Background(), filepath.Join(shared, "s.sock"), wire.Request{}, nil); ok {
		t.Error("a socket in a directory anyone can write was used")
	}
}

// Connections that send half a request and stall hold up no other: the
// server answers the next request while they wait, however many wait.
func TestStalledClientsHoldUpNoOne(t *testing.T) {
	socket := serveOn(t)
	for i := 0; i < 2*maxWaiting+1; i++ {
		c, err := net.Dial("unix", socket)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if _, err := c.Write([]byte(`{"version":1,"root":""}` + "\n" + `{"file":"a.go","text":"pack`)); err != nil {
			t.Fatal(err)
		}
	}
	pat := fakesecret.GitHubPAT()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // the stalled ones wait for two
	defer cancel()
	for i := 0; i < 2; i++ {
		res, ok, err := client.RunServer(ctx, socket, wire.Request{}, blocks(wire.NewBlock("a.go", "", 1, []byte(pat.Line+"\n"))))
		if !ok || err != nil || len(res.Findings) != 1 || res.Findings[0].Rule != "github-pat" {
			t.Fatalf("request %d behind stalled connections: ok %v, err %v, findings %+v", i, ok, err, res.Findings)
		}
	}
}

// The server's procs: narrowed to one P, widened back to all while any
// request runs workers, and narrowed again after the last; a request
// bigger than inlineBytes scanned that way finds what the process finds.
func TestProcsWidenWhileWorkersRun(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(3))
	var p procs
	p.narrow()
	if got := runtime.GOMAXPROCS(0); got != 1 || p.workers() != 3 {
		t.Fatalf("narrowed: GOMAXPROCS %d, workers %d; want 1 and 3", got, p.workers())
	}
	done1, done2 := p.widen(), p.widen()
	done1()
	if got := runtime.GOMAXPROCS(0); got != 3 {
		t.Fatalf("one of two wide requests done: GOMAXPROCS %d, want 3", got)
	}
	done2()
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Fatalf("both done: GOMAXPROCS %d, want 1", got)
	}
	(*procs)(nil).widen()()
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Fatalf("nil procs changed GOMAXPROCS to %d", got)
	}

	text := strings.Repeat(goSource(t, 10<<10)+"\n", 5) + fakesecret.GitHubPAT().Line + "\n"
	var req bytes.Buffer
	enc := wire.NewEncoder(&req)
	for _, v := range []any{wire.Request{Version: wire.Version}, wire.NewBlock("big.go", "", 1, []byte(text)), wire.NewBlock("a.go", "", 1, []byte(fakesecret.GitHubPAT().Line))} {
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.Flush(); err != nil {
		t.Fatal(err)
	}
	served, err := scanRequest(wire.NewDecoder(bytes.NewReader(req.Bytes())), &p)
	if err != nil {
		t.Fatal(err)
	}
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Fatalf("after a wide request: GOMAXPROCS %d, want 1", got)
	}
	runtime.GOMAXPROCS(3)
	alone, err := scanRequest(wire.NewDecoder(bytes.NewReader(req.Bytes())), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(served) != 2 || !slices.Equal(served, alone) {
		t.Fatalf("server's findings %+v\nprocess's %+v", served, alone)
	}
}
