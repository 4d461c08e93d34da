package httpreq

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
)

// Request is what one client invocation sends.
type Request struct {
	Client string // the program: curl, wget, http, https, xh, xhs
	// Method is upper case: the one given (-X DELETE, xh delete), else
	// what the options imply (POST for a body, PUT for curl -T, HEAD for
	// curl -I), else GET. MethodDynamic: the method given is only known at
	// run time (-X "$M"); Method is then "".
	Method        string
	MethodDynamic bool
	URLs          []URL
	// Body holds what the request sends as written on the command line:
	// curl's and wget's data values (an @file reference stays as
	// written: the file is not read), httpie's and xh's data items
	// (name=value, name:=json, name@file) and --raw. Unknown parts are
	// marked with shell.UnknownMark.
	Body []string
}

// URL is one address a request goes to.
type URL struct {
	Raw   string // as written, unknown parts marked with shell.UnknownMark
	Host  string // lower case, without user-info and port; may hold UnknownMark
	Port  string // "" when not written
	Path  string // "/" when none is written; may hold UnknownMark
	Query string // without the "?"
}

// Clients are the programs Read understands.
var Clients = []string{"curl", "wget", "http", "https", "xh", "xhs"}

// IsClient reports whether Read understands prog.
func IsClient(prog string) bool {
	switch prog {
	case "curl", "wget", "http", "https", "xh", "xhs":
		return true
	}
	return false
}

// May reports whether the request's method is one of methods, or is only
// known at run time (so it may be any of them: the guard fails closed).
func (r Request) May(methods ...string) bool {
	if r.MethodDynamic {
		return true
	}
	for _, m := range methods {
		if r.Method == m {
			return true
		}
	}
	return false
}

// BodyHas reports whether the body written on the command line contains
// any of words, compared without case.
func (r Request) BodyHas(words ...string) bool {
	for _, b := range r.Body {
		lb := strings.ToLower(b)
		for _, w := range words {
			if strings.Contains(lb, strings.ToLower(w)) {
				return true
			}
		}
	}
	return false
}

// HostIs reports whether the URL's host is one of hosts: "api.stripe.com"
// names one host, "*.algolia.net" every host below algolia.net.
func (u URL) HostIs(hosts ...string) bool {
	for _, h := range hosts {
		if suffix, ok := strings.CutPrefix(h, "*"); ok {
			if strings.HasSuffix(u.Host, suffix) && len(u.Host) > len(suffix) {
				return true
			}
		} else if u.Host == h {
			return true
		}
	}
	return false
}

