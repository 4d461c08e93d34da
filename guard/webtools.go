package guard

import (
	"net/netip"
	"net/url"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
)

// The client's own network tools: WebFetch fetches a URL the agent names,
// WebSearch sends a query to the search service, and a Monitor call may
// watch a WebSocket URL instead of running a command. Each is a network
// send (effect.Send) judged by the same rule as curl's
// (guard/rules/secret_exfiltration.go): a password in the URL's
// user-info is a secret that leaves the machine, and [network]
// allow_hosts restricts the hosts. Secret text elsewhere in a URL or a
// query needs the secret scanner; the hook looks for it
// (hooks/secretscan) and hands what it found to CheckSend.

// IsWebTool reports whether a tool sends a URL or a query off the
// machine itself: WebFetch, WebSearch, and Monitor when it watches a
// WebSocket URL instead of running a command.
func IsWebTool(tool string, in ToolInput) bool {
	switch tool {
	case ToolWebFetch, ToolWebSearch:
		return true
	case ToolMonitor:
		return in.Command == nil && in.WS != nil
	}
	return false
}

// WebTarget is what a web tool sends, as CheckWeb and the hook's secret
// scan read it: the URL (WebFetch, Monitor's ws) or the query
// (WebSearch).
func WebTarget(tool string, in ToolInput) string {
	switch {
	case tool == ToolWebSearch:
		return in.Query
	case tool == ToolMonitor && in.WS != nil:
		return in.WS.URL
	}
	return in.URL
}

// checkWeb decides a WebFetch, WebSearch or Monitor ws call on what the
// engine sees without the scanner: the URL's host and user-info.
func (e *Engine) checkWeb(tool string, in ToolInput, env *Env) Decision {
	if tool == ToolWebSearch {
		if strings.TrimSpace(in.Query) == "" {
			return badInput("the WebSearch call has no \"query\"", "send the search words in tool_input.query")
		}
		// The query goes to the search service, not to a host the agent
		// names: only secret text in it matters, and the hook's scan
		// looks for that.
		return e.CheckSend(effect.Send{By: tool}, "WebSearch "+in.Query, env)
	}
	raw := WebTarget(tool, in)
	field := "url"
	if tool == ToolMonitor {
		field = "ws.url"
	}
	if strings.TrimSpace(raw) == "" {
		return badInput("the "+tool+" call has no \""+field+"\"", "send the address in tool_input."+field)
	}
	w, ok := parseWebURL(raw)
	if !ok {
		return badInput("the "+tool+" call's "+field+" "+clip(maskUserinfo(raw))+" is not an absolute URL with a host", "send a full URL such as https://host/path")
	}
	send := effect.Send{By: tool, Hosts: []string{w.host}}
	if s, ok := w.userinfoSecret(); ok {
		send.Secrets = append(send.Secrets, s)
	}
	return e.CheckSend(send, tool+" "+maskUserinfo(raw), env)
}

// SentURLs returns the literal URLs the network clients of a shell
// command send to (curl, wget, httpie), for the hook's secret scan of
// what they carry: a token in a query parameter leaves with curl as with
// WebFetch. URLs only known at run time are not listed; their secret
// sources are the engine's (exfil.go).
func (e *Engine) SentURLs(cmd string, env *Env) []SentURL {
	if len(cmd) > MaxCommandBytes || !strings.Contains(cmd, "://") {
		return nil
	}
	a := e.newAnalyzer(env)
	a.x.Script(cmd, a.initialState(), nil)
	return a.urls
}

// sentURL records a URL argument of a network client for SentURLs.
func (a *analyzer) sentURL(by string, x shell.Word) {
	if x.Static() {
		a.urls = append(a.urls, SentURL{By: by, URL: x.Text})
	}
}

// CheckSend judges one network send of a client tool (trigger is how the
// decision shows the call, already free of secrets). The hook calls it
// again with the secrets its scan found in a WebFetch URL or a WebSearch
// query.
func (e *Engine) CheckSend(send effect.Send, trigger string, env *Env) Decision {
	a := e.newAnalyzer(env)
	a.judge(nil, send)
	for i := range a.findings {
		a.findings[i].trigger = clip(trigger)
	}
	return a.decision()
}

// webURL is a URL as a client sends it: its host, its user-info as
// written, and the URL without the user-info.
type webURL struct {
	host       string // lower case, without port
	user, pass string // percent-decoded where possible
	hasUser    bool
	bare       string // the URL without its user-info
}

