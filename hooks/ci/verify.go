package ci

import (
	"context"
	"fmt"
	"github.com/bmatcuk/doublestar/v4"
	"sort"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/redact"
	"github.com/swarm-guard/swarm-guard/hooks/identity"
	"github.com/swarm-guard/swarm-guard/policy"
)

// Kind names what a violation is about; it is also the SARIF rule id.
type Kind string

const (
	KindTrailer   Kind = "agent-trailer"     // a commit lacks exactly one well-formed agent trailer
	KindSecret    Kind = "secret"            // the range adds a secret
	KindScope     Kind = "out-of-scope"      // the range changes a file outside the task's scope
	KindConflict  Kind = "conflict-marker"   // a commit adds unresolved conflict markers
	KindMinAgents Kind = "min-agents"        // too few distinct agents across the range
	KindHuman     Kind = "human-commit"      // a human's commit where [verify] human_commits = "deny"
	KindRecord    Kind = "recorded-identity" // the trailer names another than the hooks recorded making the commit
	KindCommand   Kind = "committed-command" // the range adds a command for others to run that a rule reports (guard/committed)
)

// Violation is one thing that makes verify fail. Secret previews are
// redacted; nothing in a Violation is a secret.
type Violation struct {
	Kind        Kind   `json:"kind"`
	Commit      string `json:"commit,omitempty"`
	Subject     string `json:"subject,omitempty"`
	File        string `json:"file,omitempty"`
	Line        int    `json:"line,omitempty"`
	Rule        string `json:"rule,omitempty"`        // secrets: the scanner's rule id
	Preview     string `json:"preview,omitempty"`     // secrets: the redacted match
	Fingerprint string `json:"fingerprint,omitempty"` // secrets: for .gitleaksignore
	Message     string `json:"message"`

	action policy.Action // committed-command: the rule's action under the policy
}

// Report is the outcome of Verify.
type Report struct {
	Range         Range  `json:"range"`
	Policy        string `json:"policy"`
	AgentKey      string `json:"agent_key"`
	Commits       int    `json:"commits"`
	ExemptMerges  int    `json:"exempt_merges"`
	ExemptAuthors int    `json:"exempt_authors"`
	// ExemptBeforeInstall counts commits in the history of the policy's
	// [trailers] since: they predate swarm-guard and need no trailer.
	ExemptBeforeInstall int `json:"exempt_before_install"`
	// HumanKey is the human marker's key ([trailers] human_key);
	// HumanCommits counts the range's commits it marks as a human's, and
	// HumanPolicy is what [verify] human_commits does with them.
	HumanKey     string      `json:"human_key"`
	HumanCommits int         `json:"human_commits"`
	HumanPolicy  string      `json:"human_commits_policy"`
	Agents       []string    `json:"agents"` // distinct well-formed agent ids, sorted
	MinAgents    int         `json:"min_agents"`
	SecretsScan  bool        `json:"secrets_scanned"`
	ConflictScan bool        `json:"conflict_markers_checked"`
	Violations   []Violation `json:"violations"`
	Notes        []string    `json:"notes"`
}

// Passed reports whether the range has no violations.
func (r *Report) Passed() bool { return len(r.Violations) == 0 }

// Options configure one verification.
type Options struct {
	Dir   string // a directory inside the worktree
	Range string // "BASE..HEAD"; "" means the merge base with the default branch up to HEAD
	// Policy overrides the policy file at the range's base (nil: use it,
	// or the default policy when the base has none).
	Policy *policy.Policy
	// MinAgents overrides [verify] min_agents when it is 0 or more.
	MinAgents int
	// Scope overrides [verify] scope when not nil: globs of the paths the
	// range may change.
	Scope []string
	// Scanner scans the range for secrets; nil skips the secret check and
	// says so in the report.
	Scanner SecretScanner
	// ValidAgentID decides whether a trailer value is a well-formed agent
	// id; nil means identity.Valid, the rule the git hooks write ids by.
	ValidAgentID func(string) bool
	// Branch is the branch the range is on (the pull request's head), for
	// [verify] agent_branches; "" when unknown.
	Branch string
	// Recorded says who the git hooks of this clone saw make a commit:
	// "agent:<id>" or "human" values, ok false when there is no record
	// (a commit made elsewhere, or in CI). nil: no records.
	Recorded func(commit string) ([]string, bool)
	// SkipCommands skips judging the commands the range adds to files
	// others run (workflows, Dockerfiles, Makefiles, scripts).
	SkipCommands bool
}

