package guard

import (
	"path"
	"strings"
	"sync"
)

// runner describes a tool whose job is to run another command: poetry run
// CMD, bundle exec CMD, aws-vault exec PROFILE -- CMD. The guard sees
// through it like through sudo.
type runner struct {
	sub   string  // the subcommand that runs a command ("run", "exec"); "" for none
	spec  optSpec // options before the command (stop at the first operand)
	skip  int     // operands before the command (aws-vault exec PROFILE)
	shell string  // an option whose value is a shell script (nix-shell --run)
}

var runners = sync.OnceValue(func() map[string]runner {
	m := map[string]runner{
		"rtk":         {},
		"chronic":     {},
		"nocache":     {},
		"torsocks":    {},
		"xvfb-run":    {spec: optSpec{short: "nsfe", long: longs("server-num", "server-args", "auth-file", "error-file")}},
		"valgrind":    {},
		"proxychains": {spec: optSpec{short: "f"}},
		"firejail":    {},
		"direnv":      {sub: "exec", skip: 1},
		"uv": {sub: "run", spec: optSpec{short: "wp", long: longs("with", "from", "python", "package", "env-file", "directory",
			"project", "group", "extra", "index", "default-index", "with-requirements", "with-editable", "script")}},
		"poetry":     {sub: "run", spec: optSpec{short: "C", long: longs("directory", "project")}},
		"pipenv":     {sub: "run"},
		"pdm":        {sub: "run", spec: optSpec{short: "p", long: longs("project")}},
		"hatch":      {sub: "run"},
		"rye":        {sub: "run"},
		"bundle":     {sub: "exec"},
		"bundler":    {sub: "exec"},
		"conda":      {sub: "run", spec: optSpec{short: "np", long: longs("name", "prefix", "cwd")}},
		"mamba":      {sub: "run", spec: optSpec{short: "np", long: longs("name", "prefix", "cwd")}},
		"micromamba": {sub: "run", spec: optSpec{short: "np", long: longs("name", "prefix", "cwd")}},
		"aws-vault":  {sub: "exec", skip: 1, spec: optSpec{long: longs("duration", "region", "mfa-token", "role-ttl")}},
		"op":         {sub: "run", spec: optSpec{long: longs("env-file", "account")}},
		"doppler":    {sub: "run", spec: optSpec{short: "pc", long: longs("project", "config", "command", "token")}, shell: "command"},
		"infisical":  {sub: "run", spec: optSpec{long: longs("env", "path", "projectId", "token", "command")}, shell: "command"},
		"chamber":    {sub: "exec", skip: 1},
		"dotenv":     {spec: optSpec{short: "efvc", long: longs("env-file", "value", "cascade")}},
		"env-cmd":    {spec: optSpec{short: "fre", long: longs("file", "rc-file", "environments")}},
		"systemd-run": {spec: optSpec{short: "upEHM", long: longs("unit", "property", "uid", "gid", "setenv", "working-directory",
			"machine", "slice", "description", "host", "nice", "on-calendar", "on-active")}},
		"unshare":   {spec: optSpec{short: "SGR", long: longs("setuid", "setgid", "root", "wd", "map-user", "map-group", "propagation")}},
		"nix-shell": {spec: optSpec{short: "pAI", long: longs("run", "command", "packages", "attr", "include", "arg", "argstr")}, shell: "run"},
		"sg":        {},
	}
	return m
})

func registerRunners() {
	for name := range runners() {
		handlers[name] = (*analyzer).runCommand
	}
	handlers["screen"] = (*analyzer).screen
	handlers["tmux"] = (*analyzer).tmux
	handlers["at"] = (*analyzer).atCmd
	handlers["batch"] = (*analyzer).atCmd
	handlers["nix"] = (*analyzer).nix
	handlers["rimraf"] = (*analyzer).rimraf
	handlers["del-cli"] = (*analyzer).rimraf
	handlers["trash-cli"] = (*analyzer).rimraf
}

// runCommand handles the runners table. Tools that also install packages
// (uv, poetry, bundle, conda) are checked for installs first.
func (a *analyzer) runCommand(inv *invocation) {
	r := runners()[inv.name]
	args := inv.args()
	if r.sub != "" {
		if len(args) == 0 || args[0].s != r.sub {
			a.packageManager(inv) // uv add, poetry add, conda install, bundle add ...
			return
		}
		args = args[1:]
	}
	if inv.name == "uv" {
		a.packageManager(inv) // uv run --with pkg installs pkg
	}
	if inv.name == "sg" && len(args) > 0 {
		// sg GROUP -c CMD / sg GROUP CMD
		p := parseOpts(args[1:], optSpec{short: "c"})
		if c, ok := p.value("c"); ok {
			a.runScriptArg(inv, c, "sg -c")
			return
		}
		a.runScriptArg(inv, joinArgs(args[1:]), "sg")
		return
	}
	p := parseOpts(args, withStop(r.spec))
	if r.shell != "" {
		if c, ok := p.value(r.shell); ok {
			a.runScriptArg(inv, c, inv.name+" --"+r.shell)
			return
		}
	}
	rest := p.rest
	for i := 0; i < r.skip && len(rest) > 0; i++ {
		rest = rest[1:]
	}
	if len(rest) > 0 && rest[0].s == "--" {
		rest = rest[1:]
	}
	rest = a.leadingAssignments(inv, rest)
	a.reinvoke(inv, rest, inv.name)
	if inv.name == "systemd-run" && !p.has("E", "setenv") {
		a.freshEnvironment(inv, "systemd-run", rest, arg{}) // the service manager's environment
	}
}

