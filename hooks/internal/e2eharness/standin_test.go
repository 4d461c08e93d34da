package e2eharness

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// api answers /ok and leaves everything else unscripted.
type api struct{ s *Standin }

func (a *api) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/ok" {
		WriteJSON(w, map[string]any{"ok": true})
		return
	}
	a.s.NotScripted(w, r, `{"error":"not scripted"}`)
}

func listen(t *testing.T) *Standin {
	t.Helper()
	a := &api{}
	s, err := Listen(a)
	if err != nil {
		t.Fatal(err)
	}
	a.s = s
	t.Cleanup(func() { s.Close() })
	return s
}

func get(t *testing.T, c *http.Client, url string) (int, string) {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestStandinRefusesOutside: the stand-in listens on loopback; a CONNECT
// and an absolute URL for another host (a client using it as its proxy)
// are refused with 403 and counted by host; its own paths reach the API,
// and what the API does not know is listed.
func TestStandinRefusesOutside(t *testing.T) {
	s := listen(t)
	if !strings.HasPrefix(s.URL(), "http://127.0.0.1:") {
		t.Fatalf("URL = %s, want loopback", s.URL())
	}
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, "CONNECT telemetry.example:443 HTTP/1.1\r\nHost: telemetry.example:443\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("CONNECT: %v %v", resp, err)
	}
	proxy, _ := http.NewRequest(http.MethodGet, s.URL(), nil)
	via := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy.URL)}}
	if code, _ := get(t, via, "http://updates.example/latest"); code != http.StatusForbidden {
		t.Fatalf("proxied GET: %d", code)
	}
	if code, body := get(t, http.DefaultClient, s.URL()+"/ok"); code != http.StatusOK || !strings.Contains(body, `"ok":true`) {
		t.Fatalf("own path: %d %s", code, body)
	}
	if code, _ := get(t, http.DefaultClient, s.URL()+"/v1/unknown?x=1"); code != http.StatusNotFound {
		t.Fatalf("unknown path: %d", code)
	}
	got := s.Refused()
	if got["telemetry.example:443"] != 1 || got["updates.example"] != 1 || len(got) != 2 {
		t.Fatalf("refused = %v", got)
	}
	if u := s.Unknown(); len(u) != 1 || u[0] != "GET /v1/unknown?x=1" {
		t.Fatalf("unknown = %v", u)
	}
}

// TestStandinGaps: a call's gap runs from its response to the first
// request carrying its result; later requests (the whole conversation is
// sent again) and calls never sent add none.
func TestStandinGaps(t *testing.T) {
	s := listen(t)
	s.MarkSent("call_1")
	sent := time.Now()
	s.ResultArrived("call_1", sent.Add(40*time.Millisecond))
	s.ResultArrived("call_1", sent.Add(900*time.Millisecond))
	s.ResultArrived("never_sent", sent)
	g := s.Gaps()
	if len(g) != 1 || g[0] < 30*time.Millisecond || g[0] > 50*time.Millisecond {
		t.Fatalf("gaps = %v, want one of about 40ms", g)
	}
	s.MarkSent("")
	s.CountToolRequest()
	if s.ToolRequests() != 1 || s.NextAnswer() != 1 || s.NextAnswer() != 2 {
		t.Fatalf("tool requests %d", s.ToolRequests())
	}
}

// TestTold: results come back in call order, a missing one marked.
func TestTold(t *testing.T) {
	r := NewTold[string](3, func(i int) string { return "c" + string(rune('0'+i)) })
	r.Set("c1", "first")
	r.Update("c1", func(s string) string { return s + " then more" })
	r.Update("c2", func(s string) string { return s + "x" })
	res, ok := r.Results()
	if !slices.Equal(res, []string{"", "first then more", "x"}) || !slices.Equal(ok, []bool{false, true, true}) {
		t.Fatalf("Results = %q %v", res, ok)
	}
}
