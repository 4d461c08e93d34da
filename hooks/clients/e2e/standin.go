package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"time"
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

// Server is a scripted stand-in model on 127.0.0.1. It speaks the wire
// APIs of the clients under test on one port: the OpenAI Responses API
// (POST /v1/responses, Codex), Chat Completions (POST /v1/chat/completions,
// Copilot, opencode, Qwen Code, Droid) and Gemini's generateContent and
// streamGenerateContent (Gemini CLI). Every request that offers the
// agent's tools gets the next scripted call of the conversation; the next
// step is how many of the script's call ids the conversation already holds.
// Requests without tools (titles, routers, summaries) get a short text.
//
// The same port is the clients' HTTP(S) proxy: a CONNECT or an absolute
// URL for any other host is refused (403) and counted, so the tests see
// every attempt to leave loopback that a client routes through its proxy.
type Server struct {
	calls []Call

	mu        sync.Mutex
	results   map[string]Result    // by call id
	sent      map[string]time.Time // when the call's response was complete
	gaps      []time.Duration      // sent → its result arrived, per call in order
	toolReqs  int
	answers   int
	refused   []string // hosts of refused proxy requests, in order
	unknown   []string // requests to the stand-in it had no answer for
	firstBody []byte   // the first request that offered tools, for SWARM_GUARD_E2E_DUMP
	times     []string // "METHOD PATH at T" of every request, for SWARM_GUARD_E2E_DEBUG
	bodies    [][]byte // every request's body, for Saw

	ln  net.Listener
	srv *http.Server
}

// NewServer listens on 127.0.0.1 on a free port and serves the script.
func NewServer(calls []Call) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{calls: calls, results: map[string]Result{}, sent: map[string]time.Time{}, ln: ln}
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(ln) //nolint:errcheck // ends with Close
	return s, nil
}

// URL is the stand-in's base URL, e.g. http://127.0.0.1:40123.
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() }

// Close stops the server.
func (s *Server) Close() error { return s.srv.Close() }

// Results returns what the model was told for each scripted call, in order;
// ok is false for a call whose result never came back.
func (s *Server) Results() (res []Result, ok []bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.calls {
		r, found := s.results[callID(i)]
		res = append(res, r)
		ok = append(ok, found)
	}
	return res, ok
}

// ToolRequests is how many requests offered the agent's tools.
func (s *Server) ToolRequests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.toolReqs
}

// Gaps are, per call, the time from the end of the response that made the
// call to the request carrying its result: the client's whole handling of
// the call, hooks included, without the model's time.
func (s *Server) Gaps() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.gaps...)
}

// Refused lists the hosts the clients tried to reach through the proxy,
// with a count each, e.g. "telemetry.factory.ai:443 x2".
func (s *Server) Refused() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := map[string]int{}
	for _, h := range s.refused {
		m[h]++
	}
	return m
}

// Unknown lists the requests to the stand-in it had no answer for.
func (s *Server) Unknown() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.unknown...)
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
	if r.Method == http.MethodConnect || r.URL.IsAbs() && r.URL.Host != s.ln.Addr().String() {
		host := r.Host
		if r.URL.IsAbs() {
			host = r.URL.Host
		}
		s.mu.Lock()
		s.refused = append(s.refused, host)
		s.mu.Unlock()
		http.Error(w, "swarm-guard e2e: the stand-in refuses every request that leaves 127.0.0.1", http.StatusForbidden)
		return
	}
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
		writeJSON(w, map[string]any{"totalTokens": 100})
	case r.Method == http.MethodGet && strings.HasSuffix(path, "/models"):
		writeJSON(w, map[string]any{"object": "list", "data": []any{map[string]any{"id": "mock-model", "object": "model", "owned_by": "e2e"}}})
	default:
		s.mu.Lock()
		s.unknown = append(s.unknown, r.Method+" "+r.URL.String())
		s.mu.Unlock()
		http.Error(w, `{"error":{"message":"not scripted","type":"not_found"}}`, http.StatusNotFound)
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
	s.mu.Lock()
	defer s.mu.Unlock()
	s.toolReqs++
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
		if _, seen := s.results[id]; !seen {
			if sent, ok := s.sent[id]; ok {
				s.gaps = append(s.gaps, arrived.Sub(sent))
			}
		}
		s.results[id] = Result{Text: t.results[id]}
	}
	if t.made < len(s.calls) {
		return t.made
	}
	return -1
}

func (s *Server) markSent(id string) {
	if id == "" {
		return
	}
	s.mu.Lock()
	s.sent[id] = time.Now()
	s.mu.Unlock()
}

func (s *Server) nextAnswer() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.answers++
	return s.answers
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

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v) //nolint:errcheck // the client sees a short body
}

// sse writes one server-sent event; name may be empty.
func sse(w http.ResponseWriter, name string, data any) {
	b, _ := json.Marshal(data)
	if name != "" {
		fmt.Fprintf(w, "event: %s\n", name)
	}
	fmt.Fprintf(w, "data: %s\n\n", b)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

func startSSE(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
}
