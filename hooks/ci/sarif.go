package ci

import (
	"io"

	"github.com/swarm-guard/swarm-guard/hooks/internal/sarif"
)

// SARIF output of verify: a rule per Kind, one result per violation.

// sarifRules is the rule table; a result's ruleIndex points into it.
var sarifRules = []sarif.Rule{
	{ID: string(KindTrailer), Name: "AgentTrailer",
		ShortDescription: sarif.Message{Text: "Every commit carries exactly one well-formed agent trailer"},
		Help:             sarif.Message{Text: "Add the agent trailer (default key Agent-Id) as the last paragraph of the commit message; merge commits and [verify] exempt_authors may be exempt."}},
	{ID: string(KindSecret), Name: "Secret",
		ShortDescription: sarif.Message{Text: "No commit adds a secret"},
		Help:             sarif.Message{Text: "A secret stays in history even after a later commit removes it: revoke or rotate it and rewrite the commit. False positives go in .gitleaksignore."}},
	{ID: string(KindConflict), Name: "ConflictMarker",
		ShortDescription: sarif.Message{Text: "No commit adds unresolved merge-conflict markers"},
		Help:             sarif.Message{Text: "Resolve the conflict and rewrite the commit that added the marker lines."}},
	{ID: string(KindMinAgents), Name: "MinAgents",
		ShortDescription: sarif.Message{Text: "The range has commits from enough distinct agents"},
		Help:             sarif.Message{Text: "[verify] min_agents or --min-agents asks for commits from that many distinct agent ids."}},
	{ID: string(KindScope), Name: "OutOfScope",
		ShortDescription: sarif.Message{Text: "The range changes only files within the task's expected scope"},
		Help:             sarif.Message{Text: "--scope or [verify] scope lists the globs a task's changes may touch; move other changes to a task of their own."}},
	{ID: string(KindHuman), Name: "HumanCommit",
		ShortDescription: sarif.Message{Text: "The range holds only agents' commits"},
		Help:             sarif.Message{Text: "[verify] human_commits = \"deny\": a commit the hooks marked as a human's (default Committed-By: human) fails; move it to a pull request of its own."}},
	{ID: string(KindRecord), Name: "RecordedIdentity",
		ShortDescription: sarif.Message{Text: "A commit's trailer names who the git hooks recorded making it"},
		Help:             sarif.Message{Text: "Where this clone's hooks recorded who made a commit (.git/swarm-guard/commits with git's reflogs), its Agent-Id or Committed-By must agree; re-commit it through the hooks without the forged line."}},
	{ID: string(KindCommand), Name: "CommittedCommand",
		ShortDescription: sarif.Message{Text: "No change adds a command for others to run that the guard would not run where it runs"},
		Help:             sarif.Message{Text: "Workflows, Dockerfiles, Makefiles, package.json scripts and scripts are judged by swarm-guard's rules in the context where they run (docs/committed-files.md). Change the command as its message says; a finding the team accepts goes in .swarm-guard-ignore on the base branch."}},
}

func writeSARIF(w io.Writer, r *Report, toolVersion string) error {
	index := map[Kind]int{}
	for i, rule := range sarifRules {
		index[Kind(rule.ID)] = i
	}
	results := make([]sarif.Result, 0, len(r.Violations))
	for _, v := range r.Violations {
		res := sarif.Result{
			RuleID: string(v.Kind), RuleIndex: index[v.Kind], Level: "error",
			Message: sarif.Message{Text: headline(v)},
		}
		if v.File != "" {
			res.Locations = []sarif.Location{sarif.FileLocation(v.File, v.Line, v.Line, 0)}
		}
		fp := string(v.Kind) + ":" + v.Commit + ":" + v.File
		if v.Fingerprint != "" {
			fp = v.Fingerprint
		}
		res.PartialFingerprints = map[string]string{"swarmGuardViolation/v1": fp}
		if v.Commit != "" || v.Rule != "" {
			res.Properties = map[string]string{}
			if v.Commit != "" {
				res.Properties["commit"] = v.Commit
			}
			if v.Rule != "" && v.Kind == KindSecret {
				res.Properties["secretRule"] = v.Rule
			} else if v.Rule != "" {
				res.Properties["rule"] = v.Rule
			}
		}
		results = append(results, res)
	}
	return sarif.Write(w, toolVersion, sarifRules, results)
}
