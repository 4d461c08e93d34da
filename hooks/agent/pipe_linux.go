package agent

import (
	"os"
	"syscall"
)

// fSetPipeSz is F_SETPIPE_SZ from <linux/fcntl.h>.
const fSetPipeSz = 1031

// growPipe asks for a 1 MiB pipe buffer (the default is 64 KiB): an agent
// that prints a lot then wakes the supervisor once per megabyte rather
// than sixteen times. Failure (a lower /proc/sys/fs/pipe-max-size) only
// costs speed.
func growPipe(f *os.File) {
	if sc, err := f.SyscallConn(); err == nil {
		sc.Control(func(fd uintptr) {
			syscall.Syscall(syscall.SYS_FCNTL, fd, fSetPipeSz, readBuffer)
		})
	}
}
