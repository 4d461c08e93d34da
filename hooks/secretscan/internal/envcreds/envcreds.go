package envcreds

import (
	"encoding/base64"
	"strings"
)

// MinLen is the shortest value taken for a credential: shorter values
// (true, 1, a port) are settings, and a line holding one says nothing.
const MinLen = 8

// Credential is one credential variable of the environment.
type Credential struct {
	Name  string
	Value string
	// forms are the spellings looked for in output: the value, and its
	// base64 without and with the newline echo adds.
	forms []string
}

// IsCredentialName reports whether a variable's name says it holds a
// credential: it contains TOKEN, SECRET, PASSWORD, PASSWD, APIKEY,
// API_KEY, ACCESS_KEY, PRIVATE_KEY or CREDENTIAL, or has AUTH as a word of
// its own (NPM_AUTH, not GIT_AUTHOR_NAME), in any case.
func IsCredentialName(name string) bool {
	u := strings.ToUpper(name)
	for _, w := range []string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "APIKEY", "API_KEY", "ACCESS_KEY", "PRIVATE_KEY", "CREDENTIAL"} {
		if strings.Contains(u, w) {
			return true
		}
	}
	for _, w := range strings.Split(u, "_") {
		if w == "AUTH" {
			return true
		}
	}
	return false
}

// From returns the credentials of environ (NAME=value entries): the
// credential variables whose value is at least MinLen bytes and is not a
// path (SSH_AUTH_SOCK), a URL without user-info (AUTH_URL) or a word
// (notSecret).
func From(environ []string) []Credential {
	var out []Credential
	for _, kv := range environ {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || len(value) < MinLen || !IsCredentialName(name) || notSecret(value) {
			continue
		}
		out = append(out, Credential{Name: name, Value: value, forms: []string{
			value,
			base64.StdEncoding.EncodeToString([]byte(value)),
			base64.StdEncoding.EncodeToString([]byte(value + "\n")),
		}})
	}
	return out
}

// notSecret reports whether a credential variable's value is a path or a
// URL without user-info (where a secret is kept or sent, not the secret),
// or a word: letters only, or digits only, shorter than 20 bytes. A
// development database's POSTGRES_PASSWORD=postgres would otherwise
// withhold every line that names postgres; a generated token mixes
// letters and digits, or is longer.
func notSecret(v string) bool {
	if len(v) < 20 {
		letters, digits := true, true
		for i := 0; i < len(v); i++ {
			c := v[i]
			letters = letters && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z')
			digits = digits && c >= '0' && c <= '9'
		}
		if letters || digits {
			return true
		}
	}
	if v[0] == '/' || v[0] == '~' || strings.HasPrefix(v, "./") {
		return !strings.ContainsAny(v, " \t")
	}
	if i := strings.Index(v, "://"); i > 0 && !strings.ContainsAny(v, "@ \t") {
		return true
	}
	return false
}

// Hit is a line of a text that holds a credential.
type Hit struct {
	Line int    // 1-based
	Name string // the variable, without $
}

// Find returns the lines of text that hold one of creds (the value or its
// base64), each once, in order, with the first variable found there.
func Find(text string, creds []Credential) []Hit {
	if len(creds) == 0 || text == "" {
		return nil
	}
	lines := map[int]string{}
	for _, c := range creds {
		for _, f := range c.forms {
			for from := 0; ; {
				i := strings.Index(text[from:], f)
				if i < 0 {
					break
				}
				at := from + i
				line := 1 + strings.Count(text[:at], "\n")
				if _, seen := lines[line]; !seen {
					lines[line] = c.Name
				}
				from = at + len(f)
			}
		}
	}
	if len(lines) == 0 {
		return nil
	}
	out := make([]Hit, 0, len(lines))
	for l, n := range lines {
		out = append(out, Hit{Line: l, Name: n})
	}
	for i := 1; i < len(out); i++ { // insertion sort: a few lines
		for j := i; j > 0 && out[j].Line < out[j-1].Line; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// Holds reports whether text holds one of creds: Find's question, without
// the lines, for swarm-guard-post.
func Holds(text string, creds []Credential) bool {
	for _, c := range creds {
		for _, f := range c.forms {
			if strings.Contains(text, f) {
				return true
			}
		}
	}
	return false
}
