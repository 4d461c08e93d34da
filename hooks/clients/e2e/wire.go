package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/swarm-guard/swarm-guard/hooks/internal/e2eharness"
)

// Chat Completions (Copilot CLI, opencode, Qwen Code, Droid).

type chatRequest struct {
	Stream   bool `json:"stream"`
	Messages []struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"tool_call_id"`
		ToolCalls  []struct {
			ID string `json:"id"`
		} `json:"tool_calls"`
	} `json:"messages"`
	Tools []json.RawMessage `json:"tools"`
}

func (s *Server) chat(w http.ResponseWriter, body []byte, arrived time.Time) {
	var req chatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, `{"error":{"message":"bad json"}}`, http.StatusBadRequest)
		return
	}
	n := s.NextAnswer()
	if len(req.Tools) == 0 {
		s.chatAnswer(w, req.Stream, n, "ok", nil, "")
		return
	}
	t := turn{hasTools: true, results: map[string]string{}}
	for _, m := range req.Messages {
		for _, tc := range m.ToolCalls {
			if isScripted(tc.ID, len(s.calls)) {
				t.made++
			}
		}
		if m.Role == "tool" && isScripted(m.ToolCallID, len(s.calls)) {
			t.results[m.ToolCallID] = flatten(m.Content)
		}
	}
	step := s.next(t, body, arrived)
	if step < 0 {
		s.chatAnswer(w, req.Stream, n, FinalText, nil, "")
		return
	}
	s.chatAnswer(w, req.Stream, n, "", &s.calls[step], callID(step))
}

func (s *Server) chatAnswer(w http.ResponseWriter, stream bool, n int, text string, call *Call, id string) {
	usage := map[string]any{"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}
	respID := fmt.Sprintf("chatcmpl-e2e-%04d", n)
	finish := "stop"
	var toolCalls []any
	if call != nil {
		args, _ := json.Marshal(call.Args)
		toolCalls = []any{map[string]any{"index": 0, "id": id, "type": "function",
			"function": map[string]any{"name": call.Tool, "arguments": string(args)}}}
		finish = "tool_calls"
	}
	if !stream {
		msg := map[string]any{"role": "assistant", "content": nil}
		if call == nil {
			msg["content"] = text
		} else {
			msg["tool_calls"] = toolCalls
		}
		e2eharness.WriteJSON(w, map[string]any{"id": respID, "object": "chat.completion", "created": time.Now().Unix(), "model": "mock-model",
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage})
		s.MarkSent(id)
		return
	}
	e2eharness.StartSSE(w)
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": respID, "object": "chat.completion.chunk", "created": time.Now().Unix(), "model": "mock-model",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	if call == nil {
		e2eharness.SSE(w, "", chunk(map[string]any{"role": "assistant", "content": text}, nil))
	} else {
		e2eharness.SSE(w, "", chunk(map[string]any{"role": "assistant", "content": nil, "tool_calls": toolCalls}, nil))
	}
	e2eharness.SSE(w, "", chunk(map[string]any{}, finish))
	e2eharness.SSE(w, "", map[string]any{"id": respID, "object": "chat.completion.chunk", "created": time.Now().Unix(), "model": "mock-model",
		"choices": []any{}, "usage": usage})
	fmt.Fprint(w, "data: [DONE]\n\n")
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	s.MarkSent(id)
}

// OpenAI Responses API (Codex).

type responsesRequest struct {
	Stream bool `json:"stream"`
	Input  []struct {
		Type   string          `json:"type"`
		CallID string          `json:"call_id"`
		Output json.RawMessage `json:"output"`
	} `json:"input"`
	Tools []json.RawMessage `json:"tools"`
}

func (s *Server) responses(w http.ResponseWriter, body []byte, arrived time.Time) {
	var req responsesRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, `{"error":{"message":"bad json"}}`, http.StatusBadRequest)
		return
	}
	n := s.NextAnswer()
	respID := fmt.Sprintf("resp_e2e_%04d", n)
	var item map[string]any
	id := ""
	if len(req.Tools) > 0 {
		t := turn{hasTools: true, results: map[string]string{}}
		for _, in := range req.Input {
			switch in.Type {
			case "function_call", "custom_tool_call", "local_shell_call":
				if isScripted(in.CallID, len(s.calls)) {
					t.made++
				}
			case "function_call_output", "custom_tool_call_output":
				if isScripted(in.CallID, len(s.calls)) {
					t.results[in.CallID] = flatten(in.Output)
				}
			}
		}
		if step := s.next(t, body, arrived); step >= 0 {
			id = callID(step)
			c := s.calls[step]
			if c.Freeform != "" {
				item = map[string]any{"type": "custom_tool_call", "id": fmt.Sprintf("ctc_e2e_%04d", n), "call_id": id,
					"name": c.Tool, "input": c.Freeform, "status": "completed"}
			} else {
				args, _ := json.Marshal(c.Args)
				item = map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_e2e_%04d", n), "call_id": id,
					"name": c.Tool, "arguments": string(args), "status": "completed"}
			}
		}
	}
	if item == nil {
		text := "ok"
		if len(req.Tools) > 0 {
			text = FinalText
		}
		item = map[string]any{"type": "message", "id": fmt.Sprintf("msg_e2e_%04d", n), "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}}
	}
	usage := map[string]any{"input_tokens": 100, "input_tokens_details": map[string]any{"cached_tokens": 0},
		"output_tokens": 10, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 110}
	resp := func(status string, output []any) map[string]any {
		r := map[string]any{"id": respID, "object": "response", "created_at": time.Now().Unix(), "status": status,
			"model": "mock-model", "output": output}
		if status == "completed" {
			r["usage"] = usage
		}
		return r
	}
	if !req.Stream {
		e2eharness.WriteJSON(w, resp("completed", []any{item}))
		s.MarkSent(id)
		return
	}
	e2eharness.StartSSE(w)
	e2eharness.SSE(w, "response.created", map[string]any{"type": "response.created", "sequence_number": 0, "response": resp("in_progress", []any{})})
	e2eharness.SSE(w, "response.output_item.added", map[string]any{"type": "response.output_item.added", "sequence_number": 1, "output_index": 0, "item": item})
	e2eharness.SSE(w, "response.output_item.done", map[string]any{"type": "response.output_item.done", "sequence_number": 2, "output_index": 0, "item": item})
	e2eharness.SSE(w, "response.completed", map[string]any{"type": "response.completed", "sequence_number": 3, "response": resp("completed", []any{item})})
	s.MarkSent(id)
}

// Gemini generateContent / streamGenerateContent (Gemini CLI).

type geminiRequest struct {
	Contents []struct {
		Role  string `json:"role"`
		Parts []struct {
			FunctionCall *struct {
				ID   string `json:"id"`
				Name string `json:"name"`
			} `json:"functionCall"`
			FunctionResponse *struct {
				ID       string          `json:"id"`
				Name     string          `json:"name"`
				Response json.RawMessage `json:"response"`
			} `json:"functionResponse"`
		} `json:"parts"`
	} `json:"contents"`
	Tools []struct {
		FunctionDeclarations []json.RawMessage `json:"functionDeclarations"`
	} `json:"tools"`
	GenerationConfig struct {
		ResponseMimeType string `json:"responseMimeType"`
	} `json:"generationConfig"`
}

func (s *Server) gemini(w http.ResponseWriter, body []byte, stream bool, arrived time.Time) {
	var req geminiRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, `{"error":{"code":400,"message":"bad json","status":"INVALID_ARGUMENT"}}`, http.StatusBadRequest)
		return
	}
	s.NextAnswer()
	hasTools := false
	for _, t := range req.Tools {
		hasTools = hasTools || len(t.FunctionDeclarations) > 0
	}
	var part map[string]any
	id := ""
	switch {
	case !hasTools && req.GenerationConfig.ResponseMimeType == "application/json":
		// The model router asks for a JSON verdict; any well-formed one will do.
		part = map[string]any{"text": `{"reasoning":"scripted stand-in","model_choice":"flash","complexity_reasoning":"scripted stand-in","complexity_score":1}`}
	case !hasTools:
		part = map[string]any{"text": "ok"}
	default:
		t := turn{hasTools: true, results: map[string]string{}}
		for _, c := range req.Contents {
			for _, p := range c.Parts {
				if p.FunctionCall != nil && isScripted(p.FunctionCall.ID, len(s.calls)) {
					t.made++
				}
				if p.FunctionResponse != nil && isScripted(p.FunctionResponse.ID, len(s.calls)) {
					t.results[p.FunctionResponse.ID] = geminiResponseText(p.FunctionResponse.Response)
				}
			}
		}
		if step := s.next(t, body, arrived); step >= 0 {
			id = callID(step)
			part = map[string]any{"functionCall": map[string]any{"id": id, "name": s.calls[step].Tool, "args": s.calls[step].Args}}
		} else {
			part = map[string]any{"text": FinalText}
		}
	}
	resp := map[string]any{
		"candidates":    []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": 100, "candidatesTokenCount": 10, "totalTokenCount": 110},
		"modelVersion":  "mock-model",
	}
	if !stream {
		e2eharness.WriteJSON(w, resp)
		s.MarkSent(id)
		return
	}
	e2eharness.StartSSE(w)
	e2eharness.SSE(w, "", resp)
	s.MarkSent(id)
}

// geminiResponseText is a functionResponse's response object as the model
// reads it: its "output" or "error" string when it has one, else the JSON.
func geminiResponseText(raw json.RawMessage) string {
	var r map[string]json.RawMessage
	if json.Unmarshal(raw, &r) == nil {
		var out []string
		for _, k := range []string{"output", "error"} {
			if v, ok := r[k]; ok {
				out = append(out, flatten(v))
			}
		}
		if len(out) > 0 && len(r) == len(out) {
			return joinLines(out)
		}
	}
	return string(raw)
}

func joinLines(s []string) string {
	out := ""
	for i, l := range s {
		if i > 0 {
			out += "\n"
		}
		out += l
	}
	return out
}
