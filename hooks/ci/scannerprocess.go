package ci

import (
	"context"
	"path/filepath"

	"github.com/swarm-guard/swarm-guard/hooks/gitrepo"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan"
	"github.com/swarm-guard/swarm-guard/policy"
)

// ScannerProcess is the real secret scanner for verify: the
// swarm-guard-secrets process. Its ScanPass feeds it the lines verify's
// own log pass reads, so the history is read once; ScanRange (the separate
// `swarm-guard scan --range` process of CommandScanner) is the fallback.
type ScannerProcess struct {
	CommandScanner
	Runner secretscan.Runner
}

// ScanPass implements PassScanner. The rules are those of the worktree
// (.gitleaks.toml, .gitleaksignore); allow_paths and gitleaks_allow come
// from pol, the policy verify applies.
func (s ScannerProcess) ScanPass(ctx context.Context, dir string, pol *policy.Policy, pass func(LineEmit) error) ([]SecretFinding, error) {
	root := dir
	if repo, ok := gitrepo.Find(dir); ok {
		root = repo.Root
	}
	found, err := s.Runner.ScanBlocks(ctx, filepath.Clean(root), pol, func(emit secretscan.BlockEmit) error {
		return pass(LineEmit(emit))
	})
	if err != nil {
		return nil, err
	}
	out := make([]SecretFinding, len(found))
	for i, f := range found {
		out[i] = SecretFinding{File: f.File, Line: f.Line, Rule: f.Rule, Commit: f.Commit, Preview: f.Preview, Fingerprint: f.Fingerprint}
	}
	return out, nil
}
