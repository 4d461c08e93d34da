package clients

import (
	"os"
	"path/filepath"
	"time"
)

// FileCarry is the Carry of the hook processes: one small file per
// carried warning in Dir, written by the before-tool hook and removed by
// the after-tool hook that reads it. A warning whose after-tool hook never
// ran (the call failed in a way the client reports elsewhere, the session
// ended) is swept after an hour, the next time a warning is written.
type FileCarry struct {
	Dir string
	Now func() time.Time
}

// carryTTL is how long a carried warning waits for its after-tool hook.
const carryTTL = time.Hour

// Put keeps note for key. Carrying is best effort: a warning that cannot
// be written is lost, and the call it warns of runs as warn mode says.
func (f FileCarry) Put(key, note string) {
	if err := os.MkdirAll(f.Dir, 0o700); err != nil {
		return
	}
	now := time.Now
	if f.Now != nil {
		now = f.Now
	}
	if entries, err := os.ReadDir(f.Dir); err == nil {
		for _, e := range entries {
			if info, err := e.Info(); err == nil && now().Sub(info.ModTime()) > carryTTL {
				os.Remove(filepath.Join(f.Dir, e.Name()))
			}
		}
	}
	tmp, err := os.CreateTemp(f.Dir, ".tmp-")
	if err != nil {
		return
	}
	_, werr := tmp.WriteString(note)
	if cerr := tmp.Close(); werr != nil || cerr != nil {
		os.Remove(tmp.Name())
		return
	}
	if os.Rename(tmp.Name(), filepath.Join(f.Dir, key)) != nil {
		os.Remove(tmp.Name())
	}
}

// Take returns the note kept for key and forgets it; "" when none.
func (f FileCarry) Take(key string) string {
	p := filepath.Join(f.Dir, key)
	data, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	os.Remove(p)
	return string(data)
}
