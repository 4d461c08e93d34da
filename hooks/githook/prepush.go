package githook

import (
	"bufio"
	"fmt"
	"slices"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/rules"
	"github.com/swarm-guard/swarm-guard/hooks/ci"
	"github.com/swarm-guard/swarm-guard/hooks/gitx"
	"github.com/swarm-guard/swarm-guard/policy"
)

// refUpdate is one line git gives pre-push on stdin.
type refUpdate struct {
	localRef, localOID, remoteRef, remoteOID string
}

func (u refUpdate) deletes() bool { return isZeroOID(u.localOID) }
func (u refUpdate) creates() bool { return isZeroOID(u.remoteOID) }

func isZeroOID(oid string) bool { return strings.Trim(oid, "0") == "" }

// PrePush refuses, listing every offending ref and commit: updates
// that are not fast-forwards, deletes of protected branches, updates of
// protected branches (git.push_to_protected) and, with
// git.push_requires_trailer, commits about to be pushed without exactly
// one well-formed agent trailer. git's arguments (<remote name> <remote
// url>) are the caller's to check; stdin: "<local ref> <local oid>
// <remote ref> <remote oid>" lines.
func PrePush(c Env) int { return exitCode(prePush(c)) }

func prePush(c Env) error {
	hc, err := newGitHookContext(c, "pre-push")
	if err != nil {
		return err
	}
	updates, err := readRefUpdates(c)
	if err != nil {
		return refuse(c, hc.hook, err.Error()+"; nothing was pushed, push again")
	}
	if len(updates) == 0 {
		return nil
	}
	git := gitx.Runner{}
	own := ownershipFacts(hc)
	facts := &rules.Facts{Policy: hc.pol, Agent: own.agent}
	var current []effect.Branch // the branch checked out here: [git] own_branch_force_with_lease
	if hc.repo != nil {
		current = []effect.Branch{{Name: hc.repo.Branch}}
	}
	var problems []string
	var tips, known []string // commits being pushed; commits the remote has
	refsOf := map[string][]string{}
	for _, u := range updates {
		// The update as the Bash guard describes a push (guard/effect),
		// judged by the same rules in the same words.
		rs := effect.Refspec{Src: u.localRef, Dst: strings.TrimPrefix(u.remoteRef, "refs/heads/"), Ref: u.remoteRef, Delete: u.deletes()}
		if own.applies {
			rs.CheckedOutBy = own.checkedOut[strings.TrimPrefix(u.remoteRef, "refs/heads/")]
		}
		ancestry := ffKnown
		if !u.deletes() && !u.creates() {
			if ancestry, err = fastForward(git, u); err != nil {
				return refuse(c, hc.hook, err.Error())
			}
			rs.Force = ancestry != ffKnown
		}
		push := effect.Push{FromGit: true, Refspecs: []effect.Refspec{rs}, Current: current, Swarm: own.applies}
		forced := false
		for _, v := range rules.JudgeEffect(push, facts) {
			switch {
			case v.Rule == policy.RuleProtectedBranch && !rs.Delete && hc.pol.Git.PushToProtected != policy.Deny:
				continue // [git] push_to_protected lets pushes (not deletes) through
			case v.Rule == policy.RuleForcePush:
				forced = true
				if ancestry == ffUnknown {
					problems = append(problems, fmt.Sprintf("%s: not a fast-forward as far as this repository knows (the remote's %s is not here): git fetch origin, then merge the remote branch (git merge origin/<branch>) and push without --force", u.remoteRef, short(u.remoteOID)))
					continue
				}
				// The judge's words, with the two commits only the hook knows.
				if p := fmt.Sprintf("%s: %s (the remote's %s is not in the history of the pushed %s; rule %s); instead: %s", u.remoteRef, v.Reason, short(u.remoteOID), short(u.localOID), v.Rule, v.Instead); !hc.shadowed(v.Rule, p) {
					problems = append(problems, p)
				}
				continue
			}
			if p := fmt.Sprintf("%s: %s (rule %s); instead: %s", u.remoteRef, v.Reason, v.Rule, v.Instead); !hc.shadowed(v.Rule, p) {
				problems = append(problems, p)
			}
		}
		if u.deletes() {
			continue
		}
		if !u.creates() && !forced {
			known = append(known, u.remoteOID)
		}
		if _, seen := refsOf[u.localOID]; !seen {
			tips = append(tips, u.localOID)
		}
		refsOf[u.localOID] = append(refsOf[u.localOID], u.remoteRef)
	}
	if s := hc.pol.Trailers.Since; s != "" && hc.pol.Git.PushRequiresTrailer && len(tips) > 0 {
		// Commits from before install ([trailers] since) need no trailer.
		if code, _, err := git.ExitCode("cat-file", "-e", s+"^{commit}"); err == nil && code == 0 {
			known = append(known, s)
		}
	}
	if hc.pol.Git.PushRequiresTrailer && len(tips) > 0 {
		var records CommitRecords
		if hc.repo != nil {
			if records, err = LoadCommitRecords(hc.repo.Root); err != nil {
				return refuse(c, hc.hook, err.Error())
			}
		}
		ps, rs, err := trailerProblems(git, hc.pol.Trailers.AgentKey, hc.pol.Trailers.HumanKey, tips, known, refsOf, records)
		if err != nil {
			return refuse(c, hc.hook, err.Error())
		}
		ps = slices.DeleteFunc(ps, func(p string) bool { return hc.shadowed("", p) })
		rs = slices.DeleteFunc(rs, func(p string) bool { return hc.shadowed("", p) })
		if len(ps) > 0 {
			problems = append(problems, ps...)
			problems = append(problems, fmt.Sprintf("to add the missing %s trailers to your own commits, re-commit them through the hooks: git rebase <upstream> --exec 'git commit --amend --no-edit --allow-empty' (git rebase --root --exec ... when there is no upstream; git commit --amend --no-edit for the last one alone), then push again", hc.pol.Trailers.AgentKey))
		}
		if len(rs) > 0 {
			problems = append(problems, rs...)
			problems = append(problems, "those trailers were written past the hooks; re-commit each through the hooks with a message without that line (git commit --amend -m '<subject>' for the last one), then push again")
		}
	}
	if len(problems) > 0 {
		return refuse(c, hc.hook, problems...)
	}
	return nil
}

