package posthook

import (
	"os"
	"syscall"
)

// execWithStdin replaces this process with path, argv, whose stdin holds
// data: through a pipe when data fits in its buffer, else through an
// unlinked temporary file. It returns only on failure.
func execWithStdin(path string, argv []string, data []byte) error {
	fd, err := stdinPipe(data)
	if err != nil {
		fd, err = stdinFile(data)
		if err != nil {
			return err
		}
	}
	if fd != 0 {
		if err := dup2(fd, 0); err != nil {
			return err
		}
		syscall.Close(fd)
	}
	return syscall.Exec(path, argv, os.Environ())
}

// stdinPipe is the read end of a pipe already holding data, its write end
// closed; an error when data does not fit in the pipe's buffer.
func stdinPipe(data []byte) (int, error) {
	var p [2]int
	if err := syscall.Pipe(p[:]); err != nil {
		return -1, err
	}
	syscall.CloseOnExec(p[1])
	if err := syscall.SetNonblock(p[1], true); err != nil {
		syscall.Close(p[0])
		syscall.Close(p[1])
		return -1, err
	}
	for off := 0; off < len(data); {
		n, err := syscall.Write(p[1], data[off:])
		if err != nil || n <= 0 {
			syscall.Close(p[0])
			syscall.Close(p[1])
			if err == nil {
				err = syscall.EAGAIN
			}
			return -1, err
		}
		off += n
	}
	syscall.Close(p[1])
	return p[0], nil
}

// stdinFile is a descriptor of an unlinked temporary file holding data,
// at offset 0.
func stdinFile(data []byte) (int, error) {
	dir, err := os.MkdirTemp("", "swarm-guard-post")
	if err != nil {
		return -1, err
	}
	defer os.RemoveAll(dir)
	f, err := os.OpenFile(dir+"/in", os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return -1, err
	}
	os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return -1, err
	}
	if _, err := f.Seek(0, 0); err != nil {
		f.Close()
		return -1, err
	}
	fd, err := syscall.Dup(int(f.Fd()))
	f.Close()
	return fd, err
}
