package client

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/wire"
)

// ExecutableName is the scanner's file name.
const ExecutableName = "swarm-guard-secrets"

// NotFoundError says where the scanner was looked for.
type NotFoundError struct {
	Self string // the swarm-guard executable the scanner should sit next to
}

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("%s not found next to %s or on PATH; run `make install` (it installs both executables)", ExecutableName, e.Self)
}

// Find returns the scanner's path: next to self (the running swarm-guard
// executable), else on PATH through lookPath (nil means exec.LookPath).
func Find(self string, lookPath func(string) (string, error)) (string, error) {
	if self != "" {
		p := filepath.Join(filepath.Dir(self), ExecutableName)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p, nil
		}
	}
	if lookPath == nil {
		lookPath = exec.LookPath
	}
	if p, err := lookPath(ExecutableName); err == nil {
		return p, nil
	}
	return "", &NotFoundError{Self: self}
}

// Emit sends one block to the scanner.
type Emit func(wire.Block) error

// Run starts the scanner at exe, sends req and the blocks produce emits,
// and returns the scanner's result. Cancelling ctx kills the scanner.
//
// An error from produce (git failed, a file could not be read) ends the
// scan and is returned as is. A failing scanner is an error with the
// scanner's own one-line message.
func Run(ctx context.Context, exe string, req wire.Request, produce func(Emit) error) (wire.Result, error) {
	req.Version = wire.Version
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe)
	// The scanner's output comes through pipes this function reads itself,
	// to their end, before it waits for the scanner: a scanner that exits
	// has always been read in full, however slowly this process gets the
	// CPU. (Buffers given to exec would be filled by goroutines that Wait
	// waits for, bounded only by a WaitDelay that a loaded machine
	// overruns.) Only a stopped scan (ctx done) stops reading early: its
	// pipes are closed then, so a child the scanner left behind holding
	// them open cannot keep the hook waiting.
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return wire.Result{}, fmt.Errorf("cannot start %s: %w", exe, err)
	}
	outR, err := cmd.StdoutPipe()
	if err != nil {
		return wire.Result{}, fmt.Errorf("cannot start %s: %w", exe, err)
	}
	errR, err := cmd.StderrPipe()
	if err != nil {
		return wire.Result{}, fmt.Errorf("cannot start %s: %w", exe, err)
	}
	if err := cmd.Start(); err != nil {
		return wire.Result{}, fmt.Errorf("cannot start the secret scanner %s: %w", exe, err)
	}
	stopReading := context.AfterFunc(ctx, func() {
		outR.Close()
		errR.Close()
	})
	defer stopReading()
	var stdout bytes.Buffer
	stderr := &tailBuffer{max: 8 << 10}
	var reading sync.WaitGroup
	reading.Go(func() { _, _ = io.Copy(&stdout, outR) })
	reading.Go(func() { _, _ = io.Copy(stderr, errR) })
	sendErr := send(stdin, req, produce)
	reading.Wait()
	waitErr := cmd.Wait()

	res, decodeErr := wire.DecodeResult(stdout.Bytes())
	switch {
	case sendErr != nil && !errors.Is(sendErr, errPipe):
		return wire.Result{}, sendErr // our side failed; the scanner's view does not matter
	case ctx.Err() != nil:
		return wire.Result{}, fmt.Errorf("the secret scanner %s was stopped: %w", exe, ctx.Err())
	case decodeErr == nil && res.Error != "":
		return wire.Result{}, errors.New(res.Error)
	case waitErr != nil:
		if msg := stderr.lastLine(); msg != "" {
			return wire.Result{}, fmt.Errorf("the secret scanner failed: %s", msg)
		}
		return wire.Result{}, fmt.Errorf("the secret scanner %s failed: %w", exe, waitErr)
	case decodeErr != nil:
		return wire.Result{}, fmt.Errorf("the secret scanner %s answered something other than a result (%v); reinstall it (make install)", exe, decodeErr)
	case res.Version != wire.Version:
		return wire.Result{}, wire.VersionError(res.Version)
	case sendErr != nil:
		return wire.Result{}, fmt.Errorf("the secret scanner %s stopped reading: %w", exe, sendErr)
	}
	if res.Findings == nil {
		res.Findings = []wire.Finding{}
	}
	return res, nil
}

// errPipe marks a write that failed because the scanner went away; its
// own result then explains why.
var errPipe = errors.New("the scanner closed its input")

// send writes the request and the blocks to the scanner's stdin, then
// closes it: the end of the input is the end of the request.
func send(stdin io.WriteCloser, req wire.Request, produce func(Emit) error) error {
	err := sendTo(stdin, req, produce)
	if cerr := stdin.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("%w: %v", errPipe, cerr)
	}
	return err
}

// tailBuffer keeps the last max bytes written: the scanner's last stderr
// line is its error message, and nothing else of it matters.
type tailBuffer struct {
	max int
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = t.buf[len(t.buf)-t.max:]
	}
	return len(p), nil
}

func (t *tailBuffer) lastLine() string {
	lines := strings.Split(strings.TrimSpace(string(t.buf)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
