//go:build !linux

package agent

// becomeSubreaper is a no-op outside Linux: orphans go to init, which
// reaps them.
func becomeSubreaper() {}
