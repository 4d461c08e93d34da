package rules

import "github.com/swarm-guard/swarm-guard/guard/effect"

// The rules of the tool packs (destructive_terraform.go …
// destructive_system.go) judge the operations the packs' tables
// recognise (guard/packs: one file per family, each pattern with its
// reason, alternative and must-deny / must-allow examples).

// judgePackOperation is the judge of the pack rule id: an operation one
// of its patterns recognised is denied with the pattern's own reason and
// alternative.
func judgePackOperation(id string) Judge {
	return func(e effect.Effect, f *Facts) []Verdict {
		op, ok := e.(effect.ToolOperation)
		if !ok || op.Rule != id {
			return nil
		}
		return []Verdict{{Reason: op.Program + " " + op.Op + " (" + op.Pack + " pack: " + op.Pattern + ")", Instead: op.Instead}}
	}
}
