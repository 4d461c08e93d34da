package guard

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
)

// Where git sends this repository's commits: pushes to an address written
// on the command line, and remotes pointed at one (effect.RemoteURL, judged
// by the secret-exfiltration rule against the configured remotes' hosts).

// gitRemote handles git remote add / set-url: the new address becomes a
// place later pushes go to. Other subcommands (-v, show, rename, remove,
// prune, get-url) send nothing.
func (a *analyzer) gitRemote(g *gitCtx, args []shell.Word) {
	p := shell.ParseOpts(args, shell.Spec{Short: "tm", Long: shell.Longs("track", "master", "mirror")})
	ops := p.Operands
	if len(ops) == 0 {
		return
	}
	switch ops[0].Text {
	case "add":
		if len(ops) >= 3 && ops[2].Static() {
			if host, ok := gitURLHost(ops[2].Text); ok {
				first := a.inFreshRepo(g) || len(a.env.Remotes) == 0 && a.inOwnRepo(g)
				a.judge(g.inv, effect.RemoteURL{By: "git remote add", URL: ops[2].Text, Host: host, First: first})
			}
		}
	case "set-url":
		if !p.Has("delete") && len(ops) >= 3 {
			a.remoteURL(g.inv, "git remote set-url", ops[2])
		}
	}
}

// gitURLCredentials: a password or token written into a git URL's
// user-info (git clone https://ci:<token>@host/r.git) goes to that host
// with the request, and into .git/config for good; judged like the same
// URL given to curl or WebFetch (secret-exfiltration, with the URL
// without it as the alternative). A placeholder or a loopback host is
// not a credential leaving.
func (a *analyzer) gitURLCredentials(inv *shell.Invocation, sub string, args []shell.Word) {
	by := "git " + sub
	if (sub == "remote" || sub == "submodule") && len(args) > 0 && args[0].Static() && !strings.HasPrefix(args[0].Text, "-") {
		by += " " + args[0].Text // git remote add, git submodule add
	}
	for _, x := range args {
		if !strings.Contains(x.Text, "://") {
			continue
		}
		if secrets := urlSecret(x); len(secrets) > 0 {
			a.judge(inv, effect.Send{By: by, Hosts: []string{urlHost(x.Text)}, Secrets: secrets})
		}
	}
}

// remoteURL judges an address git will push to, when it is a URL or an
// scp-like [user@]host:path; a local path or a configured remote's name is
// not judged here. An address only known at run time is left to the
// push that uses it.
func (a *analyzer) remoteURL(inv *shell.Invocation, by string, x shell.Word) {
	if !x.Static() {
		return
	}
	host, ok := gitURLHost(x.Text)
	if !ok {
		return
	}
	a.judge(inv, effect.RemoteURL{By: by, URL: x.Text, Host: host, Push: by == "git push"})
}

// remoteConfigKey reports whether a git config key sets where pushes go:
// remote.<name>.url and .pushurl, url.<base>.insteadOf and
// .pushInsteadOf (which rewrite every matching address to <base>).
// The address is the value, except for url.<base>.* where it is <base>.
func remoteConfigKey(key string) (addressInKey, ok bool) {
	k := strings.ToLower(key)
	switch {
	case strings.HasPrefix(k, "remote.") && (strings.HasSuffix(k, ".url") || strings.HasSuffix(k, ".pushurl")):
		return false, true
	case strings.HasPrefix(k, "url.") && (strings.HasSuffix(k, ".insteadof") || strings.HasSuffix(k, ".pushinsteadof")):
		return true, true
	}
	return false, false
}

// remoteConfig judges a config key that points pushes somewhere.
func (a *analyzer) remoteConfig(inv *shell.Invocation, rawKey string, val shell.Word) {
	inKey, _ := remoteConfigKey(rawKey)
	by := "git config " + rawKey
	if inKey {
		k := strings.ToLower(rawKey)
		base := rawKey[len("url."):]
		if strings.HasSuffix(k, ".pushinsteadof") {
			base = base[:len(base)-len(".pushinsteadof")]
		} else {
			base = base[:len(base)-len(".insteadof")]
		}
		a.remoteURL(inv, by, shell.Word{Text: base, Src: rawKey})
		return
	}
	a.remoteURL(inv, by, val)
}

func isRemoteConfigKey(key string) bool {
	_, ok := remoteConfigKey(key)
	return ok
}

// Proxies and ssh jump hosts relay everything git fetches and pushes: a
// proxy or jump host not among the remotes' hosts gets the repository's
// traffic (all of it over plain http:// or git://, where a proxy command
// is handed the stream itself), so it is judged like a remote pointed at
// that host (effect.RemoteURL with Via). A proxy on this machine, an
// empty value (no proxy) and reading the config are not.

