package ci

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Range is the set of commits verify checks: those reachable from Head and
// not from Base, as `git log Base..Head` lists them.
type Range struct {
	Spec string `json:"spec"` // as given with --range, or "<merge base>..HEAD"
	Base string `json:"base"` // full commit id
	Head string `json:"head"` // full commit id
	How  string `json:"how"`  // how the range was chosen, for the report
}

// fetchHint is the fix for every "history is missing" error; CI checkouts
// are shallow unless told otherwise.
const fetchHint = "fetch full history (actions/checkout: fetch-depth: 0; elsewhere git fetch --unshallow)"

// ErrShallow means the repository is a shallow clone: the range's history
// may be cut off, so verify can neither pass nor fail it.
var ErrShallow = errors.New("this is a shallow clone, so the commits to verify may be missing; " + fetchHint)

// checkFullHistory fails when dir is not a git worktree or is shallow.
func checkFullHistory(ctx context.Context, g git) error {
	out, err := g.output(ctx, "rev-parse", "--is-shallow-repository")
	if err != nil {
		return fmt.Errorf("%s is not a git repository that verify can read: %w", g.dir, err)
	}
	if out == "true" {
		return ErrShallow
	}
	return nil
}

// resolveRange turns --range (or, when spec is empty, the default: the
// merge base with the default branch's remote-tracking ref up to HEAD)
// into commit ids.
func resolveRange(ctx context.Context, g git, spec string) (Range, error) {
	if spec == "" {
		return defaultRange(ctx, g)
	}
	if strings.Contains(spec, "...") {
		return Range{}, fmt.Errorf("--range %q: use two dots, BASE..HEAD (BASE..HEAD already excludes everything reachable from BASE)", spec)
	}
	base, head, ok := strings.Cut(spec, "..")
	if !ok || base == "" || head == "" {
		return Range{}, fmt.Errorf("--range %q: want BASE..HEAD, for example origin/main..HEAD", spec)
	}
	r := Range{Spec: spec, How: "--range " + spec}
	var err error
	if r.Base, err = resolveCommit(ctx, g, base, "base"); err != nil {
		return Range{}, err
	}
	if r.Head, err = resolveCommit(ctx, g, head, "head"); err != nil {
		return Range{}, err
	}
	return r, nil
}

// resolveCommit returns the full id of the commit rev names.
func resolveCommit(ctx context.Context, g git, rev, role string) (string, error) {
	if strings.HasPrefix(rev, "-") {
		return "", fmt.Errorf("the range's %s %q is not a revision", role, rev)
	}
	id, err := g.output(ctx, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	if err != nil || id == "" {
		return "", fmt.Errorf("the range's %s %q is not a commit in this repository; in CI, %s", role, rev, fetchHint)
	}
	return id, nil
}

// defaultRange is merge-base(default branch's remote-tracking ref, HEAD)..HEAD.
func defaultRange(ctx context.Context, g git) (Range, error) {
	ref, how, err := defaultBranchRef(ctx, g)
	if err != nil {
		return Range{}, err
	}
	head, err := resolveCommit(ctx, g, "HEAD", "head")
	if err != nil {
		return Range{}, err
	}
	base, err := g.output(ctx, "merge-base", ref, head)
	if err != nil || base == "" {
		return Range{}, fmt.Errorf("%s and HEAD have no common ancestor here; %s, or pass --range BASE..HEAD", ref, fetchHint)
	}
	short := strings.TrimPrefix(ref, "refs/remotes/")
	return Range{
		Spec: shortID(base) + "..HEAD",
		Base: base,
		Head: head,
		How:  fmt.Sprintf("merge base of HEAD and %s (%s)", short, how),
	}, nil
}

// defaultBranchRef finds the remote-tracking ref of the default branch:
// what origin/HEAD points to, else origin/main, else origin/master.
func defaultBranchRef(ctx context.Context, g git) (ref, how string, err error) {
	if target, err := g.output(ctx, "symbolic-ref", "--quiet", "refs/remotes/origin/HEAD"); err == nil && target != "" {
		if _, err := g.output(ctx, "rev-parse", "--verify", "--quiet", target+"^{commit}"); err == nil {
			return target, "origin/HEAD points to it", nil
		}
	}
	for _, cand := range []string{"refs/remotes/origin/main", "refs/remotes/origin/master"} {
		if _, err := g.output(ctx, "rev-parse", "--verify", "--quiet", cand+"^{commit}"); err == nil {
			return cand, "origin/HEAD is not set; " + strings.TrimPrefix(cand, "refs/remotes/") + " exists", nil
		}
	}
	return "", "", fmt.Errorf("no remote-tracking default branch (origin/HEAD, origin/main or origin/master) to compare HEAD with; pass --range BASE..HEAD, or %s", fetchHint)
}

// shortID abbreviates a commit id for people; reports keep the full id too.
func shortID(id string) string {
	if len(id) > 7 {
		return id[:7]
	}
	return id
}
