package budget

import "bytes"

// FileTally counts the tokens of one transcript file (a session's main
// transcript or one of its subagent files) as it grows. It is kept in the
// hook's state between calls, so it holds only what the next call needs:
// where to continue reading and how to deduplicate across the boundary.
type FileTally struct {
	Offset int64  `json:"offset"`            // bytes of the file already accounted
	LastID string `json:"last_id,omitempty"` // message id of the last assistant line
	Last   Usage  `json:"last"`              // usage already counted for LastID
	Usage  Usage  `json:"usage"`             // deduplicated usage so far
	Turns  int64  `json:"turns"`             // distinct assistant message ids so far
}

// assistantMark is in every assistant line; lines without it (tool
// results, prompts, hook progress) are skipped without being scanned.
var assistantMark = []byte(`"assistant"`)

// Line accounts one complete transcript line. Transcript lines of one API
// response are written one after the other, so remembering the last
// message id is enough to deduplicate, even across reads.
func (t *FileTally) Line(line []byte) {
	if !bytes.Contains(line, assistantMark) {
		return
	}
	i := skipSpace(line, 0)
	if i >= len(line) || line[i] != '{' {
		return
	}
	var f topFields
	if !f.scan(line, i) || string(f.typ) != "assistant" || f.message == 0 || f.apiError {
		return
	}
	m, ok := scanMessage(line, f.message, false, nil)
	if !ok || !m.hasUsage || string(m.model) == "<synthetic>" {
		return
	}
	if len(m.id) > 0 && string(m.id) == t.LastID {
		counted := t.Last.Max(m.usage)
		t.Usage = t.Usage.Add(counted.Sub(t.Last))
		t.Last = counted
		return
	}
	t.LastID, t.Last = string(m.id), m.usage
	t.Usage = t.Usage.Add(m.usage)
	t.Turns++
}
