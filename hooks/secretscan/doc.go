// Package secretscan is secret scanning at every door, on the light side
// of swarm-guard: it decides whether a door is open under the policy,
// gathers what to scan, runs the swarm-guard-secrets scanner (package
// client) and words the answer for the agent or the person at the
// terminal. It never links gitleaks; package scanner, in its own
// executable, does the scanning.
//
// The doors:
//
//   - CheckContent, before a Write, Edit, MultiEdit or NotebookEdit
//     (PreToolUse): the resulting file is scanned and the call is denied
//     when a finding touches a line the call introduces.
//   - PostToolUse, after a Bash command: the files it wrote are scanned
//     and the agent is told to remove a secret at once; after a file tool
//     the written file is scanned again as a backstop.
//   - PreCommit, in the pre-commit git hook: staged additions are scanned
//     for secrets and unresolved conflict markers.
//   - Scan, for `swarm-guard scan`: staged changes, a commit range, or
//     files and directories.
//
// Findings come back from the scanner redacted. When the scanner is
// needed but missing or broken, every door fails closed with a one-line
// message naming the cause and the fix.
package secretscan
