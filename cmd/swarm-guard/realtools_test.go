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

// The pre-commit framework (Debian's pre-commit package; .ci/run installs
// it): the scripts that drive it ([pre-commit] condition) skip without it.
// pre-commit try-repo builds this repository with `go install` (language:
// golang) under the script's own HOME: goEnvForTools gives it the machine's
// module and build caches, so it needs no download it has not made before,
// and SWARM_GUARD_SRC is this source tree.
func goEnvForTools() map[string]string {
	env := map[string]string{}
	if src, err := filepath.Abs(filepath.Join("..", "..")); err == nil {
		env["SWARM_GUARD_SRC"] = src
	}
	home, _ := os.UserHomeDir()
	gopath := os.Getenv("GOPATH")
	if gopath == "" && home != "" {
		gopath = filepath.Join(home, "go")
	}
	if modcache := os.Getenv("GOMODCACHE"); modcache != "" {
		env["GOMODCACHE"] = modcache
	} else if gopath != "" {
		env["GOMODCACHE"] = filepath.Join(filepath.SplitList(gopath)[0], "pkg", "mod")
	}
	if gocache := os.Getenv("GOCACHE"); gocache != "" {
		env["GOCACHE"] = gocache
	} else if dir, err := os.UserCacheDir(); err == nil {
		env["GOCACHE"] = filepath.Join(dir, "go-build")
	}
	for _, k := range []string{"GOPROXY", "GOFLAGS", "GOTOOLCHAIN"} {
		if v := os.Getenv(k); v != "" {
			env[k] = v
		}
	}
	return env
}
