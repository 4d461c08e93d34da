package gitrepo

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
)

// Head reads the commit HEAD points at from the git files, without
// running git: a detached HEAD's id, or its branch's from the loose ref or
// packed-refs. unborn reports a branch that has no commit yet. id is ""
// then, and when HEAD cannot be read (a reftable repository) or does not
// hold a commit id.
func (r *Repo) Head() (id string, unborn bool) {
	data, err := os.ReadFile(filepath.Join(r.GitDir, "HEAD"))
	if err != nil {
		return "", false
	}
	h := strings.TrimSpace(string(data))
	ref, symbolic := strings.CutPrefix(h, "ref:")
	if !symbolic {
		return commitID(h), false
	}
	ref = strings.TrimSpace(ref)
	if b, err := os.ReadFile(filepath.Join(r.CommonDir, filepath.FromSlash(ref))); err == nil {
		return commitID(strings.TrimSpace(string(b))), false
	}
	if packed, err := os.ReadFile(filepath.Join(r.CommonDir, "packed-refs")); err == nil {
		for _, line := range strings.Split(string(packed), "\n") {
			if oid, name, ok := strings.Cut(line, " "); ok && name == ref {
				return commitID(oid), false
			}
		}
	}
	if _, err := os.Stat(filepath.Join(r.CommonDir, "reftable")); err == nil {
		return "", false
	}
	return "", true
}

// commitID is s when it is a full SHA-1 or SHA-256 commit id, else "".
func commitID(s string) string {
	if len(s) != 40 && len(s) != 64 {
		return ""
	}
	if _, err := hex.DecodeString(s); err != nil {
		return ""
	}
	return s
}
