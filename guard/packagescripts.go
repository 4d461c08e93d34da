package guard

import (
	"encoding/json"
	"strings"
	"sync"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
)

// packageScripts judges the scripts of the nearest package.json that
// `npm run NAME` (and npm test, yarn build, pnpm NAME, bun run NAME ...)
// runs, with their pre and post scripts, and the project's own install
// lifecycle scripts when the project is installed.
func (a *analyzer) packageScripts(inv *shell.Invocation) {
	var dir *shell.Word
	var words []shell.Word
	ignoreScripts := false // --ignore-scripts: no lifecycle, pre or post scripts
	args := inv.Args()
	for i := 0; i < len(args); i++ {
		x := args[i]
		if x.Static() && (x.Text == "--ignore-scripts" || x.Text == "--ignore-scripts=true") {
			ignoreScripts = true
			continue
		}
		if x.Static() && (x.Text == "--prefix" || x.Text == "-C" || x.Text == "--cwd" || x.Text == "--dir") && i+1 < len(args) {
			dir = &args[i+1]
			i++
			continue
		}
		if x.Static() && (strings.HasPrefix(x.Text, "--prefix=") || strings.HasPrefix(x.Text, "--cwd=") || strings.HasPrefix(x.Text, "--dir=")) {
			_, v, _ := strings.Cut(x.Text, "=")
			dir = &shell.Word{Text: v, Src: v}
			continue
		}
		if x.Static() && x.Text == "--" {
			words = append(words, args[i:]...)
			break
		}
		if x.Static() && strings.HasPrefix(x.Text, "-") {
			continue
		}
		words = append(words, x)
	}
	if len(words) == 0 {
		if (inv.Name == "yarn" || inv.Name == "pnpm" || inv.Name == "bun") && !ignoreScripts {
			a.lifecycle(inv, dir) // bare `yarn`, `pnpm`... install the project
		}
		return
	}
	if !words[0].Static() {
		return // the package manager's own handler reports it
	}
	sub := words[0].Text
	var name string
	implicit := false // `yarn build`: a script only if no built-in command has the name
	switch sub {
	case "run", "run-script", "rum", "urn":
		if len(words) < 2 {
			return
		}
		name = words[1].Text
		if !words[1].Static() {
			name = "" // reported below if there are scripts to choose from
		}
	case "test", "t", "tst", "start", "stop", "restart":
		if inv.Name == "bun" && sub == "test" {
			return // bun test is bun's own test runner
		}
		name = map[string]string{"t": "test", "tst": "test"}[sub]
		if name == "" {
			name = sub
		}
	case "install", "i", "ci", "add", "in":
		if (sub == "ci" || len(words) == 1) && !ignoreScripts {
			a.lifecycle(inv, dir)
		}
		return
	default:
		if inv.Name == "npm" || packageManagerBuiltins()[sub] {
			return
		}
		name, implicit = sub, true
	}
	dirs, ok := a.runnerCwds(inv, dir)
	if !ok {
		return
	}
	for _, d := range dirs {
		file, scripts, found := a.packageJSON(inv, d)
		if !found {
			continue
		}
		if name == "" {
			if len(scripts) > 0 {
				a.judge(inv, effect.HiddenCode{By: inv.Name, Why: effect.ScriptName})
			}
			continue
		}
		if _, ok := scripts[name]; !ok && implicit {
			continue
		}
		if ignoreScripts {
			a.runScripts(inv, file, scripts, name)
		} else {
			a.runScripts(inv, file, scripts, "pre"+name, name, "post"+name)
		}
	}
}

// lifecycle judges what installing the project itself runs: its own
// preinstall, install, postinstall and prepare scripts.
func (a *analyzer) lifecycle(inv *shell.Invocation, dir *shell.Word) {
	dirs, ok := a.runnerCwds(inv, dir)
	if !ok {
		return
	}
	for _, d := range dirs {
		if file, scripts, found := a.packageJSON(inv, d); found {
			a.runScripts(inv, file, scripts, InstallScripts...)
		}
	}
}

func (a *analyzer) runScripts(inv *shell.Invocation, file string, scripts map[string]string, names ...string) {
	dir := file[:strings.LastIndexByte(file, '/')]
	if dir == "" {
		dir = "/"
	}
	rel := relToRoot(a.env.Root, file)
	for _, n := range names {
		if body, ok := scripts[n]; ok {
			a.runLines(inv, "the "+n+" script of "+rel, dir, []string{body})
		}
	}
}

// packageJSON finds and reads the package.json a package manager uses
// from dir.
func (a *analyzer) packageJSON(inv *shell.Invocation, dir string) (string, map[string]string, bool) {
	file, text, st := a.findUp(dir, "package.json")
	switch st {
	case fileMissing:
		return "", nil, false
	case fileUnknown:
		a.unreadableRunner(inv, inv.Name, file)
		return "", nil, false
	}
	var pkg struct {
		Scripts map[string]any `json:"scripts"`
	}
	if err := json.Unmarshal([]byte(text), &pkg); err != nil {
		a.judge(inv, effect.HiddenCode{By: inv.Name, What: relToRoot(a.env.Root, file), Why: effect.InvalidJSON})
		return "", nil, false
	}
	scripts := map[string]string{}
	for k, v := range pkg.Scripts {
		if s, ok := v.(string); ok {
			scripts[k] = s
		}
	}
	return file, scripts, true
}

// packageManagerBuiltins are yarn, pnpm and bun commands that run before
// a script of the same name would.
var packageManagerBuiltins = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{
		"add": true, "remove": true, "rm": true, "install": true, "i": true, "dlx": true, "exec": true, "x": true, "why": true,
		"list": true, "ls": true, "info": true, "init": true, "publish": true, "version": true, "upgrade": true, "up": true,
		"update": true, "outdated": true, "audit": true, "config": true, "cache": true, "link": true, "unlink": true, "pack": true,
		"create": true, "global": true, "workspace": true, "workspaces": true, "import": true, "licenses": true, "login": true,
		"logout": true, "owner": true, "patch": true, "prune": true, "rebuild": true, "store": true, "fetch": true, "env": true,
		"build": false, "test": false,
	}
	return m
})
