package guard

import (
	"path"
	"strings"
	"sync"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
)

// remoteState is a state for commands that run on another machine or in a
// container: no path there is inside the worktree.
func remoteState(st *shell.State) *shell.State {
	r := st.Clone()
	r.Remote = true
	r.SetCwds(nil, true)
	r.Vars = map[string][]shell.Word{}
	r.Positional, r.PosUnknown = nil, true
	return r
}

func (a *analyzer) ssh(inv *shell.Invocation) {
	p := shell.ParseOpts(inv.Args(), shell.Spec{Short: "BbcDEeFIiJLlmOoPpQRSWw", Stop: true})
	for _, o := range p.Values("o") {
		key, val, ok := strings.Cut(o.Text, "=")
		if !ok {
			key, val, _ = strings.Cut(o.Text, " ")
		}
		switch strings.ToLower(strings.TrimSpace(key)) {
		case "proxycommand", "localcommand", "knownhostscommand":
			a.x.RunScript(inv, shell.Word{Text: strings.TrimSpace(val), Dynamic: o.Dynamic, Src: o.Src}, "ssh -o "+key)
		}
	}
	if p.Has("N") || len(p.Rest) == 0 {
		return
	}
	cmd := p.Rest[1:] // rest[0] is the host
	remote := *inv
	remote.State = remoteState(inv.State)
	if len(cmd) == 0 {
		a.x.StdinScript(&remote, "ssh")
		return
	}
	script := shell.JoinWords(cmd)
	if script.Dynamic {
		a.DynamicScript(inv, script, "ssh")
		return
	}
	a.x.Script(script.Text, remote.State, nil)
}

// container handles docker/podman exec (the command runs in a container)
// and checks file operands such as --env-file for every subcommand.
func (a *analyzer) container(inv *shell.Invocation) {
	args := inv.Args()
	for _, x := range args {
		a.readOperand(inv, x)
	}
	i := 0
	for i < len(args) && strings.HasPrefix(args[i].Text, "-") {
		i++
	}
	if i >= len(args) {
		return
	}
	sub := args[i].Text
	rest := args[i+1:]
	switch {
	case sub == "container" && len(rest) > 0 && rest[0].Text == "exec":
		rest = rest[1:]
	case sub == "compose" || sub == "container":
		j := 0
		for j < len(rest) && strings.HasPrefix(rest[j].Text, "-") {
			if rest[j].Text == "-f" || rest[j].Text == "--file" || rest[j].Text == "-p" || rest[j].Text == "--project-name" || rest[j].Text == "--env-file" || rest[j].Text == "--profile" {
				j++
			}
			j++
		}
		if j >= len(rest) || rest[j].Text != "exec" {
			return
		}
		rest = rest[j+1:]
	case sub != "exec":
		return
	}
	p := shell.ParseOpts(rest, shell.Spec{Short: "euwi", Long: shell.Longs("env", "env-file", "user", "workdir", "detach-keys", "index"), Stop: true})
	if len(p.Rest) < 2 {
		return
	}
	remote := *inv
	remote.State = remoteState(inv.State)
	a.x.Reinvoke(&remote, p.Rest[1:], inv.Name+" exec")
}

