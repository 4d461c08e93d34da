// Package files reads files from disk for the secret scan: whole
// directories for `swarm-guard scan PATH`, the files a Bash command wrote
// for the PostToolUse check. Big files are cut into blocks at line ends so
// that memory stays bounded; binary files (a NUL byte in the first 8000
// bytes, git's own test) are skipped; every file that cannot be read is
// reported, never silently dropped.
package files
