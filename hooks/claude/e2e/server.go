package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/swarm-guard/swarm-guard/hooks/internal/e2eharness"
)

// Call is one tool call the scripted model makes.
type Call struct {
	Tool  string          // "Bash", "Write", "EnterWorktree", "mcp__stub__write_file" ...
	Input json.RawMessage // the tool's input object
	// Conv is the conversation that makes the call: "" for the main agent,
	// else a marker word; a conversation whose first user message holds
	// "[e2e:MARKER]" (the prompt the main agent gave a subagent) is MARKER's.
	Conv string
}

// conversation tells whose conversation a request continues.
func conversation(req messagesRequest) string {
	for _, m := range req.Messages {
		if m.Role != "user" {
			continue
		}
		text := resultText(m.Content)
		if i := strings.Index(text, "[e2e:"); i >= 0 {
			if j := strings.Index(text[i:], "]"); j > 0 {
				return text[i+len("[e2e:") : i+j]
			}
		}
		return ""
	}
	return ""
}

// Result is what the client sent back for one call: what the model was told.
type Result struct {
	Text    string   // the tool_result's text
	IsError bool     // the tool_result's is_error
	After   []string // text the client added after it (PostToolUse hook messages arrive so)
}

// Told is everything the model read about the call.
func (r Result) Told() string { return strings.Join(append([]string{r.Text}, r.After...), "\n") }

// addAfter notes text that followed a call's result in the conversation.
// The whole conversation is sent again with every request: a result's
// After is rebuilt from the latest request that holds it.
func (s *Server) addAfter(id, text string) {
	s.Update(id, func(r Result) Result {
		r.After = append(r.After, text)
		return r
	})
}

// toolUseID names the i-th scripted call (0-based). The prefix lets the
// server count its own calls in a conversation and ignore any other.
func toolUseID(i int) string { return fmt.Sprintf("toolu_e2e_%03d", i) }

const toolUsePrefix = "toolu_e2e_"

// FinalText is the model's answer after the last call.
const FinalText = "All scripted steps are done."

// Server is a scripted stand-in for the Anthropic Messages API on
// 127.0.0.1 (the loopback, refusing and timing part is the shared
// e2eharness.Standin). Every request that carries the agent's tools gets
// the next scripted call; the next step is how many of the script's
// tool_use ids the conversation already holds. After the last call it
// answers with FinalText. Requests without tools (titles, summaries,
// checks) get a short text.
type Server struct {
	*e2eharness.Standin
	*e2eharness.Told[Result] // Results: what the model was told, by call
	calls                    []Call

	mu sync.Mutex // for record's walk through a request
}

// NewServer listens on 127.0.0.1 on a free port and serves the script.
func NewServer(calls []Call) (*Server, error) {
	s := &Server{calls: calls, Told: e2eharness.NewTold[Result](len(calls), toolUseID)}
	var err error
	s.Standin, err = e2eharness.Listen(s)
	return s, err
}

// messagesRequest is the part of a Messages API request the script needs.
type messagesRequest struct {
	Stream   bool `json:"stream"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Name string `json:"name"`
	} `json:"tools"`
}

type contentBlock struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	ToolUseID string          `json:"tool_use_id"`
	Text      string          `json:"text"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		e2eharness.WriteJSON(w, map[string]any{"input_tokens": 1000})
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages":
		s.messages(w, r)
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v1/models"):
		model := map[string]any{"type": "model", "id": "claude-sonnet-4-5", "display_name": "Claude Sonnet 4.5", "created_at": "2025-09-29T00:00:00Z"}
		if r.URL.Path != "/v1/models" {
			model["id"] = strings.TrimPrefix(r.URL.Path, "/v1/models/")
			e2eharness.WriteJSON(w, model)
			return
		}
		e2eharness.WriteJSON(w, map[string]any{"data": []any{model}, "has_more": false, "first_id": model["id"], "last_id": model["id"]})
	default:
		s.NotScripted(w, r, `{"type":"error","error":{"type":"not_found_error","message":"not scripted"}}`)
	}
}

