// Package toolcontent works out what a Claude Code file tool is about to
// write: the whole resulting text of the file and which of its lines the
// call introduces.
//
// Write replaces the file with its content. Edit applies old_string →
// new_string (every occurrence with replace_all) to the file as it is on
// disk, MultiEdit applies its edits in order, and NotebookEdit writes
// new_source into one cell. A line is introduced when the file had no such
// line before, counted with multiplicity: a secret that already sits in an
// unchanged line was not written by this call, and the pre-commit hook and
// CI report it where it was added.
package toolcontent