// Verify checks the commits of a range. An error means verify could not
// tell (not a repository, shallow clone, bad range, broken policy, the
// scanner failed): it is neither a pass nor a failure.
func Verify(ctx context.Context, o Options) (*Report, error) {
	g := git{dir: o.Dir}
	if err := checkFullHistory(ctx, g); err != nil {
		return nil, err
	}
	r, err := resolveRange(ctx, g, o.Range)
	if err != nil {
		return nil, err
	}
	rep := &Report{Range: r, Agents: []string{}, Violations: []Violation{}, Notes: []string{}}
	pol, err := choosePolicy(ctx, g, r, o.Policy, rep)
	if err != nil {
		return nil, err
	}
	rep.Policy = pol.Source
	rep.AgentKey = pol.Trailers.AgentKey
	rep.HumanKey, rep.HumanPolicy = pol.Trailers.HumanKey, pol.Verify.HumanCommits
	rep.MinAgents = pol.Verify.MinAgents
	if o.MinAgents >= 0 {
		rep.MinAgents = o.MinAgents
	}
	rep.ConflictScan = pol.Secrets.ConflictMarkers
	rep.SecretsScan = o.Scanner != nil
	valid := o.ValidAgentID
	if valid == nil {
		valid = identity.Valid
	}

	before, err := predating(ctx, g, r, pol.Trailers.Since)
	if err != nil {
		return nil, err
	}
	w := &walker{
		predates: before,
		rep:      rep, valid: valid, agentKey: pol.Trailers.AgentKey, humanKey: pol.Trailers.HumanKey,
		denyHumans: pol.Verify.HumanCommits == policy.HumanCommitsDeny, conflicts: rep.ConflictScan,
		agentBranch:  agentBranch(pol.Verify.AgentBranches, o.Branch),
		exemptMerges: pol.Verify.ExemptMerges, exemptAuthors: pol.Verify.ExemptAuthors,
		agents: map[string]bool{}, order: map[string]int{}, subjects: map[string]string{},
		recorded: o.Recorded,
	}
	var findings []SecretFinding
	if ps, ok := o.Scanner.(PassScanner); ok {
		// One log pass feeds the trailer and marker checks and the scanner.
		var passErr error
		findings, err = ps.ScanPass(ctx, o.Dir, pol, func(emit LineEmit) error {
			w.emit = emit
			passErr = walkHistory(ctx, g, r, trailerKeys{pol.Trailers.AgentKey, pol.Trailers.HumanKey}, true, w)
			if passErr != nil {
				return passErr
			}
			w.endFile()
			return w.flushBlock()
		})
		if passErr != nil {
			return nil, passErr
		}
		if err != nil {
			return nil, err
		}
	} else {
		scanCtx, cancelScan := context.WithCancel(ctx)
		defer cancelScan()
		scanResult := startScan(scanCtx, o.Scanner, o.Dir, r)
		if err := walkHistory(ctx, g, r, trailerKeys{pol.Trailers.AgentKey, pol.Trailers.HumanKey}, rep.ConflictScan, w); err != nil {
			return nil, err
		}
		w.endFile()
		if findings, err = scanResult(); err != nil {
			return nil, err
		}
	}
	rep.Commits = len(w.order)
	scope := pol.Verify.Scope
	if o.Scope != nil {
		scope = o.Scope
	}
	if len(scope) > 0 && rep.Commits > 0 {
		vs, err := outOfScope(ctx, g, r, scope)
		if err != nil {
			return nil, err
		}
		rep.Violations = append(rep.Violations, vs...)
	}
	for _, f := range findings {
		rep.Violations = append(rep.Violations, w.secretViolation(f))
	}
	if !o.SkipCommands && rep.Commits > 0 {
		vs, err := commandViolations(ctx, o.Dir, r, pol)
		if err != nil {
			return nil, err
		}
		rep.Violations = append(rep.Violations, vs...)
	}

	for id := range w.agents {
		rep.Agents = append(rep.Agents, id)
	}
	sort.Strings(rep.Agents)
	if rep.MinAgents > 0 && rep.Commits > 0 && len(rep.Agents) < rep.MinAgents {
		who := "none"
		if len(rep.Agents) > 0 {
			who = strings.Join(rep.Agents, ", ")
		}
		rep.Violations = append(rep.Violations, Violation{Kind: KindMinAgents,
			Message: fmt.Sprintf("%d distinct agent%s in the range (%s); at least %d are required", len(rep.Agents), plural(len(rep.Agents)), who, rep.MinAgents)})
	}
	w.sortViolations()
	shadowViolations(rep, pol)

	if rep.Commits == 0 {
		rep.note("the range %s has no commits; nothing to verify", r.Spec)
	}
	if !rep.SecretsScan {
		rep.note("secrets were not scanned")
	}
	if !rep.ConflictScan {
		rep.note("conflict markers were not checked ([secrets] conflict_markers = false)")
	}
	return rep, nil
}

