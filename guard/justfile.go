package guard

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
)

// justCmd judges `just [options] [recipe [args]...]`: the recipes named (or
// the first one) and their dependencies, read from the justfile.
func (a *analyzer) justCmd(inv *shell.Invocation) {
	var file, dir *shell.Word
	var words []string
	args := inv.Args()
	for i := 0; i < len(args); i++ {
		x := args[i]
		if !x.Static() {
			words = append(words, "")
			continue
		}
		switch s := x.Text; {
		case s == "-f" || s == "--justfile":
			if i+1 < len(args) {
				i++
				file = &args[i]
			}
		case s == "-d" || s == "--working-directory":
			if i+1 < len(args) {
				i++
				dir = &args[i]
			}
		case s == "--set":
			i += 2
		case s == "-l" || s == "--list" || s == "--summary" || s == "--show" || s == "-s" || s == "--dump" || s == "--fmt" ||
			s == "--help" || s == "-h" || s == "--version" || s == "-V" || s == "--variables" || s == "--groups" ||
			s == "-n" || s == "--dry-run" || s == "--init" || s == "--edit" || s == "-e":
			return // lists, shows or prints recipes; runs none of them
		case strings.HasPrefix(s, "-"):
		default:
			words = append(words, s)
		}
	}
	dirs, ok := a.runnerCwds(inv, nil)
	if !ok {
		return
	}
	for _, d := range dirs {
		var name, text string
		var st fileStatus
		if file != nil {
			if !file.Static() {
				a.judge(inv, effect.HiddenCode{By: "just", What: file.Show(), Why: effect.JustfileName})
				return
			}
			name = shell.CleanJoin(d, file.Text)
			text, st = a.runnerFile(name)
		} else {
			name, text, st = a.findUp(d, "justfile", "Justfile", ".justfile", "JUSTFILE")
		}
		switch st {
		case fileMissing:
			continue
		case fileUnknown:
			a.unreadableRunner(inv, "just", name)
			continue
		}
		jf := parseJustfile(text)
		runDir := name[:strings.LastIndexByte(name, '/')]
		if dir != nil && dir.Static() {
			runDir = shell.CleanJoin(d, dir.Text)
		}
		var goals []string
		for _, w := range words {
			if w == "" {
				if len(goals) == 0 {
					a.judge(inv, effect.HiddenCode{By: "just", Why: effect.RecipeName})
					return
				}
				continue
			}
			if _, ok := jf.recipes[w]; ok {
				goals = append(goals, w)
			}
		}
		if len(words) == 0 && jf.first != "" {
			goals = []string{jf.first}
		}
		rel := relToRoot(a.env.Root, name)
		for _, t := range jf.assignCmds {
			a.runLines(inv, "a backtick of "+rel, runDir, []string{t})
		}
		done := map[string]bool{}
		var run func(r string, depth int)
		run = func(r string, depth int) {
			rec, ok := jf.recipes[r]
			if !ok || done[r] || depth > 32 {
				return
			}
			done[r] = true
			for _, dep := range rec.deps {
				run(dep, depth+1)
			}
			a.runLines(inv, "just recipe "+r+" of "+rel, runDir, rec.lines)
		}
		for _, g := range goals {
			run(g, 0)
		}
	}
}

type justRecipe struct {
	deps  []string
	lines []string // each runs in its own shell; a shebang recipe is one script
	at    []int    // the justfile line each of lines starts on (1-based)
}

type justfile struct {
	recipes    map[string]*justRecipe
	first      string
	vars       map[string]string // assignments with a literal value
	assignCmds []string          // backtick commands in assignments: just runs them on load
}

// parseJustfile reads recipes (header `name params: deps`, indented
// body), literal assignments and backticks.
func parseJustfile(text string) *justfile {
	jf := &justfile{recipes: map[string]*justRecipe{}, vars: map[string]string{}}
	var cur *justRecipe
	var curParams []string
	shebang := false
	for li, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		if cur != nil && (strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t")) {
			body := strings.TrimSpace(line)
			if len(cur.lines) == 0 && strings.HasPrefix(body, "#!") {
				shebang = true
				if !isShellShebang(body) {
					cur.lines = append(cur.lines, makeUnknown) // another language: unknown
					cur.at = append(cur.at, li+1)
					continue
				}
			}
			body = jf.interpolate(body, curParams)
			if shebang {
				if len(cur.lines) == 0 {
					cur.lines = append(cur.lines, "")
					cur.at = append(cur.at, li+1)
				}
				cur.lines[0] += body + "\n"
				continue
			}
			body = strings.TrimLeft(body, "@-")
			cur.lines = append(cur.lines, body)
			cur.at = append(cur.at, li+1)
			continue
		}
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		cur, shebang = nil, false
		if strings.HasPrefix(trimmed, "[") || strings.HasPrefix(trimmed, "set ") || strings.HasPrefix(trimmed, "import ") ||
			strings.HasPrefix(trimmed, "mod ") || strings.HasPrefix(trimmed, "alias ") {
			continue
		}
		stmt := strings.TrimPrefix(trimmed, "export ")
		if k, v, ok := strings.Cut(stmt, ":="); ok && !strings.ContainsAny(strings.TrimSpace(k), " (") {
			v = strings.TrimSpace(v)
			switch {
			case strings.HasPrefix(v, "`") && strings.HasSuffix(v, "`") && len(v) > 1:
				jf.assignCmds = append(jf.assignCmds, v[1:len(v)-1])
			case len(v) > 1 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0]:
				jf.vars[strings.TrimSpace(k)] = v[1 : len(v)-1]
			}
			continue
		}
		head, deps, ok := strings.Cut(trimmed, ":")
		if !ok {
			continue
		}
		fields := strings.Fields(strings.TrimPrefix(head, "@"))
		if len(fields) == 0 {
			continue
		}
		name := fields[0]
		curParams = nil
		for _, p := range fields[1:] {
			p = strings.TrimLeft(p, "+*$")
			p, _, _ = strings.Cut(p, "=")
			curParams = append(curParams, p)
		}
		cur = &justRecipe{}
		for _, d := range strings.Fields(strings.ReplaceAll(strings.ReplaceAll(deps, "(", " "), "&&", " ")) {
			if d != "" && (d[0] == '_' || d[0] >= 'a' && d[0] <= 'z' || d[0] >= 'A' && d[0] <= 'Z') {
				cur.deps = append(cur.deps, strings.TrimRight(d, ")"))
			}
		}
		jf.recipes[name] = cur
		if jf.first == "" && !strings.HasPrefix(name, "_") {
			jf.first = name
		}
	}
	return jf
}

// interpolate replaces {{ expr }}: a literal variable by its value,
// anything else (parameters, functions) by an unknown value.
func (jf *justfile) interpolate(s string, params []string) string {
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			return s
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			return s
		}
		expr := strings.TrimSpace(s[i+2 : i+j])
		val, ok := jf.vars[expr]
		if !ok {
			val = makeUnknown
		}
		s = s[:i] + val + s[i+j+2:]
	}
}

func isShellShebang(line string) bool {
	for _, sh := range []string{"sh", "bash", "zsh", "dash", "ksh"} {
		if strings.HasSuffix(line, "/"+sh) || strings.HasSuffix(line, " "+sh) || strings.Contains(line, "/"+sh+" ") || strings.Contains(line, " "+sh+" ") {
			return true
		}
	}
	return false
}
