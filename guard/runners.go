package guard

import (
	"path"
	"strings"
	"sync"

	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
)

// runner describes a tool whose job is to run another command: poetry run
// CMD, bundle exec CMD, aws-vault exec PROFILE -- CMD. The guard sees
// through it like through sudo.
type runner struct {
	sub   string     // the subcommand that runs a command ("run", "exec"); "" for none
	spec  shell.Spec // options before the command (stop at the first operand)
	skip  int        // operands before the command (aws-vault exec PROFILE)
	shell string     // an option whose value is a shell script (nix-shell --run)
}

var runners = sync.OnceValue(func() map[string]runner {
	m := map[string]runner{
		"rtk":         {},
		"chronic":     {},
		"nocache":     {},
		"torsocks":    {},
		"xvfb-run":    {spec: shell.Spec{Short: "nsfe", Long: shell.Longs("server-num", "server-args", "auth-file", "error-file")}},
		"valgrind":    {},
		"proxychains": {spec: shell.Spec{Short: "f"}},
		"firejail":    {},
		"direnv":      {sub: "exec", skip: 1},
		"uv": {sub: "run", spec: shell.Spec{Short: "wp", Long: shell.Longs("with", "from", "python", "package", "env-file", "directory",
			"project", "group", "extra", "index", "default-index", "with-requirements", "with-editable", "script")}},
		"poetry":     {sub: "run", spec: shell.Spec{Short: "C", Long: shell.Longs("directory", "project")}},
		"pipenv":     {sub: "run"},
		"pdm":        {sub: "run", spec: shell.Spec{Short: "p", Long: shell.Longs("project")}},
		"hatch":      {sub: "run"},
		"rye":        {sub: "run"},
		"bundle":     {sub: "exec"},
		"bundler":    {sub: "exec"},
		"conda":      {sub: "run", spec: shell.Spec{Short: "np", Long: shell.Longs("name", "prefix", "cwd")}},
		"mamba":      {sub: "run", spec: shell.Spec{Short: "np", Long: shell.Longs("name", "prefix", "cwd")}},
		"micromamba": {sub: "run", spec: shell.Spec{Short: "np", Long: shell.Longs("name", "prefix", "cwd")}},
		"aws-vault":  {sub: "exec", skip: 1, spec: shell.Spec{Long: shell.Longs("duration", "region", "mfa-token", "role-ttl")}},
		"op":         {sub: "run", spec: shell.Spec{Long: shell.Longs("env-file", "account")}},
		"doppler":    {sub: "run", spec: shell.Spec{Short: "pc", Long: shell.Longs("project", "config", "command", "token")}, shell: "command"},
		"infisical":  {sub: "run", spec: shell.Spec{Long: shell.Longs("env", "path", "projectId", "token", "command")}, shell: "command"},
		"chamber":    {sub: "exec", skip: 1},
		"dotenv":     {spec: shell.Spec{Short: "efvc", Long: shell.Longs("env-file", "value", "cascade")}},
		"env-cmd":    {spec: shell.Spec{Short: "fre", Long: shell.Longs("file", "rc-file", "environments")}},
		"systemd-run": {spec: shell.Spec{Short: "upEHM", Long: shell.Longs("unit", "property", "uid", "gid", "setenv", "working-directory",
			"machine", "slice", "description", "host", "nice", "on-calendar", "on-active")}},
		"unshare":   {spec: shell.Spec{Short: "SGR", Long: shell.Longs("setuid", "setgid", "root", "wd", "map-user", "map-group", "propagation")}},
		"nix-shell": {spec: shell.Spec{Short: "pAI", Long: shell.Longs("run", "command", "packages", "attr", "include", "arg", "argstr")}, shell: "run"},
		"sg":        {},
	}
	return m
})

// runCommand handles the runners table. Tools that also install packages
// (uv, poetry, bundle, conda) are checked for installs first.
func (a *analyzer) runCommand(inv *shell.Invocation) {
	r := runners()[inv.Name]
	args := inv.Args()
	if r.sub != "" {
		if len(args) == 0 || args[0].Text != r.sub {
			a.packageManager(inv) // uv add, poetry add, conda install, bundle add ...
			return
		}
		args = args[1:]
	}
	if inv.Name == "uv" {
		a.packageManager(inv) // uv run --with pkg installs pkg
	}
	if inv.Name == "sg" && len(args) > 0 {
		// sg GROUP -c CMD / sg GROUP CMD
		p := shell.ParseOpts(args[1:], shell.Spec{Short: "c"})
		if c, ok := p.Value("c"); ok {
			a.x.RunScript(inv, c, "sg -c")
			return
		}
		a.x.RunScript(inv, shell.JoinWords(args[1:]), "sg")
		return
	}
	p := shell.ParseOpts(args, withStop(r.spec))
	if r.shell != "" {
		if c, ok := p.Value(r.shell); ok {
			a.x.RunScript(inv, c, inv.Name+" --"+r.shell)
			return
		}
	}
	rest := p.Rest
	for i := 0; i < r.skip && len(rest) > 0; i++ {
		rest = rest[1:]
	}
	if len(rest) > 0 && rest[0].Text == "--" {
		rest = rest[1:]
	}
	rest = a.x.LeadingAssignments(inv, rest)
	a.x.Reinvoke(inv, rest, inv.Name)
	if inv.Name == "systemd-run" && !p.Has("E", "setenv") {
		a.freshEnvironment(inv, "systemd-run", rest, shell.Word{}) // the service manager's environment
	}
}