// choosePolicy is the override when there is one, else the policy file
// of the range's base; a range that changes the file gets a note.
func choosePolicy(ctx context.Context, g git, r Range, override *policy.Policy, rep *Report) (*policy.Policy, error) {
	if override != nil {
		return override, nil
	}
	pol, changed, err := policyAtBase(ctx, g, r)
	if err != nil {
		return nil, err
	}
	if changed {
		rep.note("this range changes %s; verify applies the base's version, the new one applies once it is merged", policy.FileName)
	}
	return pol, nil
}

// startScan runs the secret scan in the background, while this process
// reads the log: the scan is a separate process over the same history.
// The returned function waits for it; with no scanner it returns nothing.
func startScan(ctx context.Context, s SecretScanner, dir string, r Range) func() ([]SecretFinding, error) {
	if s == nil {
		return func() ([]SecretFinding, error) { return nil, nil }
	}
	type result struct {
		findings []SecretFinding
		err      error
	}
	done := make(chan result, 1)
	go func() {
		f, err := s.ScanRange(ctx, dir, r)
		done <- result{f, err}
	}()
	return func() ([]SecretFinding, error) {
		res := <-done
		return res.findings, res.err
	}
}

func (r *Report) note(format string, args ...any) {
	r.Notes = append(r.Notes, fmt.Sprintf(format, args...))
}

// walker checks each commit as the log pass streams it.
type walker struct {
	rep           *Report
	valid         func(string) bool
	agentKey      string
	humanKey      string
	denyHumans    bool   // [verify] human_commits = "deny"
	agentBranch   string // the range's branch when [verify] agent_branches matches it
	exemptMerges  bool
	exemptAuthors []string
	predates      map[string]bool // commits in the history of [trailers] since
	recorded      func(string) ([]string, bool)
	agents        map[string]bool
	order         map[string]int // commit id → position in the range, oldest first
	subjects      map[string]string

	cur       *commit
	path      string
	conflicts bool // check conflict markers ([secrets] conflict_markers)
	markers   fileMarkers

	// With a PassScanner: the run of consecutive added lines being
	// collected for the scanner.
	emit      LineEmit
	emitErr   error
	block     []byte
	blockLine int // first line of block; 0 when empty
	nextLine  int // the line that would extend block
}

