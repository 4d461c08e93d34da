package trailer

import "strings"

// Trailer is one "Key: value" line of a trailer block.
type Trailer struct {
	Key   string // as written, without surrounding whitespace
	Value string // continuation lines unfolded into single spaces
}

// Options adjust parsing to a repository's configuration and to where the
// message comes from. The zero value is git's default reading of a commit
// message in the history.
type Options struct {
	// CommentChar starts a comment line (git's core.commentChar); 0 means '#'.
	CommentChar byte
	// Separators are the characters that end a key (git's
	// trailer.separators); "" means ":".
	Separators string
	// Recognized are configured trailer names (git's trailer.<name>.key)
	// that count like "Signed-off-by" for the 25% rule.
	Recognized []string
	// Divider makes a line starting with "---" end the message, as in
	// `git interpret-trailers` without --no-divider. Off by default: git
	// log does not do it and neither should a hook.
	Divider bool
	// Uncleaned says the message is a file git will still clean up (the
	// COMMIT_EDITMSG a commit hook sees): blank and comment lines before
	// the subject are skipped, as git's cleanup removes them before the
	// commit is written. Without it, a leading blank line makes git treat
	// the first paragraph as the body, and "fix: x" as a trailer.
	Uncleaned bool
}

func (o Options) comment() byte {
	if o.CommentChar == 0 {
		return '#'
	}
	return o.CommentChar
}

func (o Options) separators() string {
	if o.Separators == "" {
		return ":"
	}
	return o.Separators
}

// Block is where a message's trailers are.
type Block struct {
	// Start and End are byte offsets of the trailer block in the message;
	// Start == End when there is none, and End is then where one would go:
	// before trailing blank and comment lines.
	Start, End int
	Trailers   []Trailer
}

// gitGenerated are the line prefixes git itself writes into trailer blocks.
var gitGenerated = []string{"Signed-off-by: ", "(cherry picked from commit "}

// cutLine is what follows "<comment char> " on git's scissors line.
const cutLine = "------------------------ >8 ------------------------"

// Parse finds the trailer block of msg.
func Parse(msg string, o Options) Block {
	v := makeView(msg, o)
	b := parse(v.text, o)
	b.Start, b.End = v.toRaw(b.Start), v.toRaw(b.End)
	return b
}

// view is the part of a message git's trailer code sees: git log starts
// after leading blank lines (pretty.c skips them before the subject), and
// for an uncleaned message file, comment lines, trailing whitespace and
// everything below the scissors line are gone, as git's cleanup will
// remove them before the commit is written.
type view struct {
	text string
	segs []segment // kept runs of the message, in order
}

// segment is a run of the message in the view: it starts at view offset
// at and message offset raw, is n bytes long in the view and ends at
// rawEnd in the message (later than raw+n when whitespace was trimmed).
type segment struct{ at, raw, n, rawEnd int }

func makeView(msg string, o Options) view {
	cc := o.comment()
	end := len(msg)
	if o.Uncleaned {
		end = locateEnd(msg, len(msg), cc)
	}
	i := 0
	for i < end && (isBlankLine(msg, i) || o.Uncleaned && msg[i] == cc) {
		i = nextLine(msg, i)
	}
	if i > end {
		i = end
	}
	if !o.Uncleaned {
		return view{text: msg[i:end], segs: []segment{{0, i, end - i, end}}}
	}
	var v view
	var b strings.Builder
	for i < end {
		j := nextLine(msg, i)
		if j > end {
			j = end
		}
		if msg[i] != cc {
			line := msg[i:j]
			nl := strings.HasSuffix(line, "\n")
			line = strings.TrimRight(line, " \t\n\r")
			if nl {
				line += "\n"
			}
			v.segs = append(v.segs, segment{b.Len(), i, len(line), j})
			b.WriteString(line)
		}
		i = j
	}
	if len(v.segs) == 0 {
		v.segs = []segment{{0, end, 0, end}}
	}
	v.text = b.String()
	return v
}

// toRaw maps a line boundary of the view to the message: the end of the
// kept line before it, so text inserted there lands ahead of dropped
// comment lines.
func (v view) toRaw(off int) int {
	if off == 0 {
		return v.segs[0].raw
	}
	for _, s := range v.segs {
		if off > s.at && off < s.at+s.n {
			return s.raw + off - s.at
		}
		if off == s.at+s.n {
			return s.rawEnd
		}
	}
	return v.segs[len(v.segs)-1].rawEnd
}

