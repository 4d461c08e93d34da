package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/fakesecret"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/scanner"
)

// The secret scanner runs as this test binary in scripts: testscript puts
// swarm-guard-secrets on PATH, where swarm-guard finds it. sg-fakesecret
// makes fake credentials at run time, so no script holds one.
func init() {
	scriptCommands["swarm-guard-secrets"] = func() { os.Exit(scanner.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
	scriptCommands["sg-fakesecret"] = func() { os.Exit(fakeSecretFixture(os.Args[1:])) }
}

const fixtureUsage = `usage:
  sg-fakesecret append KIND FILE SECRETS      append a line holding a new fake secret to FILE
  sg-fakesecret line FILE TEXT                append a plain line of text to FILE
  sg-fakesecret binary FILE                   write a small binary file
  sg-fakesecret hook TOOL FILE KIND SECRETS   print a PreToolUse event whose TOOL call writes one into FILE
  sg-fakesecret web TOOL PREFIX KIND SECRETS  print a PreToolUse event of WebFetch/Monitor/WebSearch (or Bash running
                                              curl, TOOL curl) sending PREFIX and one
  sg-fakesecret mcpresult TOOL KIND SECRETS   print a PostToolUse event whose MCP TOOL result holds one
  sg-fakesecret mcpcall TOOL KEY KIND SECRETS print a PreToolUse event of MCP TOOL whose argument KEY holds one
  sg-fakesecret bashoutput KIND SECRETS [CMD] print a PostToolUse event of a Bash call (CMD, else ./show-config) whose stdout holds one
  sg-fakesecret copilotoutput KIND SECRETS   print Copilot CLI's Claude-format PostToolUse of a bash call whose result holds one
  sg-fakesecret conflict FILE                 write FILE with unresolved merge-conflict markers
  sg-fakesecret absent SECRETS FILE...        fail if a FILE holds any secret listed in SECRETS
  sg-fakesecret expand FILE...                replace $VARS in FILEs (testscript does not expand file contents)
KIND is aws, aws-secret, github, github-fine, slack, key or generic, with "+allow" appended
for a line that carries a gitleaks:allow comment; SECRETS collects the values made.`

func fakeSecretFixture(args []string) int {
	fail := func(format string, a ...any) int {
		fmt.Fprintf(os.Stderr, "sg-fakesecret: "+format+"\n", a...)
		return 1
	}
	if len(args) < 2 {
		return fail("%s", fixtureUsage)
	}
	switch {
	case args[0] == "append" && len(args) == 4:
		s, err := makeSecret(args[1], args[3])
		if err != nil {
			return fail("%v", err)
		}
		f, err := appendTo(args[2])
		if err != nil {
			return fail("%v", err)
		}
		defer f.Close()
		if _, err := fmt.Fprintln(f, s.Line); err != nil {
			return fail("%v", err)
		}
	case args[0] == "binary" && len(args) == 2:
		if err := os.WriteFile(args[1], []byte("PNG\x00\x01\x02binary"), 0o644); err != nil {
			return fail("%v", err)
		}
	case args[0] == "line" && len(args) == 3:
		f, err := appendTo(args[1])
		if err != nil {
			return fail("%v", err)
		}
		defer f.Close()
		if _, err := fmt.Fprintln(f, args[2]); err != nil {
			return fail("%v", err)
		}
	case args[0] == "hook" && len(args) == 5:
		s, err := makeSecret(args[3], args[4])
		if err != nil {
			return fail("%v", err)
		}
		var ti map[string]any
		switch args[1] {
		case "Write":
			ti = map[string]any{"file_path": args[2], "content": "package config\n\n" + s.Line + "\n"}
		case "Edit":
			ti = map[string]any{"file_path": args[2], "old_string": "// TODO", "new_string": s.Line}
		case "MultiEdit":
			ti = map[string]any{"file_path": args[2], "edits": []map[string]any{{"old_string": "// TODO", "new_string": "// done"}, {"old_string": "// done", "new_string": s.Line}}}
		case "NotebookEdit":
			ti = map[string]any{"notebook_path": args[2], "new_source": s.Line, "cell_id": "c1"}
		default:
			return fail("unknown tool %q", args[1])
		}
		wd, _ := os.Getwd()
		out, _ := json.Marshal(map[string]any{"session_id": "s1", "cwd": wd, "hook_event_name": "PreToolUse", "tool_name": args[1], "tool_input": ti, "tool_use_id": "t1"})
		fmt.Println(string(out))
	case args[0] == "web" && len(args) == 5:
		// A PreToolUse event of WebFetch (url), Monitor (ws.url) or
		// WebSearch (query): PREFIX followed by a new fake secret.
		s, err := makeSecret(args[3], args[4])
		if err != nil {
			return fail("%v", err)
		}
		var ti map[string]any
		switch args[1] {
		case "WebFetch":
			ti = map[string]any{"url": args[2] + s.Value, "prompt": "summarise"}
		case "Monitor":
			ti = map[string]any{"description": "d", "timeout_ms": 1000, "ws": map[string]any{"url": args[2] + s.Value}}
		case "WebSearch":
			ti = map[string]any{"query": args[2] + s.Value}
		case "curl":
			ti = map[string]any{"command": "curl -s '" + args[2] + s.Value + "'"}
			args[1] = "Bash"
		default:
			return fail("unknown tool %q", args[1])
		}
		wd, _ := os.Getwd()
		out, _ := json.Marshal(map[string]any{"session_id": "s1", "cwd": wd, "hook_event_name": "PreToolUse", "tool_name": args[1], "tool_input": ti, "tool_use_id": "t1"})
		fmt.Println(string(out))
	case args[0] == "mcpresult" && len(args) == 4:
		// A PostToolUse event of an MCP tool whose result holds a secret.
		s, err := makeSecret(args[2], args[3])
		if err != nil {
			return fail("%v", err)
		}
		wd, _ := os.Getwd()
		resp := []map[string]any{{"type": "text", "text": "rows:\n" + s.Line + "\n"}}
		out, _ := json.Marshal(map[string]any{"session_id": "s1", "cwd": wd, "hook_event_name": "PostToolUse", "tool_name": args[1],
			"tool_input": map[string]any{"sql": "SELECT * FROM settings"}, "tool_response": resp, "tool_use_id": "t1"})
		fmt.Println(string(out))
	case args[0] == "mcpcall" && len(args) == 5:
		// A PreToolUse event of an MCP tool one of whose arguments (a
		// file's content in push_files' files list when KEY is "files")
		// holds a secret.
		s, err := makeSecret(args[3], args[4])
		if err != nil {
			return fail("%v", err)
		}
		ti := map[string]any{"owner": "o", "repo": "r", "title": "notes"}
		if args[2] == "files" {
			ti["branch"], ti["message"] = "agent-1-notes", "add notes"
			ti["files"] = []map[string]any{{"path": "README.md", "content": "# notes\n"}, {"path": "config.go", "content": "package config\n\n" + s.Line + "\n"}}
		} else {
			ti[args[2]] = "see below:\n" + s.Line + "\n"
		}
		wd, _ := os.Getwd()
		out, _ := json.Marshal(map[string]any{"session_id": "s1", "cwd": wd, "hook_event_name": "PreToolUse", "tool_name": args[1], "tool_input": ti, "tool_use_id": "t1"})
		fmt.Println(string(out))
	case args[0] == "bashoutput" && (len(args) == 3 || len(args) == 4):
		// A PostToolUse event of a Bash call that printed a secret on
		// stdout (decoded at run time: the command line does not show it).
		command := "./show-config"
		if len(args) == 4 {
			command = args[3]
		}
		s, err := makeSecret(args[1], args[2])
		if err != nil {
			return fail("%v", err)
		}
		wd, _ := os.Getwd()
		resp := map[string]any{"stdout": "config:\n" + s.Line + "\ndone", "stderr": "", "interrupted": false, "isImage": false, "noOutputExpected": false}
		out, _ := json.Marshal(map[string]any{"session_id": "s1", "cwd": wd, "hook_event_name": "PostToolUse", "tool_name": "Bash",
			"tool_input": map[string]any{"command": command}, "tool_response": resp, "tool_use_id": "t1", "duration_ms": 5})
		fmt.Println(string(out))
	case args[0] == "copilotoutput" && len(args) == 3:
		// Copilot CLI running the Claude Code hooks: the PostToolUse of a
		// bash call that printed a secret, its result as Copilot sends it
		// (tool_result, text_result_for_llm; a timestamp, no
		// transcript_path or tool_use_id).
		s, err := makeSecret(args[1], args[2])
		if err != nil {
			return fail("%v", err)
		}
		wd, _ := os.Getwd()
		out, _ := json.Marshal(map[string]any{"hook_event_name": "PostToolUse", "session_id": "c1", "timestamp": "2026-11-27T23:31:01.398Z", "cwd": wd,
			"tool_name": "Bash", "tool_input": map[string]any{"command": "./show-config", "description": "show the config"},
			"tool_result": map[string]any{"result_type": "success", "text_result_for_llm": "config:\n" + s.Line + "\ndone\n<shellId: 0 completed with exit code 0>"}})
		fmt.Println(string(out))
	case args[0] == "conflict" && len(args) == 2:
		body := "intro\n" + strings.Repeat("<", 7) + " HEAD\nours\n" + strings.Repeat("=", 7) + "\ntheirs\n" + strings.Repeat(">", 7) + " feature\n"
		if err := os.WriteFile(args[1], []byte(body), 0o644); err != nil {
			return fail("%v", err)
		}
	case args[0] == "expand":
		for _, file := range args[1:] {
			data, err := os.ReadFile(file)
			if err != nil {
				return fail("%v", err)
			}
			if err := os.WriteFile(file, []byte(os.ExpandEnv(string(data))), 0o644); err != nil {
				return fail("%v", err)
			}
		}
	case args[0] == "absent" && len(args) >= 3:
		data, err := os.ReadFile(args[1])
		if err != nil {
			return fail("%v", err)
		}
		for _, file := range args[2:] {
			out, err := os.ReadFile(file)
			if err != nil {
				return fail("%v", err)
			}
			for _, secret := range strings.Split(strings.TrimSpace(string(data)), "\x00") {
				for _, part := range strings.Split(secret, "\n") {
					if len(part) >= 16 && !strings.HasPrefix(part, "-----") && strings.Contains(string(out), part) {
						return fail("%s holds a secret in full", filepath.Base(file))
					}
				}
			}
		}
	default:
		return fail("%s", fixtureUsage)
	}
	return 0
}

// appendTo opens file for appending, creating it and its directory.
func appendTo(file string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return nil, err
	}
	return os.OpenFile(file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
}

// makeSecret makes a fake secret of kind and records its value in the
// secrets file (NUL-separated: a private key spans lines).
func makeSecret(kind, secretsFile string) (fakesecret.Secret, error) {
	kind, allow := strings.CutSuffix(kind, "+allow")
	makers := map[string]func() fakesecret.Secret{
		"aws": fakesecret.AWSAccessKeyID, "aws-secret": fakesecret.AWSSecretAccessKey, "github": fakesecret.GitHubPAT,
		"github-fine": fakesecret.GitHubFineGrainedPAT, "slack": fakesecret.SlackBotToken, "key": fakesecret.PrivateKey,
		"generic": fakesecret.GenericAPIKey,
	}
	mk, ok := makers[kind]
	if !ok {
		return fakesecret.Secret{}, fmt.Errorf("unknown kind %q", kind)
	}
	s := mk()
	if allow {
		s.Line += " // gitleaks:allow"
	}
	f, err := os.OpenFile(secretsFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return s, err
	}
	defer f.Close()
	_, err = f.WriteString(s.Value + "\x00")
	return s, err
}