// scp copies local files to remote machines (and back): local sources are
// read, the destination is written.
func (a *analyzer) scp(inv *shell.Invocation) {
	p := shell.ParseOpts(inv.Args(), shell.Spec{Short: "cFiJlMoPSX"})
	for _, o := range p.Values("o") {
		if k, v, ok := strings.Cut(o.Text, "="); ok && strings.EqualFold(k, "ProxyCommand") {
			a.x.RunScript(inv, shell.Word{Text: v, Src: o.Src}, "scp -o ProxyCommand")
		}
	}
	if len(p.Operands) < 2 {
		return
	}
	for _, src := range p.Operands[:len(p.Operands)-1] {
		if !isRemoteSpec(src.Text) {
			a.readPath(inv, src)
		}
	}
	if dest := p.Operands[len(p.Operands)-1]; isRemoteSpec(dest.Text) && dest.Static() {
		// An upload into the remote machine's system directories (host:/,
		// host:/etc/nginx) overwrites what the machine runs on, as
		// ssh host 'cp …' would. The remote home (host:, host:dir) and
		// temp directory are the everyday places to put a file.
		if _, rp, _ := strings.Cut(dest.Text, ":"); remoteSystemPath(rp) {
			remote := *inv
			remote.State = inv.State.Clone()
			remote.State.Remote = true
			a.writePath(&remote, dest, inv.Name+" writes to")
		}
	} else if !isRemoteSpec(dest.Text) {
		if srcs := p.Operands[:len(p.Operands)-1]; len(srcs) == 1 && srcs[0].Static() && a.knownDir(dest, inv.State) {
			// scp host:report.txt . writes ./report.txt, not the directory.
			_, rp, _ := strings.Cut(srcs[0].Text, ":")
			if !isRemoteSpec(srcs[0].Text) {
				rp = srcs[0].Text
			}
			if base := path.Base(rp); base != "." && base != "/" && base != ".." && rp != "" {
				dest = shell.Word{Text: path.Join(dest.Text, base), Src: dest.Src}
			}
		}
		a.writePath(inv, dest, inv.Name+" writes to")
	}
}

// remoteSystemPath reports whether an absolute path on another machine is
// its root or a system directory below it (/etc, /usr, /var, /opt, ...),
// not a home or temp directory. scp host:PATH names the remote file
// system; a relative PATH or ~ is under the remote home.
func remoteSystemPath(p string) bool {
	if !strings.HasPrefix(p, "/") {
		return false
	}
	p = path.Clean(p)
	if p == "/" {
		return true
	}
	top, _, _ := strings.Cut(p[1:], "/")
	switch top {
	case "tmp", "home", "Users", "mnt", "media", "data", "workspace", "work":
		return false
	case "var", "private":
		return !under(p, "/var/tmp") && !under(p, "/private/tmp") && !under(p, "/private/var/tmp")
	}
	return true
}

func (a *analyzer) kubectl(inv *shell.Invocation) {
	args := inv.Args()
	for _, x := range args {
		a.readOperand(inv, x) // --from-env-file=.env, -f secret.yaml
	}
	if len(args) == 0 || args[0].Text != "exec" {
		return
	}
	for i, x := range args {
		if x.Text == "--" && i+1 < len(args) {
			remote := *inv
			remote.State = remoteState(inv.State)
			a.x.Reinvoke(&remote, args[i+1:], inv.Name+" exec")
			return
		}
	}
}

// claude: a nested agent must not be started without the guard's hooks.
func (a *analyzer) claude(inv *shell.Invocation) {
	p := shell.ParseOpts(inv.Args(), shell.Spec{Long: shell.Longs("settings", "setting-sources", "model", "max-turns", "output-format",
		"input-format", "permission-mode", "allowedTools", "allowed-tools", "disallowedTools", "disallowed-tools",
		"append-system-prompt", "system-prompt", "resume", "session-id", "mcp-config", "add-dir", "tools", "agent", "agents",
		"fallback-model", "effort", "debug-file", "max-budget-usd", "json-schema", "task-budget")})
	if p.Has("bare") {
		a.judge(inv, effect.GuardChange{Change: effect.AgentBare})
	}
	for _, s := range p.Values("settings") {
		if s.Dynamic || strings.Contains(s.Text, "disableAllHooks") || strings.Contains(s.Text, `"hooks"`) {
			a.judge(inv, effect.GuardChange{Change: effect.AgentSettings})
		}
	}
	if src, ok := p.Value("setting-sources"); ok && (src.Dynamic || !strings.Contains(src.Text, "project")) {
		a.judge(inv, effect.GuardChange{Change: effect.AgentSources})
	}
}

var (
	curlSpec = sync.OnceValue(func() shell.Spec {
		return shell.Spec{Short: "oDdFHTKbcEeuUxXAmrwYyzCQ", Long: shell.Longs("output", "data", "data-binary", "data-raw", "data-urlencode",
			"data-ascii", "json", "form", "form-string", "upload-file", "header", "user", "config", "cookie", "cookie-jar", "dump-header",
			"trace", "trace-ascii", "stderr", "proxy", "request", "url", "user-agent", "referer", "max-time", "connect-timeout",
			"retry", "cacert", "cert", "key", "netrc-file", "write-out", "range", "output-dir", "resolve", "connect-to")}
	})
	wgetSpec = sync.OnceValue(func() shell.Spec {
		return shell.Spec{Short: "OoaiPeUTtwQ", Long: shell.Longs("output-document", "output-file", "append-output", "input-file",
			"directory-prefix", "post-file", "body-file", "load-cookies", "save-cookies", "certificate", "private-key",
			"ca-certificate", "user-agent", "header", "user", "password", "timeout", "tries", "wait", "quota", "execute")}
	})
)