func (w *walker) commit(c *commit) {
	w.endFile()
	w.keep(w.flushBlock())
	w.cur, w.path = c, ""
	w.order[c.Hash] = len(w.order)
	w.subjects[c.Hash] = c.Subject
	for _, v := range c.AgentTrailers {
		if w.valid(v) {
			w.agents[v] = true
		}
	}
	if msg := w.recordMismatch(c); msg != "" {
		w.rep.Violations = append(w.rep.Violations, Violation{Kind: KindRecord, Commit: c.Hash, Subject: c.Subject, Message: msg})
	}
	switch {
	case c.isMerge() && w.exemptMerges:
		w.rep.ExemptMerges++
	case matchAuthor(w.exemptAuthors, c.AuthorEmail):
		w.rep.ExemptAuthors++
	case w.predates[c.Hash]:
		w.rep.ExemptBeforeInstall++
	case len(c.HumanTrailers) > 0:
		// The hooks marked it as made outside any agent session.
		if msg := humanProblem(c, w.agentKey, w.humanKey); msg != "" {
			w.rep.Violations = append(w.rep.Violations, Violation{Kind: KindTrailer, Commit: c.Hash, Subject: c.Subject, Message: msg})
			break
		}
		w.rep.HumanCommits++
		switch {
		case w.denyHumans:
			w.rep.Violations = append(w.rep.Violations, Violation{Kind: KindHuman, Commit: c.Hash, Subject: c.Subject,
				Message: fmt.Sprintf("a human's commit (%s: %s), and [verify] human_commits = \"deny\" admits only agents' commits", w.humanKey, policy.HumanValue)})
		case w.agentBranch != "":
			w.rep.Violations = append(w.rep.Violations, Violation{Kind: KindHuman, Commit: c.Hash, Subject: c.Subject,
				Message: fmt.Sprintf("a human's commit (%s: %s) on %s, an agent branch ([verify] agent_branches) that holds agents' commits alone", w.humanKey, policy.HumanValue, w.agentBranch)})
		}
	default:
		if msg := trailerProblem(c.AgentTrailers, w.agentKey, w.valid); msg != "" {
			w.rep.Violations = append(w.rep.Violations, Violation{Kind: KindTrailer, Commit: c.Hash, Subject: c.Subject, Message: msg})
		}
	}
}

// recordMismatch compares a commit's claimed identity (its one agent
// trailer, or the human marker) with what this clone's hooks recorded
// when it was made: an agent recorded making it that the trailer does not
// name is a forged trailer that got past the message hooks. Commits a
// human made are not second-guessed, as the hooks do not.
func (w *walker) recordMismatch(c *commit) string {
	if w.recorded == nil {
		return ""
	}
	who, ok := w.recorded(c.Hash)
	if !ok {
		return ""
	}
	return RecordMismatch(who, c.AgentTrailers, c.HumanTrailers, w.agentKey, w.humanKey)
}

// RecordMismatch says how a commit's trailers disagree with who the hooks
// recorded making it (record values "agent:<id>" or "human"), or "".
// pre-push asks it too, before the commits leave the clone.
func RecordMismatch(who, agentTrailers, humanTrailers []string, agentKey, humanKey string) string {
	if len(who) == 0 {
		return ""
	}
	var agents []string
	for _, v := range who {
		id, isAgent := strings.CutPrefix(v, "agent:")
		if !isAgent {
			return "" // a human made it (or made one on the same commit)
		}
		agents = append(agents, id)
	}
	claim := ""
	switch {
	case len(humanTrailers) > 0 && len(agentTrailers) == 0:
		claim = humanKey + ": " + policy.HumanValue
	case len(agentTrailers) == 1 && len(humanTrailers) == 0:
		for _, id := range agents {
			if id == agentTrailers[0] {
				return ""
			}
		}
		claim = agentKey + ": " + quoteValue(agentTrailers[0])
	default:
		return "" // the trailer check reports it
	}
	return fmt.Sprintf("carries %s, but this clone's git hooks recorded agent %s making it", claim, strings.Join(agents, " or "))
}

// agentBranch returns branch when an agent_branches glob matches it.
func agentBranch(globs []string, branch string) string {
	branch = strings.TrimPrefix(branch, "refs/heads/")
	if branch == "" {
		return ""
	}
	for _, g := range globs {
		if ok, _ := doublestar.Match(g, branch); ok {
			return branch
		}
	}
	return ""
}

