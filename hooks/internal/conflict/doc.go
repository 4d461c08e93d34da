// Package conflict finds unresolved merge-conflict markers in the lines a
// commit adds. A "<<<<<<< " or ">>>>>>> " line is a marker wherever it is;
// "=======" alone on a line (and diff3's "||||||| ") only between an
// opening and a closing marker, because a row of equals signs also
// underlines Markdown and reStructuredText headings.
package conflict
