package scanner

import (
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/zricethezav/gitleaks/v8/detect"

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

// TestPathMissesIsSound: wherever scanJob skips the main detector
// (compiler.pathMisses), a detector holding every default rule finds
// nothing in the piece through any rule the main detector would hold
// (neither the generic rule nor a solo rule, which run apart), on real
// code from GOROOT with fake secrets put in, under file names the
// path-only rule (pkcs12-file) matches and does not. And where it
// matches, the scan reports it.
func TestPathMissesIsSound(t *testing.T) {
	texts := goSources(t, 8, "net/http", "crypto/tls", "os")
	secrets := fakesecret.All()
	for i := range len(texts) {
		lines := strings.Split(texts[i], "\n")
		at := (i * 17) % len(lines)
		texts = append(texts, strings.Join(slices.Insert(lines, at, secrets[i%len(secrets)].Line), "\n"))
	}
	texts = append(texts, "", "x := 1\n")
	s, err := New(Options{DecodeDepth: DefaultDecodeDepth})
	if err != nil {
		t.Fatal(err)
	}
	all, err := newCompiler(defaultCatalogue(), DefaultDecodeDepth, true)
	if err != nil {
		t.Fatal(err)
	}
	full, _, err := all.detectors(defaultCatalogue().rules)
	if err != nil {
		t.Fatal(err)
	}
	apart := map[string]bool{genericID: true}
	for _, r := range s.solo {
		apart[r.src.id] = true
	}
	skipped, ran, p12 := 0, 0, 0
	for _, file := range []string{"f.go", "certs/client.p12", "x.PFX", "a.p12/f.go"} {
		for i, text := range texts {
			// Compile what the piece needs first, as scanJob does.
			fs, err := s.scanJob(job{file: file, piece: piece{text: text, line: 1}})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range fs {
				if f.Rule == "pkcs12-file" {
					p12++
				}
			}
			a := s.cat.analyse(text, s.depth)
			if a.decodes || !s.comp.pathMisses(a.rules, file) {
				ran++
				continue
			}
			skipped++
			for _, f := range full.Detect(detect.Fragment{Raw: text, FilePath: file, StartLine: 1}) {
				if !apart[f.RuleID] {
					t.Fatalf("%s, text %d: the main detector is skipped, but gitleaks finds %s on line %d", file, i, f.RuleID, f.StartLine)
				}
			}
		}
	}
	if skipped == 0 || ran == 0 || p12 == 0 {
		t.Fatalf("skipped %d pieces, ran %d, %d pkcs12-file findings: the test proves nothing", skipped, ran, p12)
	}
	t.Logf("main detector skipped on %d pieces, run on %d; %d pkcs12-file findings", skipped, ran, p12)
}
