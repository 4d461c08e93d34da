package githook

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/trailer"
	"github.com/swarm-guard/swarm-guard/hooks/identity"
	"github.com/swarm-guard/swarm-guard/policy"
)

// CommitMsg makes sure the message git is about to commit carries
// exactly one well-formed agent trailer. It adds a missing one first:
// prepare-commit-msg leaves a message the author writes in the editor to
// this hook, and an editor may drop what prepare-commit-msg added. With
// trailers.require off it only adds, never refuses. file is git's
// argument: the message file.
func CommitMsg(c Env, file string) int { return exitCode(commitMsg(c, file)) }

func commitMsg(c Env, file string) error {
	hc, msg, err := newMessageHook(c, "commit-msg", file)
	if err != nil {
		return err
	}
	o := hc.trailerOptions()
	if !trailer.HasContent(msg, o) || hc.untouchedTemplate(msg, o) {
		return nil // git aborts an empty message, or an unedited template, itself
	}
	key, humanKey := hc.pol.Trailers.AgentKey, hc.pol.Trailers.HumanKey
	require := hc.pol.Trailers.Require
	vals := trailer.Values(msg, key, o)
	humans := trailer.Values(msg, humanKey, o)
	if len(vals) == 0 && len(humans) == 0 {
		ts, err := hc.trailersFor(nil)
		if err != nil {
			if !require {
				hc.warn("no %s trailer added: %v", key, err)
				return nil
			}
			return refuse(c, hc.hook, fmt.Sprintf("the message has no %s trailer and none can be added: %v", key, err))
		}
		out := trailer.Add(msg, ts, o)
		if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
			return refuse(c, hc.hook, fmt.Sprintf("cannot write the commit message: %v", err))
		}
		vals, humans = trailer.Values(out, key, o), trailer.Values(out, humanKey, o)
	}
	if p := forgedTrailer(hc, vals, humans); p != "" {
		return refuse(c, hc.hook, p)
	}
	if !require {
		return nil
	}
	if p := commitTrailerProblem(key, humanKey, vals, humans); p != "" {
		return refuse(c, hc.hook, "the message has "+p+"; fix the message's last paragraph so it has one line \""+key+": <id>\" (swarm-guard id prints yours)")
	}
	return nil
}

// commitTrailerProblem is agentTrailerProblem for a commit that may be a
// human's instead: exactly one "<humanKey>: human" line and no agent
// trailer is a human's commit; anything else must pass as an agent's.
func commitTrailerProblem(key, humanKey string, vals, humans []string) string {
	switch {
	case len(humans) == 0:
		return agentTrailerProblem(key, vals)
	case len(vals) > 0:
		return fmt.Sprintf("both an %s and a %s trailer; a commit is either an agent's or a human's", key, humanKey)
	case len(humans) > 1:
		return fmt.Sprintf("%d %s trailers where there must be one", len(humans), humanKey)
	case humans[0] != policy.HumanValue:
		return fmt.Sprintf("%s %q, where the only value is %q", humanKey, humans[0], policy.HumanValue)
	}
	return ""
}

// agentTrailerProblem says what is wrong with a commit's agent-trailer
// values, worded to follow "the commit has ": "" when there is exactly
// one and it is well formed.
func agentTrailerProblem(key string, vals []string) string {
	switch {
	case len(vals) == 0:
		return fmt.Sprintf("no %s trailer", key)
	case len(vals) > 1:
		return fmt.Sprintf("%d %s trailers (%s) where there must be one", len(vals), key, quoteList(vals))
	case !identity.Valid(vals[0]):
		return fmt.Sprintf("%s %q, which is not a well-formed agent id (%s)", key, vals[0], identity.Pattern)
	}
	return ""
}

func quoteList(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = fmt.Sprintf("%q", v)
	}
	return strings.Join(q, ", ")
}

// untouchedTemplate reports whether msg is the commit template
// prepare-commit-msg saw, unedited: git aborts such a commit, unless a
// hook adds a trailer to it. The marker is used once.
func (hc *gitHookContext) untouchedTemplate(msg string, o trailer.Options) bool {
	marker := hc.templateMarker()
	if marker == "" {
		return false
	}
	tmpl, err := os.ReadFile(marker)
	if err != nil {
		return false
	}
	os.Remove(marker)
	return slices.Equal(contentLines(string(tmpl), o), contentLines(msg, o))
}

// contentLines is a message as git's cleanup compares it, roughly: its
// lines without comments, trailing whitespace and blank lines.
func contentLines(msg string, o trailer.Options) []string {
	cc := o.CommentChar
	if cc == 0 {
		cc = '#'
	}
	var out []string
	for _, l := range strings.Split(msg, "\n") {
		l = strings.TrimRight(l, " \t\r")
		if l != "" && l[0] != cc {
			out = append(out, l)
		}
	}
	return out
}

// forgedTrailer refuses, for an agent's commit, a message that names
// another agent than the one committing, or that claims to be a human's:
// a --trailer, -m line, template or -c trailer.* config of the agent's
// choosing would otherwise forge the commit's identity, which verify then
// trusts. An agent's commit is every one the hooks give an Agent-Id
// (agentCommit): a client session, swarm-guard run, or an agent id named
// by the orchestrator (SWARM_GUARD_AGENT_ID) for a client the hooks do not
// otherwise recognise. Humans write what they like.
func forgedTrailer(hc *gitHookContext, vals, humans []string) string {
	if !agentCommit(hc.c) {
		return ""
	}
	key, humanKey := hc.pol.Trailers.AgentKey, hc.pol.Trailers.HumanKey
	if len(humans) > 0 {
		return fmt.Sprintf("the message has %s: %s, but it is committed in an agent's session, so it is an agent's commit; remove that line (the hooks write the true %s trailer) and commit again", humanKey, humans[0], key)
	}
	if len(vals) == 0 {
		return ""
	}
	id, err := hc.agent()
	if err != nil {
		return ""
	}
	// A malformed or doubled trailer is named as such: the fix is the same.
	if p := agentTrailerProblem(key, vals); p != "" {
		return fmt.Sprintf("the message has %s; remove those lines (the hooks write the true %s trailer) and commit again", p, key)
	}
	if vals[0] != id.ID {
		return fmt.Sprintf("the message names %s: %s, but the agent committing is %s; remove that line (the hooks write the true %s trailer) and commit again", key, vals[0], id.ID, key)
	}
	return ""
}