// fetcher: curl and wget read and write files too (-o, -d @file, -T file).
// urlFileName is the file curl -O and wget save a URL as: its last path
// segment (wget's index.html for a bare host is not modelled).
func urlFileName(u shell.Word) shell.Word {
	if !u.Static() {
		return shell.Word{Dynamic: true}
	}
	s, _, _ := strings.Cut(u.Text, "?")
	s, _, _ = strings.Cut(s, "#")
	if i := strings.Index(s, "://"); i >= 0 {
		s = s[i+3:]
	}
	_, p, ok := strings.Cut(s, "/")
	name := path.Base("/" + p)
	if !ok || name == "/" || name == "." || name == ".." {
		return shell.Word{Dynamic: true}
	}
	return shell.Word{Text: name, Src: u.Src}
}

func (a *analyzer) fetcher(inv *shell.Invocation) {
	out := func(x shell.Word, verb string) {
		if x.Static() && x.Text == "-" {
			return
		}
		a.writePath(inv, x, verb)
	}
	atFile := func(o shell.Word) {
		if i := strings.Index(o.Text, "@"); i >= 0 && !o.Dynamic {
			f, _, _ := strings.Cut(o.Text[i+1:], ";")
			if f != "" && f != "-" {
				a.readPath(inv, shell.Word{Text: f, Src: o.Src})
			}
		}
	}
	downloaded := &shell.Input{Dynamic: true, Net: true, Desc: "the output of " + inv.Name}
	switch inv.Name {
	case "curl":
		p := shell.ParseOpts(inv.Args(), curlSpec())
		for _, o := range p.Values("o", "output", "c", "cookie-jar", "D", "dump-header", "trace", "trace-ascii", "stderr") {
			out(o, "curl writes")
		}
		for _, o := range p.Values("o", "output") {
			a.recordBody(inv, o, downloaded)
		}
		if p.Has("O", "remote-name", "remote-name-all") {
			for _, u := range p.Operands {
				a.recordBody(inv, urlFileName(u), downloaded)
			}
		}
		for _, o := range p.Values("d", "data", "data-binary", "data-urlencode", "data-ascii", "json", "F", "form", "H", "header") {
			atFile(o)
		}
		for _, o := range p.Values("T", "upload-file", "K", "config", "E", "cert", "key", "netrc-file", "b", "cookie") {
			if !strings.Contains(o.Text, "=") {
				a.readPath(inv, o)
			}
		}
	case "wget":
		p := shell.ParseOpts(inv.Args(), wgetSpec())
		for _, o := range p.Values("O", "output-document", "o", "output-file", "a", "append-output", "save-cookies") {
			out(o, "wget writes")
		}
		for _, o := range p.Values("body-file", "post-file", "i", "input-file", "load-cookies", "certificate", "private-key") {
			a.readPath(inv, o)
		}
		d, hasDir := p.Value("P", "directory-prefix")
		if hasDir {
			a.writePath(inv, shell.Word{Text: strings.TrimSuffix(d.Text, "/") + "/*", Glob: true, Dynamic: d.Dynamic, Src: d.Src}, "wget writes into")
		}
		if o, ok := p.Value("O", "output-document"); ok {
			a.recordBody(inv, o, downloaded)
		} else {
			for _, u := range p.Operands {
				f := urlFileName(u)
				if hasDir && f.Static() && d.Static() {
					f.Text = path.Join(d.Text, f.Text)
				}
				a.recordBody(inv, f, downloaded)
			}
		}
	default:
		for _, x := range inv.Args() {
			if strings.HasPrefix(x.Text, "@") || strings.Contains(x.Text, "=@") {
				atFile(x)
			}
		}
	}
}
