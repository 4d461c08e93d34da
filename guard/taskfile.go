package guard

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
)

// taskCmd judges `task [options] [task...] [VAR=value] [-- args]` (go-task):
// the tasks named (or "default"), their deps and the tasks they call, read
// from the Taskfile.
func (a *analyzer) taskCmd(inv *shell.Invocation) {
	var file, dir *shell.Word
	var goals []string
	args := inv.Args()
	for i := 0; i < len(args); i++ {
		x := args[i]
		if !x.Static() {
			a.judge(inv, effect.HiddenCode{By: "task", What: x.Show(), Why: effect.RunnerArgument})
			return
		}
		switch s := x.Text; {
		case s == "--":
			i = len(args)
		case s == "-t" || s == "--taskfile":
			if i+1 < len(args) {
				i++
				file = &args[i]
			}
		case s == "-d" || s == "--dir":
			if i+1 < len(args) {
				i++
				dir = &args[i]
			}
		case s == "-l" || s == "--list" || s == "-a" || s == "--list-all" || s == "--summary" || s == "-n" || s == "--dry" ||
			s == "--help" || s == "-h" || s == "--version" || s == "--init" || s == "-i":
			return // lists or prints tasks; runs none of them
		case strings.HasPrefix(s, "-") || strings.Contains(s, "="):
		default:
			goals = append(goals, s)
		}
	}
	if len(goals) == 0 {
		goals = []string{"default"}
	}
	dirs, ok := a.runnerCwds(inv, dir)
	if !ok {
		return
	}
	for _, d := range dirs {
		var name, text string
		var st fileStatus
		if file != nil {
			name = shell.CleanJoin(d, file.Text)
			text, st = a.runnerFile(name)
		} else {
			name, text, st = a.findUp(d, "Taskfile.yml", "taskfile.yml", "Taskfile.yaml", "taskfile.yaml",
				"Taskfile.dist.yml", "taskfile.dist.yml", "Taskfile.dist.yaml", "taskfile.dist.yaml")
		}
		switch st {
		case fileMissing:
			continue
		case fileUnknown:
			a.unreadableRunner(inv, "task", name)
			continue
		}
		tf, ok := parseTaskfile(text)
		rel := relToRoot(a.env.Root, name)
		if !ok {
			a.judge(inv, effect.HiddenCode{By: "task", What: rel, Why: effect.UnparsableFile})
			continue
		}
		base := name[:strings.LastIndexByte(name, '/')]
		done := map[string]bool{}
		var run func(t string, depth int)
		run = func(t string, depth int) {
			tk, ok := tf[t]
			if !ok || done[t] || depth > 32 {
				return
			}
			done[t] = true
			for _, dep := range tk.deps {
				run(dep, depth+1)
			}
			runDir := base
			if tk.dir != "" {
				runDir = shell.CleanJoin(base, tk.dir)
			}
			for _, c := range tk.cmds {
				if sub, ok := strings.CutPrefix(c, "\x00task:"); ok {
					run(sub, depth+1)
					continue
				}
				a.runLines(inv, "task "+t+" of "+rel, runDir, []string{c})
			}
		}
		for _, g := range goals {
			run(g, 0)
		}
	}
}

type taskDef struct {
	dir  string
	deps []string
	cmds []string // shell commands; "\x00task:NAME" calls another task
	at   []int    // the Taskfile line each of cmds starts on (1-based)
}

func (t *taskDef) add(line int, cmd string) {
	t.cmds = append(t.cmds, cmd)
	t.at = append(t.at, line)
}

