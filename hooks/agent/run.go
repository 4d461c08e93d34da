package agent

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync/atomic"
	"syscall"
	"time"
)

// DefaultGrace is the time between SIGINT and SIGKILL when Limits.Grace is
// not set.
const DefaultGrace = 10 * time.Second

// maxLine bounds the memory one line may take. A longer line reaches the
// LineFunc in pieces of this size; only the last piece ends in a newline.
const maxLine = 64 << 20

// readBuffer is the size of the output reads: a whole grown pipe at once.
const readBuffer = 1 << 20

// pollEvery is how often a stopping supervisor checks whether the process
// group is gone once the agent itself has exited.
const pollEvery = 5 * time.Millisecond

// orphanWait is how long processes left in the group after the agent
// exited during a stop may take to die of the first signal before they get
// SIGTERM.
const orphanWait = 50 * time.Millisecond

// Command is the program to supervise.
type Command struct {
	Path   string   // the program; looked up in PATH when it has no slash
	Args   []string // its arguments, without the program name
	Env    []string // its whole environment
	Dir    string   // its working directory; "" for the current one
	Stdin  *os.File // nil gives it /dev/null
	Stderr io.Writer
}

// Limits say when the supervisor stops the agent by itself.
type Limits struct {
	Timeout     time.Duration // wall clock from the start; 0 means none
	IdleTimeout time.Duration // time without any output on stdout or stderr; 0 means none
	Grace       time.Duration // from SIGINT to SIGKILL, SIGTERM at half of it; 0 means DefaultGrace
	Clock       Clock         // what the limits are measured on; nil means the real clock
}

// StopReason says why the supervisor stopped the agent.
type StopReason string

const (
	NotStopped    StopReason = ""          // the agent exited by itself
	StopTimeout   StopReason = "timeout"   // Limits.Timeout
	StopIdle      StopReason = "idle"      // Limits.IdleTimeout
	StopRequested StopReason = "requested" // the LineFunc asked for it
	StopCanceled  StopReason = "canceled"  // the context was canceled
)

// Result is how the agent ended.
type Result struct {
	ExitCode   int            // the exit status; -1 when a signal ended the agent
	Signal     string         // the signal that ended the agent ("SIGKILL"), "" when it exited
	Stopped    StopReason     // why the supervisor stopped it
	LastSignal syscall.Signal // the strongest signal the supervisor sent to the group; 0 when none
	Orphans    bool           // processes were left in the group after the agent exited, and were stopped
	Duration   time.Duration  // from start until the agent and its output were gone
	// StopLatency is the time from the decision to stop until the process
	// group was gone and its output closed.
	StopLatency time.Duration
}

// LineFunc receives each line of the agent's standard output, with its
// newline (missing on an unterminated last line or a piece of an over-long
// one). The slice is only valid during the call. Returning true asks the
// supervisor to stop the agent. Calls come from one goroutine, in order,
// and all of them happen before Run returns.
type LineFunc func(line []byte) (stop bool)

// Run starts the program in its own process group and supervises it until
// it and everything it started in the group are gone. The error is only
// about starting it; how it ended is in the Result.
func Run(ctx context.Context, c Command, lim Limits, onLine LineFunc) (Result, error) {
	if lim.Grace <= 0 {
		lim.Grace = DefaultGrace
	}
	if lim.Clock == nil {
		lim.Clock = realClock{}
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return Result{}, fmt.Errorf("create output pipe: %w", err)
	}
	growPipe(outW)
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return Result{}, fmt.Errorf("create error pipe: %w", err)
	}
	cmd := exec.Command(c.Path, c.Args...)
	cmd.Env, cmd.Dir = c.Env, c.Dir
	if c.Stdin != nil {
		cmd.Stdin = c.Stdin
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	becomeSubreaper()
	s := &supervisor{clock: lim.Clock, start: lim.Clock.Now(), grace: lim.Grace, exited: make(chan struct{})}
	err = cmd.Start()
	// The child has its copies; ours would keep the pipes open forever.
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return Result{}, fmt.Errorf("start %s: %w", c.Path, err)
	}
	s.pgid = cmd.Process.Pid

	stopReq := make(chan struct{}, 1)
	outDone, errDone := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(outDone)
		s.readLines(outR, func(line []byte) {
			if onLine(line) {
				select {
				case stopReq <- struct{}{}:
				default:
				}
			}
		})
	}()
	go func() {
		defer close(errDone)
		s.copyErr(errR, c.Stderr)
	}()
	var waitErr error
	go func() {
		waitErr = cmd.Wait()
		close(s.exited)
	}()

	res := Result{Stopped: s.watch(ctx, lim, stopReq)}
	if res.Stopped != NotStopped {
		stopAt := s.clock.Now()
		s.stop()
		s.closeOutput(outR, errR, outDone, errDone)
		res.StopLatency = since(s.clock, stopAt)
	} else {
		if !s.groupGone() {
			res.Orphans = true
			s.stopOrphans()
		}
		s.closeOutput(outR, errR, outDone, errDone)
	}
	res.Duration = since(s.clock, s.start)
	res.LastSignal = s.sent
	res.ExitCode, res.Signal = exitStatus(cmd.ProcessState, waitErr)
	return res, nil
}

