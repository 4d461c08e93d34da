package ci

// markerLen is the length of git's conflict markers (merge.conflictStyle
// and the conflict-marker-size attribute can change it; the default is
// what nearly every repository sees).
const markerLen = 7

// conflictMarker returns the marker character ('<', '=', '|' or '>') when
// text is a conflict-marker line as `git diff --check` defines it: seven
// identical marker characters followed by whitespace or the end of line.
func conflictMarker(text []byte) byte {
	if len(text) < markerLen {
		return 0
	}
	c := text[0]
	switch c {
	case '<', '=', '|', '>':
	default:
		return 0
	}
	for i := 1; i < markerLen; i++ {
		if text[i] != c {
			return 0
		}
	}
	if len(text) > markerLen {
		switch text[markerLen] {
		case ' ', '\t', '\r':
		default:
			return 0
		}
	}
	return c
}

// fileMarkers collects the conflict markers one commit adds to one file.
// "=======" alone is a reStructuredText or Markdown underline as often as
// a marker, so a file is reported only when it gains an opening or
// closing marker ("<<<<<<< " or ">>>>>>> "); then every marker line counts.
type fileMarkers struct {
	first int // line of the first marker, 0 when there is none
	count int
	sides bool // an opening or closing marker was added
}

func (m *fileMarkers) add(line int, text []byte) {
	c := conflictMarker(text)
	if c == 0 {
		return
	}
	if m.first == 0 || line < m.first {
		m.first = line
	}
	m.count++
	if c == '<' || c == '>' {
		m.sides = true
	}
}

func (m *fileMarkers) found() bool { return m.sides }
