package secretscan

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/swarm-guard/swarm-guard/guard"
	"github.com/swarm-guard/swarm-guard/hooks/internal/toolcontent"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/client"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/internal/envcreds"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/keywords"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/wire"
	"github.com/swarm-guard/swarm-guard/policy"
)

// ContentTimeout bounds the scan before a write unless the Runner says
// otherwise. It stays below the hook's own one-second deadline so that a
// slow scan ends with a message about the scan rather than a generic
// timeout, and the scanner is killed.
const ContentTimeout = 900 * time.Millisecond

// ContentRequest is a file tool call about to run.
type ContentRequest struct {
	Tool      string // Write, Edit, MultiEdit or NotebookEdit
	ToolInput []byte // the call's tool_input JSON
	// Decoded, when set, is ToolInput already decoded (the hook decodes
	// it once for the engine and the scan); ToolInput is then not read.
	Decoded *toolcontent.Decoded
	Root    string // the worktree root
	Policy  *policy.Policy
	Runner  Runner
	// ReadFile reads the current file (nil: os.ReadFile).
	ReadFile func(string) ([]byte, error)
	// Resolve resolves symbolic links in a path (hookenv's); may be nil.
	Resolve func(string) string
	// Environ lists the environment (os.Environ when nil): the value of
	// one of its credential variables is a secret too (package envcreds).
	Environ func() []string
}

// CheckContent scans what a file tool would write and decides: no
// decision when clean, else the secret-content rule's action (deny or
// ask). Only findings on lines the call introduces count (see package
// toolcontent): a secret already sitting in unchanged lines of the file
// was not written by this call, and blocking every later edit of the file
// for it would stop the agent from fixing anything else. The pre-commit
// hook and CI report such a secret where it was committed.
func CheckContent(r ContentRequest) guard.Decision {
	pol := r.Policy
	action := pol.RuleAction(policy.RuleSecretContent)
	if !pol.Secrets.PreToolUse || action == policy.Off {
		return guard.Decision{}
	}
	read := r.ReadFile
	if read == nil {
		read = os.ReadFile
	}
	var c toolcontent.Content
	var err error
	if d := r.Decoded; d != nil {
		c, err = toolcontent.FromDecoded(r.Tool, *d, read)
	} else {
		c, err = toolcontent.Compute(r.Tool, r.ToolInput, read)
	}
	switch {
	case errors.Is(err, toolcontent.ErrTooLarge):
		return decide(action, fmt.Sprintf("the content %s would write to %s is %s", r.Tool, c.Path, err),
			"write the file in parts under 10 MB each, or have a human add the path to [secrets] allow_paths if it is generated data")
	case err != nil:
		return guard.Decision{Action: policy.Deny, Rule: policy.RuleBadInput, Reason: err.Error(), Alternative: "resend the call with a well-formed tool_input"}
	}
	rel := nameIn(r.Root, c.Path, r.Resolve)
	if allowed(pol, rel) {
		return guard.Decision{}
	}
	// The value of a credential variable, which no gitleaks rule may
	// know (a bare token), written into a file ends up in commits.
	findings := writtenCredentials(rel, c.Text, environCredentials(r.Environ), pol)
	if !keywords.Clean(rel, c.Text) || customRules(r.Root) {
		// Else provably nothing for the default rules to find: no
		// scanner round trip (most source files).
		ctx, cancel := r.Runner.beforeCall()
		defer cancel()
		scanned, err := r.Runner.run(ctx, r.Root, pol, func(emit client.Emit) error {
			return emit(wire.NewBlock(rel, "", 1, []byte(c.Text)))
		})
		if err != nil {
			return scanFailed(err, r.Runner)
		}
		findings = append(scanned, findings...)
	}
	var mine []wire.Finding
	for _, f := range findings {
		if c.Introduced(f.Line, f.EndLine) {
			mine = append(mine, f)
		}
	}
	if len(mine) == 0 {
		return guard.Decision{}
	}
	where := rel
	if c.Cell {
		where = "a cell of " + rel + " (lines count within the cell)"
	}
	return decide(action, fmt.Sprintf("%s would write %s into %s: %s", r.Tool, plural(len(mine), "secret"), where, list(mine, 3)), fixAdvice(pol))
}

