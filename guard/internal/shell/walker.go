package shell

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/swarm-guard/swarm-guard/guard/effect"
)

// Walker is the shell core's walk (walk.go): it walks a script's
// statements, pipelines, compound commands, substitutions, assignments and
// functions, expands words (Expander) and hands each simple command to the
// tool families (Families), which recurse through Script for the scripts
// commands run. It also applies the builtins that only change the shell's
// state (cd and its kin, set, shift). One Walker serves one decision: it
// counts the nodes visited and the nesting depth against MaxNodes and
// MaxDepth.
type Walker struct {
	Expander
	Families Families
	// StdinSecret is where secret text on the standard input of the
	// pipeline stage being walked comes from; nil for none.
	StdinSecret *effect.Source

	nodes    int  // syntax nodes visited, bounded by MaxNodes
	depth    int  // nesting depth of scripts and substitutions
	aborted  bool // a limit was hit
	called   map[*syntax.FuncDecl]bool
	declared []declaredFunc // every function declaration, in source order
}

func (w *Walker) resolve(p string) string {
	if w.Env.Resolve != nil {
		return w.Env.Resolve(p)
	}
	return p
}

// IsDigits reports whether s is a non-empty run of ASCII digits (a file
// descriptor, a signal or job number, a count).
func IsDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Cd applies cd, chdir, pushd and popd to the state the command runs in:
// the possible working directories afterwards (symlinks resolved through
// Env.Resolve, $CDPATH followed). A cd that may fail leaves the old
// directories possible too, unless the script stops on failure.
func (w *Walker) Cd(inv *Invocation) {
	st := inv.State
	if !inv.InThisShell() {
		return // `sudo cd` runs no cd in this shell
	}
	if inv.Name == "popd" {
		// The directory stack is not followed: where popd goes is unknown.
		st.SetCwds(nil, true)
		return
	}
	p := ParseOpts(inv.Args(), Spec{})
	var target Word
	switch {
	case len(p.Operands) == 0:
		target = Word{Text: w.Env.Home}
		if v, ok := st.Vars["HOME"]; ok && len(v) == 1 {
			target = v[0]
		}
	default:
		target = p.Operands[0]
	}
	if inv.Name == "pushd" && strings.HasPrefix(target.Text, "+") {
		st.SetCwds(nil, true)
		return
	}
	var next []string
	unknown := false
	if target.Dynamic || target.Glob || target.Text == "-" {
		unknown = true
	} else if st.CwdUnknown && !path.IsAbs(target.Text) {
		unknown = true
	} else {
		for _, c := range st.Cwds {
			next = append(next, w.resolve(CleanJoin(c, target.Text)))
		}
		// With CDPATH set, cd name may go to $dir/name for a CDPATH entry.
		if !path.IsAbs(target.Text) && !strings.HasPrefix(target.Text, "./") && !strings.HasPrefix(target.Text, "../") && target.Text != "." && target.Text != ".." {
			cdpath, known := inv.Env["CDPATH"]
			if !known {
				cdpath, known = w.Lookup("CDPATH", st)
			}
			switch {
			case known:
				for _, v := range cdpath {
					if v.Dynamic {
						unknown = true
						continue
					}
					for _, dir := range strings.Split(v.Text, ":") {
						if dir != "" {
							next = append(next, w.resolve(CleanJoin(dir, target.Text)))
						}
					}
				}
			}
		}
	}
	if st.Strong && (inv.Guarded || st.Errexit) {
		st.SetCwds(next, unknown)
		return
	}
	// The cd may fail, leaving the old directory in place.
	st.SetCwds(append(append([]string(nil), st.Cwds...), next...), st.CwdUnknown || unknown)
}

// Set applies set's positional parameters (set -- a b) and errexit
// (set -e, set -o errexit, set +e) to the state.
func Set(inv *Invocation) {
	args := inv.Args()
	for i, x := range args {
		switch {
		case x.Dynamic:
			inv.State.PosUnknown = true
		case x.Text == "--":
			inv.State.Positional, inv.State.PosUnknown = append([]Word(nil), args[i+1:]...), false
			return
		case x.Text == "-o" && i+1 < len(args) && args[i+1].Text == "errexit":
			inv.State.Errexit = true
		case strings.HasPrefix(x.Text, "-") && strings.Contains(x.Text, "e") && x.Text != "--":
			inv.State.Errexit = true
		case strings.HasPrefix(x.Text, "+") && strings.Contains(x.Text, "e"):
			inv.State.Errexit = false
		}
	}
}

// Shift applies shift [n] to the positional parameters.
func Shift(inv *Invocation) {
	n := 1
	if args := inv.Args(); len(args) > 0 {
		if args[0].Dynamic || !IsDigits(args[0].Text) {
			inv.State.PosUnknown = true
			return
		}
		n = atoi(args[0].Text)
	}
	if n <= len(inv.State.Positional) {
		inv.State.Positional = inv.State.Positional[n:]
	} else {
		inv.State.Positional = nil
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
		if n > 1<<20 {
			return 1 << 20
		}
	}
	return n
}

// WithCwd returns a copy of inv whose command runs in directory d.
func (w *Walker) WithCwd(inv *Invocation, d Word) *Invocation {
	n := *inv
	n.State = inv.State.Clone()
	if d.Dynamic || d.Glob {
		n.State.SetCwds(nil, true)
		return &n
	}
	var cwds []string
	for _, c := range inv.State.Cwds {
		cwds = append(cwds, w.resolve(CleanJoin(c, d.Text)))
	}
	n.State.SetCwds(cwds, inv.State.CwdUnknown && !path.IsAbs(d.Text))
	return &n
}

// IsName reports whether s is a shell variable name.
func IsName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// JoinWords joins words with spaces into one word, as "$*" or a
// command given as several arguments (watch ls -l) does.
func JoinWords(args []Word) Word {
	if len(args) == 0 {
		return Word{}
	}
	j := args[0]
	j.Tmpl = j.Template()
	for _, x := range args[1:] {
		j.Text += " " + x.Text
		j.Tmpl += " " + x.Template()
		j.Dynamic = j.Dynamic || x.Dynamic
		j.Net = j.Net || x.Net
		j.Proc = j.Proc || x.Proc
		j.Src += " " + x.Src
	}
	j.Glob = false
	return j
}