func readRefUpdates(c Env) ([]refUpdate, error) {
	var out []refUpdate
	sc := bufio.NewScanner(c.Stdin)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if line == "" {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 4 {
			return nil, fmt.Errorf("cannot read git's ref line %q (want: <local ref> <local oid> <remote ref> <remote oid>)", line)
		}
		out = append(out, refUpdate{f[0], f[1], f[2], f[3]})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("cannot read git's ref lines: %v", err)
	}
	return out, nil
}

// ancestry is what the hook knows about a remote commit and the one
// pushed over it.
type ancestry int

const (
	ffKnown   ancestry = iota // a fast-forward: the remote's commit is in the pushed one's history
	ffNot                     // not a fast-forward
	ffUnknown                 // the remote's commit is not here (someone else pushed; not fetched)
)

// fastForward asks git whether the remote's commit is an ancestor of the
// one pushed. A remote commit missing here (exit 128) cannot be an
// ancestor of ours.
func fastForward(git gitx.Runner, u refUpdate) (ancestry, error) {
	code, stderr, err := git.ExitCode("merge-base", "--is-ancestor", u.remoteOID, u.localOID)
	if err != nil {
		return ffNot, err
	}
	switch code {
	case 0:
		return ffKnown, nil
	case 1:
		return ffNot, nil
	case 128:
		return ffUnknown, nil
	}
	return ffNot, fmt.Errorf("git merge-base --is-ancestor %s %s failed (exit %d): %s", u.remoteOID, u.localOID, code, stderr)
}

// trailerProblems lists the commits about to be pushed (reachable from
// tips, not from known or any remote-tracking branch) that do not carry
// exactly one well-formed agent trailer. One git log call reads them all.
//
// With records (this clone's record of who made its commits), it also
// lists the commits whose trailer names someone else (ci.RecordMismatch).
func trailerProblems(git gitx.Runner, key, humanKey string, tips, known []string, refsOf map[string][]string, records CommitRecords) (problems, recorded []string, err error) {
	args := []string{"log", "-z", "--source",
		"--format=%H%x1f%S%x1f%s%x1f%(trailers:key=" + key + ",unfold,separator=%x1e,key_value_separator=%x1d)" +
			"%x1f%(trailers:key=" + humanKey + ",unfold,separator=%x1e,key_value_separator=%x1d)"}
	args = append(args, tips...)
	args = append(args, "--not")
	args = append(args, known...)
	args = append(args, "--remotes", "--")
	out, err := git.Output(args...)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot list the commits being pushed: %v", err)
	}
	for _, rec := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		if rec == "" {
			continue
		}
		f := strings.Split(rec, "\x1f")
		if len(f) < 5 {
			return nil, nil, fmt.Errorf("cannot read git log's output %q", rec)
		}
		// The subject may hold the separator; the trailers come last.
		n := len(f)
		hash, source, subject, trailers, humans := f[0], f[1], strings.Join(f[2:n-2], "\x1f"), f[n-2], f[n-1]
		ref := strings.Join(refsOf[source], ", ")
		if ref == "" {
			ref = source
		}
		agentVals, humanVals := trailerValues(trailers), trailerValues(humans)
		if p := commitTrailerProblem(key, humanKey, agentVals, humanVals); p != "" {
			problems = append(problems, fmt.Sprintf("%s: commit %s %q has %s", ref, short(hash), truncateSubject(subject), p))
		}
		if who, ok := records.RecordSays(hash); ok {
			if m := ci.RecordMismatch(who, agentVals, humanVals, key, humanKey); m != "" {
				recorded = append(recorded, fmt.Sprintf("%s: commit %s %q %s", ref, short(hash), truncateSubject(subject), m))
			}
		}
	}
	return problems, recorded, nil
}

// trailerValues splits a %(trailers:...,separator=%x1e,key_value_separator=%x1d) field.
func trailerValues(field string) []string {
	var vals []string
	if field != "" {
		for _, kv := range strings.Split(field, "\x1e") {
			_, v, _ := strings.Cut(kv, "\x1d")
			vals = append(vals, v)
		}
	}
	return vals
}

func short(oid string) string {
	if len(oid) > 12 {
		return oid[:12]
	}
	return oid
}

func truncateSubject(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}
