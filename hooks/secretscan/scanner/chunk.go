package scanner

import "strings"

// chunkBytes is the largest target size of one gitleaks fragment. Detect
// costs more than linear time in the size of a fragment (a newly staged
// 1 MB file is one diff hunk: 0.9 s as one fragment, 0.3 s in 100 KB
// pieces), so big blocks are cut.
const chunkBytes = 32 << 10

// minChunkBytes is the smallest piece worth a goroutine of its own, in a
// request too big to be scanned inline (inlineBytes, scan.go).
const minChunkBytes = 4 << 10

// chunkSize is the piece size for a block of n bytes on workers cores.
func chunkSize(n, workers int) int {
	return min(chunkBytes, max(minChunkBytes, n/max(workers, 1)+1))
}

// maxChunkGrowth bounds how far a chunk may grow past chunkBytes to keep a
// private-key block whole.
const maxChunkGrowth = 64 << 10

// piece is one fragment to scan.
type piece struct {
	text string
	line int // 1-based line number of the first line of text
}

// chunk cuts text into pieces of about size bytes. Cuts fall at line
// ends, preferably at a blank line, and never inside a "-----BEGIN" …
// "-----END" block, so multi-line secrets stay in one piece. Single-line
// matches cannot be cut because lines are never split; a single line
// longer than a chunk becomes a piece of its own.
func chunk(text string, firstLine, size int) []piece {
	if len(text) <= size {
		return []piece{{text: text, line: firstLine}}
	}
	var out []piece
	line := firstLine
	for len(text) > 0 {
		n := cutPoint(text, size)
		p := text[:n]
		out = append(out, piece{text: p, line: line})
		line += strings.Count(p, "\n")
		text = text[n:]
	}
	return out
}

// cutPoint returns the length of the next piece of text.
func cutPoint(text string, size int) int {
	if len(text) <= size {
		return len(text)
	}
	window := text[:size]
	cut := -1
	// Prefer the last blank line in the second half of the window.
	if i := strings.LastIndex(window, "\n\n"); i >= size/2 {
		cut = i + 2
	} else if i := strings.LastIndexByte(window, '\n'); i >= 0 {
		cut = i + 1
	} else if i := strings.IndexByte(text, '\n'); i >= 0 {
		return i + 1 // one long line
	} else {
		return len(text)
	}
	// Do not cut an open private-key block: move the cut past its end.
	head := text[:cut]
	if b := strings.LastIndex(head, "-----BEGIN"); b >= 0 && !strings.Contains(head[b:], "-----END") {
		limit := min(len(text), cut+maxChunkGrowth)
		if e := strings.Index(text[cut:limit], "-----END"); e >= 0 {
			end := cut + e
			if nl := strings.IndexByte(text[end:], '\n'); nl >= 0 {
				return end + nl + 1
			}
			return len(text)
		}
	}
	return cut
}