func parse(msg string, o Options) Block {
	cc := o.comment()
	patchStart := len(msg)
	if o.Divider {
		patchStart = findPatchStart(msg)
	}
	end := ignoreNonTrailer(msg, patchStart, cc)
	start := findTrailerStart(msg, end, o)
	b := Block{Start: start, End: end}
	seps := o.separators()
	// Fold continuation lines into the trailer above them, as
	// trailer_info_get does; a line without a separator ends folding.
	var lines []string
	folding := false
	for i := start; i < end; {
		j := nextLine(msg, i)
		if j > end {
			j = end
		}
		line := msg[i:j]
		i = j
		if folding && isSpace(line[0]) {
			lines[len(lines)-1] += line
			continue
		}
		lines = append(lines, line)
		folding = findSeparator(line, 0, seps) >= 1
	}
	for _, l := range lines {
		sep := findSeparator(l, 0, seps)
		if sep < 1 {
			continue
		}
		b.Trailers = append(b.Trailers, Trailer{Key: trimSpace(l[:sep]), Value: unfold(trimSpace(l[sep+1:]))})
	}
	return b
}

// subjectStart returns where the first line that is neither blank nor a
// comment starts, before the scissors line; false when there is none.
func subjectStart(msg string, cc byte) (int, bool) {
	cutoff := locateEnd(msg, len(msg), cc)
	for i := 0; i < cutoff; i = nextLine(msg, i) {
		if msg[i] != cc && !isBlankLine(msg, i) {
			return i, true
		}
	}
	return 0, false
}

// Values returns the values of the trailers whose key is key, compared
// case-insensitively: what `git log --format=%(trailers:key=KEY,valueonly,unfold)`
// prints for the message.
func Values(msg, key string, o Options) []string {
	var out []string
	for _, t := range Parse(msg, o).Trailers {
		if strings.EqualFold(t.Key, key) {
			out = append(out, t.Value)
		}
	}
	return out
}

// HasContent reports whether msg has a line that is neither blank nor a
// comment before the scissors line: whether git would commit it rather
// than abort for an empty message.
func HasContent(msg string, o Options) bool {
	_, ok := subjectStart(msg, o.comment())
	return ok
}

// Add appends the trailers in add whose key the message's trailer block
// does not have yet (compared case-insensitively; an existing value is
// never replaced), at the end of the block. Without a block it starts one
// after a blank line. A message without content is returned unchanged:
// git would take the trailer for the subject, and an empty message must
// stay empty so that git aborts the commit. Keys and values are written
// as given; callers validate them.
func Add(msg string, add []Trailer, o Options) string {
	if !HasContent(msg, o) {
		return msg
	}
	v := makeView(msg, o)
	b := parse(v.text, o)
	var missing []Trailer
	for _, t := range add {
		if !hasKey(b.Trailers, t.Key) && !hasKey(missing, t.Key) {
			missing = append(missing, t)
		}
	}
	if len(missing) == 0 {
		return msg
	}
	out := insert(msg, v, b.End, b.Start < b.End, missing)
	if !hasKey(Parse(out, o).Trailers, missing[0].Key) {
		// git's end of the message skips an old-style "Conflicts:" list
		// even when text follows it; a trailer put before that text is
		// not in the last paragraph. Start a block after everything.
		out = insert(msg, v, len(v.text), false, missing)
	}
	return out
}

// insert writes ts into msg at the view offset off, after a newline and,
// unless inBlock, a blank line.
func insert(msg string, v view, off int, inBlock bool, ts []Trailer) string {
	head := v.text[:off]
	at := v.toRaw(off)
	var sb strings.Builder
	sb.Grow(len(msg) + 64*len(ts))
	sb.WriteString(msg[:at])
	if !strings.HasSuffix(head, "\n") {
		// A message without a final newline, like git merge -m's: without
		// it the trailer would be glued to the last line.
		sb.WriteByte('\n')
		head += "\n"
	}
	if !inBlock && !endsWithBlankLine(head) {
		sb.WriteByte('\n')
	}
	for _, t := range ts {
		sb.WriteString(t.Key)
		sb.WriteString(": ")
		sb.WriteString(t.Value)
		sb.WriteByte('\n')
	}
	sb.WriteString(msg[at:])
	return sb.String()
}

func hasKey(ts []Trailer, key string) bool {
	for _, t := range ts {
		if strings.EqualFold(t.Key, key) {
			return true
		}
	}
	return false
}

// The functions below follow git's trailer.c and wt-status.c closely so
// that they can be compared line by line; msg[:n] plays the role of C's
// (buf, len).

// isSpace is git's isspace (sane_ctype): only these four bytes.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func trimSpace(s string) string {
	i, j := 0, len(s)
	for i < j && isSpace(s[i]) {
		i++
	}
	for j > i && isSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}

// unfold collapses each newline and the whitespace after it into a space.
func unfold(s string) string {
	if strings.IndexByte(s, '\n') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		i++
		if c != '\n' {
			b.WriteByte(c)
			continue
		}
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		b.WriteByte(' ')
	}
	return b.String()
}

// nextLine returns the start of the line after the one at i.
func nextLine(s string, i int) int {
	if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(s)
}

// lastLine returns the start of the last line of s[:n], -1 when n is 0. A
// final newline belongs to the last line.
func lastLine(s string, n int) int {
	if n == 0 {
		return -1
	}
	for i := n - 2; i >= 0; i-- {
		if s[i] == '\n' {
			return i + 1
		}
	}
	return 0
}