// humanProblem says what is wrong with a commit that carries the human
// marker: it must be exactly one "<key>: human" and no agent trailer.
func humanProblem(c *commit, agentKey, humanKey string) string {
	switch {
	case len(c.AgentTrailers) > 0:
		return fmt.Sprintf("both an %s and a %s trailer; a commit is either an agent's or a human's", agentKey, humanKey)
	case len(c.HumanTrailers) > 1:
		return fmt.Sprintf("%d %s trailers; exactly one is allowed", len(c.HumanTrailers), humanKey)
	case c.HumanTrailers[0] != policy.HumanValue:
		return fmt.Sprintf("%s %s, where the only value is %q", humanKey, quoteValue(c.HumanTrailers[0]), policy.HumanValue)
	}
	return ""
}

func (w *walker) file(path string) {
	w.endFile()
	w.keep(w.flushBlock())
	w.path = path
}

func (w *walker) added(line int, text []byte) {
	if w.conflicts {
		w.markers.add(line, text)
	}
	if w.emit == nil || w.path == "" {
		return
	}
	if w.blockLine > 0 && line != w.nextLine {
		w.keep(w.flushBlock())
	}
	if w.blockLine == 0 {
		w.blockLine = line
	} else {
		w.block = append(w.block, '\n')
	}
	w.block = append(w.block, text...)
	w.nextLine = line + 1
}

// flushBlock hands the collected run of added lines to the scanner.
func (w *walker) flushBlock() error {
	if w.blockLine == 0 || w.emit == nil {
		return w.emitErr
	}
	err := w.emit(w.path, w.cur.Hash, w.blockLine, w.block)
	w.block, w.blockLine = nil, 0 // a fresh buffer: the block may still hold the old one
	w.keep(err)
	return w.emitErr
}

// keep remembers the first error the scanner gave; the visitor methods
// cannot return it, so the pass ends with it instead.
func (w *walker) keep(err error) {
	if err != nil && w.emitErr == nil {
		w.emitErr = err
	}
}

// endFile reports the conflict markers the current commit added to the
// current file, if any.
func (w *walker) endFile() {
	if w.cur != nil && w.markers.found() {
		w.rep.Violations = append(w.rep.Violations, Violation{
			Kind: KindConflict, Commit: w.cur.Hash, Subject: w.cur.Subject, File: w.path, Line: w.markers.first,
			Message: fmt.Sprintf("adds %d unresolved conflict-marker line%s", w.markers.count, plural(w.markers.count)),
		})
	}
	w.markers = fileMarkers{}
}

// secretViolation turns a scanner finding into a violation. The preview
// is redacted again: it is printed to CI logs, and a second, cheap pass
// costs nothing if the scanner already did its job.
func (w *walker) secretViolation(f SecretFinding) Violation {
	f.Commit = w.fullID(f.Commit)
	preview := redact.String(f.Preview)
	if preview == "" {
		preview = redact.Mask
	}
	return Violation{
		Kind: KindSecret, Commit: f.Commit, Subject: w.subjects[f.Commit], File: f.File, Line: f.Line,
		Rule: f.Rule, Preview: preview, Fingerprint: f.Fingerprint,
		Message: fmt.Sprintf("adds a secret (%s): %s", f.Rule, preview),
	}
}

// fullID expands an abbreviated commit id of the range; scanners may
// print short ids.
func (w *walker) fullID(id string) string {
	if _, ok := w.order[id]; ok || len(id) < 4 {
		return id
	}
	for full := range w.order {
		if strings.HasPrefix(full, id) {
			return full
		}
	}
	return id
}

