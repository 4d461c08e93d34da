package clients

import (
	"errors"
	"fmt"
	"strings"
)

// A Codex patch (apply_patch; Droid's ApplyPatch and opencode's patch
// take the same format):
//
//	*** Begin Patch
//	*** Add File: path
//	+line
//	*** Update File: path
//	*** Move to: new/path
//	@@ context
//	 context line
//	-removed line
//	+added line
//	*** Delete File: path
//	*** End Patch
//
// Each file it touches becomes one event the pipeline knows: an added
// file a Write of its lines, an update an Edit (the lines it removes and
// keeps as the old text, the lines it adds and keeps as the new), a move
// a Write at the new path and the removal of the old, a deletion rm.

type patchAction int

const (
	patchAdd patchAction = iota
	patchUpdate
	patchDelete
)

type patchOp struct {
	action  patchAction
	path    string
	moveTo  string
	oldText string
	newText string
}

// maxPatchFiles bounds the events one patch becomes.
const maxPatchFiles = 1000

// parsePatch reads a patch. A text without one file operation is an
// error: a patch the guard cannot read must not be applied unjudged.
func parsePatch(text string) ([]patchOp, error) {
	var ops []patchOp
	var cur *patchOp
	var oldL, newL []string
	flush := func() {
		if cur != nil {
			cur.oldText = strings.Join(oldL, "\n")
			cur.newText = strings.Join(newL, "\n")
			if cur.action == patchAdd && len(newL) > 0 {
				cur.newText += "\n"
			}
			ops = append(ops, *cur)
		}
		cur, oldL, newL = nil, nil, nil
	}
	start := func(action patchAction, path string) error {
		flush()
		path = strings.TrimSpace(path)
		if path == "" {
			return errors.New("a file operation names no file")
		}
		if len(ops) >= maxPatchFiles {
			return fmt.Errorf("it touches more than %d files", maxPatchFiles)
		}
		cur = &patchOp{action: action, path: path}
		return nil
	}
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		var err error
		switch {
		case strings.HasPrefix(line, "*** Begin Patch"), strings.HasPrefix(line, "*** End of File"):
		case strings.HasPrefix(line, "*** End Patch"):
			flush()
		case strings.HasPrefix(line, "*** Add File:"):
			err = start(patchAdd, strings.TrimPrefix(line, "*** Add File:"))
		case strings.HasPrefix(line, "*** Update File:"):
			err = start(patchUpdate, strings.TrimPrefix(line, "*** Update File:"))
		case strings.HasPrefix(line, "*** Delete File:"):
			err = start(patchDelete, strings.TrimPrefix(line, "*** Delete File:"))
		case strings.HasPrefix(line, "*** Move to:"):
			if cur == nil || cur.action != patchUpdate {
				return nil, errors.New("*** Move to: outside an Update File")
			}
			cur.moveTo = strings.TrimSpace(strings.TrimPrefix(line, "*** Move to:"))
		case cur == nil:
			// Text before the first file (a heredoc's first line, blank
			// lines): nothing to apply.
		case strings.HasPrefix(line, "@@"):
		case strings.HasPrefix(line, "+"):
			newL = append(newL, line[1:])
		case strings.HasPrefix(line, "-"):
			oldL = append(oldL, line[1:])
		case strings.HasPrefix(line, " "):
			oldL = append(oldL, line[1:])
			newL = append(newL, line[1:])
		}
		if err != nil {
			return nil, err
		}
	}
	flush()
	if len(ops) == 0 {
		return nil, errors.New("it holds no *** Add File, *** Update File or *** Delete File")
	}
	return ops, nil
}
