package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Invocation is one simple command as it will run, after wrappers such as
// sudo or env have been seen through.
type Invocation struct {
	Name  string // command name: the base name of argv[0]
	Argv  []Word // argv[0] and its arguments
	Env   map[string][]Word
	State *State
	Stdin *Input
	Node  syntax.Node
	Via   []string // wrappers seen through, outermost first
	// Guarded: what follows in the same && chain runs only if this succeeds.
	Guarded bool
}

// Args is the arguments after the command name.
func (inv *Invocation) Args() []Word { return inv.Argv[1:] }

// ViaBuiltin reports whether the command was reached only through the
// shell's own command and builtin, so it still runs in this shell.
func (inv *Invocation) ViaBuiltin() bool {
	if len(inv.Via) == 0 {
		return false
	}
	for _, v := range inv.Via {
		if v != "command" && v != "builtin" {
			return false
		}
	}
	return true
}

// InThisShell reports whether the command runs in the analysed shell
// itself (no wrapper, or only command/builtin), so cd and assignments
// change the shell's state.
func (inv *Invocation) InThisShell() bool { return len(inv.Via) == 0 || inv.ViaBuiltin() }

// Canon is the command as [[allow]] entries see it: words separated by one
// space, quotes removed, unknown parts as written.
func (inv *Invocation) Canon() string {
	parts := make([]string, 0, len(inv.Argv))
	for _, x := range inv.Argv {
		parts = append(parts, x.Show())
	}
	return strings.Join(parts, " ")
}
