package guard

import (
	"slices"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/shell"
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
		if len(ops) >= 3 {
			a.remoteURL(g.inv, "git remote add", ops[2])
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

// gitURLHost is the host of a git address, as git reads one: scheme://
// [user@]host[:port]/path, or the scp-like [user@]host:path (no slash
// before the first colon). ok is false for anything git reads as a local
// path or a remote's name; host is "" for file:// URLs.
func gitURLHost(s string) (host string, ok bool) {
	if scheme, rest, found := strings.Cut(s, "://"); found && scheme != "" && !strings.ContainsAny(scheme, "/:") {
		if strings.EqualFold(scheme, "file") {
			return "", true
		}
		h, _, _ := strings.Cut(rest, "/")
		if i := strings.LastIndexByte(h, '@'); i >= 0 {
			h = h[i+1:]
		}
		if strings.HasPrefix(h, "[") {
			if end := strings.IndexByte(h, ']'); end > 0 {
				return strings.ToLower(h[1:end]), true
			}
		}
		h, _, _ = strings.Cut(h, ":")
		return strings.ToLower(h), true
	}
	colon := strings.IndexByte(s, ':')
	if colon <= 0 || strings.Contains(s[:colon], "/") {
		return "", false
	}
	h := s[:colon]
	if i := strings.LastIndexByte(h, '@'); i >= 0 {
		h = h[i+1:]
	}
	if h == "" || strings.HasPrefix(h, "-") {
		return "", false
	}
	return strings.ToLower(h), true
}

// remoteHosts is the set of hosts the repository's remotes name, in order.
func remoteHosts(urls []string) []string {
	var out []string
	for _, u := range urls {
		if h, ok := gitURLHost(u); ok && h != "" && !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	return out
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
