package main

import (
	"os"
	"time"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/posthook"
)

// swarm-guard-post runs as this test binary in scripts, next to the
// swarm-guard it hands events to (testscript's bin directory).
func init() {
	scriptCommands["swarm-guard-post"] = func() {
		os.Exit(posthook.Main(os.Args[1:], os.Stdin, os.Stderr, os.Getenv, os.Environ(), time.Now()))
	}
}
