package gitrepo

import (
	"os"
	"path/filepath"
	"testing"
)

func TestHead(t *testing.T) {
	const a = "0123456789abcdef0123456789abcdef01234567"
	const b = "89abcdef0123456789abcdef0123456789abcdef"
	for _, tc := range []struct {
		name   string
		files  map[string]string // under .git
		id     string
		unborn bool
	}{
		{"loose ref", map[string]string{"HEAD": "ref: refs/heads/main\n", "refs/heads/main": a + "\n"}, a, false},
		{"packed ref", map[string]string{"HEAD": "ref: refs/heads/main\n", "packed-refs": "# pack-refs with: peeled\n" + b + " refs/heads/other\n" + a + " refs/heads/main\n"}, a, false},
		{"detached", map[string]string{"HEAD": b + "\n"}, b, false},
		{"unborn", map[string]string{"HEAD": "ref: refs/heads/main\n"}, "", true},
		{"reftable", map[string]string{"HEAD": "ref: refs/heads/.invalid\n", "reftable/tables.list": ""}, "", false},
		{"not a commit id", map[string]string{"HEAD": "ref: refs/heads/main\n", "refs/heads/main": "garbage\n"}, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for name, data := range tc.files {
				p := filepath.Join(root, ".git", filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			r, ok := Find(root)
			if !ok {
				t.Fatal("no repository found")
			}
			if id, unborn := r.Head(); id != tc.id || unborn != tc.unborn {
				t.Fatalf("Head() = %q, %v; want %q, %v", id, unborn, tc.id, tc.unborn)
			}
		})
	}
}