// parseWebURL parses an absolute URL. The user-info is cut off by hand
// first: a placeholder such as user:<token>@ or user:${TOKEN}@ is not
// valid user-info to net/url, yet the host is plain to see.
func parseWebURL(raw string) (webURL, bool) {
	raw = strings.TrimSpace(raw)
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok || scheme == "" {
		return webURL{}, false
	}
	var w webURL
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	if at := strings.LastIndexByte(rest[:end], '@'); at >= 0 {
		info := rest[:at]
		rest = rest[at+1:]
		w.hasUser = true
		w.user, w.pass, _ = strings.Cut(info, ":")
		if s, err := url.PathUnescape(w.user); err == nil {
			w.user = s
		}
		if s, err := url.PathUnescape(w.pass); err == nil {
			w.pass = s
		}
	}
	w.bare = scheme + "://" + rest
	u, err := url.Parse(w.bare)
	if err != nil || u.Hostname() == "" {
		return webURL{}, false
	}
	w.host = strings.ToLower(u.Hostname())
	return w, true
}

// userinfoSecret is the secret a URL's user-info carries: a password
// (https://user:tok@host/), or the user name when the password is only
// the marker that says the name is a token (TOKEN:x-oauth-basic@). A
// placeholder (user:<token>@, :${TOKEN}@, :****@, :password@) is no
// secret.
func (w webURL) userinfoSecret() (effect.Secret, bool) {
	if !w.hasUser || Loopback(w.host) {
		return effect.Secret{}, false // a credential for a service on this machine does not leave it
	}
	secret, src := w.pass, effect.Source{Kind: effect.URLPassword, Name: w.user, Via: w.host}
	if strings.EqualFold(w.pass, "x-oauth-basic") {
		// the user is the token, the password the marker that says so
		secret, src = w.user, effect.Source{Kind: effect.URLToken, Name: w.pass, Via: w.host}
	}
	if placeholderValue(secret) {
		return effect.Secret{}, false
	}
	return effect.Secret{Source: src, Without: w.bare}, true
}

// Loopback reports whether a host is this machine itself (localhost,
// *.localhost, 127.0.0.0/8, ::1): a credential written into a URL for a
// local service (http://admin:admin@localhost:8080/) does not leave the
// machine.
func Loopback(host string) bool {
	host = strings.TrimSuffix(strings.Trim(strings.ToLower(host), "[]"), ".")
	return host == "localhost" || strings.HasSuffix(host, ".localhost") || host == "::1" ||
		strings.HasPrefix(host, "127.") && strings.Count(host, ".") == 3
}

// LocalNetwork reports whether host is an address of the local network
// (RFC 1918 and link-local IPv4, IPv6 unique-local and link-local) or a
// name only the local network resolves (.local, .lan, .home.arpa).
func LocalNetwork(host string) bool {
	host = strings.TrimSuffix(strings.Trim(strings.ToLower(host), "[]"), ".")
	if ip, err := netip.ParseAddr(host); err == nil {
		return ip.IsPrivate() || ip.IsLinkLocalUnicast()
	}
	return strings.HasSuffix(host, ".local") || strings.HasSuffix(host, ".lan") || strings.HasSuffix(host, ".home.arpa")
}

// placeholderValue reports whether a credential's value is a stand-in
// written in docs and examples, not a credential: empty, a variable or
// template ($TOKEN, ${TOKEN}, <token>, {{token}}, %TOKEN%), masked (***,
// xxxx), or a word that names what belongs there (password, token,
// YOUR_TOKEN, changeme).
func placeholderValue(v string) bool {
	v = strings.TrimSpace(v)
	if v == "" || strings.ContainsAny(v, "$<>{}%*") {
		return true
	}
	l := strings.ToLower(v)
	if strings.Trim(l, "x.-_0") == "" {
		return true
	}
	switch l {
	case "password", "passwd", "pass", "pwd", "secret", "token", "apikey", "api_key", "api-key", "key", "changeme", "example", "test", "user", "username":
		return true
	}
	for _, p := range []string{"your", "my_", "my-", "replace", "insert", "placeholder", "example"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// maskUserinfo hides the password of a URL's user-info ("user:****@"),
// the way the audit log and messages show it.
func maskUserinfo(raw string) string {
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return raw
	}
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	at := strings.LastIndexByte(rest[:end], '@')
	if at < 0 {
		return raw
	}
	user, pass, hasPass := strings.Cut(rest[:at], ":")
	switch {
	case !hasPass:
		return scheme + "://****" + rest[at:]
	case strings.EqualFold(pass, "x-oauth-basic"):
		return scheme + "://****:" + pass + rest[at:]
	}
	return scheme + "://" + user + ":****" + rest[at:]
}
