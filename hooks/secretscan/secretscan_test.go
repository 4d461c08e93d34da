package secretscan

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/swarm-guard/swarm-guard/hooks/event"
	"github.com/swarm-guard/swarm-guard/hooks/hookenv"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/client"
	"github.com/swarm-guard/swarm-guard/policy"
)

func noPath(string) (string, error) { return "", errors.New("not on PATH") }

// runnerWith installs a shell script as the scanner next to a fake
// swarm-guard; an empty script means no scanner at all.
func runnerWith(t *testing.T, script string) Runner {
	t.Helper()
	dir := t.TempDir()
	if script != "" {
		body := "#!/bin/sh\ncat > \"$0.in\"\n" + script + "\n"
		if err := os.WriteFile(filepath.Join(dir, client.ExecutableName), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return Runner{Self: filepath.Join(dir, "swarm-guard"), LookPath: noPath}
}

// answer is a scanner script that reports one finding on each line given.
func answer(file string, lines ...int) string {
	var fs []string
	for _, l := range lines {
		fs = append(fs, `{"file":"`+file+`","line":`+itoa(l)+`,"end_line":`+itoa(l)+`,"rule":"github-pat","preview":"token := \"ghp_****\""}`)
	}
	return `echo '{"version":1,"findings":[` + strings.Join(fs, ",") + `]}'`
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func pol(mod func(p *policy.Policy)) *policy.Policy {
	p := policy.Default().Clone()
	if mod != nil {
		mod(p)
	}
	return p
}

func writeInput(t *testing.T, path, content string) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]string{"file_path": path, "content": content})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCheckContent(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "app", "config.go")
	os.MkdirAll(filepath.Dir(file), 0o755)
	os.WriteFile(file, []byte("package app\nold line\n"), 0o644)
	// "curl" is a keyword of rules keywords.Clean cannot rule out:
	// the (fake) scanner is asked.
	in := writeInput(t, file, "package app\nold line\nnew line curl\n")

	// Line 3 is new: denied with file, line, rule, preview and advice.
	d := CheckContent(ContentRequest{Tool: "Write", ToolInput: in, Root: root, Policy: pol(nil), Runner: runnerWith(t, answer("app/config.go", 3))})
	if d.Action != policy.Deny || d.Rule != policy.RuleSecretContent {
		t.Fatalf("decision %+v", d)
	}
	msg := d.Message()
	for _, want := range []string{"Write would write 1 secret into app/config.go: line 3 [github-pat] `token := \"ghp_****\"`", "environment variable or a secret manager", "gitleaks:allow"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	// Line 2 was already in the file: not this call's secret.
	if d := CheckContent(ContentRequest{Tool: "Write", ToolInput: in, Root: root, Policy: pol(nil), Runner: runnerWith(t, answer("app/config.go", 2))}); d.Action != "" {
		t.Fatalf("a finding on an unchanged line decided %+v", d)
	}
	// ask instead of deny.
	ask := pol(func(p *policy.Policy) { p.Rules[policy.RuleSecretContent] = policy.Ask })
	if d := CheckContent(ContentRequest{Tool: "Write", ToolInput: in, Root: root, Policy: ask, Runner: runnerWith(t, answer("app/config.go", 3))}); d.Action != policy.Ask {
		t.Fatalf("ask policy decided %+v", d)
	}
	// allow_paths: not scanned at all, so a missing scanner does not matter.
	exempt := pol(func(p *policy.Policy) { p.Secrets.AllowPaths = []string{"app/**"} })
	if d := CheckContent(ContentRequest{Tool: "Write", ToolInput: in, Root: root, Policy: exempt, Runner: runnerWith(t, "")}); d.Action != "" {
		t.Fatalf("allow_paths decided %+v", d)
	}
}

// TestCheckContentCleanText: content the default rules provably find
// nothing in (keywords.Clean) is not sent to the scanner at all, unless
// the worktree has its own gitleaks rules.
func TestCheckContentCleanText(t *testing.T) {
	root := t.TempDir()
	in := writeInput(t, filepath.Join(root, "a.go"), "package a\n\n// Key returns the key.\nfunc (s *S) Key() string { return s.key }\n")
	missing := runnerWith(t, "")
	if d := CheckContent(ContentRequest{Tool: "Write", ToolInput: in, Root: root, Policy: pol(nil), Runner: missing}); d.Action != "" {
		t.Fatalf("clean content went to the scanner: %+v", d)
	}
	if err := os.WriteFile(filepath.Join(root, ".gitleaks.toml"), []byte("[extend]\nuseDefault = true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if d := CheckContent(ContentRequest{Tool: "Write", ToolInput: in, Root: root, Policy: pol(nil), Runner: missing}); d.Rule != policy.RuleInternalError {
		t.Fatalf("with a .gitleaks.toml the scanner was not asked: %+v", d)
	}
}

func TestCheckContentFailsClosed(t *testing.T) {
	root := t.TempDir()
	in := writeInput(t, filepath.Join(root, "a.go"), "x curl\n")
	d := CheckContent(ContentRequest{Tool: "Write", ToolInput: in, Root: root, Policy: pol(nil), Runner: runnerWith(t, "")})
	if d.Action != policy.Deny || d.Rule != policy.RuleInternalError || !strings.Contains(d.Reason, "swarm-guard-secrets not found next to") ||
		!strings.Contains(d.Alternative, "make install") {
		t.Fatalf("missing scanner decided %+v", d)
	}
	broken := runnerWith(t, `echo '{"version":1,"findings":[],"error":"gitleaks config .gitleaks.toml:3: key rules[0].regex: bad"}'; exit 2`)
	if d := CheckContent(ContentRequest{Tool: "Write", ToolInput: in, Root: root, Policy: pol(nil), Runner: broken}); d.Rule != policy.RuleInternalError ||
		!strings.Contains(d.Reason, "gitleaks config .gitleaks.toml:3: key rules[0].regex: bad") {
		t.Fatalf("broken config decided %+v", d)
	}
	slow := runnerWith(t, "sleep 5")
	if d := CheckContent(ContentRequest{Tool: "Write", ToolInput: in, Root: root, Policy: pol(nil), Runner: slow}); d.Rule != policy.RuleInternalError ||
		!strings.Contains(d.Reason, "did not finish within 900ms") || !strings.Contains(d.Alternative, "smaller parts") {
		t.Fatalf("slow scanner decided %+v", d)
	}
	// The hook hands its share of a longer or shorter deadline to the scan.
	slow.Timeout = 50 * time.Millisecond
	if d := CheckContent(ContentRequest{Tool: "Write", ToolInput: in, Root: root, Policy: pol(nil), Runner: slow}); d.Rule != policy.RuleInternalError ||
		!strings.Contains(d.Reason, "did not finish within 50ms") {
		t.Fatalf("slow scanner with a 50ms timeout decided %+v", d)
	}
	// A door that is off needs no scanner.
	for name, p := range map[string]*policy.Policy{
		"door off": pol(func(p *policy.Policy) { p.Secrets.PreToolUse = false }),
		"rule off": pol(func(p *policy.Policy) { p.Rules[policy.RuleSecretContent] = policy.Off }),
	} {
		if d := CheckContent(ContentRequest{Tool: "Write", ToolInput: in, Root: root, Policy: p, Runner: runnerWith(t, "")}); d.Action != "" {
			t.Errorf("%s: decided %+v", name, d)
		}
	}
	// Bad input is a clear denial, never a panic.
	if d := CheckContent(ContentRequest{Tool: "Edit", ToolInput: []byte(`{"old_string": 1}`), Root: root, Policy: pol(nil), Runner: runnerWith(t, "")}); d.Rule != policy.RuleBadInput {
		t.Fatalf("malformed input decided %+v", d)
	}
	huge := writeInput(t, filepath.Join(root, "big.txt"), strings.Repeat("a\n", 6<<20))
	if d := CheckContent(ContentRequest{Tool: "Write", ToolInput: huge, Root: root, Policy: pol(nil), Runner: runnerWith(t, "")}); d.Rule != policy.RuleSecretContent ||
		!strings.Contains(d.Reason, "over the 10 MB") {
		t.Fatalf("huge content decided %+v", d)
	}
}

func postInput(t *testing.T, root, tool string, toolInput, toolResponse any) *event.Event {
	t.Helper()
	ti, _ := json.Marshal(toolInput)
	tr, _ := json.Marshal(toolResponse)
	return &event.Event{SessionID: "s", Cwd: root, HookEventName: "PostToolUse", ToolName: tool, ToolInput: ti, ToolResponse: tr}
}

func TestPostToolUse(t *testing.T) {
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	os.WriteFile(filepath.Join(root, ".git", "HEAD"), []byte("ref: refs/heads/feature\n"), 0o644)
	// "curl" is a keyword keywords.Clean cannot rule out: the (fake)
	// scanner is asked.
	os.WriteFile(filepath.Join(root, "out.txt"), []byte("a\ncurl b\n"), 0o644)
	ctx := hookenv.Build(hookenv.Options{Cwd: root, Getenv: func(string) string { return "" }})
	now := time.Now()

	in := postInput(t, root, "Bash", map[string]string{"command": "make-config > out.txt"}, map[string]string{"stdout": ""})
	resp := PostToolUse(PostRequest{In: in, Ctx: ctx, Policy: pol(nil), Runner: runnerWith(t, answer("out.txt", 2)), Now: now, Record: true})
	var out struct{ Decision, Reason string }
	if err := json.Unmarshal([]byte(resp.stdout()), &out); err != nil || out.Decision != "block" {
		t.Fatalf("response %+v (%v)", resp, err)
	}
	if !strings.Contains(out.Reason, "found 1 secret in what this Bash call wrote: out.txt:2 [github-pat] `token := \"ghp_****\"`. Remove it now") {
		t.Fatalf("reason %q", out.Reason)
	}
	audit, _ := os.ReadFile(filepath.Join(ctx.StateDir, "audit.jsonl"))
	if !strings.Contains(string(audit), `"action":"block","rule":"secret-content"`) {
		t.Fatalf("audit log: %s", audit)
	}

	// Edit backstop: only the lines Claude Code's patch added count.
	edit := postInput(t, root, "Edit", map[string]string{"file_path": filepath.Join(root, "out.txt")},
		map[string]any{"structuredPatch": []map[string]any{{"newStart": 1, "lines": []string{" a", "-x", "+b"}}}})
	if r := PostToolUse(PostRequest{In: edit, Ctx: ctx, Policy: pol(nil), Runner: runnerWith(t, answer("out.txt", 1)), Now: now}); r.stdout() != "" {
		t.Fatalf("finding on an unchanged line blocked: %+v", r)
	}
	if r := PostToolUse(PostRequest{In: edit, Ctx: ctx, Policy: pol(nil), Runner: runnerWith(t, answer("out.txt", 2)), Now: now}); !strings.Contains(r.stdout(), `"decision":"block"`) {
		t.Fatalf("finding on the added line not blocked: %+v", r)
	}

	// Without a scanner: block (fail closed), or a note with fail_mode open.
	if r := PostToolUse(PostRequest{In: in, Ctx: ctx, Policy: pol(nil), Runner: runnerWith(t, ""), Now: now}); !strings.Contains(r.stdout(), "swarm-guard-secrets not found") {
		t.Fatalf("missing scanner: %+v", r)
	}
	open := pol(func(p *policy.Policy) { p.FailMode = policy.FailOpen })
	if r := PostToolUse(PostRequest{In: in, Ctx: ctx, Policy: open, Runner: runnerWith(t, ""), Now: now}); r.stdout() != "" || !strings.Contains(r.Note, "fail_mode is open") {
		t.Fatalf("missing scanner, fail open: %+v", r)
	}
	// Tools that write nothing, and commands that write nothing, need no scanner.
	for _, in := range []*event.Event{
		postInput(t, root, "Read", map[string]string{"file_path": filepath.Join(root, "out.txt")}, nil),
		postInput(t, root, "Bash", map[string]string{"command": "ls -la"}, nil),
	} {
		old := time.Now().Add(-time.Hour)
		os.Chtimes(filepath.Join(root, "out.txt"), old, old)
		if r := PostToolUse(PostRequest{In: in, Ctx: ctx, Policy: pol(nil), Runner: runnerWith(t, ""), Now: now}); r.stdout() != "" || r.Note != "" {
			t.Fatalf("%s: %+v", in.ToolName, r)
		}
	}
}

// TestPostToolUseCleanFile: a written file the default rules provably
// find nothing in (keywords.Clean) is not sent to the scanner, unless the
// worktree has its own gitleaks rules.
func TestPostToolUseCleanFile(t *testing.T) {
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	os.WriteFile(filepath.Join(root, ".git", "HEAD"), []byte("ref: refs/heads/feature\n"), 0o644)
	os.WriteFile(filepath.Join(root, "notes.txt"), []byte("notes\nnote\n"), 0o644)
	// A git on PATH that only says it ran: a clean file needs no git.
	bin := t.TempDir()
	ran := filepath.Join(bin, "git-ran")
	os.WriteFile(filepath.Join(bin, "git"), []byte("#!/bin/sh\ntouch '"+ran+"'\nexit 1\n"), 0o755)
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	ctx := hookenv.Build(hookenv.Options{Cwd: root, Getenv: func(string) string { return "" }})
	in := postInput(t, root, "Bash", map[string]string{"command": "echo note >> notes.txt"}, map[string]string{"stdout": ""})
	missing := runnerWith(t, "")
	if r := PostToolUse(PostRequest{In: in, Ctx: ctx, Policy: pol(nil), Runner: missing, Now: time.Now()}); r.stdout() != "" || r.Note != "" {
		t.Fatalf("a clean file went to the scanner: %+v", r)
	}
	if _, err := os.Stat(ran); err == nil {
		t.Fatal("git ran for a file the default rules provably find nothing in")
	}
	os.WriteFile(filepath.Join(root, ".gitleaks.toml"), []byte("[extend]\nuseDefault = true\n"), 0o644)
	if r := PostToolUse(PostRequest{In: in, Ctx: ctx, Policy: pol(nil), Runner: missing, Now: time.Now()}); !strings.Contains(r.stdout(), "swarm-guard-secrets not found") {
		t.Fatalf("with a .gitleaks.toml the scanner was not asked: %+v", r)
	}
	if _, err := os.Stat(ran); err != nil {
		t.Fatal("with a .gitleaks.toml git was not asked which lines are new")
	}
}

func TestPostToolUseSkipsHugeFiles(t *testing.T) {
	root := t.TempDir()
	ctx := hookenv.Build(hookenv.Options{Cwd: root, Getenv: func(string) string { return "" }})
	big := filepath.Join(root, "dump.sql")
	if err := os.WriteFile(big, []byte(strings.Repeat("insert into t values (1);\n", (11<<20)/26)), 0o644); err != nil {
		t.Fatal(err)
	}
	in := postInput(t, root, "Bash", map[string]string{"command": "pg_dump db > dump.sql"}, nil)
	r := PostToolUse(PostRequest{In: in, Ctx: ctx, Policy: pol(nil), Runner: runnerWith(t, `echo '{"version":1,"findings":[]}'`), Now: time.Now()})
	if r.stdout() != "" || !strings.Contains(r.Note, "not scanned for secrets (over 10 MB): dump.sql") {
		t.Fatalf("response %+v", r)
	}
}

func TestPatchedLines(t *testing.T) {
	got := patchedLines(json.RawMessage(`{"type":"update","structuredPatch":[{"oldStart":3,"newStart":3,"lines":[" keep","-gone","+new1","+new2"," keep"]},{"newStart":20,"lines":["+x"]}]}`))
	if len(got) != 3 || !got[4] || !got[5] || !got[20] {
		t.Fatalf("lines %v", got)
	}
	if patchedLines(json.RawMessage(`{"type":"create","structuredPatch":[]}`)) != nil || patchedLines(nil) != nil {
		t.Fatal("a created file must count every line")
	}
}

func TestRelPathAndAllowed(t *testing.T) {
	if got := RelPath("/r", "/r/a/b.go"); got != "a/b.go" {
		t.Error(got)
	}
	if got := RelPath("/r", "/rx/b.go"); got != "/rx/b.go" {
		t.Error(got)
	}
	p := pol(func(p *policy.Policy) { p.Secrets.AllowPaths = []string{"testdata/**", "*.lock"} })
	for rel, want := range map[string]bool{"testdata/x/y.go": true, "yarn.lock": true, "src/yarn.lock": false, "/abs/testdata/x": false, "main.go": false} {
		if allowed(p, rel) != want {
			t.Errorf("allowed(%q) = %v", rel, !want)
		}
	}
}

// TestPostToolUseEnvironmentCredentials: the value of a credential
// variable of the hook's environment, printed by a Bash call or returned
// by an MCP tool, is withheld or blocked without any scanner (a bare value
// holds no keyword); other output of the same call stays.
func TestPostToolUseEnvironmentCredentials(t *testing.T) {
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	os.WriteFile(filepath.Join(root, ".git", "HEAD"), []byte("ref: refs/heads/feature\n"), 0o644)
	ctx := hookenv.Build(hookenv.Options{Cwd: root, Getenv: func(string) string { return "" }})
	environ := func() []string { return []string{"DEPLOY_TOKEN=not-a-real-value-4b7e1", "HOME=/home/agent"} }
	none := runnerWith(t, "") // no scanner at all: none is needed

	bash := postInput(t, root, "Bash", map[string]string{"command": "echo ok; printenv DEPLOY_TOKEN"}, map[string]string{"stdout": "ok\nnot-a-real-value-4b7e1\n", "stderr": ""})
	resp := PostToolUse(PostRequest{In: bash, Ctx: ctx, Policy: pol(nil), Runner: none, Environ: environ})
	if !strings.Contains(resp.stdout(), `"stdout":"ok\n[swarm-guard: line withheld, it held a secret ($DEPLOY_TOKEN)]\n"`) || strings.Contains(resp.stdout(), "not-a-real-value") {
		t.Fatalf("Bash output: %+v", resp)
	}
	mcp := postInput(t, root, "mcp__vault__read", map[string]string{"path": "deploy"}, []map[string]string{{"type": "text", "text": "deploy: not-a-real-value-4b7e1"}})
	resp = PostToolUse(PostRequest{In: mcp, Ctx: ctx, Policy: pol(nil), Runner: none, Environ: environ})
	if !strings.Contains(resp.stdout(), `"decision":"block"`) || !strings.Contains(resp.stdout(), "the value of $DEPLOY_TOKEN") || strings.Contains(resp.stdout(), "not-a-real-value") {
		t.Fatalf("MCP result: %+v", resp)
	}
	clean := postInput(t, root, "Bash", map[string]string{"command": "echo ok"}, map[string]string{"stdout": "ok\n", "stderr": ""})
	if resp := PostToolUse(PostRequest{In: clean, Ctx: ctx, Policy: pol(nil), Runner: none, Environ: environ}); resp.stdout() != "" || resp.Note != "" {
		t.Fatalf("clean output: %+v", resp)
	}
}

// TestCheckMCPArgs: the scanner reads an MCP call's argument strings as
// "name: value" lines, and a finding names the argument its line belongs
// to, through nested objects, lists and multi-line values.
func TestCheckMCPArgs(t *testing.T) {
	args := mcpArgText(map[string]any{"title": "t", "files": []any{map[string]any{"path": "a", "content": "x\ny\nz"}}, "n": 3.0})
	if want := "files[0].content: x\ny\nz\nfiles[0].path: a\ntitle: t\n"; args.text != want {
		t.Fatalf("text %q, want %q", args.text, want)
	}
	for line, want := range map[int]string{1: "argument files[0].content", 3: "argument files[0].content", 4: "argument files[0].path", 5: "argument title", 9: "an argument"} {
		if got := args.name(line); got != want {
			t.Errorf("line %d: %q, want %q", line, got, want)
		}
	}
	root := t.TempDir()
	in := []byte(`{"owner":"o","repo":"r","title":"notes","body":"curl the service\nwith the header"}`)
	// "curl" is a keyword Clean cannot rule out: the (fake) scanner is
	// asked, and its finding on line 2 is in the body.
	d := CheckMCPArgs(MCPRequest{Tool: "mcp__github__create_issue", ToolInput: in, Root: root, Policy: pol(nil), Runner: runnerWith(t, answer("mcp__github__create_issue", 2)), Environ: func() []string { return nil }})
	if d.Action != policy.Deny || d.Rule != policy.RuleSecretContent || !strings.Contains(d.Reason, "MCP server github, tool create_issue would receive 1 secret in its arguments: argument body [github-pat]") {
		t.Fatalf("decision %+v", d)
	}
	off := pol(func(p *policy.Policy) { p.Secrets.PreToolUse = false })
	if d := CheckMCPArgs(MCPRequest{Tool: "mcp__github__create_issue", ToolInput: in, Root: root, Policy: off, Runner: runnerWith(t, answer("x", 2))}); d.Action != "" {
		t.Fatalf("[secrets] pre_tool_use off: %+v", d)
	}
	// Without a scanner, arguments that need one fail closed.
	if d := CheckMCPArgs(MCPRequest{Tool: "mcp__github__create_issue", ToolInput: in, Root: root, Policy: pol(nil), Runner: runnerWith(t, ""), Environ: func() []string { return nil }}); d.Rule != policy.RuleInternalError {
		t.Fatalf("missing scanner: %+v", d)
	}
}

// TestPostToolUseReadResult: a Read result's lines holding a credential
// variable's value are withheld in the result's own shape; other shapes
// and clean text pass untouched.
func TestPostToolUseReadResult(t *testing.T) {
	root := t.TempDir()
	ctx := hookenv.Build(hookenv.Options{Cwd: root, Getenv: func(string) string { return "" }})
	environ := func() []string { return []string{"DEPLOY_TOKEN=not-a-real-value-4b7e1"} }
	read := func(resp any) PostAnswer {
		in := postInput(t, root, "Read", map[string]string{"file_path": filepath.Join(root, "deploy.log")}, resp)
		return PostToolUse(PostRequest{In: in, Ctx: ctx, Policy: pol(nil), Runner: runnerWith(t, ""), Environ: environ})
	}
	file := func(content string) map[string]any {
		return map[string]any{"type": "text", "file": map[string]any{"filePath": filepath.Join(root, "deploy.log"), "content": content, "numLines": 3, "startLine": 1, "totalLines": 3}}
	}
	resp := read(file("start\nusing not-a-real-value-4b7e1\ndone"))
	if !strings.Contains(resp.stdout(), `"content":"start\n[swarm-guard: line withheld, it held a secret ($DEPLOY_TOKEN)]\ndone"`) ||
		!strings.Contains(resp.stdout(), `"numLines":3`) || !strings.Contains(resp.stdout(), "withheld 1 line of what this Read returned from deploy.log: it held the value of $DEPLOY_TOKEN") ||
		strings.Contains(resp.stdout(), "not-a-real-value") {
		t.Fatalf("Read result: %+v", resp)
	}
	if r := read(file("start\ndone")); r.stdout() != "" {
		t.Fatalf("clean Read result: %+v", r)
	}
	if r := read(map[string]any{"type": "image", "file": map[string]any{"base64": "bm90LWEtcmVhbC12YWx1ZS00YjdlMQ=="}}); r.stdout() != "" {
		t.Fatalf("image: %+v", r)
	}
}

// stdout is the answer as the Claude Code hook prints it: the block JSON,
// with the output the model reads instead.
func (a PostAnswer) stdout() string {
	if !a.Block {
		return ""
	}
	out, _ := json.Marshal(map[string]any{"decision": "block", "reason": a.Reason, "hookSpecificOutput": map[string]any{"updatedToolOutput": a.Updated}})
	return string(out)
}
