package jsonobj

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// BenchmarkValid10KB: a Write event of a 10 KB Go file, validated.
func BenchmarkValid10KB(b *testing.B) {
	src, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "net", "http", "server.go"))
	if err != nil || len(src) < 10<<10 {
		b.Skip("no Go source")
	}
	ev, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Write", "tool_input": map[string]string{"file_path": "/r/server.go", "content": string(src[:10<<10])}})
	b.Run("jsonobj", func(b *testing.B) {
		for b.Loop() {
			Valid(ev)
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		for b.Loop() {
			json.Valid(ev)
		}
	})
}

// BenchmarkString10KB: a 10 KB Go file's content, unquoted.
func BenchmarkString10KB(b *testing.B) {
	src, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "net", "http", "server.go"))
	if err != nil || len(src) < 10<<10 {
		b.Skip("no Go source")
	}
	lit, _ := json.Marshal(string(src[:10<<10]))
	for b.Loop() {
		String(lit)
	}
}
