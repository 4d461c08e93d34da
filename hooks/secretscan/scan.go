package secretscan

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/swarm-guard/swarm-guard/guard/redact"
	"github.com/swarm-guard/swarm-guard/hooks/internal/conflict"
	"github.com/swarm-guard/swarm-guard/hooks/internal/gitchanges"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/client"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/format"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/internal/envcreds"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/internal/files"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/wire"
	"github.com/swarm-guard/swarm-guard/policy"
)

// ScanRequest says what `swarm-guard scan` scans: the staged changes, the
// commits of a range, or paths (files and directories).
type ScanRequest struct {
	Dir    string // where the command runs; relative paths start here
	Root   string // the worktree root, "" outside a repository
	Staged bool
	Range  string
	Paths  []string
	Policy *policy.Policy
	Runner Runner
}

// ErrIncomplete marks a scan that could not read every file.
var ErrIncomplete = errors.New("some files could not be read, so the scan is incomplete")

// Scan runs `swarm-guard scan`. [secrets] allow_paths and gitleaks_allow
// apply; the door switches do not, since a scan is asked for explicitly.
// With unreadable files the report is complete otherwise and the error is
// ErrIncomplete.
func Scan(ctx context.Context, r ScanRequest) (format.Report, error) {
	var rep format.Report
	var produce func(client.Emit) error
	switch {
	case r.Staged:
		produce = func(emit client.Emit) error { return stagedBlocks(ctx, r.Dir, r.Policy, emit, nil, nil, nil, &rep) }
	case r.Range != "":
		produce = func(emit client.Emit) error {
			return gitchanges.Range(ctx, r.Dir, r.Range, func(h gitchanges.Hunk) error {
				return emitHunk(h, r.Policy, emit, &rep)
			})
		}
	default:
		paths := r.Paths
		if len(paths) == 0 {
			paths = []string{"."}
		}
		for _, p := range paths {
			if _, err := os.Stat(absIn(r.Dir, p)); err != nil {
				return rep, fmt.Errorf("cannot scan %s: %s", p, errText(err))
			}
		}
		produce = func(emit client.Emit) error { return pathBlocks(r, paths, emit, &rep) }
	}
	findings, err := r.Runner.run(ctx, r.Root, r.Policy, produce)
	if err != nil {
		return rep, err
	}
	rep.Findings = append(rep.Findings, findings...)
	for _, s := range rep.Skipped {
		if s.Reason == files.ReasonUnreadable {
			return rep, ErrIncomplete
		}
	}
	return rep, nil
}

