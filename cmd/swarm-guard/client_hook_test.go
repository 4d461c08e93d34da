package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/swarm-guard/swarm-guard/hooks/clientconfig"
	"github.com/swarm-guard/swarm-guard/hooks/clients"
)

// cmdClientHook runs the swarm-guard hook command that client CLIENT's
// committed config in the current directory registers (post: its
// after-tool hook), through /bin/sh as the client does (opencode: the
// script its plugin hands /bin/sh -c), with the script's stdin, and
// requires an exact exit status:
//
//	client-hook 2 codex
//	client-hook 0 gemini post
//
// It tests what a teammate's client would run, not what install meant.
func cmdClientHook(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 || len(args) > 3 {
		ts.Fatalf("usage: client-hook N CLIENT [post]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	c, err := clients.Parse(args[1])
	ts.Check(err)
	post := len(args) == 3 && args[2] == "post"
	data, err := os.ReadFile(clientconfig.ClientConfigPath(ts.MkAbs("."), c))
	ts.Check(err)
	command := clientHookCommand(ts, c, post, data)
	if command == "" {
		ts.Fatalf("no swarm-guard hook in the %s config", c)
	}
	got := 0
	if err := ts.Exec("/bin/sh", "-c", command); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("%v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("the %s hook exited with status %d, want %d", c, got, want)
	}
}

func clientHookCommand(ts *testscript.TestScript, c clients.Name, post bool, data []byte) string {
	switch c {
	case clients.OpenCode:
		name := "PRE"
		if post {
			name = "POST"
		}
		m := regexp.MustCompile(`(?m)^const ` + name + ` = (".*");$`).FindSubmatch(data)
		if m == nil {
			return ""
		}
		var script string
		ts.Check(json.Unmarshal(m[1], &script))
		return script
	}
	var doc map[string]json.RawMessage
	ts.Check(json.Unmarshal(data, &doc))
	events := doc
	if raw, ok := doc["hooks"]; ok && c != clients.Droid {
		ts.Check(json.Unmarshal(raw, &events))
	}
	ev := map[bool]string{false: "PreToolUse", true: "PostToolUse"}[post]
	if c == clients.Gemini {
		ev = map[bool]string{false: "BeforeTool", true: "AfterTool"}[post]
	}
	var groups []struct {
		Hooks []struct{ Command string }
	}
	if raw, ok := events[ev]; ok {
		ts.Check(json.Unmarshal(raw, &groups))
	}
	for _, g := range groups {
		for _, h := range g.Hooks {
			if strings.Contains(h.Command, "swarm-guard") {
				return h.Command
			}
		}
	}
	return ""
}