// environCredentials are the credential variables of environ's list
// (os.Environ when nil): package envcreds.
func environCredentials(environ func() []string) []envcreds.Credential {
	if environ == nil {
		environ = os.Environ
	}
	return envcreds.From(environ())
}

// writtenCredentials are the lines of text, written to file, that hold one
// of creds, as findings; with gitleaks:allow honoured by the policy, not
// those on a line that carries it, as gitleaks lets such a line through.
func writtenCredentials(file, text string, creds []envcreds.Credential, pol *policy.Policy) []wire.Finding {
	fs := credentialFindings(file, text, creds)
	if !pol.Secrets.GitleaksAllow || !strings.Contains(text, "gitleaks:allow") {
		return fs
	}
	lines := strings.Split(text, "\n")
	var out []wire.Finding
	for _, f := range fs {
		if f.Line < 1 || f.Line > len(lines) || !strings.Contains(lines[f.Line-1], "gitleaks:allow") {
			out = append(out, f)
		}
	}
	return out
}

// customRules reports whether the worktree has its own gitleaks config,
// whose rules only the scanner knows. A root that cannot be looked at
// counts as having one.
func customRules(root string) bool {
	if root == "" {
		return false
	}
	_, err := os.Stat(filepath.Join(root, ".gitleaks.toml"))
	return !errors.Is(err, fs.ErrNotExist)
}

func decide(action policy.Action, reason, alternative string) guard.Decision {
	f := guard.Finding{Action: action, Rule: policy.RuleSecretContent, Reason: reason, Alternative: alternative}
	return guard.Decision{Action: action, Rule: f.Rule, Reason: reason, Alternative: alternative, Findings: []guard.Finding{f}}
}

// scanFailed is the decision when the scan could not run: the guard could
// not decide, which fail_mode governs.
func scanFailed(err error, r Runner) guard.Decision {
	var nf *client.NotFoundError
	reason := "the secret scan could not run: " + oneLine(err.Error())
	alt := "retry once; if it fails again, a human must check the swarm-guard installation (swarm-guard doctor)"
	switch {
	case errors.As(err, &nf):
		alt = "a human must install the scanner: make install puts swarm-guard-secrets next to swarm-guard"
	case errors.Is(err, context.DeadlineExceeded):
		reason = fmt.Sprintf("the secret scan did not finish within %v", r.timeout())
		alt = "write the file in smaller parts (a few hundred KB each)"
	}
	return guard.Decision{Action: policy.Deny, Rule: policy.RuleInternalError, Reason: reason, Alternative: alt}
}

// fixAdvice says what to do about a secret in content.
func fixAdvice(pol *policy.Policy) string {
	s := "keep credentials out of files: read the value at run time from an environment variable or a secret manager and write only its name; rotate the credential if it is real"
	if pol.Secrets.GitleaksAllow {
		return s + "; if it is a fake credential for a test, add a gitleaks:allow comment on its line"
	}
	return s + "; inline gitleaks:allow is turned off by the policy, so build test credentials at run time instead"
}

// list renders up to n findings as "line N [rule] `preview`". The rule id
// is bracketed because the audit log's redactor would read
// "aws-access-token `x`" as a --token flag and mask the preview.
func list(fs []wire.Finding, n int) string {
	var parts []string
	for i, f := range fs {
		if i == n {
			parts = append(parts, fmt.Sprintf("and %d more", len(fs)-n))
			break
		}
		parts = append(parts, fmt.Sprintf("line %d [%s] `%s`", f.Line, f.Rule, f.Preview))
	}
	return strings.Join(parts, "; ")
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
