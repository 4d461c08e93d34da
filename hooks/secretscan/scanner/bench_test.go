package scanner

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"testing"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/wire"
)

// goSource returns about n bytes of real Go code from GOROOT (net/http),
// the kind of text agents write. It skips the benchmark without GOROOT.
// goSources reads up to perDir Go files of each GOROOT source directory
// named (in Glob order): real code for the tests that compare scans. It
// skips the test when GOROOT has no sources.
func goSources(t testing.TB, perDir int, dirs ...string) []string {
	t.Helper()
	var texts []string
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", dir, "*.go"))
		for i, f := range files {
			if i >= perDir {
				break
			}
			if data, err := os.ReadFile(f); err == nil {
				texts = append(texts, string(data))
			}
		}
	}
	if len(texts) == 0 {
		t.Skip("no Go sources")
	}
	return texts
}

func goSource(b testing.TB, n int) string {
	b.Helper()
	dir := filepath.Join(runtime.GOROOT(), "src", "net", "http")
	entries, err := os.ReadDir(dir)
	if err != nil {
		b.Skipf("no Go sources to scan: %v", err)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	var out []byte
	for _, e := range entries {
		if filepath.Ext(e.Name()) != ".go" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, data...)
		if len(out) >= n {
			break
		}
	}
	if len(out) < n {
		b.Skipf("only %d bytes of Go sources", len(out))
	}
	out = out[:n]
	for len(out) > 0 && out[len(out)-1] != '\n' {
		out = out[:len(out)-1]
	}
	return string(out)
}

// benchScan measures a whole scan in a fresh Scanner, as one scanner
// process does: rule selection, lazy compilation and detection.
func benchScan(b *testing.B, text string, depth int) {
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		s, err := New(Options{DecodeDepth: depth})
		if err != nil {
			b.Fatal(err)
		}
		blocks := []wire.Block{{File: "big.go", Line: 1, Text: text}}
		i := 0
		_, err = s.Stream(func() (wire.Block, error) {
			if i == len(blocks) {
				return wire.Block{}, io.EOF
			}
			i++
			return blocks[i-1], nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkScanClean10KB(b *testing.B) {
	text := goSource(b, 10<<10)
	b.Run("depth0", func(b *testing.B) { benchScan(b, text, 0) })
	b.Run("depth5", func(b *testing.B) { benchScan(b, text, DefaultDecodeDepth) })
}

func BenchmarkScan1MB(b *testing.B) {
	text := goSource(b, 1<<20)
	b.Run("depth0", func(b *testing.B) { benchScan(b, text, 0) })
	b.Run("depth5", func(b *testing.B) { benchScan(b, text, DefaultDecodeDepth) })
}

// BenchmarkServeClean10KB is the scan server's share of a Write check:
// one request of a clean 10 KB Go file, decoded and scanned with the
// default rules already compiled (as the warm server has them).
func BenchmarkServeClean10KB(b *testing.B) {
	benchServe(b, goSource(b, 10<<10))
}

// BenchmarkServeScanned10KB is the request the hook's bench path
// pre-write-10kb-scanned sends: the clean 10 KB file with one line the
// generic rule matches and gitleaks then drops, which keywords.Clean
// cannot prove clean (the file above it can, and never reaches the
// server).
func BenchmarkServeScanned10KB(b *testing.B) {
	benchServe(b, goSource(b, 10<<10)+"\nconst apiVersion = \"2024-06-01.preview7\"\n")
}

func benchServe(b *testing.B, text string) {
	var buf bytes.Buffer
	enc := wire.NewEncoder(&buf)
	if err := enc.Encode(wire.Request{Version: wire.Version, Root: b.TempDir()}); err != nil {
		b.Fatal(err)
	}
	if err := enc.Encode(wire.NewBlock("server.go", "", 1, []byte(text))); err != nil {
		b.Fatal(err)
	}
	if err := enc.Flush(); err != nil {
		b.Fatal(err)
	}
	req := buf.Bytes()
	b.SetBytes(int64(len(text)))
	dec := wire.NewDecoder(nil)
	for b.Loop() {
		dec.Reset(bytes.NewReader(req))
		fs, err := scanRequest(dec, nil)
		if err != nil || len(fs) != 0 {
			b.Fatal(err, fs)
		}
	}
}
