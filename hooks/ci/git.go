package ci

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"

	"github.com/swarm-guard/swarm-guard/hooks/gitx"
)

// git runs git commands in one worktree, through gitx.
type git struct{ dir string }

func (g git) runner() gitx.Runner { return gitx.Runner{Dir: g.dir} }

// output runs git and returns its standard output without the final
// newline. A failure becomes an error naming the command and quoting the
// first line git printed on stderr.
func (g git) output(ctx context.Context, args ...string) (string, error) {
	out, err := g.runner().OutputContext(ctx, args...)
	if err != nil {
		return "", gitError(err)
	}
	return strings.TrimRight(string(out), "\n"), nil
}

// gitError describes a failed git command (a *gitx.Error) in one line,
// in verify's words; any other error is returned as it is.
func gitError(err error) error {
	var ge *gitx.Error
	if !errors.As(err, &ge) {
		return err
	}
	if errors.Is(err, exec.ErrNotFound) {
		return errors.New("git is not installed or not on PATH; verify needs it")
	}
	name := "git"
	if len(ge.Args) > 0 {
		name += " " + ge.Args[0]
	}
	if msg := firstLine([]byte(ge.Stderr)); msg != "" {
		return fmt.Errorf("%s failed: %s", name, msg)
	}
	if ge.Err != nil {
		return fmt.Errorf("%s failed: %w", name, ge.Err)
	}
	return fmt.Errorf("%s failed: exit status %d", name, ge.Code)
}

func firstLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return s
}
