package citest

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/swarm-guard/swarm-guard/hooks/ci"
	"github.com/swarm-guard/swarm-guard/hooks/gitx"
	"github.com/swarm-guard/swarm-guard/policy"
)

// patterns are what PatternScanner finds: the shapes of the AWS key ids
// and GitHub tokens hooks/secretscan/fakesecret makes.
var patterns = []struct {
	rule string
	re   *regexp.Regexp
}{
	{"aws-access-token", regexp.MustCompile(`AKIA[A-Z2-7]{16}`)},
	{"github-pat", regexp.MustCompile(`ghp_[A-Za-z0-9]{36}`)},
}

// PatternScanner is a fake ci.SecretScanner: it reads every line the
// range's commits add (one git log pass, like the real scanner) and
// reports the fake secrets in them, redacted. It records the ranges it
// was asked to scan.
type PatternScanner struct {
	mu     sync.Mutex
	Ranges []ci.Range
	Err    error // returned instead of scanning, when set
}

// ScanRange implements ci.SecretScanner.
func (s *PatternScanner) ScanRange(ctx context.Context, dir string, r ci.Range) ([]ci.SecretFinding, error) {
	s.mu.Lock()
	s.Ranges = append(s.Ranges, r)
	s.mu.Unlock()
	if s.Err != nil {
		return nil, s.Err
	}
	out, err := gitx.Runner{Dir: dir}.OutputContext(ctx, "log", "-p", "-U0", "--no-color", "--format=%x00%H", r.Base+".."+r.Head, "--")
	if err != nil {
		return nil, fmt.Errorf("fake scanner: git log: %w", err)
	}
	var findings []ci.SecretFinding
	var commit, file string
	line := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		t := sc.Text()
		switch {
		case strings.HasPrefix(t, "\x00"):
			commit = t[1:]
		case strings.HasPrefix(t, "+++ "):
			file = strings.TrimPrefix(t[4:], "b/")
		case strings.HasPrefix(t, "@@ "):
			plus := strings.Fields(t)[2]
			start, _, _ := strings.Cut(strings.TrimPrefix(plus, "+"), ",")
			line, _ = strconv.Atoi(start)
		case strings.HasPrefix(t, "+"):
			for _, p := range patterns {
				if m := p.re.FindString(t); m != "" {
					findings = append(findings, ci.SecretFinding{File: file, Line: line, Rule: p.rule, Commit: commit,
						Preview: m[:4] + "****", Fingerprint: fmt.Sprintf("%s:%s:%s:%d", commit, file, p.rule, line)})
				}
			}
			line++
		}
	}
	return findings, nil
}

// Block is one run of added lines a PassPatternScanner was handed.
type Block struct {
	File, Commit string
	Line         int
	Text         string
}

// PassPatternScanner is a fake ci.PassScanner: it finds the same fake
// secrets as PatternScanner, but in the lines verify's own log pass emits,
// and records them.
type PassPatternScanner struct {
	PatternScanner
	Blocks []Block
	Policy *policy.Policy // the policy ScanPass was given
}

// ScanPass implements ci.PassScanner.
func (s *PassPatternScanner) ScanPass(ctx context.Context, dir string, pol *policy.Policy, pass func(ci.LineEmit) error) ([]ci.SecretFinding, error) {
	s.Policy = pol
	if s.Err != nil {
		return nil, s.Err
	}
	var findings []ci.SecretFinding
	err := pass(func(file, commit string, line int, text []byte) error {
		s.Blocks = append(s.Blocks, Block{File: file, Commit: commit, Line: line, Text: string(text)})
		for i, l := range strings.Split(string(text), "\n") {
			for _, p := range patterns {
				if m := p.re.FindString(l); m != "" {
					findings = append(findings, ci.SecretFinding{File: file, Line: line + i, Rule: p.rule, Commit: commit,
						Preview: m[:4] + "****", Fingerprint: fmt.Sprintf("%s:%s:%s:%d", commit, file, p.rule, line+i)})
				}
			}
		}
		return nil
	})
	return findings, err
}
