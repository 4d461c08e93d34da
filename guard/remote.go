package guard

import (
	"path"
	"strings"
	"sync"

	"github.com/swarm-guard/swarm-guard/guard/effect"
)

func registerRemote() {
	handlers["ssh"] = (*analyzer).ssh
	handlers["slogin"] = (*analyzer).ssh
	handlers["docker"] = (*analyzer).container
	handlers["podman"] = (*analyzer).container
	handlers["nerdctl"] = (*analyzer).container
	handlers["kubectl"] = (*analyzer).kubectl
	handlers["oc"] = (*analyzer).kubectl
	handlers["claude"] = (*analyzer).claude
	handlers["scp"] = (*analyzer).scp
	handlers["sftp"] = (*analyzer).scp
	handlers["pwsh"] = (*analyzer).powershell
	handlers["powershell"] = (*analyzer).powershell
	for n := range fetchers {
		// scp fetches too, but has its own handler for its local operands.
		if _, own := handlers[n]; fetchers[n] && !own {
			handlers[n] = (*analyzer).fetcher
		}
	}
}

// remoteState is a state for commands that run on another machine or in a
// container: no path there is inside the worktree.
func remoteState(st *state) *state {
	r := st.clone()
	r.remote = true
	r.setCwds(nil, true)
	r.vars = map[string][]arg{}
	r.positional, r.posUnknown = nil, true
	return r
}

func (a *analyzer) ssh(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{short: "BbcDEeFIiJLlmOoPpQRSWw", stop: true})
	for _, o := range p.values("o") {
		key, val, ok := strings.Cut(o.s, "=")
		if !ok {
			key, val, _ = strings.Cut(o.s, " ")
		}
		switch strings.ToLower(strings.TrimSpace(key)) {
		case "proxycommand", "localcommand", "knownhostscommand":
			a.runScriptArg(inv, arg{s: strings.TrimSpace(val), dynamic: o.dynamic, src: o.src}, "ssh -o "+key)
		}
	}
	if p.has("N") || len(p.rest) == 0 {
		return
	}
	cmd := p.rest[1:] // rest[0] is the host
	remote := *inv
	remote.st = remoteState(inv.st)
	if len(cmd) == 0 {
		a.stdinScript(&remote, "ssh")
		return
	}
	script := joinArgs(cmd)
	if script.dynamic {
		a.dynamicScript(inv, script, "ssh")
		return
	}
	a.script(script.s, remote.st, nil)
}

// container handles docker/podman exec (the command runs in a container)
// and checks file operands such as --env-file for every subcommand.
func (a *analyzer) container(inv *invocation) {
	args := inv.args()
	for _, x := range args {
		a.readOperand(inv, x)
	}
	i := 0
	for i < len(args) && strings.HasPrefix(args[i].s, "-") {
		i++
	}
	if i >= len(args) {
		return
	}
	sub := args[i].s
	rest := args[i+1:]
	switch {
	case sub == "container" && len(rest) > 0 && rest[0].s == "exec":
		rest = rest[1:]
	case sub == "compose" || sub == "container":
		j := 0
		for j < len(rest) && strings.HasPrefix(rest[j].s, "-") {
			if rest[j].s == "-f" || rest[j].s == "--file" || rest[j].s == "-p" || rest[j].s == "--project-name" || rest[j].s == "--env-file" || rest[j].s == "--profile" {
				j++
			}
			j++
		}
		if j >= len(rest) || rest[j].s != "exec" {
			return
		}
		rest = rest[j+1:]
	case sub != "exec":
		return
	}
	p := parseOpts(rest, optSpec{short: "euwi", long: longs("env", "env-file", "user", "workdir", "detach-keys", "index"), stop: true})
	if len(p.rest) < 2 {
		return
	}
	remote := *inv
	remote.st = remoteState(inv.st)
	a.reinvoke(&remote, p.rest[1:], inv.name+" exec")
}

// scp copies local files to remote machines (and back): local sources are
// read, the destination is written.
func (a *analyzer) scp(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{short: "cFiJlMoPSX"})
	for _, o := range p.values("o") {
		if k, v, ok := strings.Cut(o.s, "="); ok && strings.EqualFold(k, "ProxyCommand") {
			a.runScriptArg(inv, arg{s: v, src: o.src}, "scp -o ProxyCommand")
		}
	}
	if len(p.operands) < 2 {
		return
	}
	for _, src := range p.operands[:len(p.operands)-1] {
		if !isRemoteSpec(src.s) {
			a.readPath(inv, src)
		}
	}
	if dest := p.operands[len(p.operands)-1]; !isRemoteSpec(dest.s) {
		a.writePath(inv, dest, inv.name+" writes to")
	}
}

func (a *analyzer) kubectl(inv *invocation) {
	args := inv.args()
	for _, x := range args {
		a.readOperand(inv, x) // --from-env-file=.env, -f secret.yaml
	}
	if len(args) == 0 || args[0].s != "exec" {
		return
	}
	for i, x := range args {
		if x.s == "--" && i+1 < len(args) {
			remote := *inv
			remote.st = remoteState(inv.st)
			a.reinvoke(&remote, args[i+1:], inv.name+" exec")
			return
		}
	}
}

