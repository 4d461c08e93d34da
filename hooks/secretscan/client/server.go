package client

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/internal/rundir"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/wire"
)

// ServerSocket is the socket of the scan server (swarm-guard-secrets
// --serve) for the scanner at exe: one per user and scanner build (path,
// size, modification time), so an upgraded scanner gets a server of its
// own. "" when exe cannot be read or no socket path fits.
func ServerSocket(exe string) string {
	fi, err := os.Stat(exe)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(fmt.Appendf(nil, "%s\x00%d\x00%d", exe, fi.Size(), fi.ModTime().UnixNano()))
	return rundir.Socket("secrets-" + hex.EncodeToString(sum[:8]) + ".sock")
}

// RunServer is Run through the scan server at socket. ok is false when no
// server answered in full (none runs, it went away, it answered garbage):
// the caller then runs the scanner process, and produce runs again. An
// error with ok true is the scanner's own (a broken .gitleaks.toml).
func RunServer(ctx context.Context, socket string, req wire.Request, produce func(Emit) error) (res wire.Result, ok bool, err error) {
	if socket == "" || !rundir.Own(filepath.Dir(socket)) {
		return wire.Result{}, false, nil
	}
	d := net.Dialer{Timeout: 200 * time.Millisecond}
	c, err := d.DialContext(ctx, "unix", socket)
	if err != nil {
		return wire.Result{}, false, nil
	}
	conn := c.(*net.UnixConn)
	defer conn.Close()
	if dl, has := ctx.Deadline(); has {
		_ = conn.SetDeadline(dl)
	}
	req.Version = wire.Version
	if sendErr := sendTo(conn, req, produce); sendErr != nil {
		if errors.Is(sendErr, errPipe) {
			return wire.Result{}, false, nil
		}
		return wire.Result{}, true, sendErr // our side failed (a file could not be read)
	}
	if err := conn.CloseWrite(); err != nil {
		return wire.Result{}, false, nil
	}
	data, err := io.ReadAll(io.LimitReader(conn, 64<<20))
	if err != nil {
		return wire.Result{}, false, nil
	}
	if res, err = wire.DecodeResult(data); err != nil || res.Version != wire.Version {
		return wire.Result{}, false, nil
	}
	if res.Error != "" {
		return wire.Result{}, true, errors.New(res.Error)
	}
	if res.Findings == nil {
		res.Findings = []wire.Finding{}
	}
	return res, true, nil
}

// sendTo writes the request and the blocks, without closing w.
func sendTo(w io.Writer, req wire.Request, produce func(Emit) error) error {
	enc := wire.NewEncoder(w)
	write := func(v any) error {
		if err := enc.Encode(v); err != nil {
			return fmt.Errorf("%w: %v", errPipe, err)
		}
		return nil
	}
	err := write(req)
	if err == nil && produce != nil {
		err = produce(func(b wire.Block) error { return write(b) })
	}
	if err == nil {
		if ferr := enc.Flush(); ferr != nil {
			err = fmt.Errorf("%w: %v", errPipe, ferr)
		}
	}
	return err
}

// StartServer starts `exe --serve socket` in the background, detached from
// the hook's pipes, unless one was started in the last ten seconds (a
// server that cannot start is not retried on every call).
func StartServer(exe, socket string) error {
	if socket == "" {
		return errors.New("no socket path")
	}
	dir := filepath.Dir(socket)
	if err := rundir.Make(dir); err != nil {
		return err
	}
	mark := socket + ".started"
	if fi, err := os.Stat(mark); err == nil && time.Since(fi.ModTime()) < 10*time.Second {
		return nil
	}
	_ = os.WriteFile(mark, nil, 0o600)
	_ = os.Chtimes(mark, time.Now(), time.Now())
	cmd := exec.Command(exe, "--serve", socket)
	detach(cmd)
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}
