package committed

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard"
)

// MaxFileBytes bounds the files Extract reads: a bigger one is reported
// as unreadable rather than judged in part.
const MaxFileBytes = 1 << 20

// Extract returns the commands file (slash-separated, relative to the
// repository root) holds for others to run; none for a file Detect does
// not recognise. A file of a known format that cannot be read (bad YAML,
// bad JSON, too big) is an error naming the cause.
func Extract(file string, data []byte) ([]Command, error) {
	f := Detect(file, data)
	if f == "" {
		return nil, nil
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("%s is %d KiB; swarm-guard reads committed files up to %d KiB", file, len(data)>>10, MaxFileBytes>>10)
	}
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	var cmds []Command
	var err error
	switch f {
	case Shell:
		cmds = []Command{{Line: 1, Where: "script", Script: text}}
	case Makefile:
		cmds = fromRunner(guard.MakefileCommands(text), "target ")
	case Justfile:
		cmds = fromRunner(guard.JustfileCommands(text), "recipe ")
	case Taskfile:
		rc, ok := guard.TaskfileCommands(text)
		if !ok {
			return nil, fmt.Errorf("%s: the Taskfile has a shape swarm-guard's reader does not know", file)
		}
		cmds = fromRunner(rc, "task ")
	case PackageJSON:
		cmds, err = packageScripts(text)
	case Dockerfile:
		cmds = dockerfile(text)
	case Terraform:
		cmds = terraform(text)
	default:
		cmds, err = fromYAML(f, text)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	for i := range cmds {
		cmds[i].File = file
		cmds[i].Format = f
	}
	return cmds, nil
}

func fromRunner(rc []guard.FileCommand, what string) []Command {
	out := make([]Command, 0, len(rc))
	for _, c := range rc {
		out = append(out, Command{Line: c.Line, Where: what + c.Name, Script: c.Text})
	}
	return out
}

// packageScripts reads package.json's scripts, each at the line of its
// key; the install scripts say so.
func packageScripts(text string) ([]Command, error) {
	var pkg struct {
		Scripts map[string]any `json:"scripts"`
	}
	if err := json.Unmarshal([]byte(text), &pkg); err != nil {
		return nil, fmt.Errorf("package.json does not parse as JSON: %v", err)
	}
	names := make([]string, 0, len(pkg.Scripts))
	for k := range pkg.Scripts {
		names = append(names, k)
	}
	sort.Strings(names)
	at := strings.Index(text, `"scripts"`)
	var out []Command
	for _, n := range names {
		body, ok := pkg.Scripts[n].(string)
		if !ok {
			continue
		}
		where := "script " + n
		for _, s := range guard.InstallScripts {
			if s == n {
				where += installWhere
			}
		}
		out = append(out, Command{Line: jsonKeyLine(text, at, n), Where: where, Script: body, Folded: true})
	}
	return out, nil
}

// installWhere ends the Where of a package.json script that installing
// the package runs.
const installWhere = " (run by every npm install)"

// jsonKeyLine finds the line of "key": after offset from.
func jsonKeyLine(text string, from int, key string) int {
	if from < 0 {
		from = 0
	}
	q := strconv.Quote(key)
	for i := from; ; {
		j := strings.Index(text[i:], q)
		if j < 0 {
			return 1 + strings.Count(text[:from], "\n")
		}
		k := i + j + len(q)
		rest := strings.TrimLeft(text[k:], " \t\n")
		if strings.HasPrefix(rest, ":") {
			return 1 + strings.Count(text[:i+j], "\n")
		}
		i = k
	}
}

// placeholder stands for a value only known when the command runs (a
// matrix value, an input, a Terraform variable): a plain word, so the
// command around it is still judged.
const placeholder = "ci-value"

var hclInterp = regexp.MustCompile(`\$\{[^}]*\}|%\{[^}]*\}`)
