package agent

import (
	"sync"
	"syscall"
)

// prSetChildSubreaper is PR_SET_CHILD_SUBREAPER from <linux/prctl.h>.
const prSetChildSubreaper = 36

var subreaperOnce sync.Once

// becomeSubreaper makes this process the parent of orphaned descendants,
// so the supervisor can tell when a process group is really gone and
// collects its zombies, even where PID 1 does not reap.
func becomeSubreaper() {
	subreaperOnce.Do(func() {
		// Failure only means orphans go to init as usual.
		syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
	})
}
