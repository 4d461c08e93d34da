package clients

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/swarm-guard/swarm-guard/hooks/internal/jsonobj"
)

// kind is what a client's tool does, as the pipeline knows it.
type kind int

const (
	kindOther kind = iota // judged by its name alone (budget, audit)
	kindShell             // Bash
	kindWrite             // Write
	kindEdit              // Edit
	kindRead              // Read
	kindPatch             // Codex's apply_patch patch: one event per file
	kindMCP               // an MCP tool, named mcp__server__tool
)

// call is one Claude-shaped hook event, as the pipeline decodes it.
type call struct {
	Event          string          `json:"hook_event_name"`
	SessionID      string          `json:"session_id,omitempty"`
	TranscriptPath string          `json:"transcript_path,omitempty"`
	Cwd            string          `json:"cwd"`
	PermissionMode string          `json:"permission_mode,omitempty"`
	ToolName       string          `json:"tool_name"`
	ToolUseID      string          `json:"tool_use_id,omitempty"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolResponse   json.RawMessage `json:"tool_response,omitempty"`
	// Client names the client for the audit log.
	Client Name `json:"client,omitempty"`
}

// toolCall is a client's tool call, read: what normalise turns into calls.
type toolCall struct {
	base   call   // everything but the tool
	tool   string // the client's name for the tool
	kind   kind
	mcp    string // kindMCP: the mcp__server__tool name
	args   json.RawMessage
	post   bool
	output string // post: the tool's result as text
}

// event completes ev with the call: after the tool, the output the model
// would read (response in the client's own shape); then the Claude-shaped
// events the pipeline judges. Every adapter ends its normalize here.
func (t *toolCall) event(ev *event, response json.RawMessage) (*event, error) {
	if ev.post {
		t.output = outputText(response)
		ev.output = t.output
	}
	var err error
	ev.calls, ev.shaped, err = t.calls()
	return ev, err
}

// calls builds the pipeline's events for one tool call; shaped says the
// tool_response is in Claude's Bash or Read shape, built from the output.
func (t *toolCall) calls() (out [][]byte, shaped bool, err error) {
	t.base.Event = "PreToolUse"
	if t.post {
		t.base.Event = "PostToolUse"
	}
	args, err := objectArgs(t.args)
	if err != nil && t.kind != kindPatch && t.kind != kindOther && t.kind != kindMCP {
		return nil, false, fmt.Errorf("the arguments of the %s call are not a JSON object (%v)", t.tool, err)
	}
	add := func(tool string, input any, response any) error {
		c := t.base
		c.ToolName = tool
		b, err := json.Marshal(input)
		if err != nil {
			return err
		}
		c.ToolInput = b
		if t.post {
			if response == nil {
				response = map[string]any{}
			}
			if c.ToolResponse, err = json.Marshal(response); err != nil {
				return err
			}
		}
		data, err := json.Marshal(c)
		if err != nil {
			return err
		}
		out = append(out, data)
		return nil
	}
	switch t.kind {
	case kindShell:
		command, ok := shellCommand(args)
		if !ok {
			return nil, false, fmt.Errorf("the %s call has no command", t.tool)
		}
		if dir := str(args, "dir_path", "directory", "workdir", "cwd"); dir != "" {
			// The command runs there: the engine follows a cd, and
			// the guard's worktree stays the session's.
			command = "cd -- " + shellQuote(t.abs(dir)) + " && " + command
		}
		err = add("Bash", map[string]string{"command": command}, map[string]string{"stdout": t.output, "stderr": ""})
		return out, true, err
	case kindWrite:
		p := filePath(args)
		if p == "" {
			return nil, false, fmt.Errorf("the %s call names no file", t.tool)
		}
		err = add("Write", map[string]string{"file_path": t.abs(p), "content": str(args, "content", "file_text", "text")}, nil)
		return out, false, err
	case kindEdit:
		p := filePath(args)
		if p == "" {
			return nil, false, fmt.Errorf("the %s call names no file", t.tool)
		}
		err = add("Edit", map[string]string{"file_path": t.abs(p),
			"old_string": str(args, "old_string", "old_str", "oldString"),
			"new_string": str(args, "new_string", "new_str", "newString")}, nil)
		return out, false, err
	case kindRead:
		p := filePath(args)
		if p == "" {
			return nil, false, fmt.Errorf("the %s call names no file", t.tool)
		}
		p = t.abs(p)
		err = add("Read", map[string]string{"file_path": p},
			map[string]any{"type": "text", "file": map[string]string{"filePath": p, "content": t.output}})
		return out, true, err
	case kindPatch:
		text := patchText(t.args, args)
		ops, err := parsePatch(text)
		if err != nil {
			return nil, false, fmt.Errorf("the %s call's patch cannot be read (%v)", t.tool, err)
		}
		for _, op := range ops {
			var err error
			switch op.action {
			case patchAdd:
				err = add("Write", map[string]string{"file_path": t.abs(op.path), "content": op.newText}, nil)
			case patchUpdate:
				if op.moveTo != "" {
					if err = add("Write", map[string]string{"file_path": t.abs(op.moveTo), "content": op.newText}, nil); err == nil && !t.post {
						err = add("Bash", map[string]string{"command": "rm -- " + shellQuote(t.abs(op.path))}, nil)
					}
					break
				}
				err = add("Edit", map[string]string{"file_path": t.abs(op.path), "old_string": op.oldText, "new_string": op.newText}, nil)
			case patchDelete:
				if !t.post { // deleted: nothing left to scan
					err = add("Bash", map[string]string{"command": "rm -- " + shellQuote(t.abs(op.path))}, nil)
				}
			}
			if err != nil {
				return nil, false, err
			}
		}
		return out, false, nil
	case kindMCP:
		input := t.args
		if len(input) == 0 {
			input = json.RawMessage("{}")
		}
		c := t.base
		c.ToolName, c.ToolInput = t.mcp, input
		if t.post {
			c.ToolResponse, _ = json.Marshal(map[string]any{"content": []map[string]string{{"type": "text", "text": t.output}}})
		}
		data, err := json.Marshal(c)
		return [][]byte{data}, false, err
	}
	// Another tool: the pipeline knows it by name only (budget, audit).
	input := t.args
	if len(input) == 0 || !jsonobj.Valid(input) {
		input = json.RawMessage("{}")
	}
	c := t.base
	c.ToolName, c.ToolInput = t.tool, input
	data, err := json.Marshal(c)
	return [][]byte{data}, false, err
}

// abs makes a path the client gave relative to its cwd absolute.
func (t *toolCall) abs(p string) string {
	if filepath.IsAbs(p) || t.base.Cwd == "" {
		return p
	}
	return filepath.Join(t.base.Cwd, p)
}

// objectArgs decodes a tool's arguments: an object, or (Copilot before
// 1.0.102 and some others) a JSON string holding one.
func objectArgs(raw json.RawMessage) (map[string]json.RawMessage, error) {
	args := map[string]json.RawMessage{}
	if len(raw) == 0 || jsonobj.Null(raw) {
		return args, nil
	}
	if s, ok := jsonobj.String(raw); ok && raw[0] == '"' {
		raw = json.RawMessage(s)
		if strings.TrimSpace(s) == "" {
			return args, nil
		}
	}
	if err := json.Unmarshal(raw, &args); err != nil {
		return args, err
	}
	return args, nil
}

// str is the first of keys that holds a string.
func str(args map[string]json.RawMessage, keys ...string) string {
	for _, k := range keys {
		if raw, ok := args[k]; ok {
			if s, ok := jsonobj.String(raw); ok {
				return s
			}
		}
	}
	return ""
}

func filePath(args map[string]json.RawMessage) string {
	return str(args, "file_path", "filePath", "absolute_path", "path", "notebook_path")
}

// shellCommand is a shell tool's command: a string, or (Codex's exec
// tools) an argv whose last word is the script of "bash -lc SCRIPT".
func shellCommand(args map[string]json.RawMessage) (string, bool) {
	for _, k := range []string{"command", "cmd"} {
		raw, ok := args[k]
		if !ok {
			continue
		}
		if s, ok := jsonobj.String(raw); ok && raw[0] == '"' {
			return s, strings.TrimSpace(s) != ""
		}
		var argv []string
		if json.Unmarshal(raw, &argv) == nil && len(argv) > 0 {
			if len(argv) == 3 && isShell(argv[0]) && (argv[1] == "-c" || argv[1] == "-lc") {
				return argv[2], true
			}
			q := make([]string, len(argv))
			for i, a := range argv {
				q[i] = shellQuote(a)
			}
			return strings.Join(q, " "), true
		}
	}
	return "", false
}

func isShell(p string) bool {
	switch filepath.Base(p) {
	case "bash", "sh", "zsh", "dash":
		return true
	}
	return false
}

// shellQuote quotes s for POSIX sh.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:@+,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// patchText is the patch of an apply_patch call: its "command", "input",
// "patch" or "patchText" member, or the tool input itself when it is a
// string (Codex's freeform tool).
func patchText(raw json.RawMessage, args map[string]json.RawMessage) string {
	if s := str(args, "command", "input", "patch", "patchText"); s != "" {
		return s
	}
	if s, ok := jsonobj.String(raw); ok {
		return s
	}
	var argv []string
	if json.Unmarshal(args["command"], &argv) == nil && len(argv) > 0 {
		return argv[len(argv)-1] // ["apply_patch", PATCH]
	}
	return ""
}

// outputText is a tool result as the model reads it: a string as it is,
// else the text members clients use (Claude's stdout and stderr, Gemini's
// llmContent, Copilot's textResultForLlm, an MCP result's content), else
// the JSON itself.
func outputText(raw json.RawMessage) string {
	if len(raw) == 0 || jsonobj.Null(raw) {
		return ""
	}
	if s, ok := jsonobj.String(raw); ok && raw[0] == '"' {
		return s
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return string(raw)
	}
	var parts []string
	for _, k := range []string{"stdout", "output", "llmContent", "textResultForLlm", "text_result_for_llm", "content", "text", "result", "stderr", "error"} {
		v, ok := obj[k]
		if !ok {
			continue
		}
		if s, ok := jsonobj.String(v); ok && v[0] == '"' {
			if s != "" {
				parts = append(parts, s)
			}
			continue
		}
		if k == "content" || k == "llmContent" {
			if t := partsText(v); t != "" {
				parts = append(parts, t)
			}
			continue
		}
		if k == "file" {
			continue
		}
	}
	if f, ok := obj["file"]; ok {
		var file struct {
			Content string `json:"content"`
		}
		if json.Unmarshal(f, &file) == nil && file.Content != "" {
			parts = append(parts, file.Content)
		}
	}
	if len(parts) == 0 {
		return string(raw)
	}
	return strings.Join(parts, "\n")
}

// partsText joins the text of a list of parts ([{"type":"text","text":...}]
// or Gemini's [{"text": ...}]).
func partsText(raw json.RawMessage) string {
	var ps []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &ps) != nil {
		var one struct {
			Text string `json:"text"`
		}
		if json.Unmarshal(raw, &one) == nil {
			return one.Text
		}
		return ""
	}
	var out []string
	for _, p := range ps {
		if p.Text != "" {
			out = append(out, p.Text)
		}
	}
	return strings.Join(out, "\n")
}

// mcpName turns a client's MCP tool name into mcp__server__tool, given
// the servers its configuration names (longest match first); sep is what
// the client puts between server and tool. ok is false when the name is
// not one of a configured server's tools and has no other mark of MCP.
func mcpName(name, prefix, sep string, servers []string) (string, bool) {
	if strings.HasPrefix(name, "mcp__") {
		return name, true
	}
	rest, had := strings.CutPrefix(name, prefix)
	if prefix != "" && !had {
		return "", false
	}
	sort.Slice(servers, func(i, j int) bool { return len(servers[i]) > len(servers[j]) })
	for _, s := range servers {
		if tool, ok := strings.CutPrefix(rest, s+sep); ok && tool != "" {
			return "mcp__" + s + "__" + tool, true
		}
	}
	if prefix == "" {
		return "", false
	}
	if server, tool, ok := strings.Cut(rest, sep); ok && server != "" && tool != "" {
		return "mcp__" + server + "__" + tool, true
	}
	return "", false
}
