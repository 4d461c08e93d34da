package main

import (
	"os"
	"os/exec"
	"path/filepath"
)

// realLefthookDir is the directory holding the real lefthook executable
// for the scripts that reproduce its re-sync ([lefthook] condition): lefthook
// on PATH, else the npm install `make hook-managers` makes under
// ${XDG_CACHE_HOME:-~/.cache}/swarm-guard-dist/lefthook. "" when neither:
// those scripts then skip, saying so.
func realLefthookDir() string {
	if p, err := exec.LookPath("lefthook"); err == nil {
		return filepath.Dir(p)
	}
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		cache = filepath.Join(home, ".cache")
	}
	dir := filepath.Join(cache, "swarm-guard-dist", "lefthook", "node_modules", ".bin")
	if fi, err := os.Stat(filepath.Join(dir, "lefthook")); err == nil && fi.Mode()&0o111 != 0 {
		return dir
	}
	return ""
}
