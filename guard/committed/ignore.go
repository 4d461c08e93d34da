package committed

import (
	"fmt"
	"strings"
)

// IgnoreFile is the file at the repository root that lists findings a
// team accepts, one fingerprint (FILE:RULE:HASH, as a finding prints it)
// per line; # starts a comment. Like .gitleaksignore, it is read from the
// commit being checked, and an agent cannot write it (add it to the
// policy's protected_paths).
const IgnoreFile = ".swarm-guard-ignore"

// Ignore is a parsed ignore file.
type Ignore map[string]bool

// ParseIgnore reads an ignore file; a line that is not a fingerprint is
// an error naming its line.
func ParseIgnore(text string) (Ignore, error) {
	ig := Ignore{}
	for i, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if c := strings.Index(l, "#"); c >= 0 {
			l = strings.TrimSpace(l[:c])
		}
		if l == "" {
			continue
		}
		parts := strings.Split(l, ":")
		if len(parts) < 3 || len(parts[len(parts)-1]) != 12 {
			return nil, fmt.Errorf("%s:%d: %q is not a fingerprint (FILE:RULE:HASH, as a finding prints it)", IgnoreFile, i+1, l)
		}
		ig[l] = true
	}
	return ig, nil
}

// Filter returns the findings ig does not accept.
func (ig Ignore) Filter(fs []Finding) []Finding {
	if len(ig) == 0 {
		return fs
	}
	out := fs[:0:0]
	for _, f := range fs {
		if !ig[f.Fingerprint] {
			out = append(out, f)
		}
	}
	return out
}
