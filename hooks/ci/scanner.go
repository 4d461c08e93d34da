package ci

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/redact"
	"github.com/swarm-guard/swarm-guard/policy"
)

// SecretFinding is one secret the scanner found in a line the range adds.
// Preview is already redacted by the scanner; verify never sees or prints
// the secret itself.
type SecretFinding struct {
	File        string `json:"file"`
	Line        int    `json:"line"`
	Rule        string `json:"rule"`
	Commit      string `json:"commit"`
	Preview     string `json:"preview"`
	Fingerprint string `json:"fingerprint"`
}

// SecretScanner scans the lines the commits of a range add, including a
// secret one commit adds and a later one removes: it stays in history.
type SecretScanner interface {
	ScanRange(ctx context.Context, dir string, r Range) ([]SecretFinding, error)
}

// LineEmit receives the lines a commit adds to a file, starting at line,
// joined with newlines.
type LineEmit func(file, commit string, line int, text []byte) error

// PassScanner is a SecretScanner that can scan the lines verify's own log
// pass reads, so the history is read once instead of twice. pass runs the
// log pass and calls emit for every run of added lines.
type PassScanner interface {
	SecretScanner
	ScanPass(ctx context.Context, dir string, pol *policy.Policy, pass func(emit LineEmit) error) ([]SecretFinding, error)
}

// CommandScanner runs the secret scanner as a child process with the
// `swarm-guard scan` contract:
//
//	<Command...> --range BASE..HEAD --format json
//
// prints {"findings":[...]} and exits 0 when clean, 1 with findings and 2
// on an error. The gitleaks engine lives in the separate swarm-guard-secrets
// executable so that the light binary, which runs on every tool call, never
// links it.
type CommandScanner struct {
	Command []string // the program and its leading arguments, e.g. {"/usr/local/bin/swarm-guard", "scan"}
}

// scanOutput is the part of the scanner's JSON that verify reads.
type scanOutput struct {
	Findings []SecretFinding `json:"findings"`
}

// ScanRange runs the scanner in dir over r.
func (s CommandScanner) ScanRange(ctx context.Context, dir string, r Range) ([]SecretFinding, error) {
	if len(s.Command) == 0 {
		return nil, errors.New("no secret scanner command configured")
	}
	args := append(append([]string(nil), s.Command[1:]...), "--range", r.Base+".."+r.Head, "--format", "json")
	cmd := exec.CommandContext(ctx, s.Command[0], args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	name := strings.Join(s.Command, " ")
	switch status := exitStatus(err); {
	case err == nil, status == 1:
	case errors.Is(err, exec.ErrNotFound), status == -1 && stdout.Len() == 0 && stderr.Len() == 0:
		return nil, fmt.Errorf("cannot run the secret scanner %s: %w", name, err)
	default:
		msg := redact.String(lastLine(stderr.Bytes()))
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("the secret scan failed (%s, exit %d): %s", name, status, msg)
	}
	var out scanOutput
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		return nil, fmt.Errorf("the secret scanner %s printed something other than its JSON report: %w", name, err)
	}
	return out.Findings, nil
}

// lastLine is the last non-empty line of a child's stderr, cut to a
// readable length: the scanner's own one-line error message.
func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	s := strings.TrimSpace(lines[len(lines)-1])
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// exitStatus is the exit code of a finished command, or -1 when it did
// not run or was killed.
func exitStatus(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return -1
}