// Segments returns the path's segments: "/v1/customers/cus_1" gives v1,
// customers, cus_1.
func (u URL) Segments() []string {
	p := strings.Trim(u.Path, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// Read reads the request a client invocation sends. ok is false when the
// program is not a client Read knows or no URL is given.
func Read(prog string, words []shell.Word) (r Request, ok bool) {
	r.Client = prog
	var explicit string // the method given, upper case
	implied := ""       // what options imply without one
	setMethod := func(w shell.Word) {
		if !w.Static() {
			r.MethodDynamic = true
			return
		}
		explicit = strings.ToUpper(w.Text)
	}
	switch prog {
	case "curl":
		implied = readCurl(&r, words, setMethod)
	case "wget":
		implied = readWget(&r, words, setMethod)
	case "http", "https", "xh", "xhs":
		implied = readHTTPie(&r, words, setMethod)
	default:
		return r, false
	}
	switch {
	case r.MethodDynamic:
		r.Method = ""
	case explicit != "":
		r.Method = explicit
	case implied != "":
		r.Method = implied
	default:
		r.Method = "GET"
	}
	return r, len(r.URLs) > 0
}

// text is a word's text with its unknown parts marked.
func text(w shell.Word) string {
	if w.Glob && !w.Dynamic {
		return w.Text
	}
	return w.Template()
}

// curlValue are curl's options that take a value, short (one letter) and
// long; every other option is a switch.
const curlShortValue = "dFHTebcoxXAKCErmwyYztQPDUu"

var curlLongValue = set("data", "data-ascii", "data-binary", "data-raw", "data-urlencode", "json", "form", "form-string",
	"header", "user", "user-agent", "cookie", "cookie-jar", "output", "request", "upload-file", "url", "referer", "cacert",
	"capath", "cert", "cert-type", "key", "key-type", "config", "proxy", "proxy-user", "resolve", "connect-to", "max-time",
	"connect-timeout", "retry", "retry-delay", "retry-max-time", "write-out", "oauth2-bearer", "range", "interface",
	"limit-rate", "max-filesize", "output-dir", "unix-socket", "abstract-unix-socket", "aws-sigv4", "dns-servers",
	"local-port", "ciphers", "continue-at", "create-file-mode", "expect100-timeout", "max-redirs", "netrc-file", "noproxy",
	"pass", "pinnedpubkey", "preproxy", "proto", "proto-redir", "quote", "request-target", "socks5", "socks5-hostname",
	"stderr", "trace", "trace-ascii", "variable", "url-query", "trace-config", "ech", "ip-tos", "vlan-priority", "mptcp")

// curlData are curl's options whose value is the request body.
var curlData = set("data", "data-ascii", "data-binary", "data-raw", "data-urlencode", "json", "form", "form-string")

func readCurl(r *Request, words []shell.Word, setMethod func(shell.Word)) string {
	implied, get, head, upload := "", false, false, false
	option := func(name string, v shell.Word) {
		switch name {
		case "X", "request":
			setMethod(v)
		case "d", "data", "data-ascii", "data-binary", "data-raw", "data-urlencode", "json", "F", "form", "form-string":
			r.Body = append(r.Body, text(v))
		case "T", "upload-file":
			upload = true
			r.Body = append(r.Body, "@"+text(v))
		case "url":
			r.addURL(text(v), "http")
		}
	}
	for i := 0; i < len(words); i++ {
		w := words[i]
		t := text(w)
		switch {
		case strings.HasPrefix(t, "--") && len(t) > 2:
			name, v, eq := strings.Cut(t[2:], "=")
			switch {
			case name == "get":
				get = true
			case name == "head":
				head = true
			case !curlLongValue[name]:
			case eq:
				option(name, shell.Word{Text: v, Src: v, Dynamic: strings.Contains(v, shell.UnknownMark), Tmpl: v})
			case i+1 < len(words):
				i++
				option(name, words[i])
			}
		case strings.HasPrefix(t, "-") && len(t) > 1:
			// A group of short options: -sS, -XDELETE, -sX DELETE.
			for j := 1; j < len(t); j++ {
				c := t[j]
				switch c {
				case 'G':
					get = true
					continue
				case 'I':
					head = true
					continue
				}
				if strings.IndexByte(curlShortValue, c) < 0 {
					continue
				}
				if j+1 < len(t) {
					v := t[j+1:]
					option(string(c), shell.Word{Text: v, Src: v, Dynamic: strings.Contains(v, shell.UnknownMark), Tmpl: v})
				} else if i+1 < len(words) {
					i++
					option(string(c), words[i])
				}
				break
			}
		default:
			r.addURL(t, "http")
		}
	}
	switch {
	case head:
		implied = "HEAD"
	case get:
		implied = "GET"
	case upload:
		implied = "PUT"
	case len(r.Body) > 0:
		implied = "POST"
	}
	return implied
}

var wgetLongValue = set("method", "post-data", "post-file", "body-data", "body-file", "output-document", "output-file",
	"append-output", "input-file", "header", "user", "password", "http-user", "http-password", "user-agent", "load-cookies",
	"save-cookies", "tries", "timeout", "wait", "directory-prefix", "level", "referer", "ca-certificate", "certificate",
	"private-key", "execute", "bind-address", "limit-rate", "quota", "accept", "reject", "domains", "exclude-domains",
	"include-directories", "exclude-directories", "base", "config", "ftp-user", "ftp-password", "proxy-user", "proxy-password")

const wgetShortValue = "OoaitTwQPAReUBdlYe"

func readWget(r *Request, words []shell.Word, setMethod func(shell.Word)) string {
	implied := ""
	option := func(name string, v shell.Word) {
		switch name {
		case "method":
			setMethod(v)
		case "post-data", "body-data":
			implied = "POST"
			r.Body = append(r.Body, text(v))
		case "post-file", "body-file":
			implied = "POST"
			r.Body = append(r.Body, "@"+text(v))
		}
	}
	for i := 0; i < len(words); i++ {
		t := text(words[i])
		switch {
		case strings.HasPrefix(t, "--") && len(t) > 2:
			name, v, eq := strings.Cut(t[2:], "=")
			switch {
			case !wgetLongValue[name]:
			case eq:
				option(name, shell.Word{Text: v, Src: v, Dynamic: strings.Contains(v, shell.UnknownMark), Tmpl: v})
			case i+1 < len(words):
				i++
				option(name, words[i])
			}
		case strings.HasPrefix(t, "-") && len(t) > 1:
			if c := t[len(t)-1]; len(t) == 2 && strings.IndexByte(wgetShortValue, c) >= 0 && i+1 < len(words) {
				i++ // -O file
			}
		default:
			r.addURL(t, "http")
		}
	}
	return implied
}

var httpieLongValue = set("auth", "auth-type", "output", "print", "style", "session", "session-read-only", "verify", "cert",
	"cert-key", "cert-key-pass", "proxy", "timeout", "raw", "format-options", "pretty", "max-redirects", "ssl", "ciphers",
	"default-scheme", "unix-socket", "bearer", "http-version", "resolve", "interface", "local-port")

const httpieShortValue = "aAopsv"

func readHTTPie(r *Request, words []shell.Word, setMethod func(shell.Word)) string {
	scheme := "http"
	if r.Client == "https" || r.Client == "xhs" {
		scheme = "https"
	}
	positional := 0
	implied := ""
	for i := 0; i < len(words); i++ {
		w := words[i]
		t := text(w)
		switch {
		case t == "--":
			continue
		case strings.HasPrefix(t, "--") && len(t) > 2:
			name, v, eq := strings.Cut(t[2:], "=")
			switch {
			case !httpieLongValue[name]:
			case eq:
				if name == "raw" {
					r.Body = append(r.Body, v)
				}
			case i+1 < len(words):
				i++
				if name == "raw" {
					r.Body = append(r.Body, text(words[i]))
				}
			}
			continue
		case strings.HasPrefix(t, "-") && len(t) > 1 && positional == 0:
			if c := t[len(t)-1]; strings.IndexByte(httpieShortValue, c) >= 0 && i+1 < len(words) {
				i++
			}
			continue
		}
		positional++
		if positional == 1 {
			if !w.Static() && !strings.Contains(t, "/") && !strings.Contains(t, ":") {
				// http "$METHOD" url, or a URL only known at run time:
				// the next word decides.
				if i+1 < len(words) && looksLikeURL(text(words[i+1])) {
					setMethod(w)
					positional = 0
					continue
				}
			}
			if isMethod(t) {
				setMethod(w)
				positional = 0 // the URL comes next
				continue
			}
		}
		if len(r.URLs) == 0 {
			r.addURL(httpieURL(t), scheme)
			continue
		}
		// Request items: name==query, Header:value, name=value,
		// name:=json, name@file, name=@file.
		switch {
		case strings.Contains(t, "=="):
		case strings.Contains(t, ":=") || strings.Contains(t, "=") || strings.Contains(t, "@"):
			if k := strings.IndexAny(t, ":=@"); k >= 0 && t[k] == ':' && !strings.HasPrefix(t[k:], ":=") {
				continue // Header:value
			}
			r.Body = append(r.Body, t)
		}
	}
	if len(r.Body) > 0 {
		implied = "POST"
	}
	return implied
}

// httpieURL expands httpie's localhost shorthand: ":3000/x" is
// localhost:3000/x, ":/x" is localhost/x.
func httpieURL(t string) string {
	switch {
	case strings.HasPrefix(t, "://"):
		return t
	case strings.HasPrefix(t, ":/"):
		return "localhost" + t[1:]
	case strings.HasPrefix(t, ":"):
		return "localhost" + t
	}
	return t
}

func looksLikeURL(t string) bool {
	return strings.Contains(t, "://") || strings.HasPrefix(t, ":") || strings.Contains(t, ".") || strings.HasPrefix(t, "localhost")
}

func isMethod(t string) bool {
	switch strings.ToUpper(t) {
	case "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT", "PURGE":
		return true
	}
	return false
}

// addURL records one URL; defaultScheme is assumed when none is written
// (curl localhost:9200/_all).
func (r *Request) addURL(raw, defaultScheme string) {
	if raw == "" {
		return
	}
	u := URL{Raw: raw}
	rest := raw
	if i := strings.Index(rest, "://"); i >= 0 && !strings.ContainsAny(rest[:i], "/?#") {
		rest = rest[i+3:]
	}
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	authority := rest[:end]
	rest = rest[end:]
	if at := strings.LastIndexByte(authority, '@'); at >= 0 {
		authority = authority[at+1:]
	}
	host := authority
	if strings.HasPrefix(host, "[") {
		if k := strings.IndexByte(host, ']'); k >= 0 {
			host, u.Port = host[:k+1], strings.TrimPrefix(host[k+1:], ":")
		}
	} else if k := strings.LastIndexByte(host, ':'); k >= 0 {
		host, u.Port = host[:k], host[k+1:]
	}
	u.Host = strings.TrimSuffix(strings.ToLower(host), ".")
	if h, _, ok := strings.Cut(rest, "#"); ok {
		rest = h
	}
	u.Path, u.Query, _ = strings.Cut(rest, "?")
	if u.Path == "" {
		u.Path = "/"
	}
	if u.Host == "" {
		return
	}
	r.URLs = append(r.URLs, u)
}

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
