package committed

import (
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// fromYAML reads the YAML formats with gopkg.in/yaml.v3, for the line of
// every scalar: a run step's script is judged where it is written.
func fromYAML(f Format, text string) ([]Command, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		return nil, fmt.Errorf("the YAML does not parse: %v", err)
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	root := deref(doc.Content[0])
	if root.Kind != yaml.MappingNode {
		return nil, nil
	}
	switch f {
	case GitHubWorkflow:
		return githubWorkflow(root), nil
	case GitHubAction:
		return githubAction(root), nil
	case GitLabCI:
		return gitlabCI(root), nil
	case Compose:
		return compose(root), nil
	case Lefthook:
		return lefthook(root), nil
	case PreCommit:
		return preCommitHooks(root), nil
	}
	return nil, nil
}

// maxNodes bounds the nodes one script list is walked through: a list
// that aliases expand past it is read up to it.
const maxNodes = 2000

func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 16; i++ {
		n = n.Alias
	}
	return n
}

// get returns a mapping's value for key, following aliases and merge
// keys (<<: *defaults).
func get(m *yaml.Node, key string) *yaml.Node { return getIn(m, key, 0) }

// getIn is get at a depth of merges: a merge that refers to its own
// mapping (a: &x {<<: *x}) stops instead of recursing for ever.
func getIn(m *yaml.Node, key string, depth int) *yaml.Node {
	m = deref(m)
	if m == nil || m.Kind != yaml.MappingNode || depth > 8 {
		return nil
	}
	var merged *yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i].Value
		if k == key {
			return deref(m.Content[i+1])
		}
		if k == "<<" && merged == nil {
			v := deref(m.Content[i+1])
			if v.Kind == yaml.SequenceNode && len(v.Content) > 0 {
				for _, s := range v.Content {
					if r := getIn(s, key, depth+1); r != nil {
						return r
					}
				}
			} else if r := getIn(v, key, depth+1); r != nil {
				merged = r
			}
		}
	}
	return merged
}

// pairs calls fn for each key and value of a mapping, in order.
func pairs(m *yaml.Node, fn func(k string, v *yaml.Node)) {
	m = deref(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value != "<<" {
			fn(m.Content[i].Value, deref(m.Content[i+1]))
		}
	}
}

func scalar(n *yaml.Node) (string, bool) {
	n = deref(n)
	if n == nil || n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return "", false
	}
	return n.Value, true
}

// scriptAt makes a command of a scalar holding shell text: a literal
// block's lines start on the line after its indicator; a folded one (>)
// or a quoted one with escapes has lines of its own.
func scriptAt(n *yaml.Node, where string) (Command, bool) {
	s, ok := scalar(n)
	if !ok || strings.TrimSpace(s) == "" {
		return Command{}, false
	}
	c := Command{Line: n.Line, Where: where, Script: s}
	switch {
	case n.Style&yaml.LiteralStyle != 0:
		c.Line = n.Line + 1
	case n.Style&yaml.FoldedStyle != 0:
		c.Line, c.Folded = n.Line+1, true
	case n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 && strings.Contains(s, "\n"):
		c.Folded = true
	}
	return c, true
}

// githubWorkflow reads every job's run steps, with the workflow's, the
// job's and the step's env: and working-directory.
func githubWorkflow(root *yaml.Node) []Command {
	var out []Command
	topEnv := ghEnv{}
	topEnv.add(get(root, "env"))
	topShell, topDir := ghDefaults(root)
	pairs(get(root, "jobs"), func(job string, j *yaml.Node) {
		env := topEnv.clone()
		env.add(get(j, "env"))
		shell, dir := ghDefaults(j)
		if shell == "" {
			shell = topShell
		}
		if dir == "" {
			dir = topDir
		}
		if shell == "" {
			if ro, _ := scalar(get(j, "runs-on")); strings.Contains(strings.ToLower(ro), "windows") {
				shell = "pwsh" // a Windows runner's default shell
			}
		}
		out = append(out, ghSteps(get(j, "steps"), "job "+job, env, shell, dir)...)
	})
	return out
}

// githubAction reads a composite action's run steps.
func githubAction(root *yaml.Node) []Command {
	runs := get(root, "runs")
	if u, _ := scalar(get(runs, "using")); u != "composite" {
		return nil
	}
	return ghSteps(get(runs, "steps"), "composite action", ghEnv{}, "", "")
}

func ghDefaults(n *yaml.Node) (shell, dir string) {
	run := get(get(n, "defaults"), "run")
	shell, _ = scalar(get(run, "shell"))
	dir, _ = scalar(get(run, "working-directory"))
	return shell, dir
}

