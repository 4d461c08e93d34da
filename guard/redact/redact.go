package redact

import (
	"regexp"
	"strings"
	"sync"
)

// Mask is what replaces a secret. A few leading characters of a token stay
// visible (AKIA…, ghp_…) so a person can tell which credential it was.
const Mask = "****"

type patterns struct {
	tokens     []*regexp.Regexp
	privateKey *regexp.Regexp
	urlCreds   *regexp.Regexp
	authHeader *regexp.Regexp
	assignment *regexp.Regexp
	cliFlag    *regexp.Regexp
	login      *regexp.Regexp
}

// compiled is built on first use: most text never needs it, and a hook
// process must not pay for compiling it at start-up.
var compiled = sync.OnceValue(func() *patterns {
	c := regexp.MustCompile
	return &patterns{
		tokens: []*regexp.Regexp{
			c(`\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b`),
			c(`\bgh[pousr]_[A-Za-z0-9]{30,}\b`),
			c(`\bgithub_pat_[A-Za-z0-9_]{22,}\b`),
			c(`\bglpat-[A-Za-z0-9_\-]{20,}\b`),
			c(`\bxox[abposr]-[A-Za-z0-9-]{10,}\b`),
			c(`\bsk-(?:ant-|proj-)?[A-Za-z0-9_\-]{20,}\b`),
			c(`\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}\b`),
			c(`\bAIza[0-9A-Za-z_\-]{35}\b`),
			c(`\beyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}\b`),
			c(`\bnpm_[A-Za-z0-9]{36}\b`),
		},
		privateKey: c(`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)`),
		urlCreds:   c(`(://[^/\s:@]+:)([^/\s@]+)(@)`),
		authHeader: c(`(?i)(authorization:\s*(?:bearer|token|basic)\s+)([^\s'"]+)`),
		assignment: c(`(?i)((?:api[_-]?key|apikey|secret|token|passw(?:or)?d|pwd|auth|access[_-]?key|private[_-]?key|client[_-]?secret|credentials?)[A-Za-z0-9_\-]*["']?\s*[:=]\s*["']?)([^\s"'&;,]{6,})`),
		cliFlag:    c(`(?i)(--?(?:password|passwd|token|api-key|apikey|secret|auth-token)[= ]["']?)([^\s"']{4,})`),
		// curl -u user:password (--user, -sSfu), httpie/xh -a/--auth user:password.
		login: c(`((?:^|[\s;&|(])(?:curl|http|https|xh|xhs)(?:\s[^\n;&|]*?)?\s(?:-[A-Za-z]*u|--user|-a|--auth)(?:=|\s+)?["']?[^\s:"'@]+:)([^\s"'@]+)`),
	}
})

// hints are substrings (lower case) without which no pattern can match.
var hints = []string{"akia", "asia", "abia", "acca", "a3t", "gh", "github_pat", "glpat", "xox", "sk-", "sk_", "rk_", "pk_", "aiza", "eyj",
	"npm_", "private key", "://", "authorization", "key", "secret", "token", "pass", "pwd", "auth", "credential"}

// String returns s with secret-looking values masked.
func String(s string) string {
	if s == "" {
		return s
	}
	hold, login := mayHoldSecret(s), mayHoldLogin(s)
	if !hold && !login {
		return s
	}
	p := compiled()
	if login {
		s = p.login.ReplaceAllStringFunc(s, func(m string) string {
			sub := p.login.FindStringSubmatch(m)
			if isPlaceholder(sub[2]) {
				return m
			}
			return sub[1] + Mask
		})
		if !hold {
			return s
		}
	}
	s = p.privateKey.ReplaceAllString(s, "-----BEGIN PRIVATE KEY----- "+Mask)
	for _, re := range p.tokens {
		s = re.ReplaceAllStringFunc(s, keepPrefix)
	}
	s = p.urlCreds.ReplaceAllString(s, "${1}"+Mask+"${3}")
	s = p.authHeader.ReplaceAllString(s, "${1}"+Mask)
	s = p.cliFlag.ReplaceAllString(s, "${1}"+Mask)
	s = p.assignment.ReplaceAllStringFunc(s, func(m string) string {
		sub := p.assignment.FindStringSubmatch(m)
		if strings.Contains(sub[2], Mask) || isPlaceholder(sub[2]) {
			return m
		}
		return sub[1] + Mask
	})
	return s
}

// mayHoldLogin reports whether s may run a web client given user:password
// (curl -u, http -a), which no hint names.
func mayHoldLogin(s string) bool {
	return (strings.Contains(s, "curl") || strings.Contains(s, "http") || strings.Contains(s, "xh")) && strings.Contains(s, " -")
}

func mayHoldSecret(s string) bool {
	lower := strings.ToLower(s)
	for _, h := range hints {
		if strings.Contains(lower, h) {
			return true
		}
	}
	return false
}

func keepPrefix(tok string) string {
	n := 4
	if i := strings.IndexAny(tok, "_-"); i > 0 && i < 12 {
		n = i + 1
	}
	if n > len(tok)/3 {
		n = len(tok) / 3
	}
	return tok[:n] + Mask
}

// isPlaceholder keeps references such as $TOKEN or ${API_KEY} readable:
// they name a secret, they are not one.
func isPlaceholder(v string) bool {
	return strings.HasPrefix(v, "$") || strings.HasPrefix(v, "<") || strings.HasPrefix(v, "{{") || strings.HasPrefix(v, "***")
}
