package committed

import (
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// FuzzExtract feeds every format's reader arbitrary text: it returns
// commands or an error, never panics, and every command's line is in the
// file.
func FuzzExtract(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "committed", "*", "*.txtar"))
	for _, p := range files {
		if ar, err := txtar.ParseFile(p); err == nil {
			for _, af := range ar.Files {
				f.Add(uint8(0), af.Data)
			}
		}
	}
	f.Add(uint8(3), []byte("a: &x\n  b: *x\n<<: *x\n"))
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		fm := Formats[int(which)%len(Formats)]
		name := examplePath[fm]
		cmds, err := Extract(name, data)
		if err != nil {
			return
		}
		lines := 1
		for _, b := range data {
			if b == '\n' {
				lines++
			}
		}
		for _, c := range cmds {
			if c.Line < 1 || c.Line > lines {
				t.Fatalf("%s: command %q at line %d of a %d-line file", fm, c.Script, c.Line, lines)
			}
		}
	})
}
