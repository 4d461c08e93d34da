package clientconfig

import (
	"bytes"
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/hooks/clients"
)

// A client's shared config keeps everything that is not swarm-guard's, in
// its order, through install and uninstall; swarm-guard's handlers are
// replaced, never doubled.
func TestClientConfigKeepsTheRest(t *testing.T) {
	for _, tc := range []struct {
		c   clients.Name
		old string
		has []string // in the merged document
	}{
		{clients.Codex, `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./mine.sh"}]}]}}`,
			[]string{`"./mine.sh"`, `"PostToolUse"`, `hook --client codex;`, `hook --client codex --post;`, `"timeout": 30`}},
		{clients.Gemini, `{"theme":"dark","hooks":{"AfterTool":[{"matcher":"x","hooks":[{"type":"command","command":"mine"}]}]}}`,
			[]string{`"theme": "dark"`, `"BeforeTool"`, `"name": "swarm-guard"`, `"matcher": ".*"`, `"timeout": 60000`}},
		{clients.Droid, `{"SessionStart":[{"hooks":[{"type":"command","command":"echo hi"}]}]}`,
			[]string{`"SessionStart"`, `"PreToolUse"`, `hook --client droid;`}},
		{clients.Qwen, ``, []string{`"PreToolUse"`, `"matcher": "*"`, `hook --client qwen --post;`}},
	} {
		merged, err := ClientConfig(tc.c, []byte(tc.old))
		if err != nil {
			t.Fatalf("%s: %v", tc.c, err)
		}
		for _, h := range tc.has {
			if !bytes.Contains(merged, []byte(h)) {
				t.Errorf("%s: merged config lacks %s:\n%s", tc.c, h, merged)
			}
		}
		if strings.Contains(string(merged), `"hooks": {`) && tc.c == clients.Droid {
			t.Errorf("droid: hooks wrapped (Droid ignores a wrapped hooks.json):\n%s", merged)
		}
		again, err := ClientConfig(tc.c, merged)
		if err != nil || !bytes.Equal(again, merged) {
			t.Errorf("%s: a second install changed the config (%v):\n%s", tc.c, err, again)
		}
		if !HasClientHooks(tc.c, merged) || !ClientHooksCurrent(tc.c, merged) {
			t.Errorf("%s: install's own config not recognised", tc.c)
		}
		stripped, err := StripClientConfig(tc.c, merged)
		if err != nil {
			t.Fatal(err)
		}
		if HasClientHooks(tc.c, stripped) {
			t.Errorf("%s: stripped config still runs swarm-guard:\n%s", tc.c, stripped)
		}
		want, _ := StripClientConfig(tc.c, []byte(tc.old))
		if !bytes.Equal(stripped, want) {
			t.Errorf("%s: stripped config\n%s\nwant\n%s", tc.c, stripped, want)
		}
	}
}

func TestClientConfigRefusesABrokenFile(t *testing.T) {
	if _, err := ClientConfig(clients.Codex, []byte(`{"hooks":{"PreToolUse":{}}}`)); err == nil || !strings.Contains(err.Error(), "PreToolUse is not a list") {
		t.Errorf("err = %v", err)
	}
	if _, err := ClientConfig(clients.Gemini, []byte(`{"theme":`)); err == nil || !strings.Contains(err.Error(), "not valid JSON") {
		t.Errorf("err = %v", err)
	}
}

// The launcher never execs the binary: a crash or a missing binary must
// become exit 2 with a reason, the one answer every client blocks on.
func TestClientScriptFailsClosed(t *testing.T) {
	for _, c := range clients.Others {
		s := ClientScript(c, false)
		for _, want := range []string{`exit 2; }`, `[ $rc -eq 0 ] || [ $rc -eq 2 ] || {`, `rc=2; }; exit $rc`, InstallHint} {
			if !strings.Contains(s, want) {
				t.Errorf("%s launcher lacks %q", c, want)
			}
		}
		if strings.Contains(s, `exec "$sg"`) || strings.Contains(s, "'") {
			t.Errorf("%s launcher execs the binary or holds a single quote (it goes inside sh -c '...'): %s", c, s)
		}
	}
}
