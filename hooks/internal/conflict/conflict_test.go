package conflict

import (
	"fmt"
	"strings"
	"testing"
)

// markers are built at run time so that this file has none of its own.
var (
	ours   = strings.Repeat("<", 7)
	theirs = strings.Repeat(">", 7)
	middle = strings.Repeat("=", 7)
	base   = strings.Repeat("|", 7)
)

func TestFinder(t *testing.T) {
	f := NewFinder()
	lines := []string{
		"Title",
		middle, // a heading underline: not between markers
		ours + " HEAD",
		"mine",
		base + " merged common ancestors",
		"theirs",
		middle + "\r",
		"yours",
		theirs + " feature",
		middle,
		ours + "< not a marker (eight)",
		"x " + ours,
	}
	for i, l := range lines {
		f.Add("a.md", i+1, l)
	}
	f.Add("b.txt", 4, theirs)
	var got []int
	for _, m := range f.Markers() {
		if m.File == "a.md" {
			got = append(got, m.Line)
		}
	}
	if want := []int{3, 5, 7, 9}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("markers on lines %v, want %v", got, want)
	}
	last := f.Markers()[len(f.Markers())-1]
	if last.File != "b.txt" || last.Line != 4 || last.Text != theirs {
		t.Fatalf("last marker %+v", last)
	}
}
