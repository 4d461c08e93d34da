// Package claude is the Claude Code hook protocol at the boundary: it
// reads one hook event from standard input, has package decide judge it,
// and renders the answer as Claude Code reads it (exit code, stdout JSON,
// stderr). It decides nothing itself.
//
// The protocol's security boundary is the exit code. A denial is a reason
// on stderr and exit 2 with empty stdout, the one form every Claude Code
// version honours. No decision is exit 0 with empty stdout: the guard never
// answers "allow". "ask" is JSON on stdout with exit 0. Anything that goes
// wrong (malformed input, a broken policy, a panic, the internal deadline)
// is a denial unless the policy's fail_mode says "open".
package claude
