package githook

import (
	"context"
	"fmt"

	"github.com/swarm-guard/swarm-guard/guard/committed"
	"github.com/swarm-guard/swarm-guard/hooks/committedscan"
	"github.com/swarm-guard/swarm-guard/policy"
)

// preCommitCommands judges the commands the staged changes add to files
// others run (workflows, Dockerfiles, Makefiles, package.json scripts,
// scripts; package guard/committed), on the added lines only. An agent's
// commit is refused for a finding of a rule that denies or asks; a
// human's gets the same lines as a warning and goes through, unless the
// policy says [committed] humans = "refuse". Findings of
// rules in warn or log mode never block.
func preCommitCommands(c Env, hc *gitHookContext) error {
	agent := agentCommit(c)
	fs, err := committedscan.Changes(context.Background(), committedscan.Request{Root: hc.repo.Root, Policy: hc.pol})
	if err != nil {
		if agent {
			return refuse(c, "pre-commit", fmt.Sprintf("could not read the commands the staged changes add, so the commit is blocked: %v", err))
		}
		hc.warn("could not read the commands the staged changes add: %v", err)
		return nil
	}
	var blocking, shadow []committed.Finding
	for _, f := range fs {
		if committedscan.Blocking(f) {
			blocking = append(blocking, f)
		} else if f.Action == "warn" {
			shadow = append(shadow, f)
		}
	}
	for _, f := range shadow {
		hc.warn("%s", committedscan.Line(f))
	}
	if len(blocking) == 0 {
		return nil
	}
	if !agent && hc.pol.Committed.Humans != policy.CommittedRefuse {
		hc.warn("the staged changes add %d command(s) that the guard would not run where they run (a human's commit is not blocked):", len(blocking))
		for _, f := range blocking {
			fmt.Fprintf(c.Stderr, "  %s\n  fingerprint: %s\n", committedscan.Line(f), f.Fingerprint)
		}
		return nil
	}
	fmt.Fprintf(c.Stderr, "swarm-guard pre-commit: the staged changes add %d command(s) that others will run and the guard would not run where they run; the commit is blocked:\n", len(blocking))
	for _, f := range blocking {
		fmt.Fprintf(c.Stderr, "  %s\n", committedscan.Line(f))
	}
	return refuse(c, "pre-commit", "change each command as its Instead says, then git add the file and commit again; "+
		"a finding the team accepts is a human's call: they add the fingerprint that swarm-guard scan --commands --staged prints to "+committed.IgnoreFile)
}
