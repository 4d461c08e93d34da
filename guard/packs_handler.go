package guard

import (
	"path"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/httpreq"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
	"github.com/swarm-guard/swarm-guard/guard/packs"
)

// packCheck judges an invocation by the packs ps of its program (those
// a vendor pack has only when the policy enables it): kubectl exec and
// docker run still look inside the command they start, in the program's
// own handler after this check (programs.go).
func packCheck(ps []*packs.Pack) handler {
	return func(a *analyzer, inv *shell.Invocation) {
		var words []shell.Word
		var args []string
		dynamic, read := false, false
		for _, p := range ps {
			if p.Vendor && !a.eng.vendor.on[p] {
				continue // not enabled: not even the words are read
			}
			if !read {
				words = inv.Args()
				args, dynamic = packs.Texts(words)
				read = true
			}
			c := p.NewCallTexts(inv.Name, words, args, dynamic)
			if inv.Stdin != nil && !inv.Stdin.Dynamic && !inv.Stdin.File {
				c.Stdin = inv.Stdin.Text
			}
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
	}
}

// vendorHTTP judges a request of curl, wget, httpie or xh by the HTTP
// rules of the enabled vendor packs: a DELETE to api.stripe.com/v1/…, a
// POST to …/_delete_by_query.
func (a *analyzer) vendorHTTP(inv *shell.Invocation) {
	if len(a.eng.vendor.http) == 0 {
		return
	}
	r, ok := httpreq.Read(inv.Name, inv.Args())
	if !ok {
		return
	}
	for _, p := range a.eng.vendor.http {
		for _, rule := range p.JudgeHTTP(r) {
			a.judge(inv, effect.ToolOperation{Pack: p.Name, Pattern: rule.Name, Rule: rule.ID, Program: inv.Name,
				Op: rule.Reason, Instead: rule.Instead})
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
