package client

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/wire"
)

// fakeScanner writes a shell script standing in for the scanner.
func fakeScanner(t *testing.T, dir, body string) string {
	t.Helper()
	p := filepath.Join(dir, ExecutableName)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func noPath(string) (string, error) { return "", errors.New("not on PATH") }

func TestFind(t *testing.T) {
	dir := t.TempDir()
	self := filepath.Join(dir, "swarm-guard")
	_, err := Find(self, noPath)
	var nf *NotFoundError
	if !errors.As(err, &nf) {
		t.Fatalf("err = %v", err)
	}
	if want := "swarm-guard-secrets not found next to " + self + " or on PATH; run `make install`"; !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("message %q does not start with %q", err, want)
	}
	if got, err := Find(self, func(string) (string, error) { return "/usr/bin/x", nil }); err != nil || got != "/usr/bin/x" {
		t.Fatalf("PATH: %q %v", got, err)
	}
	want := fakeScanner(t, dir, "exit 0")
	if got, err := Find(self, noPath); err != nil || got != want {
		t.Fatalf("next to self: %q %v", got, err)
	}
	// A file that is not executable does not count.
	os.Chmod(want, 0o644)
	if _, err := Find(self, noPath); err == nil {
		t.Fatal("a non-executable scanner was found")
	}
}

func TestRun(t *testing.T) {
	dir := t.TempDir()
	blocks := func(emit Emit) error {
		return emit(wire.NewBlock("a.go", "", 1, []byte("x := 1\n")))
	}
	cases := []struct {
		name, script, wantErr string
		findings              int
	}{
		{"clean", `cat > "$0.in"; echo '{"version":1,"findings":[]}'`, "", 0},
		{"finding", `cat >/dev/null; echo '{"version":1,"findings":[{"file":"a.go","line":1,"rule":"r","preview":"x****"}]}'`, "", 1},
		{"error result", `cat >/dev/null; echo '{"version":1,"findings":[],"error":"gitleaks config .gitleaks.toml: key x: bad"}'; echo 'swarm-guard-secrets: gitleaks config .gitleaks.toml: key x: bad' >&2; exit 2`, "gitleaks config .gitleaks.toml: key x: bad", 0},
		{"crash", `echo 'panic: boom' >&2; exit 2`, "the secret scanner failed: panic: boom", 0},
		{"garbage", `cat >/dev/null; echo hello`, "answered something other than a result", 0},
		{"other version", `cat >/dev/null; echo '{"version":7,"findings":[]}'`, "protocol version 7, but this build speaks version 1", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			exe := fakeScanner(t, t.TempDir(), tc.script)
			res, err := Run(context.Background(), exe, wire.Request{Root: dir}, blocks)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || len(res.Findings) != tc.findings {
				t.Fatalf("findings %+v, err %v", res.Findings, err)
			}
		})
	}
	// The request stream: a versioned request line, then one line per block.
	exe := fakeScanner(t, dir, `cat > "$0.in"; echo '{"version":1,"findings":[]}'`)
	if _, err := Run(context.Background(), exe, wire.Request{Root: "/r", GitleaksAllow: true}, blocks); err != nil {
		t.Fatal(err)
	}
	sent, _ := os.ReadFile(exe + ".in")
	want := `{"version":1,"root":"/r","gitleaks_allow":true}` + "\n" + `{"file":"a.go","line":1,"text":"x := 1\n"}` + "\n"
	if string(sent) != want {
		t.Fatalf("sent\n%s\nwant\n%s", sent, want)
	}
	// An error while producing blocks wins over whatever the scanner says.
	boom := errors.New("git diff failed")
	if _, err := Run(context.Background(), exe, wire.Request{}, func(Emit) error { return boom }); !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	// Cancelling the context kills a scanner that hangs.
	slow := fakeScanner(t, t.TempDir(), `sleep 5`)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, slow, wire.Request{}, nil); err == nil {
		t.Fatal("a cancelled scan succeeded")
	}
}

// A scanner's output is read to its end, however long after the scanner
// exits it ends: on a loaded machine the last bytes can arrive long after
// the exit is seen, and a scan that gave up on them failed ("WaitDelay
// expired"). Here a child of the scanner writes the result a second after
// the scanner itself has exited; the second stands for a slow machine and
// decides nothing: the result is read whatever the delay.
func TestRunReadsOutputToItsEnd(t *testing.T) {
	exe := fakeScanner(t, t.TempDir(), `exec 3<&0; (cat <&3 >/dev/null; sleep 1; echo '{"version":1,"findings":[]}') & exit 0`)
	res, err := Run(context.Background(), exe, wire.Request{}, nil)
	if err != nil || res.Findings == nil {
		t.Fatalf("findings %v, err %v", res.Findings, err)
	}
}

// A stopped scan returns at once, even when the scanner left a child
// behind that holds its output open: the hook never waits for that child.
func TestRunStoppedWithStrayChild(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "child.pid")
	exe := fakeScanner(t, dir, `sleep 300 & echo $! > "$0.tmp" && mv "$0.tmp" `+pidFile+`; wait`)
	t.Cleanup(func() {
		if data, err := os.ReadFile(pidFile); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Stop the scan once the stray child runs (its pid file is written
	// whole, by a rename).
	produce := func(Emit) error {
		for {
			if _, err := os.Stat(pidFile); err == nil {
				cancel()
				return nil
			}
			runtime.Gosched()
		}
	}
	_, err := Run(ctx, exe, wire.Request{}, produce)
	if err == nil || !strings.Contains(err.Error(), "was stopped") {
		t.Fatalf("err = %v, want a stopped scan", err)
	}
}
