package committed

import (
	"encoding/json"
	"path"
	"regexp"
	"strings"
)

// dockerfile returns the RUN instructions of a Dockerfile (ONBUILD RUN
// too), in the shell form with make-like backslash continuations, the
// exec form (["sh", "-c", "..."]) and with here-documents (RUN <<EOF).
// WORKDIR, ENV and ARG give each its directory and variables; a SHELL
// other than a POSIX shell, and the Windows escape character, make the
// RUNs that follow unknown to the shell reader, so they are skipped.
func dockerfile(text string) []Command {
	lines := strings.Split(text, "\n")
	escape := byte('\\')
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if !strings.HasPrefix(t, "#") {
			break
		}
		if d := strings.ToLower(strings.ReplaceAll(t[1:], " ", "")); strings.HasPrefix(d, "escape=") && len(d) > len("escape=") {
			escape = d[len("escape=")]
		}
	}
	if escape != '\\' {
		return nil // a Windows Dockerfile: PowerShell or cmd, not a POSIX shell
	}
	var out []Command
	workdir := "/"
	vars := map[string]string{}
	shellOK := true
	for i := 0; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		start := i
		// The instruction, with its continuation lines; comment lines
		// inside it are dropped, as Docker does.
		body := []string{lines[i]}
		at := []int{i + 1}
		for strings.HasSuffix(strings.TrimRight(body[len(body)-1], " \t"), "\\") && i+1 < len(lines) {
			i++
			if c := strings.TrimSpace(lines[i]); strings.HasPrefix(c, "#") {
				continue
			}
			body = append(body, lines[i])
			at = append(at, i+1)
		}
		instr := strings.Join(body, "\n")
		word, rest := cutWord(strings.TrimSpace(instr))
		kw := strings.ToUpper(word)
		if kw == "ONBUILD" {
			word, rest = cutWord(rest)
			kw = strings.ToUpper(word)
		}
		// Here-documents (<<EOF, <<-EOF, <<"EOF") take the lines up to
		// their terminator.
		var docs []string
		var docAt []int
		for _, m := range heredocOpen.FindAllStringSubmatch(instr, -1) {
			term := m[2]
			for i+1 < len(lines) {
				i++
				l := lines[i]
				if m[1] == "-" {
					l = strings.TrimLeft(l, "\t")
				}
				if l == term {
					break
				}
				docs = append(docs, lines[i])
				docAt = append(docAt, i+1)
			}
			docs = append(docs, term)
			docAt = append(docAt, i+1)
		}
		switch kw {
		case "FROM":
			workdir, vars, shellOK = "/", map[string]string{}, true
		case "WORKDIR":
			d := strings.Trim(strings.TrimSpace(rest), `"'`)
			if !strings.HasPrefix(d, "/") {
				d = path.Join(workdir, d)
			}
			workdir = path.Clean(d)
		case "ENV":
			for k, v := range dockerKeyValues(rest) {
				vars[k] = v
			}
		case "ARG":
			for _, a := range strings.Fields(rest) {
				k, v, ok := strings.Cut(a, "=")
				if !ok {
					v = placeholder
				}
				if _, set := vars[k]; !set || ok {
					vars[k] = strings.Trim(v, `"'`)
				}
			}
		case "SHELL":
			var argv []string
			if json.Unmarshal([]byte(strings.TrimSpace(rest)), &argv) == nil && len(argv) > 0 {
				shellOK = isShellName(path.Base(argv[0]))
			}
		case "RUN":
			if !shellOK {
				continue
			}
			c := dockerRun(rest, docs, vars)
			if c == nil {
				continue
			}
			c.Line = start + 1
			c.Dir = workdir
			if c.heredocOnly {
				c.Line = docAt[0]
				c.lineMap = docAt
			} else {
				c.lineMap = append(append([]int{}, at...), docAt...)
			}
			out = append(out, c.Command)
		}
	}
	return out
}

var heredocOpen = regexp.MustCompile(`<<(-?)["']?([A-Za-z_][A-Za-z0-9_]*)["']?`)

type dockerRunCmd struct {
	Command
	heredocOnly bool
}

// dockerRun reads a RUN instruction's text after RUN: its flags
// (--mount, --network, --security), then the exec or the shell form.
func dockerRun(rest string, docs []string, env map[string]string) *dockerRunCmd {
	c := &dockerRunCmd{Command: Command{Where: "RUN"}}
	for k, v := range env {
		addVar(&c.Vars, k, v)
	}
	rest = strings.TrimLeft(rest, " \t")
	for strings.HasPrefix(rest, "--") {
		var flag string
		flag, rest = cutWord(rest)
		if m, ok := strings.CutPrefix(flag, "--mount="); ok {
			secretMount(m, &c.Command)
		}
	}
	rest = strings.TrimSpace(rest)
	if strings.HasPrefix(rest, "[") {
		var argv []string
		if err := json.Unmarshal([]byte(strings.ReplaceAll(rest, "\\\n", "")), &argv); err == nil && len(argv) > 0 {
			if len(argv) >= 3 && isShellName(path.Base(argv[0])) && argv[1] == "-c" {
				c.Script = argv[2]
			} else {
				c.Script = shellJoin(argv)
			}
			c.Folded = true
			return c
		}
	}
	if m := heredocOpen.FindStringSubmatchIndex(rest); m != nil && m[0] == 0 && strings.TrimSpace(rest[m[1]:]) == "" && len(docs) > 0 {
		// RUN <<EOF: the here-document is the script.
		c.heredocOnly = true
		c.Script = strings.Join(docs[:len(docs)-1], "\n")
		return c
	}
	c.Script = rest
	if len(docs) > 0 {
		c.Script += "\n" + strings.Join(docs, "\n")
	}
	return c
}

// secretMount reads a --mount=type=secret's options: env=NAME puts the
// secret in a variable (a file under /run/secrets is a secret source
// anyway).
func secretMount(opts string, c *Command) {
	kv := map[string]string{}
	for _, o := range strings.Split(strings.Trim(opts, `"'`), ",") {
		k, v, _ := strings.Cut(o, "=")
		kv[k] = v
	}
	if kv["type"] != "secret" {
		return
	}
	id := kv["id"]
	if id == "" {
		id = path.Base(kv["target"])
	}
	if name := kv["env"]; name != "" {
		addVar(&c.Secrets, name, "the build secret "+id)
	}
}

func cutWord(s string) (string, string) {
	s = strings.TrimLeft(s, " \t\\\n")
	i := strings.IndexAny(s, " \t\n")
	if i < 0 {
		return s, ""
	}
	return s[:i], s[i:]
}

// dockerKeyValues reads ENV's k=v pairs or its old `ENV k v` form.
func dockerKeyValues(s string) map[string]string {
	s = strings.TrimSpace(strings.ReplaceAll(s, "\\\n", " "))
	out := map[string]string{}
	if k, v, ok := strings.Cut(s, " "); ok && !strings.Contains(k, "=") {
		out[k] = strings.Trim(strings.TrimSpace(v), `"'`)
		return out
	}
	for _, f := range strings.Fields(s) {
		if k, v, ok := strings.Cut(f, "="); ok {
			out[k] = strings.Trim(v, `"'`)
		}
	}
	return out
}

// shellJoin quotes argv as one shell command line.
func shellJoin(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		if a != "" && !strings.ContainsAny(a, " \t\n'\"\\$`;&|<>(){}[]*?!#~") {
			q[i] = a
			continue
		}
		q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}