// LookPath finds a program the way Run will: in PATH when the name has no
// slash. Checking first lets a caller report a missing program once,
// instead of failing every attempt.
func LookPath(name string) (string, error) { return exec.LookPath(name) }

// supervisor is the state of one Run.
type supervisor struct {
	clock  Clock
	start  time.Time
	grace  time.Duration
	pgid   int
	exited chan struct{} // closed when the agent itself was reaped
	last   atomic.Int64  // nanoseconds since start of the last output
	sent   syscall.Signal
}

func (s *supervisor) touch() { s.last.Store(int64(since(s.clock, s.start))) }

// watch waits until the agent exits or a reason to stop it comes up.
func (s *supervisor) watch(ctx context.Context, lim Limits, stopReq <-chan struct{}) StopReason {
	var timeoutC, idleC <-chan time.Time
	if lim.Timeout > 0 {
		t := s.clock.NewTimer(lim.Timeout)
		defer t.Stop()
		timeoutC = t.C()
	}
	var idle Timer
	if lim.IdleTimeout > 0 {
		idle = s.clock.NewTimer(lim.IdleTimeout)
		defer idle.Stop()
		idleC = idle.C()
	}
	for {
		select {
		case <-s.exited:
			return NotStopped
		case <-stopReq:
			return StopRequested
		case <-ctx.Done():
			return StopCanceled
		case <-timeoutC:
			return StopTimeout
		case <-idleC:
			// Re-arming the timer on every line would cost more than
			// checking, when it fires, whether output came meanwhile.
			quiet := since(s.clock, s.start) - time.Duration(s.last.Load())
			if quiet >= lim.IdleTimeout {
				return StopIdle
			}
			idle.Reset(lim.IdleTimeout - quiet)
		}
	}
}

// signal sends sig to the whole process group and remembers the strongest
// signal delivered.
func (s *supervisor) signal(sig syscall.Signal) {
	if err := syscall.Kill(-s.pgid, sig); err != nil {
		return // ESRCH: the group is gone already
	}
	if strength(sig) > strength(s.sent) {
		s.sent = sig
	}
}

func strength(sig syscall.Signal) int {
	switch sig {
	case syscall.SIGINT:
		return 1
	case syscall.SIGTERM:
		return 2
	case syscall.SIGKILL:
		return 3
	}
	return 0
}

// stop escalates SIGINT, SIGTERM at half the grace period and SIGKILL at
// its end, until the agent and everything in its group are gone.
func (s *supervisor) stop() {
	s.signal(syscall.SIGINT)
	term := s.clock.NewTimer(s.grace / 2)
	defer term.Stop()
	kill := s.clock.NewTimer(s.grace)
	defer kill.Stop()
	var poll, orphans <-chan time.Time
	exited := s.exited
	for {
		select {
		case <-exited:
			exited = nil
			if s.groupGone() {
				return
			}
			// The agent is done. What is left gets a moment to finish
			// dying of the SIGINT; after that it is an orphan and gets
			// SIGTERM right away, not only at half the grace period.
			t := time.NewTicker(pollEvery)
			defer t.Stop()
			poll = t.C
			o := time.NewTimer(orphanWait)
			defer o.Stop()
			orphans = o.C
		case <-poll:
			if s.groupGone() {
				return
			}
		case <-orphans:
			s.signal(syscall.SIGTERM)
		case <-term.C():
			s.signal(syscall.SIGTERM)
		case <-kill.C():
			s.signal(syscall.SIGKILL)
			s.awaitAfterKill()
			return
		}
	}
}

