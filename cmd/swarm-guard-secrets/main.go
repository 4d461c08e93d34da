// Command swarm-guard-secrets is the secret scanner of swarm-guard: the
// gitleaks engine in a process of its own, so that the light swarm-guard
// binary, which Claude Code starts on every tool call, never pays for
// linking gitleaks. swarm-guard finds it next to its own executable or on
// PATH and talks to it over stdin and stdout (package wire).
package main

import (
	"os"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/scanner"
)

func main() {
	os.Exit(scanner.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
