package guard

import (
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
		for _, p := range ps {
			c := p.NewCall(inv.Name, inv.Args())
			for _, r := range p.Judge(c) {
				a.judge(inv, effect.ToolOperation{Pack: p.Name, Pattern: r.Name, Rule: r.ID, Program: inv.Name, Op: r.Reason, Instead: r.Instead})
			}
		}
		if next != nil {
			next(a, inv)
		} else {
			a.genericCommand(inv)
		}
	}
}
