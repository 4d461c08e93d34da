package secretscan

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard"
	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/client"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/keywords"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/wire"
	"github.com/swarm-guard/swarm-guard/policy"
)

// WebRequest is a call of the client's own network tools about to run:
// WebFetch, WebSearch, or Monitor watching a WebSocket URL.
type WebRequest struct {
	Tool   string
	Input  guard.ToolInput
	Env    *guard.Env // the engine's view of the call's world
	Policy *policy.Policy
	Runner Runner
}

// CheckWeb scans what a web tool sends (the URL, or the search query) for
// text the secret scanner flags: a token in a query parameter, the path
// or the fragment. What it finds is a network send carrying those secrets,
// judged by the engine like curl's (rule secret-exfiltration), so the
// reason, the Instead and the policy's action are the rule's. The engine
// has already judged the host and the user-info (guard/webtools.go). A
// URL that keywords.Clean proves clean never reaches the scanner.
func CheckWeb(r WebRequest) guard.Decision {
	if r.Policy.RuleAction(policy.RuleExfiltration) == policy.Off {
		return guard.Decision{}
	}
	return scanSend(r, r.Tool, guard.WebTarget(r.Tool, r.Input))
}

// CheckCommandURLs scans the literal URLs a shell command's network
// clients send to (sent: the engine's Decision.SentURLs, from the walk
// that decided cmd) as CheckWeb scans WebFetch's, so a token in curl's
// query parameter is denied in the same words. A command without "://",
// or one keywords.Clean proves clean, is not scanned: the Bash hot path
// pays one substring search for most commands, and no command is walked
// twice.
func CheckCommandURLs(cmd string, sent []guard.SentURL, env *guard.Env, pol *policy.Policy, runner Runner) guard.Decision {
	if !strings.Contains(cmd, "://") || pol.RuleAction(policy.RuleExfiltration) == policy.Off {
		return guard.Decision{}
	}
	if keywords.Clean("", cmd) && !customRules(env.Root) {
		return guard.Decision{}
	}
	r := WebRequest{Env: env, Policy: pol, Runner: runner}
	for _, u := range sent {
		if d := scanSend(r, u.By, u.URL); d.Action != "" {
			return d
		}
	}
	return guard.Decision{}
}

// scanSend scans what one client sends (by: WebFetch, Monitor,
// WebSearch, curl, ...) and judges what the scanner finds.
func scanSend(r WebRequest, by, target string) guard.Decision {
	pol := r.Policy
	search := by == guard.ToolWebSearch
	host := ""
	if !search {
		if host = hostOf(target); guard.Loopback(host) {
			return guard.Decision{} // a credential for a service on this machine does not leave it
		}
	}
	parts := webParts(by, target)
	text := make([]string, len(parts))
	for i, p := range parts {
		text[i] = p.text
	}
	joined := strings.Join(text, "\n") + "\n"
	if keywords.Clean("", joined) && !customRules(r.Env.Root) {
		return guard.Decision{}
	}
	ctx, cancel := r.Runner.beforeCall()
	defer cancel()
	findings, err := r.Runner.run(ctx, r.Env.Root, pol, func(emit client.Emit) error {
		return emit(wire.NewBlock(by, "", 1, []byte(joined)))
	})
	if err != nil {
		return scanFailed(err, r.Runner)
	}
	if len(findings) == 0 {
		return guard.Decision{}
	}
	send := effect.Send{By: by}
	if host != "" {
		send.Hosts = []string{host}
	}
	drop := map[int]bool{} // query or fragment parameters to leave out
	base := false          // a secret outside them: no URL without it
	for _, f := range findings {
		if f.Line < 1 || f.Line > len(parts) {
			base = true
			continue
		}
		if p := parts[f.Line-1]; p.param {
			drop[f.Line-1] = true
		} else {
			base = true
		}
	}
	without := ""
	if !search && !base {
		without = rebuild(parts, drop)
	}
	seen := map[effect.Source]bool{}
	for _, f := range findings {
		src := effect.Source{Kind: effect.ScannedQuery, Name: f.Rule}
		if !search {
			src.Kind = effect.ScannedURL
			if f.Line >= 1 && f.Line <= len(parts) && parts[f.Line-1].param {
				src.Kind, src.Via = effect.ScannedParameter, parts[f.Line-1].name
			}
		}
		if seen[src] {
			continue
		}
		seen[src] = true
		send.Secrets = append(send.Secrets, effect.Secret{Source: src, Without: without})
	}
	return guard.New(pol).CheckSend(send, by+" "+redactTarget(target, parts, drop, base), r.Env)
}

// webPart is one line of the text the scanner reads: the URL up to its
// query, or one parameter of the query or the fragment ("name=value",
// the value decoded, so a keyword-and-value rule sees it as in a file).
type webPart struct {
	text  string
	param bool
	name  string
	frag  bool   // a parameter of the fragment, not the query
	raw   string // as written in the URL: the parameter, or the base up to the fragment
	extra string // a fragment that is not name=value pairs (base only)
}

// webParts splits what a web tool sends into the scanner's lines. A
// WebSearch query is one line.
func webParts(tool, target string) []webPart {
	if tool == guard.ToolWebSearch {
		return []webPart{{text: target}}
	}
	rest, frag, hasFrag := strings.Cut(target, "#")
	base, query, hasQuery := strings.Cut(rest, "?")
	parts := []webPart{{text: base, raw: base}}
	add := func(s string, isFrag bool) bool {
		if s == "" || !strings.Contains(s, "=") {
			return false
		}
		for _, kv := range strings.Split(s, "&") {
			name, val, _ := strings.Cut(kv, "=")
			if v, err := url.QueryUnescape(val); err == nil {
				val = v
			}
			if n, err := url.QueryUnescape(name); err == nil {
				name = n
			}
			parts = append(parts, webPart{text: name + "=" + val, param: true, name: name, frag: isFrag, raw: kv})
		}
		return true
	}
	if hasQuery && !add(query, false) && query != "" {
		parts[0].text += "?" + query
		parts[0].raw = parts[0].text
	}
	if hasFrag && !add(frag, true) && frag != "" {
		parts[0].extra = frag
		parts[0].text += "#" + frag
	}
	return parts
}

// rebuild writes the URL again without the dropped parameters.
func rebuild(parts []webPart, drop map[int]bool) string {
	return join(parts, func(i int, p webPart) string {
		if drop[i] {
			return ""
		}
		return p.raw
	})
}

// redactTarget is how the decision shows the call: the flagged
// parameters' values masked, or only the length when a secret sits
// elsewhere.
func redactTarget(target string, parts []webPart, drop map[int]bool, base bool) string {
	if base {
		return fmt.Sprintf("(%d characters with a secret in them)", len(target))
	}
	return join(parts, func(i int, p webPart) string {
		if drop[i] {
			return p.name + "=***"
		}
		return p.raw
	})
}

// join writes a URL from its parts, each parameter as show gives it
// ("" leaves it out).
func join(parts []webPart, show func(int, webPart) string) string {
	var q, f []string
	for i := 1; i < len(parts); i++ {
		s := show(i, parts[i])
		switch {
		case s == "":
		case parts[i].frag:
			f = append(f, s)
		default:
			q = append(q, s)
		}
	}
	s := parts[0].raw
	if len(q) > 0 {
		s += "?" + strings.Join(q, "&")
	}
	if len(f) > 0 {
		s += "#" + strings.Join(f, "&")
	} else if parts[0].extra != "" {
		s += "#" + parts[0].extra
	}
	return s
}

// hostOf is a URL's host, lower case, or "".
func hostOf(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}