func (s *Server) messages(w http.ResponseWriter, r *http.Request) {
	arrived := time.Now()
	var req messagesRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"bad json"}}`, http.StatusBadRequest)
		return
	}
	if len(req.Tools) == 0 {
		s.answer(w, req.Stream, []any{textBlock("ok")}, "end_turn", "")
		return
	}
	if dump := os.Getenv("SWARM_GUARD_E2E_DUMP"); dump != "" {
		b, _ := json.MarshalIndent(req.Messages, "", " ")
		os.WriteFile(dump, b, 0o644)
	}
	step := s.record(req, arrived)
	if step >= 0 {
		id := toolUseID(step)
		block := map[string]any{"type": "tool_use", "id": id, "name": s.calls[step].Tool, "input": s.calls[step].Input}
		s.answer(w, req.Stream, []any{block}, "tool_use", id)
		return
	}
	s.answer(w, req.Stream, []any{textBlock(FinalText)}, "end_turn", "")
}

// record notes the tool results a request carries and returns the index
// of the next call of its conversation, -1 when that conversation is done.
func (s *Server) record(req messagesRequest, arrived time.Time) int {
	s.CountToolRequest()
	s.mu.Lock()
	defer s.mu.Unlock()
	conv := conversation(req)
	done := 0     // calls of this conversation it already holds
	current := "" // the last scripted call whose result this conversation holds
	for _, m := range req.Messages {
		if m.Role == "assistant" {
			current = ""
		}
		var blocks []contentBlock
		if json.Unmarshal(m.Content, &blocks) != nil {
			var text string
			if json.Unmarshal(m.Content, &text) == nil && current != "" {
				s.addAfter(current, text)
			}
			continue
		}
		for _, b := range blocks {
			switch {
			case m.Role == "assistant" && b.Type == "tool_use" && strings.HasPrefix(b.ID, toolUsePrefix):
				if i, err := strconv.Atoi(strings.TrimPrefix(b.ID, toolUsePrefix)); err == nil && i < len(s.calls) && s.calls[i].Conv == conv {
					done++
				}
			case m.Role == "user" && b.Type == "tool_result" && strings.HasPrefix(b.ToolUseID, toolUsePrefix):
				s.ResultArrived(b.ToolUseID, arrived)
				s.Set(b.ToolUseID, Result{Text: resultText(b.Content), IsError: b.IsError})
				current = b.ToolUseID
			case b.Type == "text" && current != "":
				s.addAfter(current, b.Text)
			}
		}
	}
	for i, c := range s.calls {
		if c.Conv != conv {
			continue
		}
		if done == 0 {
			return i
		}
		done--
	}
	return -1
}

// resultText flattens a tool_result's content: a string or text blocks.
func resultText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []contentBlock
	if json.Unmarshal(raw, &blocks) != nil {
		return string(raw)
	}
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func textBlock(text string) map[string]any {
	return map[string]any{"type": "text", "text": text}
}

// answer sends one assistant message, as server-sent events when the
// client asked for a stream. toolID names the tool_use whose delivery time
// is recorded.
func (s *Server) answer(w http.ResponseWriter, stream bool, content []any, stopReason, toolID string) {
	usage := map[string]any{"input_tokens": 100, "output_tokens": 10, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	msg := map[string]any{
		// Every message id is unique, as the real API's: the guard's token
		// count takes a transcript's lines with the same id for one message.
		"id": fmt.Sprintf("msg_e2e_%04d", s.NextAnswer()), "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
		"content": content, "stop_reason": stopReason, "stop_sequence": nil, "usage": usage,
	}
	if !stream {
		e2eharness.WriteJSON(w, msg)
		s.MarkSent(toolID)
		return
	}
	e2eharness.StartSSE(w)
	start := map[string]any{}
	for k, v := range msg {
		start[k] = v
	}
	start["content"] = []any{}
	start["stop_reason"] = nil
	e2eharness.SSE(w, "message_start", map[string]any{"type": "message_start", "message": start})
	for i, c := range content {
		block := c.(map[string]any)
		switch block["type"] {
		case "text":
			e2eharness.SSE(w, "content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			e2eharness.SSE(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "text_delta", "text": block["text"]}})
		case "tool_use":
			input, _ := json.Marshal(block["input"])
			e2eharness.SSE(w, "content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "tool_use", "id": block["id"], "name": block["name"], "input": map[string]any{}}})
			e2eharness.SSE(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}})
		}
		e2eharness.SSE(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	e2eharness.SSE(w, "message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stopReason, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 10}})
	e2eharness.SSE(w, "message_stop", map[string]any{"type": "message_stop"})
	s.MarkSent(toolID)
}