func withStop(s shell.Spec) shell.Spec {
	s.Stop = true
	return s
}

// screen -dm [-S name] CMD ARGS runs CMD in a detached session.
func (a *analyzer) screen(inv *shell.Invocation) {
	p := shell.ParseOpts(inv.Args(), shell.Spec{Short: "SceptTLhX", Stop: true})
	if c, ok := p.Value("X"); ok && strings.HasPrefix(c.Text, "stuff") {
		a.x.RunScript(inv, shell.Word{Text: strings.TrimPrefix(c.Text, "stuff "), Dynamic: c.Dynamic, Src: c.Src}, "screen -X stuff")
	}
	a.x.Reinvoke(inv, p.Rest, "screen")
}

// tmux new-session/new-window/split-window/respawn-pane take a shell
// command as their last argument; send-keys types one.
func (a *analyzer) tmux(inv *shell.Invocation) {
	args := inv.Args()
	for len(args) > 0 && strings.HasPrefix(args[0].Text, "-") {
		if args[0].Text == "-L" || args[0].Text == "-S" || args[0].Text == "-f" || args[0].Text == "-T" {
			args = args[1:]
		}
		args = args[1:]
	}
	if len(args) == 0 {
		return
	}
	switch args[0].Text {
	case "new-session", "new", "new-window", "neww", "split-window", "splitw", "respawn-pane", "respawnp", "respawn-window", "respawnw", "run-shell", "run", "pipe-pane", "pipep", "display-popup", "popup":
		p := shell.ParseOpts(args[1:], shell.Spec{Short: "cefnstxyFlp"})
		if len(p.Operands) > 0 {
			a.x.RunScript(inv, shell.JoinWords(p.Operands), "tmux "+args[0].Text)
		}
	case "send-keys", "send":
		p := shell.ParseOpts(args[1:], shell.Spec{Short: "tN"})
		var keys []shell.Word
		for _, k := range p.Operands {
			if k.Text != "Enter" && k.Text != "C-m" && k.Text != "KPEnter" {
				keys = append(keys, k)
			}
		}
		if len(keys) > 0 {
			a.x.RunScript(inv, shell.JoinWords(keys), "tmux send-keys")
		}
	}
}

// at and batch read a script from standard input (or -f FILE).
func (a *analyzer) atCmd(inv *shell.Invocation) {
	p := shell.ParseOpts(inv.Args(), shell.Spec{Short: "qfTt"})
	if f, ok := p.Value("f"); ok {
		a.readPath(inv, f)
		a.runFile(inv, f, "sh") // at -f job.sh runs the file later, as sh job.sh would
		return
	}
	a.x.StdinScript(inv, inv.Name)
}

// nix develop -c CMD, nix shell PKGS -c CMD, nix run: run commands.
func (a *analyzer) nix(inv *shell.Invocation) {
	args := inv.Args()
	if len(args) == 0 {
		return
	}
	switch args[0].Text {
	case "develop", "shell":
		for i, x := range args {
			if x.Text == "-c" || x.Text == "--command" {
				a.x.Reinvoke(inv, args[i+1:], "nix "+args[0].Text)
				return
			}
		}
	case "profile":
		if len(args) > 1 && (args[1].Text == "install" || args[1].Text == "add") {
			// Judged like apt-get install: the [packages] system allowlist.
			var ns []string
			for _, x := range args[2:] {
				if x.Dynamic || !strings.HasPrefix(x.Text, "-") {
					ns = append(ns, x.Show())
				}
			}
			a.judge(inv, pkgRequest{eco: "system", names: ns}.effect("nix profile install"))
		}
	}
}

// rimraf and friends delete recursively, like rm -rf.
func (a *analyzer) rimraf(inv *shell.Invocation) {
	p := shell.ParseOpts(inv.Args(), shell.Spec{Long: shell.Longs("glob")})
	for _, x := range p.Operands {
		a.deletePath(inv, x, true)
	}
}

// npxRun runs the binary of the package npx, pnpm exec, bunx or yarn exec
// names: npx rimraf ~ is rimraf ~.
func (a *analyzer) npxRun(inv *shell.Invocation, args []shell.Word, wrapper string) {
	p := shell.ParseOpts(args, shell.Spec{Short: "pc", Long: shell.Longs("package", "call", "cache", "registry", "prefix", "workspace", "userconfig"), Stop: true})
	if c, ok := p.Value("c", "call"); ok {
		a.x.RunScript(inv, c, wrapper+" -c")
		return
	}
	rest := p.Rest
	if len(rest) > 0 && rest[0].Text == "--" {
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return
	}
	bin := rest[0]
	if !bin.Dynamic && !isPathSpec(bin.Text) { // npx ./x.sh runs that file: keep its path
		name, _ := npmName(bin.Text)
		if name == "" {
			name = bin.Text
		}
		bin.Text = path.Base(name)
	}
	a.x.Reinvoke(inv, append([]shell.Word{bin}, rest[1:]...), wrapper)
}

// isPathSpec reports whether an npx/npm exec argument is a file path
// rather than a package name (@scope/name has a slash too).
func isPathSpec(s string) bool {
	return strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") || strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~/")
}
