// Package committedscan feeds guard/committed from git and the file
// system: the commands the staged changes add (the pre-commit hook), the
// ones a pull request's range adds (verify), and every command of a tree
// (scan --commands). Only the commands that start on or span an added
// line are judged, so an existing Dockerfile never blocks an unrelated
// commit; the files are read as they are committed (the index, the
// range's head), with one git cat-file for all of them.
//
// Findings a team accepts are listed by fingerprint in
// .swarm-guard-ignore, read from the index for a commit and from the
// range's base (the base branch, as verify reads the policy) for a range,
// so a pull request cannot accept its own findings.
package committedscan
