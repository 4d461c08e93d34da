package ci

import (
	"context"

	"github.com/swarm-guard/swarm-guard/hooks/committedscan"
	"github.com/swarm-guard/swarm-guard/policy"
)

// commandViolations judges the commands the range adds to files others
// run (package guard/committed), at their lines in the range's head.
// Every finding fails the range, whoever committed it: a pull request is
// what gets merged. Rules in warn or log mode become notes
// (shadowViolations).
func commandViolations(ctx context.Context, dir string, r Range, pol *policy.Policy) ([]Violation, error) {
	root, err := (git{dir: dir}).output(ctx, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, gitError(err)
	}
	fs, err := committedscan.Changes(ctx, committedscan.Request{Root: trimNL([]byte(root)), Policy: pol, Base: r.Base, Head: r.Head})
	if err != nil {
		return nil, err
	}
	var vs []Violation
	for _, f := range fs {
		vs = append(vs, Violation{Kind: KindCommand, File: f.File, Line: f.Line, Rule: f.Rule, Fingerprint: f.Fingerprint,
			Message: committedscan.Message(f), action: f.Action})
	}
	return vs, nil
}

func trimNL(b []byte) string {
	s := string(b)
	for len(s) > 0 && (s[len(s)-1] == '\n' || s[len(s)-1] == '\r') {
		s = s[:len(s)-1]
	}
	return s
}