func absIn(dir, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

func errText(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// pathBlocks emits the files under the requested paths. Binary files met
// in a directory are skipped quietly (images, archives); a binary file
// named on the command line is reported as not scanned.
func pathBlocks(r ScanRequest, paths []string, emit client.Emit, rep *format.Report) error {
	for _, arg := range paths {
		abs := absIn(r.Dir, arg)
		named := true
		if fi, err := os.Stat(abs); err == nil && fi.IsDir() {
			named = false
		}
		err := files.Walk(abs, func(p string) error {
			rel := RelPath(r.Root, p)
			if r.Root == "" {
				rel = RelPath(r.Dir, p)
			}
			if allowed(r.Policy, rel) {
				return nil
			}
			skip, err := files.Read(p, 0, func(piece files.Piece) error {
				return emit(wire.NewBlock(rel, "", piece.Line, piece.Data))
			})
			if err != nil {
				return err
			}
			if skip != nil && (named || skip.Reason != files.ReasonBinary) {
				skip.Path = rel
				rep.Skipped = append(rep.Skipped, *skip)
			}
			return nil
		}, func(s files.Skip) {
			s.Path = RelPath(r.Root, s.Path)
			rep.Skipped = append(rep.Skipped, s)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// stagedBlocks emits the staged additions; with markers set it also feeds
// them to the conflict-marker finder, and with creds it looks for their
// values (found collects those).
func stagedBlocks(ctx context.Context, dir string, pol *policy.Policy, emit client.Emit, markers *conflict.Finder, creds []envcreds.Credential, found *[]wire.Finding, rep *format.Report) error {
	return gitchanges.Staged(ctx, dir, func(h gitchanges.Hunk) error {
		if markers != nil && !h.Binary && !allowed(pol, h.File) {
			for i, l := range h.Lines() {
				markers.Add(h.File, h.Line+i, l)
			}
		}
		if len(creds) > 0 && !h.Binary && !allowed(pol, h.File) {
			for _, f := range writtenCredentials(h.File, string(h.Text), creds, pol) {
				f.Line += h.Line - 1
				f.EndLine = f.Line
				f.Fingerprint = fmt.Sprintf("%s:%s:%d", f.File, f.Rule, f.Line)
				*found = append(*found, f)
			}
		}
		if emit == nil {
			return nil
		}
		return emitHunk(h, pol, emit, rep)
	})
}

// emitHunk sends one hunk's added lines to the scanner.
func emitHunk(h gitchanges.Hunk, pol *policy.Policy, emit client.Emit, rep *format.Report) error {
	if h.Binary || allowed(pol, h.File) {
		return nil
	}
	return emit(wire.NewBlock(h.File, h.Commit, h.Line, h.Text))
}

// PreCommitRequest is the pre-commit hook's scan of the index.
type PreCommitRequest struct {
	Dir    string // the worktree git runs the hook in
	Root   string
	Policy *policy.Policy
	Runner Runner
	// Environ lists the commit's environment (os.Environ when nil): git
	// runs the hook with the committer's, so the values of its credential
	// variables (package envcreds) are secrets no gitleaks rule may know.
	Environ func() []string
}

// PreCommit scans the staged additions for secrets ([secrets] pre_commit)
// and unresolved conflict markers ([secrets] conflict_markers). Marker
// findings carry rule conflict.Rule. The scanner runs only when secrets
// are scanned, so a missing scanner does not matter when that door is off.
func PreCommit(ctx context.Context, r PreCommitRequest) ([]wire.Finding, error) {
	pol := r.Policy
	if !pol.Secrets.PreCommit && !pol.Secrets.ConflictMarkers {
		return nil, nil
	}
	var markers *conflict.Finder
	if pol.Secrets.ConflictMarkers {
		markers = conflict.NewFinder()
	}
	var rep format.Report
	var secrets []wire.Finding
	if pol.Secrets.PreCommit {
		creds := environCredentials(r.Environ)
		var values []wire.Finding
		var err error
		secrets, err = r.Runner.run(ctx, r.Root, pol, func(emit client.Emit) error {
			return stagedBlocks(ctx, r.Dir, pol, emit, markers, creds, &values, &rep)
		})
		if err != nil {
			return nil, err
		}
		secrets = append(secrets, values...)
	} else if err := stagedBlocks(ctx, r.Dir, pol, nil, markers, nil, nil, &rep); err != nil {
		return nil, err
	}
	var out []wire.Finding
	if markers != nil {
		for _, m := range markers.Markers() {
			out = append(out, wire.Finding{File: m.File, Line: m.Line, EndLine: m.Line, Column: 1, Rule: conflict.Rule,
				Preview: redact.String(m.Text), Fingerprint: fmt.Sprintf("%s:%s:%d", m.File, conflict.Rule, m.Line)})
		}
	}
	return append(out, secrets...), nil
}

// BlockEmit hands the scanner the lines a caller read itself: lines
// added to file by commit, starting at line, joined with newlines.
type BlockEmit func(file, commit string, line int, text []byte) error

// ScanBlocks scans what produce emits, with the policy's allow_paths
// applied: verify reads the history once and feeds its added lines here,
// instead of a second `git log -p` pass.
func (r Runner) ScanBlocks(ctx context.Context, root string, pol *policy.Policy, produce func(BlockEmit) error) ([]wire.Finding, error) {
	return r.run(ctx, root, pol, func(emit client.Emit) error {
		return produce(func(file, commit string, line int, text []byte) error {
			if allowed(pol, file) {
				return nil
			}
			return emit(wire.NewBlock(file, commit, line, text))
		})
	})
}
