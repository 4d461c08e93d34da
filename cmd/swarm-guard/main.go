// Command swarm-guard keeps autonomous coding agents safe in a shared git
// repository: a Claude Code hook, git hooks, a CI check and a budget
// wrapper in one binary. Run `swarm-guard help` for the commands.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], defaultCLI()))
}
