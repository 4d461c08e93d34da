package e2eharness

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// Standin is the part of a scripted model stand-in that does not depend
// on the wire API. It listens on a free port of 127.0.0.1 and hands every
// request for itself to the suite's API handler. A request for any other
// host (a CONNECT, or an absolute URL as a client sends its HTTP(S) proxy)
// is refused with 403 and counted: pointed at as the clients' proxy, the
// stand-in sees every attempt to leave loopback that a client routes
// through it, and none succeeds.
//
// The API handler tells the Standin when a scripted call's response is
// complete (MarkSent) and when a request carries its result
// (ResultArrived); the time between is the call's gap: the client's whole
// handling of the call, hooks included, without the model's time.
type Standin struct {
	ln  net.Listener
	srv *http.Server
	api http.Handler

	mu       sync.Mutex
	sent     map[string]time.Time // call id → when the response making it was complete
	arrived  map[string]bool      // call ids whose result came back
	gaps     []time.Duration      // sent → result arrived, per call in order of arrival
	toolReqs int
	answers  int
	refused  []string // hosts of refused requests, in order
	unknown  []string // requests for the stand-in it had no answer for
}

// Listen starts a Standin on 127.0.0.1 serving api.
func Listen(api http.Handler) (*Standin, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Standin{ln: ln, api: api, sent: map[string]time.Time{}, arrived: map[string]bool{}}
	s.srv = &http.Server{Handler: http.HandlerFunc(s.gate), ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(ln) //nolint:errcheck // ends with Close
	return s, nil
}

// gate refuses and counts what is not for the stand-in itself.
func (s *Standin) gate(w http.ResponseWriter, r *http.Request) {
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
	s.api.ServeHTTP(w, r)
}

// URL is the stand-in's base URL, e.g. http://127.0.0.1:40123.
func (s *Standin) URL() string { return "http://" + s.ln.Addr().String() }

// Close stops the stand-in.
func (s *Standin) Close() error { return s.srv.Close() }

// MarkSent notes that the response making call id is complete ("" is
// ignored: a response that makes no scripted call).
func (s *Standin) MarkSent(id string) {
	if id == "" {
		return
	}
	s.mu.Lock()
	s.sent[id] = time.Now()
	s.mu.Unlock()
}

// ResultArrived notes that a request which arrived at at carries call
// id's result. Clients send the whole conversation every time: only the
// first request carrying a result counts.
func (s *Standin) ResultArrived(id string, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.arrived[id] {
		return
	}
	s.arrived[id] = true
	if sent, ok := s.sent[id]; ok {
		s.gaps = append(s.gaps, at.Sub(sent))
	}
}

// Gaps are, per call in the order its result came back, the time from
// the end of the response that made the call to the request carrying its
// result.
func (s *Standin) Gaps() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.gaps...)
}

// CountToolRequest counts a request that offered the agent's tools.
func (s *Standin) CountToolRequest() {
	s.mu.Lock()
	s.toolReqs++
	s.mu.Unlock()
}

// ToolRequests is how many requests offered the agent's tools.
func (s *Standin) ToolRequests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.toolReqs
}

// NextAnswer numbers the stand-in's answers from 1, for ids that must
// differ between answers as the real APIs' do.
func (s *Standin) NextAnswer() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.answers++
	return s.answers
}

// NotScripted answers a request the API handler has no answer for with
// 404 and body, and lists it in Unknown (where to look when a client asks
// for something new).
func (s *Standin) NotScripted(w http.ResponseWriter, r *http.Request, body string) {
	s.mu.Lock()
	s.unknown = append(s.unknown, r.Method+" "+r.URL.String())
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusNotFound)
	fmt.Fprint(w, body)
}

// Unknown lists the requests for the stand-in it had no answer for.
func (s *Standin) Unknown() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.unknown...)
}

// Refused counts the refused requests by host, e.g.
// "telemetry.factory.ai:443": 2.
func (s *Standin) Refused() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := map[string]int{}
	for _, h := range s.refused {
		m[h]++
	}
	return m
}

// WriteJSON answers v as JSON.
func WriteJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v) //nolint:errcheck // the client sees a short body
}

// StartSSE starts a server-sent event stream.
func StartSSE(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
}

// SSE writes one server-sent event and flushes it; name may be empty
// (a data-only event).
func SSE(w http.ResponseWriter, name string, data any) {
	b, _ := json.Marshal(data)
	if name != "" {
		fmt.Fprintf(w, "event: %s\n", name)
	}
	fmt.Fprintf(w, "data: %s\n\n", b)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// Post sends body as JSON to url and returns the answer's body, as a
// client would (for a suite's tests of its stand-in); an error fails the
// test.
func Post(t testing.TB, url, body string) string {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