// stopOrphans stops what is left in the group after the agent exited by
// itself: SIGTERM, then SIGKILL after half the grace period.
func (s *supervisor) stopOrphans() {
	s.signal(syscall.SIGTERM)
	deadline := s.clock.NewTimer(s.grace / 2)
	defer deadline.Stop()
	t := time.NewTicker(pollEvery)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			if s.groupGone() {
				return
			}
		case <-deadline.C():
			s.signal(syscall.SIGKILL)
			s.awaitAfterKill()
			return
		}
	}
}

// awaitAfterKill waits, briefly, for the agent to be reaped after SIGKILL.
// SIGKILL cannot be caught, but a process stuck in the kernel (a hung
// network file system) dies only when the kernel lets it.
func (s *supervisor) awaitAfterKill() {
	t := time.NewTimer(time.Second)
	defer t.Stop()
	select {
	case <-s.exited:
	case <-t.C:
		return
	}
	for range 20 {
		if s.groupGone() {
			return
		}
		time.Sleep(pollEvery)
	}
}

// groupGone reports whether no process of the group is left, collecting
// the orphans this process inherited as subreaper. Only call it once the
// agent itself was reaped: reaping the group before would steal its exit
// status from cmd.Wait.
func (s *supervisor) groupGone() bool {
	select {
	case <-s.exited:
	default:
		return false
	}
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-s.pgid, &ws, syscall.WNOHANG, nil)
		if pid <= 0 || err != nil {
			break
		}
	}
	return errors.Is(syscall.Kill(-s.pgid, 0), syscall.ESRCH)
}

// closeOutput waits for the output pipes to reach end of file, which
// happens when every process holding them is gone. A process outside the
// group (one that called setsid) could hold them forever, so after a while
// the pipes are closed from this side.
func (s *supervisor) closeOutput(outR, errR *os.File, outDone, errDone <-chan struct{}) {
	t := time.NewTimer(2 * time.Second)
	defer t.Stop()
	for _, done := range []<-chan struct{}{outDone, errDone} {
		select {
		case <-done:
		case <-t.C:
			outR.Close()
			errR.Close()
			<-outDone
			<-errDone
		}
	}
	outR.Close()
	errR.Close()
}

// readLines hands every line of r to deliver.
func (s *supervisor) readLines(r io.Reader, deliver func([]byte)) {
	br := bufio.NewReaderSize(r, readBuffer)
	var long []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(chunk) > 0 {
			s.touch()
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			long = append(long, chunk...)
			if len(long) >= maxLine {
				deliver(long)
				long = long[:0]
			}
			continue
		case len(long) > 0:
			long = append(long, chunk...)
			deliver(long)
			long = nil // do not keep a huge buffer alive
		case len(chunk) > 0:
			deliver(chunk)
		}
		if err != nil {
			return
		}
	}
}

// copyErr copies the agent's standard error, which also counts as output
// for the idle timeout.
func (s *supervisor) copyErr(r io.Reader, w io.Writer) {
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			s.touch()
			if w != nil {
				w.Write(buf[:n]) // a broken stderr must not stop the agent
			}
		}
		if err != nil {
			return
		}
	}
}

// exitStatus turns how the agent ended into an exit code and a signal name.
func exitStatus(ps *os.ProcessState, waitErr error) (int, string) {
	if ps == nil {
		return -1, ""
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return -1, SignalName(ws.Signal())
	}
	return ps.ExitCode(), ""
}

// SignalName is the conventional name of a signal: "SIGTERM".
func SignalName(sig syscall.Signal) string {
	switch sig {
	case 0:
		return ""
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGKILL:
		return "SIGKILL"
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGQUIT:
		return "SIGQUIT"
	case syscall.SIGABRT:
		return "SIGABRT"
	case syscall.SIGSEGV:
		return "SIGSEGV"
	case syscall.SIGPIPE:
		return "SIGPIPE"
	}
	return fmt.Sprintf("signal %d", int(sig))
}
