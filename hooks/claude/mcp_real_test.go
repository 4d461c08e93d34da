package claude_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/guard/mcp"
	"github.com/swarm-guard/swarm-guard/hooks/claude"
)

// TestRealFilesystemServer drives the reference filesystem MCP server
// (@modelcontextprotocol/server-filesystem from npm) for real: its own
// tools/list must be covered by the built-in table with the access its
// annotations declare (readOnlyHint), and every call goes through the
// PreToolUse hook first — what the hook allows is sent to the server and
// must work there, what it denies is never sent although the server itself
// would have done it (the server is allowed the whole temp directory, the
// agent's worktree is one folder inside it).
//
// It needs node and the installed server, so it runs only under
// `make mcp-real`, which sets SWARM_GUARD_MCP_FILESYSTEM to the server's
// dist/index.js.
func TestRealFilesystemServer(t *testing.T) {
	script := os.Getenv("SWARM_GUARD_MCP_FILESYSTEM")
	if script == "" {
		t.Skip("set SWARM_GUARD_MCP_FILESYSTEM to server-filesystem's dist/index.js (make mcp-real)")
	}
	top := t.TempDir()
	repo := filepath.Join(top, "repo")
	outside := filepath.Join(top, "outside")
	home := filepath.Join(top, "home")
	for _, d := range []string{filepath.Join(repo, ".git"), outside, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A minimal repository the hook recognises (a .git with HEAD), a
	// policy that grants the filesystem server writes (and drops the
	// writable temp dir, which holds the whole test), a file to read
	// and a secret file the agent may not read.
	files := map[string]string{
		".git/HEAD":         "ref: refs/heads/agent-1\n",
		".git/config":       "[core]\n\trepositoryformatversion = 0\n",
		".swarm-guard.toml": "version = 1\nwritable = []\n[mcp.servers.filesystem]\naccess = \"write\"\n",
		"notes.md":          "hello from the worktree\n",
		".env":              "TOKEN=not-for-agents\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(repo, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	srv := startServer(t, script, top)

	// The server's own tool list: every tool known, with the access its
	// annotations declare.
	var list struct {
		Tools []struct {
			Name        string `json:"name"`
			Annotations struct {
				ReadOnly *bool `json:"readOnlyHint"`
			} `json:"annotations"`
		} `json:"tools"`
	}
	srv.call(t, "tools/list", map[string]any{}, &list)
	if len(list.Tools) < 5 {
		t.Fatalf("the server lists only %d tools", len(list.Tools))
	}
	for _, tool := range list.Tools {
		c := mcp.Classify(mcp.Name{Server: "filesystem", Tool: tool.Name})
		if !c.Known {
			t.Errorf("the server's tool %s is not in the built-in table (guard/mcp/servers.go)", tool.Name)
			continue
		}
		if ro := tool.Annotations.ReadOnly; ro != nil && *ro != (c.Access == mcp.Read) {
			t.Errorf("tool %s: readOnlyHint %v, but the table says %s", tool.Name, *ro, c.Access)
		}
	}

	getenv := func(k string) string {
		return map[string]string{"HOME": home, "XDG_STATE_HOME": filepath.Join(home, "state"), "CLAUDE_PROJECT_DIR": repo}[k]
	}
	hook := func(tool string, args map[string]any) claude.Response {
		in, _ := json.Marshal(map[string]any{"session_id": "s1", "cwd": repo, "hook_event_name": "PreToolUse",
			"tool_name": "mcp__filesystem__" + tool, "tool_input": args})
		return claude.Handle(claude.Runtime{Stdin: bytes.NewReader(in), Getenv: getenv})
	}
	for _, tc := range []struct {
		tool   string
		args   map[string]any
		denied string // the rule the hook names, or "" when it lets the call through
		result string // text the server's answer contains when the call went through
	}{
		{"read_text_file", map[string]any{"path": filepath.Join(repo, "notes.md")}, "", "hello from the worktree"},
		{"read_text_file", map[string]any{"path": filepath.Join(repo, ".env")}, "secret-file", ""},
		{"list_directory", map[string]any{"path": repo}, "", "notes.md"},
		{"write_file", map[string]any{"path": filepath.Join(repo, "out.txt"), "content": "written through MCP"}, "", "Successfully wrote"},
		{"write_file", map[string]any{"path": filepath.Join(outside, "out.txt"), "content": "x"}, "write-outside-worktree", ""},
		{"move_file", map[string]any{"source": filepath.Join(repo, "notes.md"), "destination": filepath.Join(outside, "notes.md")}, "write-outside-worktree", ""},
		{"create_directory", map[string]any{"path": filepath.Join(repo, "sub")}, "", "Successfully created"},
		{"read_text_file", map[string]any{"path": filepath.Join(repo, "out.txt")}, "", "written through MCP"},
	} {
		resp := hook(tc.tool, tc.args)
		if tc.denied != "" {
			if resp.Exit != claude.ExitDeny || !strings.Contains(resp.Stderr, "rule "+tc.denied) || !strings.Contains(resp.Stderr, "MCP server filesystem, tool "+tc.tool) {
				t.Errorf("%s %v: want a denial by %s naming the server and tool, got exit %d: %s", tc.tool, tc.args, tc.denied, resp.Exit, resp.Stderr)
			}
			continue // never sent: the guard is what stops it
		}
		if resp.Exit != claude.ExitNoDecision || resp.Stdout != "" {
			t.Errorf("%s %v: the hook should let it through, got exit %d: %s%s", tc.tool, tc.args, resp.Exit, resp.Stdout, resp.Stderr)
			continue
		}
		var out struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
			IsError bool `json:"isError"`
		}
		srv.call(t, "tools/call", map[string]any{"name": tc.tool, "arguments": tc.args}, &out)
		text := ""
		for _, c := range out.Content {
			text += c.Text
		}
		if out.IsError || !strings.Contains(text, tc.result) {
			t.Errorf("%s %v: the server answered %q (error %v), want %q", tc.tool, tc.args, text, out.IsError, tc.result)
		}
	}
	// The denied writes did not happen.
	for _, p := range []string{filepath.Join(outside, "out.txt"), filepath.Join(outside, "notes.md")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s exists: a denied call reached the server", p)
		}
	}
}