// claude: a nested agent must not be started without the guard's hooks.
func (a *analyzer) claude(inv *invocation) {
	p := parseOpts(inv.args(), optSpec{long: longs("settings", "setting-sources", "model", "max-turns", "output-format",
		"input-format", "permission-mode", "allowedTools", "allowed-tools", "disallowedTools", "disallowed-tools",
		"append-system-prompt", "system-prompt", "resume", "session-id", "mcp-config", "add-dir", "tools", "agent", "agents",
		"fallback-model", "effort", "debug-file", "max-budget-usd", "json-schema", "task-budget")})
	if p.has("bare") {
		a.judge(inv, effect.GuardChange{Control: effect.GuardSetup, Does: "claude --bare starts an agent without hooks, so without this guard",
			Instead: "start nested agents without --bare (swarm-guard run -- claude -p ... keeps them guarded)"})
	}
	for _, s := range p.values("settings") {
		if s.dynamic || strings.Contains(s.s, "disableAllHooks") || strings.Contains(s.s, `"hooks"`) {
			a.judge(inv, effect.GuardChange{Control: effect.GuardSetup, Does: "claude --settings can switch hooks off or replace them", Instead: "start nested agents without --settings overrides of hooks"})
		}
	}
	if src, ok := p.value("setting-sources"); ok && (src.dynamic || !strings.Contains(src.s, "project")) {
		a.judge(inv, effect.GuardChange{Control: effect.GuardSetup, Does: "claude --setting-sources without \"project\" skips this repository's hooks", Instead: "keep project in --setting-sources"})
	}
}

var (
	curlSpec = sync.OnceValue(func() optSpec {
		return optSpec{short: "oDdFHTKbcEeuUxXAmrwYyzCQ", long: longs("output", "data", "data-binary", "data-raw", "data-urlencode",
			"data-ascii", "json", "form", "form-string", "upload-file", "header", "user", "config", "cookie", "cookie-jar", "dump-header",
			"trace", "trace-ascii", "stderr", "proxy", "request", "url", "user-agent", "referer", "max-time", "connect-timeout",
			"retry", "cacert", "cert", "key", "netrc-file", "write-out", "range", "output-dir", "resolve", "connect-to")}
	})
	wgetSpec = sync.OnceValue(func() optSpec {
		return optSpec{short: "OoaiPeUTtwQ", long: longs("output-document", "output-file", "append-output", "input-file",
			"directory-prefix", "post-file", "body-file", "load-cookies", "save-cookies", "certificate", "private-key",
			"ca-certificate", "user-agent", "header", "user", "password", "timeout", "tries", "wait", "quota", "execute")}
	})
)

// fetcher: curl and wget read and write files too (-o, -d @file, -T file).
// urlFileName is the file curl -O and wget save a URL as: its last path
// segment (wget's index.html for a bare host is not modelled).
func urlFileName(u arg) arg {
	if !u.static() {
		return arg{dynamic: true}
	}
	s, _, _ := strings.Cut(u.s, "?")
	s, _, _ = strings.Cut(s, "#")
	if i := strings.Index(s, "://"); i >= 0 {
		s = s[i+3:]
	}
	_, p, ok := strings.Cut(s, "/")
	name := path.Base("/" + p)
	if !ok || name == "/" || name == "." || name == ".." {
		return arg{dynamic: true}
	}
	return arg{s: name, src: u.src}
}

func (a *analyzer) fetcher(inv *invocation) {
	out := func(x arg, verb string) {
		if x.static() && x.s == "-" {
			return
		}
		a.writePath(inv, x, verb)
	}
	atFile := func(o arg) {
		if i := strings.Index(o.s, "@"); i >= 0 && !o.dynamic {
			f, _, _ := strings.Cut(o.s[i+1:], ";")
			if f != "" && f != "-" {
				a.readPath(inv, arg{s: f, src: o.src})
			}
		}
	}
	downloaded := &input{dynamic: true, net: true, desc: "the output of " + inv.name}
	switch inv.name {
	case "curl":
		p := parseOpts(inv.args(), curlSpec())
		for _, o := range p.values("o", "output", "c", "cookie-jar", "D", "dump-header", "trace", "trace-ascii", "stderr") {
			out(o, "curl writes")
		}
		for _, o := range p.values("o", "output") {
			a.recordBody(inv, o, downloaded)
		}
		if p.has("O", "remote-name", "remote-name-all") {
			for _, u := range p.operands {
				a.recordBody(inv, urlFileName(u), downloaded)
			}
		}
		for _, o := range p.values("d", "data", "data-binary", "data-urlencode", "data-ascii", "json", "F", "form", "H", "header") {
			atFile(o)
		}
		for _, o := range p.values("T", "upload-file", "K", "config", "E", "cert", "key", "netrc-file", "b", "cookie") {
			if !strings.Contains(o.s, "=") {
				a.readPath(inv, o)
			}
		}
	case "wget":
		p := parseOpts(inv.args(), wgetSpec())
		for _, o := range p.values("O", "output-document", "o", "output-file", "a", "append-output", "save-cookies") {
			out(o, "wget writes")
		}
		for _, o := range p.values("body-file", "post-file", "i", "input-file", "load-cookies", "certificate", "private-key") {
			a.readPath(inv, o)
		}
		d, hasDir := p.value("P", "directory-prefix")
		if hasDir {
			a.writePath(inv, arg{s: strings.TrimSuffix(d.s, "/") + "/*", glob: true, dynamic: d.dynamic, src: d.src}, "wget writes into")
		}
		if o, ok := p.value("O", "output-document"); ok {
			a.recordBody(inv, o, downloaded)
		} else {
			for _, u := range p.operands {
				f := urlFileName(u)
				if hasDir && f.static() && d.static() {
					f.s = path.Join(d.s, f.s)
				}
				a.recordBody(inv, f, downloaded)
			}
		}
	default:
		for _, x := range inv.args() {
			if strings.HasPrefix(x.s, "@") || strings.Contains(x.s, "=@") {
				atFile(x)
			}
		}
	}
}
