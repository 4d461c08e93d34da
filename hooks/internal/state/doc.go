// Package state keeps small JSON state files that many processes update at
// once: budget wrappers, hooks of parallel tool calls, agents in other
// worktrees of the same repository.
//
// Every update holds an exclusive flock on a sidecar lock file
// (<file>.lock) while it reads the file, applies a change and writes it
// back. Readers take a shared lock. So an update is never lost and no
// reader ever sees half a file. Files up to a page are rewritten in place
// with one write, which a killed writer cannot leave half done; larger ones
// are written to a temporary file renamed over the old one. The lock lives
// on a separate file because a rename replaces the data file's inode, and
// a lock on the old inode would not exclude processes that open the new
// one. Writes are not synced to disk: a power failure can lose the last
// updates, or leave a file that fails to decode, which is reported.
//
// A file that does not decode is an error that names the file and is never
// overwritten: the budgets it holds would silently start from zero.
package state
