package guard

import (
	"errors"
	"io/fs"
	"path"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
)

// Task runners (make, npm/pnpm/yarn/bun scripts, just, task) run commands
// written in a file of the worktree: a Makefile recipe `rm -rf ~/` is as
// dangerous as typing it. The guard reads the file as it is now (or as this
// same command wrote it) and judges each command it would run as if typed,
// in the directory the runner runs it in. A file it cannot read makes what
// runs unknown: the dynamic_commands policy decides.

// maxRunnerDepth bounds runners calling runners (a recipe running
// `$(MAKE) other`, a script running `npm run build`).
const maxRunnerDepth = 6

// fileStatus is what the guard knows of a file a runner reads.
type fileStatus int

const (
	fileMissing fileStatus = iota // the runner will not find it
	fileKnown                     // text holds what it will read
	fileUnknown                   // it exists, but its text cannot be known
)

// runnerFile returns the text a runner will read from p: what this command
// wrote to it earlier, else what is on disk now.
func (a *analyzer) runnerFile(p string) (string, fileStatus) {
	if bodies := a.bodies[p]; len(bodies) > 0 {
		b := bodies[len(bodies)-1]
		if len(bodies) > 1 || b.Dynamic || b.Subst || b.Net || b.Expanded {
			return "", fileUnknown
		}
		return b.Text, fileKnown
	}
	if a.env.ReadFile == nil {
		return "", fileUnknown
	}
	data, err := a.env.ReadFile(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fileMissing
	case err != nil:
		return "", fileUnknown
	}
	return string(data), fileKnown
}

// runnerCwds are the directories a runner started by inv runs in: its
// cwd, or dir (absolute, or relative to the cwd) when given. ok is false
// when the directory cannot be told.
func (a *analyzer) runnerCwds(inv *shell.Invocation, dir *shell.Word) ([]string, bool) {
	if inv.State.Remote || inv.State.CwdUnknown || len(inv.State.Cwds) == 0 {
		return nil, false
	}
	if dir == nil {
		return inv.State.Cwds, true
	}
	if !dir.Static() {
		return nil, false
	}
	var out []string
	for _, c := range inv.State.Cwds {
		out = append(out, shell.CleanJoin(c, dir.Text))
	}
	return out, true
}

// runLines judges the commands a runner runs from file, each line as its
// own shell script in dir (make and just run each recipe line in a new
// shell), and names the runner in every finding they produce.
func (a *analyzer) runLines(inv *shell.Invocation, what, dir string, lines []string) {
	if a.runnerDepth >= maxRunnerDepth {
		a.judge(inv, effect.HiddenCode{By: what, What: itoa(maxRunnerDepth), Why: effect.TooDeep})
		return
	}
	a.runnerDepth++
	defer func() { a.runnerDepth-- }()
	st := inv.State.Clone()
	st.SetCwds([]string{dir}, false)
	for _, line := range lines {
		if strings.TrimSpace(line) == "" || a.x.Aborted() {
			continue
		}
		n := len(a.findings)
		a.x.Script(line, st.Clone(), nil)
		for i := n; i < len(a.findings); i++ {
			a.findings[i].reason += " (run by " + what + ")"
		}
	}
}

// unreadableRunner reports a runner whose file exists but cannot be read.
func (a *analyzer) unreadableRunner(inv *shell.Invocation, what, file string) {
	a.judge(inv, effect.HiddenCode{By: what, What: file, Why: effect.UnreadableFile})
}

// findUp returns the first of names found in dir or a parent directory up
// to the worktree root (how npm, just and task look for their files), with
// its text.
func (a *analyzer) findUp(dir string, names ...string) (string, string, fileStatus) {
	for d := dir; ; d = path.Dir(d) {
		for _, n := range names {
			p := shell.CleanJoin(d, n)
			if text, st := a.runnerFile(p); st != fileMissing {
				return p, text, st
			}
		}
		if d == a.env.Root || d == "/" || !strings.HasPrefix(d, a.env.Root+"/") {
			return "", "", fileMissing
		}
	}
}
