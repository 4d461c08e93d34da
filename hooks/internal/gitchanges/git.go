package gitchanges

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/swarm-guard/swarm-guard/hooks/gitx"
)

// diffArgs pin the patch format against settings in a user's git config
// that would change it: prefixes (diff.noprefix, diff.mnemonicPrefix),
// colours, external diff drivers, textconv filters, relative paths, and
// quoted non-ASCII names.
var diffArgs = []string{"-U0", "--no-color", "--no-ext-diff", "--no-textconv", "--no-relative", "--src-prefix=a/", "--dst-prefix=b/"}

// Staged calls fn for the added lines of the staged changes in the
// repository containing dir. git runs with this process's environment,
// GIT_INDEX_FILE and GIT_DIR included.
func Staged(ctx context.Context, dir string, fn func(Hunk) error) error {
	args := append([]string{"-c", "core.quotePath=false", "diff", "--cached"}, diffArgs...)
	return run(ctx, dir, args, fn)
}

// Unstaged calls fn for the lines the worktree adds over the index in the
// given paths (relative to dir): what changed since the last git add.
// Untracked files have no such lines.
func Unstaged(ctx context.Context, dir string, paths []string, fn func(Hunk) error) error {
	args := append([]string{"-c", "core.quotePath=false", "diff"}, diffArgs...)
	args = append(append(args, "--"), paths...)
	return run(ctx, dir, args, fn)
}

// Range calls fn for the added lines of every commit in a revision range
// such as BASE..HEAD, oldest commit last (git log order). A line one
// commit adds and a later one removes is still reported: it is in the
// history. Merge commits show no patch of their own, as in gitleaks.
func Range(ctx context.Context, dir, revs string, fn func(Hunk) error) error {
	if revs == "" || strings.HasPrefix(revs, "-") {
		return fmt.Errorf("bad revision range %q; give one such as main..HEAD", revs)
	}
	args := append([]string{"-c", "core.quotePath=false", "log", "-p", "--no-show-signature", "--full-history", "--diff-filter=tuxdb", "--format=commit %H"}, diffArgs...)
	args = append(args, revs, "--")
	return run(ctx, dir, args, fn)
}

// Between calls fn for the lines head adds over its merge base with base
// (git diff base...head): what a pull request would add, each at its
// line in head's version of the file.
func Between(ctx context.Context, dir, base, head string) func(fn func(Hunk) error) error {
	return func(fn func(Hunk) error) error {
		if base == "" || head == "" || strings.HasPrefix(base, "-") || strings.HasPrefix(head, "-") {
			return fmt.Errorf("bad revisions %q and %q", base, head)
		}
		args := append([]string{"-c", "core.quotePath=false", "diff"}, diffArgs...)
		args = append(args, base+"..."+head, "--")
		return run(ctx, dir, args, fn)
	}
}

func run(ctx context.Context, dir string, args []string, fn func(Hunk) error) error {
	git := gitx.Runner{Dir: dir, Env: append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "GIT_PAGER=cat", "LC_ALL=C")}
	err := git.Stream(ctx, func(out io.Reader) error { return Parse(out, fn) }, args...)
	var ge *gitx.Error
	if !errors.As(err, &ge) {
		return err // nil, or Parse's own error
	}
	switch {
	case errors.Is(err, exec.ErrNotFound):
		return fmt.Errorf("git is not installed or not on PATH")
	case ge.Code == -1 && !errors.As(ge.Err, new(*exec.ExitError)):
		return fmt.Errorf("run git: %w", ge.Err) // git did not start
	}
	msg := ge.Stderr
	if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
		msg = msg[i+1:]
	}
	if msg == "" {
		if ge.Err != nil {
			msg = ge.Err.Error()
		} else {
			msg = fmt.Sprintf("exit status %d", ge.Code)
		}
	}
	return fmt.Errorf("git %s failed: %s", args[2], msg)
}
