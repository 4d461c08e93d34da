package secretscan

import (
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/guard"
	"github.com/swarm-guard/swarm-guard/policy"
)

// TestCheckWebCleanURL: a URL or query the default rules provably find
// nothing in (keywords.Clean) never reaches the scanner, which is missing
// here; one that may hold a secret does, and a missing scanner then
// fails closed. A rule turned off needs no scanner.
func TestCheckWebCleanURL(t *testing.T) {
	root := t.TempDir()
	env := &guard.Env{Root: root, Cwd: root}
	missing := runnerWith(t, "")
	for _, c := range []struct {
		tool string
		in   guard.ToolInput
	}{
		{guard.ToolWebFetch, guard.ToolInput{URL: "https://pkg.go.dev/net/url"}},
		{guard.ToolWebFetch, guard.ToolInput{URL: "https://api.github.com/repos/o/r/pulls?state=open&per_page=100"}},
		{guard.ToolWebFetch, guard.ToolInput{URL: "https://api.github.com/search/code?q=x&token="}},
		{guard.ToolMonitor, guard.ToolInput{WS: &guard.WSInput{URL: "wss://events.example.com/stream"}}},
		{guard.ToolWebSearch, guard.ToolInput{Query: "golang url.Parse user info"}},
	} {
		if d := CheckWeb(WebRequest{Tool: c.tool, Input: c.in, Env: env, Policy: pol(nil), Runner: missing}); d.Action != "" {
			t.Errorf("%s %+v went to the scanner: %+v", c.tool, c.in, d)
		}
	}
	maybe := guard.ToolInput{URL: "https://collect.example/x?api_key=" + strings.Repeat("q7", 12)}
	if d := CheckWeb(WebRequest{Tool: guard.ToolWebFetch, Input: maybe, Env: env, Policy: pol(nil), Runner: missing}); d.Rule != policy.RuleInternalError {
		t.Errorf("a URL that may hold a secret was not scanned: %+v", d)
	}
	off := pol(func(p *policy.Policy) { p.Rules[policy.RuleExfiltration] = policy.Off })
	if d := CheckWeb(WebRequest{Tool: guard.ToolWebFetch, Input: maybe, Env: env, Policy: off, Runner: missing}); d.Action != "" {
		t.Errorf("rule off: decided %+v", d)
	}
}

// TestWebParts: the scanner's lines are the URL up to its query and one
// line per query or fragment parameter, and the URL rebuilt without the
// flagged parameters keeps the others in their places.
func TestWebParts(t *testing.T) {
	u := "https://h.example/p?a=1&tok=X&b=2#frag=3&k=Y"
	parts := webParts(guard.ToolWebFetch, u)
	var lines []string
	for _, p := range parts {
		lines = append(lines, p.text)
	}
	if got := strings.Join(lines, "|"); got != "https://h.example/p|a=1|tok=X|b=2|frag=3|k=Y" {
		t.Fatalf("lines %q", got)
	}
	if got := rebuild(parts, map[int]bool{2: true, 5: true}); got != "https://h.example/p?a=1&b=2#frag=3" {
		t.Errorf("rebuilt %q", got)
	}
	if got := redactTarget(u, parts, map[int]bool{2: true}, false); got != "https://h.example/p?a=1&tok=***&b=2#frag=3&k=Y" {
		t.Errorf("shown %q", got)
	}
	if got := rebuild(webParts(guard.ToolWebFetch, "https://h.example/p?x#top"), nil); got != "https://h.example/p?x#top" {
		t.Errorf("a query and fragment without parameters: %q", got)
	}
	if got := webParts(guard.ToolWebSearch, "a b?c=d"); len(got) != 1 || got[0].text != "a b?c=d" {
		t.Errorf("a search query is one line: %+v", got)
	}
}
