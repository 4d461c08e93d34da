package scanner

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// IgnoreFileName is the file of finding fingerprints to ignore, read from
// the root.
const IgnoreFileName = ".gitleaksignore"

// ignoreList holds .gitleaksignore fingerprints: file:rule:line, or
// commit:file:rule:line for a finding in one commit.
type ignoreList map[string]struct{}

// loadIgnore reads root/.gitleaksignore the way gitleaks does: one
// fingerprint per line, # comments, backslashes in paths read as slashes.
// A missing file is an empty list; an unreadable one is an error, because
// silently scanning without it would report findings the team accepted.
func loadIgnore(root string) (ignoreList, error) {
	list := ignoreList{}
	if root == "" {
		return list, nil
	}
	path := filepath.Join(root, IgnoreFileName)
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return list, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", IgnoreFileName, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	slashes := strings.NewReplacer(`\`, "/")
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, ":")
		switch len(parts) {
		case 3:
			parts[0] = slashes.Replace(parts[0])
		case 4:
			parts[1] = slashes.Replace(parts[1])
		}
		list[strings.Join(parts, ":")] = struct{}{}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", IgnoreFileName, err)
	}
	return list, nil
}

// fingerprint is gitleaks' fingerprint of a finding.
func fingerprint(commit, file, rule string, line int) string {
	if commit != "" {
		return fmt.Sprintf("%s:%s:%s:%d", commit, file, rule, line)
	}
	return fmt.Sprintf("%s:%s:%d", file, rule, line)
}

// ignored reports whether a finding is listed, by its global or its commit
// fingerprint, as gitleaks' AddFinding checks.
func (l ignoreList) ignored(commit, file, rule string, line int) bool {
	if _, ok := l[fingerprint("", file, rule, line)]; ok {
		return true
	}
	if commit != "" {
		_, ok := l[fingerprint(commit, file, rule, line)]
		return ok
	}
	return false
}