// proxyConfigHosts is where a git config key routes git's traffic: the
// proxy of http.proxy, http.<url>.proxy and remote.<name>.proxy (and
// https.proxy, which git ignores but agents write), the hosts a
// core.sshCommand's ProxyJump or ProxyCommand names, and those of a
// core.gitProxy command. ok is false for other keys.
func proxyConfigHosts(key, val string) (hosts []string, ok bool) {
	k := strings.ToLower(key)
	switch {
	case k == "core.sshcommand":
		return sshCommandHosts(val), true
	case k == "core.gitproxy":
		cmd, _, _ := strings.Cut(val, " for ") // "command for domain"
		return proxyCommandHosts(splitCommand(cmd)), true
	case k == "http.proxy" || k == "https.proxy",
		strings.HasPrefix(k, "http.") && strings.HasSuffix(k, ".proxy"),
		strings.HasPrefix(k, "remote.") && strings.HasSuffix(k, ".proxy"):
		if h := proxyURLHost(val); h != "" {
			return []string{h}, true
		}
		return nil, true
	}
	return nil, false
}

// proxyVarHosts is where a variable set for a git command routes its
// traffic: GIT_SSH_COMMAND as core.sshCommand, GIT_PROXY_COMMAND as
// core.gitProxy, and the proxy variables curl reads for http(s) remotes.
func proxyVarHosts(name, val string) []string {
	switch strings.ToUpper(name) {
	case "GIT_SSH_COMMAND":
		return sshCommandHosts(val)
	case "GIT_PROXY_COMMAND":
		return proxyCommandHosts(splitCommand(val))
	case "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY":
		if h := proxyURLHost(val); h != "" {
			return []string{h}
		}
	}
	return nil
}

// proxyURLHost is the host of a proxy as git and curl read one:
// [scheme://][user[:password]@]host[:port], or "" for none.
func proxyURLHost(v string) string {
	v = strings.TrimSpace(v)
	if v == "" {
		return ""
	}
	if !strings.Contains(v, "://") {
		v = "http://" + v
	}
	h, ok := gitURLHost(v)
	if !ok {
		return ""
	}
	return h
}

// sshCommandHosts are the hosts an ssh command relays through: -J
// jump[,jump], -o ProxyJump=..., and the hosts its -o ProxyCommand=...
// names.
func sshCommandHosts(cmd string) []string {
	words := splitCommand(cmd)
	var hosts []string
	jump := func(v string) {
		for _, j := range strings.Split(v, ",") {
			if h := jumpHost(j); h != "" {
				hosts = append(hosts, h)
			}
		}
	}
	option := func(v string) {
		name, val, found := strings.Cut(v, "=")
		if !found {
			name, val, _ = strings.Cut(strings.TrimSpace(v), " ")
		}
		switch strings.ToLower(strings.TrimSpace(name)) {
		case "proxyjump":
			jump(strings.TrimSpace(val))
		case "proxycommand":
			hosts = append(hosts, proxyCommandHosts(splitCommand(val))...)
		}
	}
	for i := 1; i < len(words); i++ {
		w := words[i]
		switch {
		case (w == "-J" || w == "-o") && i+1 < len(words):
			i++
			if w == "-J" {
				jump(words[i])
			} else {
				option(words[i])
			}
		case strings.HasPrefix(w, "-J"):
			jump(w[2:])
		case strings.HasPrefix(w, "-o"):
			option(w[2:])
		}
	}
	return hosts
}

// jumpHost is the host of an ssh jump spec, [user@]host[:port] or
// ssh://[user@]host[:port]; "none" is no jump.
func jumpHost(s string) string {
	s = strings.TrimPrefix(strings.TrimSpace(s), "ssh://")
	if i := strings.LastIndexByte(s, '@'); i >= 0 {
		s = s[i+1:]
	}
	if strings.Count(s, ":") == 1 {
		s, _, _ = strings.Cut(s, ":")
	}
	s = strings.ToLower(strings.Trim(s, "[]"))
	if s == "" || s == "none" || strings.ContainsAny(s, "%$/") {
		return ""
	}
	return s
}

// proxyCommandHosts are the hosts a proxy command (ssh -W %h:%p jump, nc
// -X connect -x proxy:port %h %p, corkscrew proxy port %h %p) connects
// to: its words that name a host (with a dot or a colon, an address, or
// localhost), the %h/%p placeholders, options and paths left out. A
// command that names none (a script) is left to what it runs.
func proxyCommandHosts(words []string) []string {
	var hosts []string
	for i, w := range words {
		if i == 0 || strings.HasPrefix(w, "-") || strings.ContainsAny(w, "%$/=") {
			continue
		}
		h := jumpHost(w)
		if h == "" || !(strings.Contains(h, ".") || strings.Contains(h, ":") || h == "localhost") {
			continue
		}
		if strings.Trim(h, "0123456789") == "" {
			continue // a port
		}
		hosts = append(hosts, h)
	}
	return hosts
}

// splitCommand splits a command line the way sh does for plain words:
// whitespace separates, quotes group, a backslash escapes.
func splitCommand(s string) []string {
	var out []string
	var cur strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' && i+1 < len(s) {
				i++
				cur.WriteByte(s[i])
			} else {
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			in = true
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

// routeThrough judges the hosts a config key or variable sends git's
// traffic through; a proxy on this machine stays on it.
func (a *analyzer) routeThrough(inv *shell.Invocation, by, val string, hosts []string) {
	for _, h := range hosts {
		if Loopback(h) {
			continue
		}
		a.judge(inv, effect.RemoteURL{By: by, URL: val, Host: h, Via: true})
	}
}
