package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// mcpServerEnv makes the test binary serve MCP on stdin/stdout instead of
// running tests: the client starts it from the scenario's MCP config.
const mcpServerEnv = "SWARM_GUARD_E2E_MCP_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(mcpServerEnv) != "" {
		serveMCP(os.Stdin, os.Stdout)
		return
	}
	os.Exit(m.Run())
}

// writeMCPConfig writes a client MCP config (--mcp-config) naming this
// test binary as the stdio server "filesystem", with the tool names and
// arguments of the reference filesystem server, so that the guard judges
// it with its built-in table.
func writeMCPConfig(dir string) (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	cfg := map[string]any{"mcpServers": map[string]any{
		"filesystem": map[string]any{"type": "stdio", "command": self, "args": []string{}, "env": map[string]string{mcpServerEnv: "1"}},
	}}
	b, _ := json.MarshalIndent(cfg, "", "  ")
	path := filepath.Join(dir, "mcp.json")
	return path, os.WriteFile(path, b, 0o644)
}

type rpcMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
}

// serveMCP is a tiny MCP server over newline-delimited JSON-RPC: the tools
// read_text_file and write_file really read and write, so that a test sees
// whether a call ran.
func serveMCP(in io.Reader, out io.Writer) {
	enc := json.NewEncoder(out)
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var msg rpcMessage
		if json.Unmarshal(sc.Bytes(), &msg) != nil || len(msg.ID) == 0 {
			continue // notifications need no answer
		}
		reply := map[string]any{"jsonrpc": "2.0", "id": msg.ID}
		switch msg.Method {
		case "initialize":
			var p struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			json.Unmarshal(msg.Params, &p) //nolint:errcheck // an empty version is answered as is
			reply["result"] = map[string]any{
				"protocolVersion": p.ProtocolVersion,
				"capabilities":    map[string]any{"tools": map[string]any{}},
				"serverInfo":      map[string]any{"name": "e2e-filesystem", "version": "0.1.0"},
			}
		case "tools/list":
			pathProp := map[string]any{"type": "string"}
			reply["result"] = map[string]any{"tools": []any{
				map[string]any{"name": "read_text_file", "description": "Read a text file.", "inputSchema": map[string]any{
					"type": "object", "properties": map[string]any{"path": pathProp}, "required": []string{"path"}}},
				map[string]any{"name": "write_file", "description": "Create or overwrite a file.", "inputSchema": map[string]any{
					"type": "object", "properties": map[string]any{"path": pathProp, "content": map[string]any{"type": "string"}}, "required": []string{"path", "content"}}},
			}}
		case "tools/call":
			reply["result"] = callMCPTool(msg.Params)
		case "ping":
			reply["result"] = map[string]any{}
		default:
			reply["error"] = map[string]any{"code": -32601, "message": "method not found: " + msg.Method}
		}
		enc.Encode(reply) //nolint:errcheck // the client is gone
	}
}

func callMCPTool(params json.RawMessage) map[string]any {
	var p struct {
		Name      string `json:"name"`
		Arguments struct {
			Path    string `json:"path"`
			Content string `json:"content"`
		} `json:"arguments"`
	}
	text, isError := "", false
	if err := json.Unmarshal(params, &p); err != nil {
		text, isError = "bad arguments: "+err.Error(), true
	} else {
		switch p.Name {
		case "read_text_file":
			b, err := os.ReadFile(p.Arguments.Path)
			text, isError = string(b), err != nil
			if err != nil {
				text = err.Error()
			}
		case "write_file":
			if err := os.WriteFile(p.Arguments.Path, []byte(p.Arguments.Content), 0o644); err != nil {
				text, isError = err.Error(), true
			} else {
				text = fmt.Sprintf("Successfully wrote to %s", p.Arguments.Path)
			}
		default:
			text, isError = "unknown tool "+p.Name, true
		}
	}
	return map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}, "isError": isError}
}