func ghSteps(steps *yaml.Node, where string, env ghEnv, shell, dir string) []Command {
	steps = deref(steps)
	if steps == nil || steps.Kind != yaml.SequenceNode {
		return nil
	}
	var out []Command
	for i, s := range steps.Content {
		run := get(s, "run")
		if run == nil {
			continue
		}
		sh, _ := scalar(get(s, "shell"))
		if sh == "" {
			sh = shell
		}
		if !posixShell(sh) {
			continue
		}
		name, _ := scalar(get(s, "name"))
		w := where + ", step " + strconv.Itoa(i+1)
		if name != "" {
			w += " (" + name + ")"
		}
		c, ok := scriptAt(run, w)
		if !ok {
			continue
		}
		se := env.clone()
		se.add(get(s, "env"))
		d, _ := scalar(get(s, "working-directory"))
		if d == "" {
			d = dir
		}
		c.Dir = ghValue(d, nil)
		c.Script = ghExpressions(c.Script, &c)
		se.apply(&c)
		out = append(out, c)
	}
	return out
}

// posixShell reports whether a run step's shell: is sh or bash ("" is
// bash on Linux and macOS runners), with or without a {0} template.
func posixShell(sh string) bool {
	f := strings.Fields(sh)
	if len(f) == 0 {
		return true
	}
	p := f[0]
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		p = p[i+1:]
	}
	return isShellName(p)
}

// ghEnv is the env: a step sees: literal values and the secrets mapped
// into variables.
type ghEnv struct {
	vars, secrets map[string]string
}

func (e *ghEnv) add(n *yaml.Node) {
	pairs(n, func(k string, v *yaml.Node) {
		s, _ := scalar(v)
		if src := secretSource(s); src != "" {
			addVar(&e.secrets, k, src)
			delete(e.vars, k)
			return
		}
		addVar(&e.vars, k, ghValue(s, nil))
		delete(e.secrets, k)
	})
}

func (e ghEnv) clone() ghEnv {
	var c ghEnv
	for k, v := range e.vars {
		addVar(&c.vars, k, v)
	}
	for k, v := range e.secrets {
		addVar(&c.secrets, k, v)
	}
	return c
}

func (e ghEnv) apply(c *Command) {
	for k, v := range e.vars {
		if _, set := c.Secrets[k]; !set {
			addVar(&c.Vars, k, v)
		}
	}
	for k, v := range e.secrets {
		addVar(&c.Secrets, k, v)
	}
}

// gitlabReserved are the top-level keys of .gitlab-ci.yml that are not
// jobs.
var gitlabReserved = map[string]bool{"stages": true, "variables": true, "include": true, "workflow": true, "image": true,
	"services": true, "cache": true, "types": true, "pages:deploy": false, "spec": true}

// gitlabCI reads every job's script, before_script and after_script
// (the default: ones and the old top-level ones too), with variables:.
func gitlabCI(root *yaml.Node) []Command {
	var out []Command
	top := map[string]string{}
	glVars(get(root, "variables"), top)
	emit := func(where string, j *yaml.Node, vars map[string]string) {
		for _, key := range []string{"before_script", "script", "after_script"} {
			out = append(out, glScripts(get(j, key), where+" "+key, vars)...)
		}
	}
	emit("top-level", root, top)
	if d := get(root, "default"); d != nil {
		emit("default", d, top)
	}
	pairs(root, func(job string, j *yaml.Node) {
		if gitlabReserved[job] || job == "default" || j.Kind != yaml.MappingNode {
			return
		}
		if strings.HasPrefix(job, "before_script") || job == "after_script" || job == "script" {
			return
		}
		vars := map[string]string{}
		for k, v := range top {
			vars[k] = v
		}
		glVars(get(j, "variables"), vars)
		emit("job "+job, j, vars)
	})
	return out
}

func glVars(n *yaml.Node, into map[string]string) {
	pairs(n, func(k string, v *yaml.Node) {
		if s, ok := scalar(v); ok {
			into[k] = s
		} else if s, ok := scalar(get(v, "value")); ok {
			into[k] = s
		}
	})
}

func glScripts(n *yaml.Node, where string, vars map[string]string) []Command {
	n = deref(n)
	if n == nil {
		return nil
	}
	var out []Command
	budget := maxNodes // aliases may repeat a list many times over (a billion laughs)
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		n = deref(n)
		budget--
		if n == nil || depth > 8 || n.Tag == "!reference" || budget < 0 {
			return
		}
		switch n.Kind {
		case yaml.SequenceNode:
			for _, c := range n.Content {
				walk(c, depth+1)
			}
		case yaml.ScalarNode:
			if c, ok := scriptAt(n, where); ok {
				for k, v := range vars {
					if !strings.Contains(v, "$") {
						addVar(&c.Vars, k, v)
					}
				}
				out = append(out, c)
			}
		}
	}
	walk(n, 0)
	return out
}