func withStop(s optSpec) optSpec {
	s.stop = true
	return s
}

// screen -dm [-S name] CMD ARGS runs CMD in a detached session.
func (a *analyzer) screen(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{short: "SceptTLhX", stop: true})
	if c, ok := p.value("X"); ok && strings.HasPrefix(c.s, "stuff") {
		a.runScriptArg(inv, arg{s: strings.TrimPrefix(c.s, "stuff "), dynamic: c.dynamic, src: c.src}, "screen -X stuff")
	}
	a.reinvoke(inv, p.rest, "screen")
}

// tmux new-session/new-window/split-window/respawn-pane take a shell
// command as their last argument; send-keys types one.
func (a *analyzer) tmux(inv *invocation) {
	args := inv.args()
	for len(args) > 0 && strings.HasPrefix(args[0].s, "-") {
		if args[0].s == "-L" || args[0].s == "-S" || args[0].s == "-f" || args[0].s == "-T" {
			args = args[1:]
		}
		args = args[1:]
	}
	if len(args) == 0 {
		return
	}
	switch args[0].s {
	case "new-session", "new", "new-window", "neww", "split-window", "splitw", "respawn-pane", "respawnp", "respawn-window", "respawnw", "run-shell", "run", "pipe-pane", "pipep", "display-popup", "popup":
		p := parseOpts(args[1:], optSpec{short: "cefnstxyFlp"})
		if len(p.operands) > 0 {
			a.runScriptArg(inv, joinArgs(p.operands), "tmux "+args[0].s)
		}
	case "send-keys", "send":
		p := parseOpts(args[1:], optSpec{short: "tN"})
		var keys []arg
		for _, k := range p.operands {
			if k.s != "Enter" && k.s != "C-m" && k.s != "KPEnter" {
				keys = append(keys, k)
			}
		}
		if len(keys) > 0 {
			a.runScriptArg(inv, joinArgs(keys), "tmux send-keys")
		}
	}
}

// at and batch read a script from standard input (or -f FILE).
func (a *analyzer) atCmd(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{short: "qfTt"})
	if f, ok := p.value("f"); ok {
		a.readPath(inv, f)
		return
	}
	a.stdinScript(inv, inv.name)
}

// nix develop -c CMD, nix shell PKGS -c CMD, nix run: run commands.
func (a *analyzer) nix(inv *invocation) {
	args := inv.args()
	if len(args) == 0 {
		return
	}
	switch args[0].s {
	case "develop", "shell":
		for i, x := range args {
			if x.s == "-c" || x.s == "--command" {
				a.reinvoke(inv, args[i+1:], "nix "+args[0].s)
				return
			}
		}
	case "profile":
		if len(args) > 1 && (args[1].s == "install" || args[1].s == "add") {
			// Judged like apt-get install: the [packages] system allowlist.
			var ns []string
			for _, x := range args[2:] {
				if x.dynamic || !strings.HasPrefix(x.s, "-") {
					ns = append(ns, x.show())
				}
			}
			a.judge(inv, pkgRequest{eco: "system", names: ns}.effect("nix profile install"))
		}
	}
}

// rimraf and friends delete recursively, like rm -rf.
func (a *analyzer) rimraf(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{long: longs("glob")})
	for _, x := range p.operands {
		a.deletePath(inv, x, true)
	}
}

// npxRun runs the binary of the package npx, pnpm exec, bunx or yarn exec
// names: npx rimraf ~ is rimraf ~.
func (a *analyzer) npxRun(inv *invocation, args []arg, wrapper string) {
	p := parseOpts(args, optSpec{short: "pc", long: longs("package", "call", "cache", "registry", "prefix", "workspace", "userconfig"), stop: true})
	if c, ok := p.value("c", "call"); ok {
		a.runScriptArg(inv, c, wrapper+" -c")
		return
	}
	rest := p.rest
	if len(rest) > 0 && rest[0].s == "--" {
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return
	}
	bin := rest[0]
	if !bin.dynamic {
		name, _ := npmName(bin.s)
		if name == "" {
			name = bin.s
		}
		bin.s = path.Base(name)
	}
	a.reinvoke(inv, append([]arg{bin}, rest[1:]...), wrapper)
}
