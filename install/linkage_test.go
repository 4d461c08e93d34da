package install

import (
	"debug/elf"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
)

// elfFile writes a minimal ELF header with program headers of the given
// types, as class (32 or 64 bit) and byte order say.
func elfFile(t *testing.T, class elf.Class, order binary.ByteOrder, types ...elf.ProgType) string {
	t.Helper()
	b := make([]byte, 64+56*len(types))
	copy(b, "\x7fELF")
	b[4] = byte(class)
	b[5] = byte(elf.ELFDATA2LSB)
	if order == binary.BigEndian {
		b[5] = byte(elf.ELFDATA2MSB)
	}
	phoff, entsize := 64, 56
	if class == elf.ELFCLASS32 {
		phoff, entsize = 52, 32
		order.PutUint32(b[28:], uint32(phoff))
		order.PutUint16(b[42:], uint16(entsize))
		order.PutUint16(b[44:], uint16(len(types)))
	} else {
		order.PutUint64(b[32:], uint64(phoff))
		order.PutUint16(b[54:], uint16(entsize))
		order.PutUint16(b[56:], uint16(len(types)))
	}
	for i, typ := range types {
		order.PutUint32(b[phoff+i*entsize:], uint32(typ))
	}
	path := filepath.Join(t.TempDir(), "exe")
	if err := os.WriteFile(path, b, 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestDynamicallyLinked(t *testing.T) {
	for _, c := range []struct {
		name          string
		path          string
		dynamic, told bool
	}{
		{"static 64-bit", elfFile(t, elf.ELFCLASS64, binary.LittleEndian, elf.PT_PHDR, elf.PT_LOAD, elf.PT_NOTE), false, true},
		{"dynamic 64-bit", elfFile(t, elf.ELFCLASS64, binary.LittleEndian, elf.PT_PHDR, elf.PT_INTERP, elf.PT_LOAD, elf.PT_DYNAMIC), true, true},
		{"dynamic 32-bit big-endian", elfFile(t, elf.ELFCLASS32, binary.BigEndian, elf.PT_LOAD, elf.PT_INTERP), true, true},
		{"static 32-bit", elfFile(t, elf.ELFCLASS32, binary.LittleEndian, elf.PT_LOAD), false, true},
		{"missing", filepath.Join(t.TempDir(), "none"), false, false},
	} {
		if dynamic, told := DynamicallyLinked(c.path); dynamic != c.dynamic || told != c.told {
			t.Errorf("%s: DynamicallyLinked = %v, %v; want %v, %v", c.name, dynamic, told, c.dynamic, c.told)
		}
	}
	script := filepath.Join(t.TempDir(), "script")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	truncated := filepath.Join(t.TempDir(), "truncated")
	if err := os.WriteFile(truncated, []byte("\x7fELF\x02\x01\x01"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{script, truncated} {
		if dynamic, told := DynamicallyLinked(p); dynamic || told {
			t.Errorf("%s: DynamicallyLinked = %v, %v; want false, false", p, dynamic, told)
		}
	}
	// A real executable agrees with debug/elf.
	f, err := elf.Open("/bin/sh")
	if err != nil {
		t.Skipf("no ELF /bin/sh to compare with: %v", err)
	}
	defer f.Close()
	want := false
	for _, p := range f.Progs {
		want = want || p.Type == elf.PT_INTERP
	}
	if dynamic, told := DynamicallyLinked("/bin/sh"); dynamic != want || !told {
		t.Errorf("/bin/sh: DynamicallyLinked = %v, %v; debug/elf says dynamic %v", dynamic, told, want)
	}
}
