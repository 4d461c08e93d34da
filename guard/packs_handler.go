package guard

import (
	"path"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/packs"
	"github.com/swarm-guard/swarm-guard/guard/shell"
)

// registerPacks puts the tool packs (guard/packs) in front of whatever
// handler a program already had: kubectl exec and docker run still look
// inside the command they start, and the pack judges the invocation itself.
func registerPacks() {
	for prog, ps := range packs.ByProgram() {
		next := handlers[prog]
		handlers[prog] = packHandler(ps, next)
	}
}

func packHandler(ps []*packs.Pack, next handler) handler {
	return func(a *analyzer, inv *shell.Invocation) {
		words := inv.Args()
		args, dynamic := packs.Texts(words)
		for _, p := range ps {
			c := p.NewCallTexts(inv.Name, words, args, dynamic)
			for _, r := range p.Judge(c) {
				a.judge(inv, effect.ToolOperation{Pack: p.Name, Pattern: r.Name, Rule: r.ID, Program: inv.Name, Op: r.Reason, Instead: r.Instead})
			}
			for i := range p.Rules {
				if r := &p.Rules[i]; r.Mounts != nil {
					for _, w := range r.Mounts(c) {
						a.hostMount(inv, p.Name, r.Name, w)
					}
				}
			}
		}
		if next != nil {
			next(a, inv)
		} else {
			a.genericCommand(inv)
		}
	}
}

// hostMount hands a host path a container is given to the rules, resolved
// like any path operand (against every directory the command may run in,
// symlinks followed): where it lies is the judge's to decide.
func (a *analyzer) hostMount(inv *shell.Invocation, pack, pattern string, w shell.Word) {
	m := effect.HostMount{Pack: pack, Pattern: pattern, Program: inv.Name, Source: effect.Target{Tool: inv.Name, Shown: quoteShow(w)}}
	if inv.State.Remote {
		// On another machine: only an absolute path means what it says.
		m.Source.Remote = true
		if w.Static() && path.IsAbs(w.Text) {
			m.Source.Path = path.Clean(w.Text)
		} else {
			m.Source.Dynamic = true
		}
		a.judge(inv, m)
		return
	}
	t := a.resolveArg(w, inv.State)
	if t.unknown || len(t.paths) == 0 {
		d := m
		d.Source.Dynamic = true
		a.judge(inv, d)
	}
	for _, p := range t.paths {
		m.Source.Path = p
		a.judge(inv, m)
	}
}