func isBlankLine(s string, i int) bool {
	for i < len(s) && s[i] != '\n' && isSpace(s[i]) {
		i++
	}
	return i == len(s) || s[i] == '\n'
}

func endsWithBlankLine(s string) bool {
	ll := lastLine(s, len(s))
	return ll >= 0 && isBlankLine(s, ll)
}

// findSeparator returns the offset of the separator ending the key of the
// line at i, or -1: a key is letters, digits and '-', optionally followed
// by spaces or tabs.
func findSeparator(s string, i int, seps string) int {
	whitespace := false
	for c := i; c < len(s); c++ {
		ch := s[c]
		if strings.IndexByte(seps, ch) >= 0 {
			return c - i
		}
		if !whitespace && (isAlnum(ch) || ch == '-') {
			continue
		}
		if c != i && (ch == ' ' || ch == '\t') {
			whitespace = true
			continue
		}
		break
	}
	return -1
}

// findPatchStart returns where a "---" divider line starts, or len(s).
func findPatchStart(s string) int {
	for i := 0; i < len(s); i = nextLine(s, i) {
		if strings.HasPrefix(s[i:], "---") && i+3 < len(s) && isSpace(s[i+3]) {
			return i
		}
	}
	return len(s)
}

// locateEnd returns where the scissors line cuts s[:n] (wt_status_locate_end).
func locateEnd(s string, n int, cc byte) int {
	pattern := "\n" + string(cc) + " " + cutLine
	if strings.HasPrefix(s, pattern[1:]) {
		return 0
	}
	if p := strings.Index(s, pattern); p >= 0 && p+1 < n {
		return p + 1
	}
	return n
}

// ignoreNonTrailer returns where the trailing run of comment lines, blank
// lines and an old-style "Conflicts:" block of s[:n] starts: the end of
// the part that can hold trailers (ignore_non_trailer). It keeps git's
// quirk that a run starting on the very first line is not remembered.
func ignoreNonTrailer(s string, n int, cc byte) int {
	boc := 0
	inConflicts := false
	cutoff := locateEnd(s, n, cc)
	for bol := 0; bol < cutoff; {
		next := n
		if j := strings.IndexByte(s[bol:n], '\n'); j >= 0 {
			next = bol + j + 1
		}
		switch {
		case s[bol] == cc || s[bol] == '\n':
			if boc == 0 {
				boc = bol
			}
		case strings.HasPrefix(s[bol:], "Conflicts:\n"):
			inConflicts = true
			if boc == 0 {
				boc = bol
			}
		case inConflicts && s[bol] == '\t':
		case boc != 0:
			boc = 0
			inConflicts = false
		}
		bol = next
	}
	if boc != 0 {
		return boc
	}
	return cutoff
}

// findTrailerStart returns where the trailer block of s[:n] starts, or n
// (find_trailer_start).
func findTrailerStart(s string, n int, o Options) int {
	cc := o.comment()
	seps := o.separators()
	// The first paragraph is the subject and cannot hold trailers.
	endOfTitle := 0
	for endOfTitle < n {
		if s[endOfTitle] != cc && isBlankLine(s, endOfTitle) {
			break
		}
		endOfTitle = nextLine(s, endOfTitle)
	}
	onlySpaces := true
	recognized := false
	trailerLines, nonTrailerLines, possibleContinuation := 0, 0, 0
	for l := lastLine(s, n); l >= endOfTitle; l = lastLine(s, l) {
		if s[l] == cc {
			nonTrailerLines += possibleContinuation
			possibleContinuation = 0
			continue
		}
		if isBlankLine(s, l) {
			if onlySpaces {
				continue
			}
			nonTrailerLines += possibleContinuation
			if recognized && trailerLines*3 >= nonTrailerLines {
				return nextLine(s, l)
			}
			if trailerLines > 0 && nonTrailerLines == 0 {
				return nextLine(s, l)
			}
			return n
		}
		onlySpaces = false
		if hasGitGeneratedPrefix(s[l:]) {
			trailerLines++
			possibleContinuation = 0
			recognized = true
			continue
		}
		sep := findSeparator(s, l, seps)
		switch {
		case sep >= 1 && !isSpace(s[l]):
			trailerLines++
			possibleContinuation = 0
			if !recognized {
				recognized = matchesConfigured(s[l:], sep, o.Recognized)
			}
		case isSpace(s[l]):
			possibleContinuation++
		default:
			nonTrailerLines += 1 + possibleContinuation
			possibleContinuation = 0
		}
	}
	return n
}

func hasGitGeneratedPrefix(line string) bool {
	for _, p := range gitGenerated {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

// matchesConfigured is git's token_matches_item: the first sep bytes of
// the line equal a configured name's prefix, ignoring case.
func matchesConfigured(line string, sep int, names []string) bool {
	for _, name := range names {
		if sep <= len(name) && strings.EqualFold(line[:sep], name[:sep]) {
			return true
		}
	}
	return false
}
