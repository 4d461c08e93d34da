package guard

import (
	"slices"
	"strings"
)

// The hosts git talks to, read from the addresses of its remotes: the
// engine hands them to the rules (Facts.RemoteHosts), and git's own
// remote, proxy and ssh settings are judged by them (gitremotes.go).

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
