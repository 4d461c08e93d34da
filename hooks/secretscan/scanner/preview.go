package scanner

import (
	"strings"
	"unicode/utf8"

	"github.com/zricethezav/gitleaks/v8/report"

	"github.com/swarm-guard/swarm-guard/guard/redact"
)

// mask replaces the hidden part of a secret.
const mask = "****"

// maxPreview bounds a preview: enough context to find the line, not a
// whole minified file.
const maxPreview = 160

// location returns the 1-based column of the match and the text of the
// line it starts on. gitleaks' Finding.Line starts with the newline that
// ends the previous line for every line but the first of a fragment, and
// its columns count that newline; both are corrected here.
func location(f report.Finding) (col int, line string) {
	line, col = f.Line, f.StartColumn
	if strings.HasPrefix(line, "\n") {
		line, col = line[1:], col-1
	}
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	line = strings.TrimSuffix(line, "\r")
	if col < 1 || col > len(line)+1 {
		col = 0
	}
	return col, line
}

// preview is the finding's line with the secret masked, trimmed and cut
// to a readable length. It is built so that no complete secret survives:
// the match span is masked by position, every remaining occurrence of the
// secret and of the match is masked by value, and the cheap redactor of
// the audit log runs over the result.
func preview(f report.Finding) string {
	if strings.HasPrefix(f.Match, "file detected:") {
		return f.Match // a path-only rule: the file name is the finding
	}
	col, line := location(f)
	out := line
	if col > 0 {
		start := col - 1
		end := len(line)
		if f.StartLine == f.EndLine {
			end = min(len(line), start+spanLen(f, line[start:]))
		}
		span := line[start:end]
		// Mask the secret inside the match when it is there (keeping
		// "api_key = " readable), else the whole match: a decoded secret
		// appears only in encoded form in the line.
		if i := strings.Index(span, f.Secret); f.Secret != "" && i >= 0 {
			span = span[:i] + hide(f.Secret) + span[i+len(f.Secret):]
		} else {
			span = hide(span)
		}
		out = line[:start] + span + line[end:]
		if keep := start + len(span); keep < len(out) {
			out = clipAround(out, start, keep)
		} else {
			out = clipAround(out, start, len(out))
		}
	}
	for _, s := range []string{f.Secret, firstLineOf(f.Match)} {
		if len(s) >= 4 {
			out = strings.ReplaceAll(out, s, hide(s))
		}
	}
	out = redact.String(out)
	out = strings.ToValidUTF8(strings.TrimSpace(out), "?")
	return out
}

// spanLen is the length of the match within the line starting at rest.
func spanLen(f report.Finding, rest string) int {
	m := firstLineOf(f.Match)
	if strings.HasPrefix(rest, m) {
		return len(m)
	}
	if f.EndColumn >= f.StartColumn {
		return f.EndColumn - f.StartColumn + 1
	}
	return len(rest)
}

// hide masks a secret, keeping a prefix that names its kind without
// giving it away: a vendor prefix such as "ghp_", "xoxb-" or "AKIA", or
// the header of a private-key block.
func hide(s string) string {
	if strings.HasPrefix(s, "-----BEGIN") {
		// Keep "-----BEGIN RSA PRIVATE KEY" but not the closing dashes:
		// with them the audit log's redactor takes the rest of a message
		// for the key body and drops it.
		if i := strings.Index(s[5:], "-----"); i >= 0 {
			return s[:i+5] + mask
		}
	}
	keep := min(4, len(s)/5)
	if i := strings.IndexAny(s, "_-"); i > 0 && i < 12 && i+1 <= len(s)/3 {
		keep = i + 1
	}
	for keep > 0 && !utf8.RuneStart(s[keep]) {
		keep--
	}
	return s[:keep] + mask
}

// clipAround cuts s to maxPreview bytes, keeping [from, to) and context
// around it.
func clipAround(s string, from, to int) string {
	if len(s) <= maxPreview {
		return s
	}
	ctx := max(0, (maxPreview-(to-from))/2)
	lo, hi := max(0, from-ctx), min(len(s), to+ctx)
	for lo > 0 && !utf8.RuneStart(s[lo]) {
		lo--
	}
	for hi < len(s) && !utf8.RuneStart(s[hi]) {
		hi++
	}
	out := s[lo:hi]
	if lo > 0 {
		out = "…" + out
	}
	if hi < len(s) {
		out += "…"
	}
	return out
}

func firstLineOf(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
