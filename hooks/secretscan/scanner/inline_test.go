package scanner

import (
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/fakesecret"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/wire"
)

// TestInlineScanAgrees: a small request, scanned on the reading goroutine
// with each block as one piece (Stream's inline path), finds what the
// worker path finds with the blocks cut into pieces, on real code from
// GOROOT with fake secrets of every kind put in, one block per request
// and several.
func TestInlineScanAgrees(t *testing.T) {
	texts := goSources(t, 10, "net/http", "crypto/tls", "os")
	secrets := fakesecret.All()
	var blocks []wire.Block
	for i, text := range texts {
		if len(text) > inlineBytes {
			text = text[:strings.LastIndexByte(text[:inlineBytes], '\n')+1]
		}
		lines := strings.Split(text, "\n")
		for k, s := range secrets {
			if (k+i)%3 == 0 {
				at := (k*37 + i*11) % len(lines)
				lines[at] = lines[at] + " " + s.Line
			}
		}
		blocks = append(blocks, wire.Block{File: "f.go", Line: 1 + i, Text: strings.Join(lines, "\n")})
	}
	s, err := New(Options{DecodeDepth: DefaultDecodeDepth, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	feed := func(bs []wire.Block) func() (wire.Block, error) {
		return func() (wire.Block, error) {
			if len(bs) == 0 {
				return wire.Block{}, io.EOF
			}
			b := bs[0]
			bs = bs[1:]
			return b, nil
		}
	}
	requests := [][]wire.Block{blocks[3:5]}
	for _, b := range blocks {
		requests = append(requests, []wire.Block{b})
	}
	found, cut := 0, 0
	for i, req := range requests {
		size := 0
		for _, b := range req {
			size += len(b.Text)
			if len(chunk(b.Text, 1, chunkSize(len(b.Text), s.workers))) > 1 {
				cut++
			}
		}
		if size > inlineBytes {
			continue
		}
		inline, err := s.Stream(feed(req))
		if err != nil {
			t.Fatal(err)
		}
		workers, err := s.stream(nil, feed(req))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(inline, workers) {
			t.Fatalf("request %d: inline findings %+v\nworker findings %+v", i, inline, workers)
		}
		found += len(inline)
	}
	if found == 0 || cut == 0 {
		t.Fatalf("%d findings, %d blocks the workers cut: the comparison proves nothing", found, cut)
	}
	t.Logf("%d requests, %d findings, the same both ways", len(requests), found)
}