// parseTaskfile reads the tasks of a Taskfile: the subset of YAML Taskfiles
// use for tasks (block mappings and sequences, flow lists of names, plain,
// quoted and literal-block strings). Go templates ({{.VAR}}) become unknown
// values. ok is false for a shape it does not understand.
func parseTaskfile(text string) (map[string]*taskDef, bool) {
	tasks := map[string]*taskDef{}
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	vars := taskfileVars(lines)
	taskTemplate := func(s string) string { return taskTemplateWith(s, vars) }
	inTasks := false
	var cur *taskDef
	field, taskIndent, fieldIndent := "", -1, -1
	for i := 0; i < len(lines); i++ {
		raw := lines[i]
		trimmed := strings.TrimSpace(raw)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		ind := len(raw) - len(strings.TrimLeft(raw, " "))
		if ind == 0 {
			inTasks = trimmed == "tasks:"
			cur = nil
			continue
		}
		if !inTasks {
			continue
		}
		if taskIndent < 0 {
			taskIndent = ind
		}
		if ind == taskIndent {
			name, rest, ok := strings.Cut(trimmed, ":")
			if !ok {
				return nil, false
			}
			cur = &taskDef{}
			tasks[unquoteYAML(strings.TrimSpace(name))] = cur
			field, fieldIndent = "", -1
			if rest = strings.TrimSpace(rest); rest != "" {
				cur.add(i+1, taskTemplate(unquoteYAML(rest))) // `name: cmd` shorthand
			}
			continue
		}
		if cur == nil {
			continue
		}
		if fieldIndent < 0 || ind <= fieldIndent && !strings.HasPrefix(trimmed, "- ") || ind < fieldIndent {
			fieldIndent = ind
		}
		if ind == fieldIndent && !strings.HasPrefix(trimmed, "- ") {
			k, v, ok := strings.Cut(trimmed, ":")
			if !ok {
				return nil, false
			}
			field = strings.TrimSpace(k)
			v = strings.TrimSpace(v)
			switch field {
			case "cmd":
				if v == "|" || v == "|-" || v == ">" {
					block, next := yamlBlock(lines, i+1, ind)
					cur.add(i+2, taskTemplate(block))
					i = next - 1
				} else if v != "" {
					cur.add(i+1, taskTemplate(unquoteYAML(v)))
				}
			case "dir":
				cur.dir = unquoteYAML(v)
			case "deps", "cmds":
				if strings.HasPrefix(v, "[") {
					for _, d := range strings.Split(strings.Trim(v, "[]"), ",") {
						if d = unquoteYAML(strings.TrimSpace(d)); d != "" {
							if field == "deps" {
								cur.deps = append(cur.deps, d)
							} else {
								cur.add(i+1, taskTemplate(d))
							}
						}
					}
				}
			}
			continue
		}
		item, isItem := strings.CutPrefix(trimmed, "- ")
		if !isItem || field != "cmds" && field != "deps" {
			continue
		}
		item = strings.TrimSpace(item)
		switch {
		case item == "|" || item == "|-" || item == ">":
			block, next := yamlBlock(lines, i+1, ind)
			cur.add(i+2, taskTemplate(block))
			i = next - 1
		case strings.HasPrefix(item, "task:"):
			t := unquoteYAML(strings.TrimSpace(strings.TrimPrefix(item, "task:")))
			if field == "deps" {
				cur.deps = append(cur.deps, t)
			} else {
				cur.add(i+1, "\x00task:"+t)
			}
		case strings.HasPrefix(item, "cmd:"):
			v := strings.TrimSpace(strings.TrimPrefix(item, "cmd:"))
			if v == "|" || v == "|-" {
				block, next := yamlBlock(lines, i+1, ind)
				cur.add(i+2, taskTemplate(block))
				i = next - 1
			} else {
				cur.add(i+1, taskTemplate(unquoteYAML(v)))
			}
		case field == "deps":
			cur.deps = append(cur.deps, unquoteYAML(item))
		case strings.HasPrefix(item, "{") || strings.HasPrefix(item, "defer:"):
			return nil, false
		default:
			cur.add(i+1, taskTemplate(unquoteYAML(item)))
		}
	}
	return tasks, true
}

// yamlBlock collects a literal block scalar's lines indented deeper than
// ind, starting at line i; it returns the text and the next line index.
func yamlBlock(lines []string, i, ind int) (string, int) {
	var b strings.Builder
	blockInd := -1
	for ; i < len(lines); i++ {
		l := lines[i]
		if strings.TrimSpace(l) == "" {
			b.WriteByte('\n')
			continue
		}
		li := len(l) - len(strings.TrimLeft(l, " "))
		if li <= ind {
			break
		}
		if blockInd < 0 {
			blockInd = li
		}
		if li < blockInd {
			break
		}
		b.WriteString(l[blockInd:] + "\n")
	}
	return b.String(), i
}

func unquoteYAML(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	if i := strings.Index(s, " #"); i >= 0 {
		return strings.TrimSpace(s[:i])
	}
	return s
}

// taskTemplateWith replaces Go template actions: {{.VAR}} of a literal
// top-level variable by its value, anything else by an unknown value.
func taskTemplateWith(s string, vars map[string]string) string {
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			return s
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			return s
		}
		val, ok := vars[strings.TrimPrefix(strings.TrimSpace(s[i+2:i+j]), ".")]
		if !ok {
			val = makeUnknown
		}
		s = s[:i] + val + s[i+j+2:]
	}
}

// taskfileVars reads the top-level vars: block's literal values (not
// sh: or map values, which are computed at run time).
func taskfileVars(lines []string) map[string]string {
	vars := map[string]string{}
	in := false
	for _, raw := range lines {
		trimmed := strings.TrimSpace(raw)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		if !strings.HasPrefix(raw, " ") {
			in = trimmed == "vars:"
			continue
		}
		if !in || strings.HasPrefix(raw, "    ") {
			continue
		}
		k, v, ok := strings.Cut(trimmed, ":")
		if v = strings.TrimSpace(v); ok && v != "" && !strings.Contains(v, "{{") {
			vars[strings.TrimSpace(k)] = unquoteYAML(v)
		}
	}
	return vars
}
