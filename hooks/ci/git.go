package ci

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// git runs git commands in one worktree.
type git struct{ dir string }

func (g git) command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = g.dir
	return cmd
}

// output runs git and returns its standard output without the final
// newline. A failure becomes an error naming the command and quoting the
// first line git printed on stderr.
func (g git) output(ctx context.Context, args ...string) (string, error) {
	cmd := g.command(ctx, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", gitError(args, err, stderr.Bytes())
	}
	return strings.TrimRight(string(out), "\n"), nil
}

// gitError describes a failed git command in one line.
func gitError(args []string, err error, stderr []byte) error {
	if errors.Is(err, exec.ErrNotFound) {
		return errors.New("git is not installed or not on PATH; verify needs it")
	}
	name := "git"
	if len(args) > 0 {
		name += " " + args[0]
	}
	if msg := firstLine(stderr); msg != "" {
		return fmt.Errorf("%s failed: %s", name, msg)
	}
	return fmt.Errorf("%s failed: %w", name, err)
}

func firstLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return s
}

// exitStatus is the exit code of a finished git command, or -1 when it did
// not run or was killed.
func exitStatus(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return -1
}
