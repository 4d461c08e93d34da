// Command swarm-guard-post answers Claude Code's PostToolUse after a Bash
// command PreToolUse proved writes nothing, without starting the full
// swarm-guard binary, and hands every other event to `swarm-guard hook`
// next to it (package posthook). install registers it for PostToolUse and
// PostToolUseFailure.
package main

import (
	"os"
	"time"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/posthook"
)

func main() {
	os.Exit(posthook.Main(os.Args[1:], posthook.Stdin{}, os.Stderr, os.Getenv, os.Environ(), time.Now()))
}