// stdioServer is an MCP server process spoken to in JSON-RPC over stdio,
// one message per line.
type stdioServer struct {
	in  io.Writer
	out *bufio.Reader
	id  int
}

func startServer(t *testing.T, script, allowed string) *stdioServer {
	t.Helper()
	cmd := exec.Command("node", script, allowed)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting the filesystem server: %v", err)
	}
	t.Cleanup(func() {
		stdin.Close()
		if err := cmd.Wait(); err != nil && t.Failed() {
			t.Logf("server stderr: %s", stderr.String())
		}
	})
	s := &stdioServer{in: stdin, out: bufio.NewReader(stdout)}
	var init map[string]any
	s.call(t, "initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "swarm-guard-test", "version": "0"}}, &init)
	s.send(t, map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	return s
}

func (s *stdioServer) send(t *testing.T, msg any) {
	t.Helper()
	data, _ := json.Marshal(msg)
	if _, err := s.in.Write(append(data, '\n')); err != nil {
		t.Fatalf("writing to the server: %v", err)
	}
}

// call sends a request and decodes the result of the answer with its id,
// skipping notifications and log messages in between.
func (s *stdioServer) call(t *testing.T, method string, params, result any) {
	t.Helper()
	s.id++
	s.send(t, map[string]any{"jsonrpc": "2.0", "id": s.id, "method": method, "params": params})
	for {
		line, err := s.out.ReadBytes('\n')
		if err != nil {
			t.Fatalf("%s: reading the server's answer: %v", method, err)
		}
		var msg struct {
			ID     *int            `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(line, &msg) != nil || msg.ID == nil || *msg.ID != s.id {
			continue
		}
		if msg.Error != nil {
			t.Fatalf("%s: the server answered an error: %s", method, msg.Error.Message)
		}
		if err := json.Unmarshal(msg.Result, result); err != nil {
			t.Fatalf("%s: %v in %s", method, err, fmt.Sprintf("%.200s", msg.Result))
		}
		return
	}
}
