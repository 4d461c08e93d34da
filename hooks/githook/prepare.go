package githook

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/swarm-guard/swarm-guard/guard/trailer"
)

// PrepareCommitMsg adds the agent trailer to the message git is about
// to commit. It is the one message hook that `git commit --no-verify`,
// cherry-pick, revert and rebase still run, so it does the stamping;
// commit-msg checks. file and source are git's first two arguments: the
// message file and where the message came from ("" when git gave none,
// else message, template, merge, squash or commit).
func PrepareCommitMsg(c Env, file, source string) int {
	return exitCode(prepareCommitMsg(c, file, source))
}

func prepareCommitMsg(c Env, file, source string) error {
	hc, msg, err := newMessageHook(c, "prepare-commit-msg", file)
	if err != nil {
		return err
	}
	if err := hc.rememberTemplate(source, msg); err != nil {
		return refuse(c, hc.hook, err.Error())
	}
	if hc.replaying() {
		// A cherry-pick, revert or rebase re-commits existing commits:
		// they keep exactly the trailers they had. A human's commit on
		// main that a rebase replays must not come out stamped with this
		// agent's id. (git runs only this hook for replays; a new commit
		// made while a rebase is stopped still gets its trailer from
		// commit-msg.)
		return nil
	}
	o := hc.trailerOptions()
	existing := trailer.Values(msg, hc.pol.Trailers.AgentKey, o)
	humans := trailer.Values(msg, hc.pol.Trailers.HumanKey, o)
	// git commit --no-verify skips commit-msg but not this hook: an agent's
	// message or template that names another agent, or claims to be a
	// human's, is refused here too.
	if p := forgedTrailer(hc, existing, humans); p != "" {
		return refuse(c, hc.hook, p)
	}
	if agentSessionHuman(c) {
		hc.recordCommit(true, "")
	} else if id, err := hc.agent(); err == nil {
		hc.recordCommit(false, id.ID)
	}
	if source == "template" {
		// The author edits the template next; a trailer in it would make
		// an untouched template look edited, so git would not abort.
		// commit-msg adds the trailer after the editor.
		return nil
	}
	if !trailer.HasContent(msg, o) {
		// An empty message (git commit without -m): the editor comes next,
		// and a trailer alone would keep git from aborting when the author
		// leaves it empty. commit-msg adds it afterwards.
		return nil
	}
	agent := agentCommit(c)
	if len(humans) > 0 || (len(existing) > 0 && (!agent || c.Getenv(envSession) == "")) {
		// The message already names its agent, or its human, which is
		// kept; an agent's own may still get its session trailer below.
		return nil
	}
	ts, err := hc.trailersFor(existing)
	if err != nil {
		if !hc.pol.Trailers.Require {
			hc.warn("no %s trailer added: %v", hc.pol.Trailers.AgentKey, err)
			return nil
		}
		return refuse(c, hc.hook, fmt.Sprintf("cannot add the %s trailer: %v", hc.pol.Trailers.AgentKey, err))
	}
	if out := trailer.Add(msg, ts, o); out != msg {
		if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
			return refuse(c, hc.hook, fmt.Sprintf("cannot write the commit message: %v", err))
		}
	}
	return nil
}

// replaying reports whether git is re-committing existing commits: a
// cherry-pick, revert or rebase is in progress in this worktree.
func (hc *gitHookContext) replaying() bool {
	if hc.repo == nil {
		return false
	}
	for _, name := range []string{"CHERRY_PICK_HEAD", "REVERT_HEAD", "rebase-merge", "rebase-apply"} {
		if _, err := os.Lstat(filepath.Join(hc.repo.GitDir, name)); err == nil {
			return true
		}
	}
	return false
}

// templateMarker is where prepare-commit-msg keeps the template a commit
// started from, so that commit-msg can tell an untouched template, which
// git aborts, from a message the author wrote.
func (hc *gitHookContext) templateMarker() string {
	if hc.repo == nil {
		return ""
	}
	return filepath.Join(hc.repo.GitDir, "swarm-guard-template")
}

// rememberTemplate records the template of a commit that starts from one,
// and forgets any earlier one otherwise.
func (hc *gitHookContext) rememberTemplate(source, msg string) error {
	marker := hc.templateMarker()
	if marker == "" {
		return nil
	}
	if source != "template" {
		if err := os.Remove(marker); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("cannot remove %s: %v", marker, err)
		}
		return nil
	}
	if err := os.WriteFile(marker, []byte(msg), 0o644); err != nil {
		return fmt.Errorf("cannot write %s: %v", marker, err)
	}
	return nil
}