// compose reads every service's command and entrypoint (and a
// CMD-SHELL health check): a string is read as shell text, a list as an
// exec form.
func compose(root *yaml.Node) []Command {
	var out []Command
	pairs(get(root, "services"), func(svc string, s *yaml.Node) {
		for _, key := range []string{"entrypoint", "command"} {
			if c, ok := composeCommand(get(s, key), "service "+svc+" "+key); ok {
				out = append(out, c)
			}
		}
		if t := get(get(s, "healthcheck"), "test"); t != nil && t.Kind == yaml.SequenceNode && len(t.Content) > 1 {
			if first, _ := scalar(t.Content[0]); first == "CMD-SHELL" {
				if c, ok := scriptAt(t.Content[1], "service "+svc+" healthcheck"); ok {
					out = append(out, c)
				}
			}
		}
	})
	return out
}

func composeCommand(n *yaml.Node, where string) (Command, bool) {
	n = deref(n)
	if n == nil {
		return Command{}, false
	}
	if n.Kind == yaml.SequenceNode {
		var argv []string
		for _, a := range n.Content {
			s, _ := scalar(a)
			argv = append(argv, s)
		}
		if len(argv) == 0 {
			return Command{}, false
		}
		script := shellJoin(argv)
		if len(argv) >= 3 && isShellName(lastPath(argv[0])) && argv[1] == "-c" {
			script = argv[2]
		}
		return Command{Line: n.Line, Where: where, Script: composeValues(script), Folded: true}, true
	}
	c, ok := scriptAt(n, where)
	c.Script = composeValues(c.Script)
	return c, ok
}

// composeValues turns compose's $$ (a literal $ for the container's
// shell) into $; ${VAR} interpolated by compose stays a variable.
func composeValues(s string) string { return strings.ReplaceAll(s, "$$", "$") }

func lastPath(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// lefthook reads the run: of every hook's commands and jobs (groups
// too); {staged_files} and the other templates stand for file names.
func lefthook(root *yaml.Node) []Command {
	var out []Command
	pairs(root, func(hook string, h *yaml.Node) {
		if h.Kind != yaml.MappingNode {
			return
		}
		pairs(get(h, "commands"), func(name string, c *yaml.Node) {
			if cmd, ok := scriptAt(get(c, "run"), "hook "+hook+" command "+name); ok {
				cmd.Script = lefthookTemplate.ReplaceAllString(cmd.Script, "files")
				out = append(out, cmd)
			}
		})
		var jobs func(n *yaml.Node, depth int)
		jobs = func(n *yaml.Node, depth int) {
			n = deref(n)
			if n == nil || n.Kind != yaml.SequenceNode || depth > 8 {
				return
			}
			for i, j := range n.Content {
				if cmd, ok := scriptAt(get(j, "run"), "hook "+hook+" job "+strconv.Itoa(i+1)); ok {
					cmd.Script = lefthookTemplate.ReplaceAllString(cmd.Script, "files")
					out = append(out, cmd)
				}
				jobs(get(get(j, "group"), "jobs"), depth+1)
			}
		}
		jobs(get(h, "jobs"), 0)
	})
	return out
}

// preCommitHooks reads the entry of the local hooks of
// .pre-commit-config.yaml that run a command (language: system or
// unsupported), with their args.
func preCommitHooks(root *yaml.Node) []Command {
	var out []Command
	repos := get(root, "repos")
	if repos == nil || repos.Kind != yaml.SequenceNode {
		return nil
	}
	for _, r := range repos.Content {
		if url, _ := scalar(get(r, "repo")); url != "local" {
			continue
		}
		hooks := get(r, "hooks")
		if hooks == nil || hooks.Kind != yaml.SequenceNode {
			continue
		}
		for _, h := range hooks.Content {
			lang, _ := scalar(get(h, "language"))
			if lang != "system" && lang != "unsupported" {
				continue
			}
			id, _ := scalar(get(h, "id"))
			c, ok := scriptAt(get(h, "entry"), "local hook "+id)
			if !ok {
				continue
			}
			if args := get(h, "args"); args != nil && args.Kind == yaml.SequenceNode {
				var argv []string
				for _, a := range args.Content {
					s, _ := scalar(a)
					argv = append(argv, s)
				}
				c.Script += " " + shellJoin(argv)
			}
			out = append(out, c)
		}
	}
	return out
}
