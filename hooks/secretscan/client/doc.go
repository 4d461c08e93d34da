// Package client finds the swarm-guard-secrets scanner and runs one scan
// with it, on the light side of swarm-guard: it never imports gitleaks.
//
// The scanner is looked up next to the running swarm-guard executable
// first (make install puts both in one directory), then on PATH. A missing
// scanner is an error with one line that names the cause and the fix;
// callers fail closed on it unless the door that needs the scanner is
// turned off in the policy.
package client
