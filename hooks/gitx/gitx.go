package gitx

import (
	"bytes"
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
// exit is an *Error.
func (r Runner) Output(args ...string) ([]byte, error) {
	out, code, stderr, err := r.run(args)
	if err != nil {
		return nil, err
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
	_, code, stderr, err := r.run(args)
	return code, stderr, err
}

func (r Runner) run(args []string) (stdout []byte, code int, stderr string, err error) {
	cmd := exec.Command("git", args...)
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
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	runErr := cmd.Run()
	var ee *exec.ExitError
	switch {
	case runErr == nil:
		return out.Bytes(), 0, strings.TrimSpace(errb.String()), nil
	case errors.As(runErr, &ee) && ee.Exited():
		return out.Bytes(), ee.ExitCode(), strings.TrimSpace(errb.String()), nil
	default:
		return nil, -1, "", &Error{Args: args, Code: -1, Stderr: strings.TrimSpace(errb.String()), Err: runErr}
	}
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
