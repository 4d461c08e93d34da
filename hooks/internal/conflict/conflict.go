package conflict

import "strings"

// Rule is the rule id conflict-marker findings carry.
const Rule = "conflict-marker"

// Marker is one marker line.
type Marker struct {
	File string
	Line int
	Text string // the marker line, cut to a readable length
}

// Finder checks the added lines of any number of files. Lines of one file
// must arrive in order; files may interleave with those of other commits
// but not with each other within one commit.
type Finder struct {
	open    map[string]bool // file → between an opening and a closing marker
	markers []Marker
}

// NewFinder returns an empty finder.
func NewFinder() *Finder { return &Finder{open: map[string]bool{}} }

// Add checks one added line (without its line end).
func (f *Finder) Add(file string, line int, text string) {
	t := strings.TrimSuffix(text, "\r")
	switch {
	case isMarker(t, '<'):
		f.open[file] = true
	case isMarker(t, '>'):
		f.open[file] = false
	case f.open[file] && (t == "=======" || isMarker(t, '|')):
	default:
		return
	}
	if len(t) > 80 {
		t = t[:80] + "…"
	}
	f.markers = append(f.markers, Marker{File: file, Line: line, Text: t})
}

// Markers returns the markers found, in the order they were added.
func (f *Finder) Markers() []Marker { return f.markers }

// isMarker reports whether t is seven c's alone or followed by a space
// and a label, as git writes them ("<<<<<<< HEAD").
func isMarker(t string, c byte) bool {
	const n = 7
	if len(t) < n || strings.Count(t[:n], string(c)) != n {
		return false
	}
	return len(t) == n || t[n] == ' '
}
