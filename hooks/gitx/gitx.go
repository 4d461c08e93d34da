package gitx

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

// localEnvVars is `git rev-parse --local-env-vars` of git 2.39, plus the
// numbered GIT_CONFIG_KEY_n/GIT_CONFIG_VALUE_n that go with
// GIT_CONFIG_COUNT. Listed here rather than asked for, to save a process.
var localEnvVars = []string{
	"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CONFIG", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT",
	"GIT_OBJECT_DIRECTORY", "GIT_DIR", "GIT_WORK_TREE", "GIT_IMPLICIT_WORK_TREE", "GIT_GRAFT_FILE",
	"GIT_INDEX_FILE", "GIT_NO_REPLACE_OBJECTS", "GIT_REPLACE_REF_BASE", "GIT_PREFIX",
	"GIT_INTERNAL_SUPER_PREFIX", "GIT_SHALLOW_FILE", "GIT_COMMON_DIR",
}

// Runner runs git commands.
type Runner struct {
	Dir string // working directory; "" is the current one
	// Env is the environment; nil means this process's.
	Env []string
	// Isolate drops git's repository-local variables, so that the command
	// works on Dir's repository even when called from a hook of another.
	Isolate bool
	// Stdin is the command's input; nil means none.
	Stdin io.Reader
}

// Error is a git command that failed.
type Error struct {
	Args   []string
	Code   int    // exit code; -1 when git could not be started
	Stderr string // git's message, trimmed
	Err    error
}

func (e *Error) Error() string {
	msg := e.Stderr
	if msg == "" && e.Err != nil {
		msg = e.Err.Error()
	}
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return fmt.Sprintf("git %s: %s", strings.Join(e.Args, " "), msg)
}

func (e *Error) Unwrap() error { return e.Err }

// Output runs git with args and returns its standard output. A non-zero
// exit is an *Error; on any failure the output is what git printed
// before it failed.
func (r Runner) Output(args ...string) ([]byte, error) {
	return r.OutputContext(context.Background(), args...)
}

// OutputContext is Output bounded by ctx: git is killed when ctx ends.
func (r Runner) OutputContext(ctx context.Context, args ...string) ([]byte, error) {
	out, code, stderr, err := r.run(ctx, args)
	if err != nil {
		return out, err
	}
	if code != 0 {
		return out, &Error{Args: args, Code: code, Stderr: stderr}
	}
	return out, nil
}

// ExitCode runs git with args and returns its exit code, for commands
// whose answer is the code (merge-base --is-ancestor, config --get). The
// error is only for a git that could not be run.
func (r Runner) ExitCode(args ...string) (int, string, error) {
	_, code, stderr, err := r.run(context.Background(), args)
	return code, stderr, err
}

// Stream runs git with args and hands its standard output to read while
// git runs, for output too large to hold (git log -p). When read fails,
// git is killed and read's error returned as it is; otherwise a git that
// failed is an *Error.
func (r Runner) Stream(ctx context.Context, read func(io.Reader) error, args ...string) error {
	cmd := r.command(ctx, args)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return &Error{Args: args, Code: -1, Err: err}
	}
	if err := cmd.Start(); err != nil {
		return &Error{Args: args, Code: -1, Err: err}
	}
	readErr := read(stdout)
	if readErr != nil {
		// Stop git before waiting for it: it may be blocked writing to a
		// pipe nobody reads any more.
		_ = cmd.Process.Kill()
	}
	waitErr := cmd.Wait()
	if readErr != nil {
		return readErr
	}
	if waitErr != nil {
		return exitError(args, waitErr, strings.TrimSpace(errb.String()))
	}
	return nil
}

func (r Runner) command(ctx context.Context, args []string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = r.Dir
	env := r.Env
	if env == nil {
		env = os.Environ()
	}
	if r.Isolate {
		env = withoutLocalVars(env)
	}
	cmd.Env = env
	cmd.Stdin = r.Stdin
	return cmd
}

func (r Runner) run(ctx context.Context, args []string) (stdout []byte, code int, stderr string, err error) {
	cmd := r.command(ctx, args)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	runErr := cmd.Run()
	stderr = strings.TrimSpace(errb.String())
	if runErr == nil {
		return out.Bytes(), 0, stderr, nil
	}
	e := exitError(args, runErr, stderr)
	if e.Code < 0 {
		return out.Bytes(), -1, "", e
	}
	return out.Bytes(), e.Code, stderr, nil
}

// exitError is the *Error of a git that ran and failed: its exit code,
// or -1 with the cause when it did not exit by itself (killed).
func exitError(args []string, err error, stderr string) *Error {
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.Exited() {
		return &Error{Args: args, Code: ee.ExitCode(), Stderr: stderr}
	}
	return &Error{Args: args, Code: -1, Stderr: stderr, Err: err}
}

func withoutLocalVars(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if isLocalVar(name) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

func isLocalVar(name string) bool {
	if strings.HasPrefix(name, "GIT_CONFIG_KEY_") || strings.HasPrefix(name, "GIT_CONFIG_VALUE_") {
		return true
	}
	for _, v := range localEnvVars {
		if v == name {
			return true
		}
	}
	return false
}
