// Package gitchanges lists the lines a set of git changes adds: the staged
// changes (git diff --cached) for the pre-commit hook, or every commit of a
// range (git log -p) for CI. Only added lines matter to a secret scan: a
// line that is removed or left alone was checked when it was added.
//
// It runs git with the inherited environment, so GIT_INDEX_FILE set by git
// for a hook (git commit -a, git commit <paths>) selects the index being
// committed, and it parses git's zero-context patch output itself, with
// every parse problem reported instead of skipped.
package gitchanges
