package install

import (
	"encoding/binary"
	"io"
	"os"
)

// StaticHint is how to replace the dynamically linked executables in dir
// with a static build (doctor's hint): built into the same directory, so
// the lookup rule finds the new ones where it found the old.
func StaticHint(dir string) string {
	return "rebuild without cgo into the same directory: CGO_ENABLED=0 go build -o " + shellQuote(dir+"/") + " ./cmd/... in the swarm-guard source (make install does this for ~/go/bin); then run swarm-guard doctor"
}

// DynamicallyLinked reports whether the executable at path is an ELF file
// with a program interpreter (PT_INTERP), that is, linked against the C
// library: `go install` links swarm-guard so wherever a C compiler is
// found (pflag imports net, mvdan.cc/sh imports os/user), and the dynamic
// loader then adds about half a millisecond, most of an empty Go program's
// whole start-up, to every hook call. ok is false when it cannot be told
// (unreadable, not ELF: a Mach-O executable always links libSystem).
func DynamicallyLinked(path string) (dynamic, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return false, false
	}
	defer f.Close()
	var ident [16]byte
	if _, err := io.ReadFull(f, ident[:]); err != nil || string(ident[:4]) != "\x7fELF" {
		return false, false
	}
	var order binary.ByteOrder
	switch ident[5] {
	case 1:
		order = binary.LittleEndian
	case 2:
		order = binary.BigEndian
	default:
		return false, false
	}
	// Where the program headers are, by class: offset, entry size, count.
	var phoff int64
	var phentsize, phnum int
	switch ident[4] {
	case 1: // ELFCLASS32
		var h [36]byte
		if _, err := io.ReadFull(f, h[:]); err != nil {
			return false, false
		}
		phoff, phentsize, phnum = int64(order.Uint32(h[12:])), int(order.Uint16(h[26:])), int(order.Uint16(h[28:]))
	case 2: // ELFCLASS64
		var h [48]byte
		if _, err := io.ReadFull(f, h[:]); err != nil {
			return false, false
		}
		phoff, phentsize, phnum = int64(order.Uint64(h[16:])), int(order.Uint16(h[38:])), int(order.Uint16(h[40:]))
	default:
		return false, false
	}
	if phentsize < 4 || phnum > 1<<12 {
		return false, false
	}
	p := make([]byte, phentsize*phnum)
	if _, err := f.ReadAt(p, phoff); err != nil {
		return false, false
	}
	const ptInterp = 3
	for i := 0; i < phnum; i++ {
		if order.Uint32(p[i*phentsize:]) == ptInterp {
			return true, true
		}
	}
	return false, true
}
