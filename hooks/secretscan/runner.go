package secretscan

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/client"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/wire"
	"github.com/swarm-guard/swarm-guard/policy"
)

// Runner runs the scanner executable.
type Runner struct {
	// Self is the running swarm-guard executable; the scanner is looked
	// for next to it first.
	Self string
	// FindSelf, when set, gives Self when a scan first needs it: most
	// hook calls never scan, and finding the executable costs a readlink
	// and a walk of its path.
	FindSelf func() string
	// LookPath finds the scanner on PATH; nil means exec.LookPath.
	LookPath func(string) (string, error)
	// Server says to scan through the scan server (swarm-guard-secrets
	// --serve, started in the background when none answers): the hook
	// then pays no scanner start-up and no rule compilation.
	Server bool
	// Timeout bounds one scan before a call (a write, a web request, an MCP
	// tool's arguments); 0 means ContentTimeout. The hook gives it a share
	// of its decision deadline.
	Timeout time.Duration
}

// beforeCall is the context of one scan before a call: it ends after the
// runner's Timeout.
func (r Runner) beforeCall() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), r.timeout())
}

func (r Runner) timeout() time.Duration {
	if r.Timeout > 0 {
		return r.Timeout
	}
	return ContentTimeout
}

// run scans the blocks produce emits with the rules of root.
func (r Runner) run(ctx context.Context, root string, pol *policy.Policy, produce func(client.Emit) error) ([]wire.Finding, error) {
	self := r.Self
	if self == "" && r.FindSelf != nil {
		self = r.FindSelf()
	}
	exe, err := client.Find(self, r.LookPath)
	if err != nil {
		return nil, err
	}
	req := wire.Request{Root: root, GitleaksAllow: pol.Secrets.GitleaksAllow}
	if r.Server {
		sock := client.ServerSocket(exe)
		res, ok, err := client.RunServer(ctx, sock, req, produce)
		if ok {
			if err != nil {
				return nil, err
			}
			return res.Findings, nil
		}
		_ = client.StartServer(exe, sock) // for the next calls
	}
	res, err := client.Run(ctx, exe, req, produce)
	if err != nil {
		return nil, err
	}
	return res.Findings, nil
}

// RelPath names path for findings and path rules: slash-separated and
// relative to root when inside it, else absolute.
func RelPath(root, path string) string {
	if root != "" {
		if rel, err := filepath.Rel(root, path); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(filepath.Clean(path))
}

// nameIn is RelPath with symbolic links in path resolved when that puts
// it inside root: the root comes resolved from hookenv, while Claude Code
// names files as the agent spelled them.
func nameIn(root, path string, resolve func(string) string) string {
	rel := RelPath(root, path)
	if strings.HasPrefix(rel, "/") && resolve != nil {
		if r := RelPath(root, resolve(path)); !strings.HasPrefix(r, "/") {
			return r
		}
	}
	return rel
}

// allowed reports whether [secrets] allow_paths exempts a path given
// relative to the worktree root. Absolute paths (outside the worktree)
// never match: the globs are relative to the root.
func allowed(pol *policy.Policy, rel string) bool {
	if strings.HasPrefix(rel, "/") {
		return false
	}
	for _, g := range pol.Secrets.AllowPaths {
		if ok, _ := doublestar.Match(g, rel); ok {
			return true
		}
	}
	return false
}

// plural returns "1 secret" or "2 secrets".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
