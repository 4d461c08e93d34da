package guard

import (
	"github.com/swarm-guard/swarm-guard/guard/packs"
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
	return func(a *analyzer, inv *invocation) {
		args := make([]string, 0, len(inv.argv)-1)
		dynamic := false
		for _, x := range inv.args() {
			if x.dynamic || x.glob {
				dynamic = true
				args = append(args, "")
				continue
			}
			args = append(args, x.s)
		}
		for _, p := range ps {
			c := p.NewCall(inv.name, args, dynamic)
			for _, r := range p.Judge(c) {
				a.report(inv, r.ID, inv.name+" "+r.Reason+" ("+p.Name+" pack: "+r.Name+")", r.Instead)
			}
		}
		if next != nil {
			next(a, inv)
		} else {
			a.genericCommand(inv)
		}
	}
}
