package guard

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
)

// osascript (macOS) runs AppleScript or JavaScript for Automation. Both
// reach the shell: `do shell script "rm -rf ~"` and
// `app.doShellScript("rm -rf ~")`. Their literal shell text is judged as if
// typed; shell text built at run time is denied.
func (a *analyzer) osascript(inv *shell.Invocation) {
	p := shell.ParseOpts(inv.Args(), shell.Spec{Short: "els", Stop: true})
	lines := p.Values("e")
	if len(lines) == 0 {
		for _, x := range p.Rest[:min(len(p.Rest), 1)] {
			a.readPath(inv, x) // the script file
		}
		return
	}
	var text []string
	for _, l := range lines {
		if l.Dynamic {
			a.judge(inv, effect.HiddenCode{By: "osascript", What: l.Show(), Why: effect.AppleScript})
			return
		}
		text = append(text, l.Text)
	}
	for _, sh := range appleShellText(strings.Join(text, "\n")) {
		if !sh.literal {
			a.judge(inv, effect.HiddenCode{By: "osascript", Why: effect.AppleShell})
			continue
		}
		a.x.Script(sh.text, inv.State.Clone(), nil)
	}
}

type appleShell struct {
	text    string
	literal bool
}

// appleShellText finds the shell text of every do shell script (AppleScript)
// and doShellScript( (JavaScript) call: a string literal on its own is
// literal; anything else (a variable, a concatenation) is not.
func appleShellText(src string) []appleShell {
	var out []appleShell
	lower := strings.ToLower(src)
	for _, kw := range []string{"do shell script", "doshellscript("} {
		for i := 0; ; {
			j := strings.Index(lower[i:], kw)
			if j < 0 {
				break
			}
			k := i + j + len(kw)
			i = k
			for k < len(src) && (src[k] == ' ' || src[k] == '\t') {
				k++
			}
			s, end, ok := appleString(src, k)
			if ok {
				rest := strings.TrimLeft(src[end:], " \t")
				// "..." & x or "..." + x: text built at run time.
				ok = !strings.HasPrefix(rest, "&") && !strings.HasPrefix(rest, "+")
			}
			out = append(out, appleShell{text: s, literal: ok})
		}
	}
	return out
}

// appleString reads a double-quoted string literal at src[i] (AppleScript
// and JavaScript escapes: \" \\ \n \t). ok is false when there is none.
func appleString(src string, i int) (string, int, bool) {
	if i >= len(src) || src[i] != '"' {
		return "", i, false
	}
	var b strings.Builder
	for j := i + 1; j < len(src); j++ {
		c := src[j]
		switch {
		case c == '\\' && j+1 < len(src):
			j++
			switch src[j] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(src[j])
			}
		case c == '"':
			return b.String(), j + 1, true
		default:
			b.WriteByte(c)
		}
	}
	return "", len(src), false
}