// sortViolations orders violations as the range reads: by commit, oldest
// first, then file and line; range-wide ones last.
func (w *walker) sortViolations() {
	pos := func(v Violation) int {
		if v.Commit == "" {
			return len(w.order) + 1
		}
		if p, ok := w.order[v.Commit]; ok {
			return p
		}
		return len(w.order)
	}
	sort.SliceStable(w.rep.Violations, func(i, j int) bool {
		a, b := w.rep.Violations[i], w.rep.Violations[j]
		if pa, pb := pos(a), pos(b); pa != pb {
			return pa < pb
		}
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
}

// trailerProblem says what is wrong with a commit's agent trailers, or ""
// when there is exactly one and it is well-formed.
func trailerProblem(values []string, key string, valid func(string) bool) string {
	switch len(values) {
	case 0:
		return fmt.Sprintf("no %s trailer", key)
	case 1:
		if values[0] == "" {
			return fmt.Sprintf("the %s trailer is empty", key)
		}
		if !valid(values[0]) {
			return fmt.Sprintf("malformed %s trailer %s (an agent id is 1-128 letters, digits and . _ @ + / -, starting with a letter or digit)", key, quoteValue(values[0]))
		}
		return ""
	}
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = quoteValue(v)
	}
	return fmt.Sprintf("%d %s trailers (%s); exactly one is allowed", len(values), key, strings.Join(quoted, ", "))
}

// quoteValue shows a trailer value: redacted (an agent could paste a token
// anywhere) and cut, since it ends up in CI logs and annotations.
func quoteValue(v string) string {
	v = redact.String(v)
	if len(v) > 64 {
		v = v[:64] + "…"
	}
	return fmt.Sprintf("%q", v)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// predating lists the commits of the range that are in the history of
// since (the commit swarm-guard was installed on): they need no trailer.
// A since the repository does not have exempts nothing.
func predating(ctx context.Context, g git, r Range, since string) (map[string]bool, error) {
	if since == "" {
		return nil, nil
	}
	if _, err := g.output(ctx, "cat-file", "-e", since+"^{commit}"); err != nil {
		return nil, nil
	}
	out, err := g.output(ctx, "rev-list", since, "--not", r.Base, "--")
	if err != nil {
		// A base that is not a commit (a range from the empty tree).
		if out, err = g.output(ctx, "rev-list", since, "--"); err != nil {
			return nil, err
		}
	}
	m := map[string]bool{}
	for _, id := range strings.Fields(out) {
		m[id] = true
	}
	return m, nil
}

// outOfScope lists the files the range changes (added, modified, deleted
// or renamed, old and new names) that no scope glob matches.
func outOfScope(ctx context.Context, g git, r Range, scope []string) ([]Violation, error) {
	out, err := g.output(ctx, "diff", "--name-only", "--no-renames", "-z", r.Base, r.Head, "--")
	if err != nil {
		return nil, err
	}
	var vs []Violation
	for _, f := range strings.Split(out, "\x00") {
		if f == "" {
			continue
		}
		in := false
		for _, g := range scope {
			if ok, _ := doublestar.Match(g, f); ok {
				in = true
				break
			}
		}
		if !in {
			vs = append(vs, Violation{Kind: KindScope, File: f,
				Message: "changes " + f + ", outside the task's expected scope (" + strings.Join(scope, ", ") + ")"})
		}
	}
	return vs, nil
}

// shadowViolations turns the violations of rules in warn or log mode into
// notes: in a shadow week verify reports what it would fail on and passes
// (exit 0), as the hooks let the calls run. A secret is rule
// secret-content's; the other checks follow the policy-wide mode.
func shadowViolations(rep *Report, pol *policy.Policy) {
	kept := rep.Violations[:0]
	for _, v := range rep.Violations {
		act := policy.Action(pol.Mode)
		switch v.Kind {
		case KindSecret:
			act = pol.RuleAction(policy.RuleSecretContent)
		case KindCommand:
			act = v.action // the rule's own action, its mode included
		}
		if !act.Shadow() {
			kept = append(kept, v)
			continue
		}
		where := v.Commit
		if len(where) > 12 {
			where = where[:12]
		}
		if v.File != "" {
			where = strings.TrimPrefix(where+" "+v.File, " ")
		}
		if where != "" {
			where += ": "
		}
		rep.note("%s mode, not failing: %s%s (%s)", act, where, v.Message, v.Kind)
	}
	rep.Violations = kept
}
