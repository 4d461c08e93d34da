// Package trailer finds and adds commit-message trailers ("Agent-Id: x")
// the way git does, without running git.
//
// Parse follows git's trailer.c (git 2.39): the trailer block is the last
// paragraph of the message, after the subject paragraph and a blank line;
// it must consist only of trailers, or hold at least 25% trailers and one
// git-generated or configured trailer ("Signed-off-by: "); values may be
// folded onto continuation lines that start with whitespace; keys match
// case-insensitively; comment lines (core.commentChar, '#' by default),
// the "# --- >8 ---" scissors line and everything below it, and trailing
// blank and comment lines are not part of the message's trailers. By
// default a "---" line is not a patch divider: that is what git log's
// %(trailers) does and what `git interpret-trailers --no-divider` does, so
// the hooks and every reader of the history agree.
//
// Add inserts trailers whose key the block lacks at the end of the block,
// starting a new block after a blank line when there is none, and fixes
// the one case where `git interpret-trailers` produces a non-trailer: a
// message without a final newline (the message of `git merge -m`). Add
// never replaces or reorders what is there, and Add(Add(m)) == Add(m).
//
// The package does no I/O; TestMatchesGit checks it against git itself.
package trailer
