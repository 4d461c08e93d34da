package hookenv

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// maxRunnerFile bounds what the engine reads of a Makefile, package.json
// or script: real ones are a few kilobytes, and a hook must stay fast.
const maxRunnerFile = 512 << 10

// readFile is guard.Env.ReadFile: a regular file's contents, at most
// maxRunnerFile bytes. Anything else is an error (the engine then treats
// what the file would run as unknown).
func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	if fi.Size() > maxRunnerFile {
		return nil, fmt.Errorf("larger than %d bytes", maxRunnerFile)
	}
	return io.ReadAll(io.LimitReader(f, maxRunnerFile+1))
}
