// Package wire is the protocol between the light swarm-guard binary and the
// swarm-guard-secrets scanner process, which is the only program that links
// gitleaks.
//
// The light side writes JSON lines to the scanner's stdin: one Request,
// then one Block per piece of text to scan, then closes stdin. The scanner
// answers with one Result on stdout and exits 0, or exits 2 after writing a
// Result whose Error says what went wrong. Findings in a Result are already
// redacted: the secret itself never crosses the process boundary, so
// nothing the light side prints or logs can hold it.
//
// Version changes whenever a field changes meaning; both sides refuse a
// version they do not know, because the two executables are installed
// separately and can drift apart.
package wire
