package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/swarm-guard/swarm-guard/hooks/internal/e2eharness"
)

// Call is one tool call the scripted model makes, already in the client's
// own tool naming (the client table maps the scenarios' shell and write
// calls onto it).
type Call struct {
	Tool string         // the client's tool name: "exec_command", "run_shell_command", "bash", "Execute" ...
	Args map[string]any // the tool's arguments
	// Freeform is the input of a freeform tool (the Responses API's
	// custom tools: Codex's apply_patch), sent instead of Args.
	Freeform string
}

// callID names the i-th scripted call (0-based). The prefix lets the
// stand-in tell its own calls from any other in a conversation.
func callID(i int) string { return fmt.Sprintf("call_e2e_%03d", i) }

const callPrefix = "call_e2e_"

// FinalText is the model's answer after the last call.
const FinalText = "All scripted steps are done."

// Result is what the client sent back to the model for one call.
type Result struct {
	Text string // the tool result (function output, tool message, functionResponse) as text
}

// Server is a scripted stand-in model on 127.0.0.1 (the loopback,
// refusing and timing part is the shared e2eharness.Standin). It speaks the
// wire APIs of the clients under test on one port: the OpenAI Responses API
// (POST /v1/responses, Codex), Chat Completions (POST /v1/chat/completions,
// Copilot, opencode, Qwen Code, Droid) and Gemini's generateContent and
// streamGenerateContent (Gemini CLI). Every request that offers the
// agent's tools gets the next scripted call of the conversation; the next
// step is how many of the script's call ids the conversation already holds.
// Requests without tools (titles, routers, summaries) get a short text.
//
// The same port is the clients' HTTP(S) proxy: a CONNECT or an absolute
// URL for any other host is refused (403) and counted (Refused), so the
// tests see every attempt to leave loopback that a client routes through
// its proxy.
type Server struct {
	*e2eharness.Standin
	*e2eharness.Told[Result] // Results: what the model was told, by call
	calls                    []Call

	mu        sync.Mutex
	firstBody []byte   // the first request that offered tools, for SWARM_GUARD_E2E_DUMP
	times     []string // "METHOD PATH at T" of every request, for SWARM_GUARD_E2E_DEBUG
	bodies    [][]byte // every request's body, for Saw
}

// NewServer listens on 127.0.0.1 on a free port and serves the script.
func NewServer(calls []Call) (*Server, error) {
	s := &Server{calls: calls, Told: e2eharness.NewTold[Result](len(calls), callID)}
	var err error
	s.Standin, err = e2eharness.Listen(s)
	return s, err
}

// Requests lists every request the stand-in served, with its time.
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.times...)
}

// Saw tells whether any request the stand-in served held text, as it
// stands or JSON-escaped: whether it ever reached the model.
func (s *Server) Saw(text string) bool {
	quoted, _ := json.Marshal(text)
	escaped := []byte(strings.Trim(string(quoted), `"`))
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, b := range s.bodies {
		if bytes.Contains(b, []byte(text)) || bytes.Contains(b, escaped) {
			return true
		}
	}
	return false
}

// FirstToolRequest is the body of the first request that offered tools.
func (s *Server) FirstToolRequest() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.firstBody
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// One connection per request: a client that waits for its idle
	// keep-alive connections to close before it exits (Qwen Code, opencode,
	// Gemini CLI) would otherwise wait for the stand-in's, which a real API
	// closes after seconds and Go's server never does.
	w.Header().Set("Connection", "close")
	arrived := time.Now()
	s.mu.Lock()
	s.times = append(s.times, fmt.Sprintf("%s %s at %s", r.Method, r.URL.Path, arrived.Format("15:04:05.000")))
	s.mu.Unlock()
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, "bad body", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.bodies = append(s.bodies, body)
	s.mu.Unlock()
	path := r.URL.Path
	switch {
	case r.Method == http.MethodPost && strings.HasSuffix(path, "/responses"):
		s.responses(w, body, arrived)
	case r.Method == http.MethodPost && strings.HasSuffix(path, "/chat/completions"):
		s.chat(w, body, arrived)
	case r.Method == http.MethodPost && strings.Contains(path, "/models/") &&
		(strings.HasSuffix(path, ":streamGenerateContent") || strings.HasSuffix(path, ":generateContent")):
		s.gemini(w, body, strings.HasSuffix(path, ":streamGenerateContent"), arrived)
	case r.Method == http.MethodPost && strings.Contains(path, "/models/") && strings.HasSuffix(path, ":countTokens"):
		e2eharness.WriteJSON(w, map[string]any{"totalTokens": 100})
	case r.Method == http.MethodGet && strings.HasSuffix(path, "/models"):
		e2eharness.WriteJSON(w, map[string]any{"object": "list", "data": []any{map[string]any{"id": "mock-model", "object": "model", "owned_by": "e2e"}}})
	default:
		s.NotScripted(w, r, `{"error":{"message":"not scripted","type":"not_found"}}`)
	}
}

// turn is one request's view of the conversation in any wire format: the
// scripted calls it already holds and the results it carries.
type turn struct {
	hasTools bool
	made     int               // scripted calls the conversation already holds
	results  map[string]string // call id → result text
}

// next records a turn and returns the index of the next call, -1 when the
// script is done.
func (s *Server) next(t turn, body []byte, arrived time.Time) int {
	s.CountToolRequest()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.firstBody == nil {
		s.firstBody = body
		if dump := os.Getenv("SWARM_GUARD_E2E_DUMP"); dump != "" {
			os.WriteFile(dump, body, 0o644)
		}
	}
	ids := make([]string, 0, len(t.results))
	for id := range t.results {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		s.ResultArrived(id, arrived)
		s.Set(id, Result{Text: t.results[id]})
	}
	if t.made < len(s.calls) {
		return t.made
	}
	return -1
}

// isScripted tells a call id of the script, and which call it is.
func isScripted(id string, n int) bool {
	var i int
	if _, err := fmt.Sscanf(id, callPrefix+"%d", &i); err != nil {
		return false
	}
	return i >= 0 && i < n
}

// flatten turns a tool result's content (a string, text parts or any
// JSON) into the text the model reads.
func flatten(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var out []string
		for _, p := range parts {
			if p.Text != "" {
				out = append(out, p.Text)
			}
		}
		if len(out) > 0 {
			return strings.Join(out, "\n")
		}
	}
	return string(raw)
}
