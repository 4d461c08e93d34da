package ci

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/redact"
)

// Formats are the output formats of Write.
var Formats = []string{"text", "json", "github", "sarif"}

// Write prints the report in one of Formats. toolVersion goes into SARIF.
func Write(w io.Writer, format string, r *Report, toolVersion string) error {
	switch format {
	case "text":
		return writeText(w, r)
	case "json":
		return writeJSON(w, r)
	case "github":
		return writeGitHub(w, r)
	case "sarif":
		return writeSARIF(w, r, toolVersion)
	}
	return fmt.Errorf("unknown format %q (want %s)", format, strings.Join(Formats, ", "))
}

// headline is a violation in one line: where, which commit, what.
func headline(v Violation) string {
	var b strings.Builder
	if v.File != "" {
		b.WriteString(v.File)
		if v.Line > 0 {
			b.WriteString(":" + strconv.Itoa(v.Line))
		}
		b.WriteString(": ")
	}
	if v.Commit != "" {
		b.WriteString("commit " + shortID(v.Commit))
		if v.Subject != "" {
			b.WriteString(" " + quoteSubject(v.Subject))
		}
		if v.File != "" {
			b.WriteString(" ")
		} else {
			b.WriteString(": ")
		}
	}
	b.WriteString(v.Message)
	if v.Kind == KindSecret && v.Fingerprint != "" {
		// The exact line to add, so a false positive is one paste away.
		b.WriteString("; a false positive? add this line to .gitleaksignore: " + v.Fingerprint)
	}
	if v.Kind == KindCommand && v.Fingerprint != "" {
		b.WriteString("; if the team accepts it, a human adds this line to .swarm-guard-ignore on the base branch: " + v.Fingerprint)
	}
	return b.String()
}

// quoteSubject shows a commit subject: redacted, cut, quoted.
func quoteSubject(s string) string {
	s = redact.String(s)
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return strconv.Quote(s)
}

// summary is the verdict in one line.
func summary(r *Report) string {
	agents := "no agents"
	if len(r.Agents) > 0 {
		agents = fmt.Sprintf("agent%s %s", plural(len(r.Agents)), strings.Join(r.Agents, ", "))
	}
	if r.HumanCommits > 0 {
		agents += fmt.Sprintf(", %d human commit%s", r.HumanCommits, plural(r.HumanCommits))
	}
	if r.Passed() {
		return fmt.Sprintf("PASS: %d commit%s, %s", r.Commits, plural(r.Commits), agents)
	}
	return fmt.Sprintf("FAIL: %d violation%s in %d commit%s (%s)", len(r.Violations), plural(len(r.Violations)), r.Commits, plural(r.Commits), agents)
}

// exemptions says which commits needed no trailer, or "".
func exemptions(r *Report) string {
	var parts []string
	if r.ExemptMerges > 0 {
		parts = append(parts, fmt.Sprintf("%d merge commit%s ([verify] exempt_merges)", r.ExemptMerges, plural(r.ExemptMerges)))
	}
	if r.ExemptAuthors > 0 {
		parts = append(parts, fmt.Sprintf("%d commit%s by exempt authors ([verify] exempt_authors)", r.ExemptAuthors, plural(r.ExemptAuthors)))
	}
	if r.ExemptBeforeInstall > 0 {
		parts = append(parts, fmt.Sprintf("%d commit%s from before swarm-guard was installed ([trailers] since)", r.ExemptBeforeInstall, plural(r.ExemptBeforeInstall)))
	}
	if len(parts) == 0 {
		return ""
	}
	return "no trailer needed: " + strings.Join(parts, ", ")
}

// hints are the fixes for the kinds of violation present, once each.
func hints(r *Report) []string {
	seen := map[Kind]bool{}
	var out []string
	base := shortID(r.Range.Base)
	for _, v := range r.Violations {
		if seen[v.Kind] {
			continue
		}
		seen[v.Kind] = true
		switch v.Kind {
		case KindTrailer:
			// trailer.ifexists=doNothing stamps only the commits without
			// the trailer; --allow-empty keeps empty commits from stopping
			// the rebase.
			out = append(out, fmt.Sprintf("trailers: reword the commits (git rebase -i %s), or stamp the ones without: "+
				"git rebase %s --exec 'git -c trailer.ifexists=doNothing commit --amend --no-edit --allow-empty --trailer \"%s: <agent-id>\"'",
				base, base, r.AgentKey))
		case KindSecret:
			out = append(out, "secrets: a secret stays in history even when a later commit removes it; revoke or rotate it, then rewrite the commit that added it (a false positive: add the .gitleaksignore line printed with it)")
		case KindConflict:
			out = append(out, "conflict markers: resolve the conflict, remove the marker lines and rewrite the commit that added them")
		case KindCommand:
			out = append(out, "committed commands: change each command as its Instead says and push the fix (a new commit is enough: only the range's final files are judged)")
		case KindMinAgents:
			out = append(out, "min-agents: this range needs commits from more distinct agents (a second agent's review commit, for example)")
		case KindRecord:
			out = append(out, "recorded identity: the trailer was written past the hooks; re-commit the commit through the hooks with a message without that line (git commit --amend -m '<subject>' for the last one)")
		case KindHuman:
			out = append(out, "human commits: this range must be the agents' work alone ([verify] human_commits = \"deny\" or agent_branches); move a human's changes to a pull request of their own")
		case KindScope:
			out = append(out, "scope: the task's changes must stay within its expected scope; move the other changes to a task of their own, or widen --scope / [verify] scope")
		}
	}
	return out
}

func rangeLine(r *Report) string {
	return fmt.Sprintf("verify: %d commit%s in %s..%s, %s; policy %s", r.Commits, plural(r.Commits),
		shortID(r.Range.Base), shortID(r.Range.Head), r.Range.How, r.Policy)
}

func writeText(w io.Writer, r *Report) error {
	var b strings.Builder
	b.WriteString(rangeLine(r) + "\n")
	for _, n := range r.Notes {
		b.WriteString("note: " + n + "\n")
	}
	if e := exemptions(r); e != "" {
		b.WriteString(e + "\n")
	}
	for _, v := range r.Violations {
		b.WriteString(headline(v) + "\n")
	}
	b.WriteString(summary(r) + "\n")
	for _, h := range hints(r) {
		b.WriteString("fix " + h + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeJSON(w io.Writer, r *Report) error {
	out := struct {
		Passed bool `json:"passed"`
		*Report
	}{r.Passed(), r}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// GitHub Actions workflow commands. Only the problems are annotations; the
// rest is plain log text.
func writeGitHub(w io.Writer, r *Report) error {
	var b strings.Builder
	b.WriteString(rangeLine(r) + "\n")
	for _, n := range r.Notes {
		b.WriteString("::notice title=swarm-guard verify::" + escapeData(n) + "\n")
	}
	if e := exemptions(r); e != "" {
		b.WriteString(e + "\n")
	}
	for _, v := range r.Violations {
		b.WriteString(annotation(v, r.AgentKey) + "\n")
	}
	b.WriteString(summary(r) + "\n")
	for _, h := range hints(r) {
		b.WriteString("fix " + h + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// annotation is one ::error workflow command: on the file and line for
// secrets and conflict markers, commit-level for the rest.
func annotation(v Violation, agentKey string) string {
	props := []string{}
	if v.File != "" {
		props = append(props, "file="+escapeProperty(v.File))
		if v.Line > 0 {
			props = append(props, "line="+strconv.Itoa(v.Line))
		}
	}
	props = append(props, "title="+escapeProperty(annotationTitle(v, agentKey)))
	return "::error " + strings.Join(props, ",") + "::" + escapeData(headline(v))
}

func annotationTitle(v Violation, agentKey string) string {
	switch v.Kind {
	case KindTrailer:
		return agentKey + " trailer"
	case KindSecret:
		return "secret (" + v.Rule + ")"
	case KindConflict:
		return "conflict markers"
	case KindCommand:
		return "committed command (" + v.Rule + ")"
	case KindMinAgents:
		return "too few agents"
	case KindScope:
		return "out of scope"
	case KindHuman:
		return "human commit"
	case KindRecord:
		return "recorded identity"
	}
	return string(v.Kind)
}

// escapeData and escapeProperty follow the runner's workflow-command
// escaping, so a crafted commit subject cannot end the annotation early
// or start a command of its own on a new line.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// WriteStepSummary writes the report as Markdown for $GITHUB_STEP_SUMMARY.
func WriteStepSummary(w io.Writer, r *Report) error {
	var b strings.Builder
	verdict := "passed"
	if !r.Passed() {
		verdict = fmt.Sprintf("failed: %d violation%s", len(r.Violations), plural(len(r.Violations)))
	}
	fmt.Fprintf(&b, "## swarm-guard verify %s\n\n", verdict)
	fmt.Fprintf(&b, "%d commit%s in `%s..%s` (%s). Policy: `%s`.", r.Commits, plural(r.Commits),
		shortID(r.Range.Base), shortID(r.Range.Head), mdCell(r.Range.How), mdCell(r.Policy))
	if len(r.Agents) > 0 {
		ids := make([]string, len(r.Agents))
		for i, a := range r.Agents {
			ids[i] = "`" + mdCell(a) + "`"
		}
		fmt.Fprintf(&b, " Agents: %s.", strings.Join(ids, ", "))
	}
	if e := exemptions(r); e != "" {
		fmt.Fprintf(&b, " %s.", mdCell(strings.ToUpper(e[:1])+e[1:]))
	}
	b.WriteString("\n\n")
	if len(r.Violations) > 0 {
		b.WriteString("| Commit | Check | Where | Problem |\n|---|---|---|---|\n")
		for _, v := range r.Violations {
			commit, where := "", ""
			if v.Commit != "" {
				commit = "`" + shortID(v.Commit) + "` " + mdCell(quoteSubject(v.Subject))
			}
			if v.File != "" {
				where = "`" + mdCell(v.File) + "`"
				if v.Line > 0 {
					where += fmt.Sprintf(" line %d", v.Line)
				}
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", commit, annotationTitle(v, r.AgentKey), where, mdCell(v.Message))
		}
		b.WriteString("\n")
		for _, h := range hints(r) {
			b.WriteString("- " + mdCell(h) + "\n")
		}
		b.WriteString("\n")
	}
	for _, n := range r.Notes {
		b.WriteString("> " + mdCell(n) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mdCell makes text safe inside a Markdown table cell or code span: no
// line breaks, no column separators, no HTML, no backticks closing a span.
func mdCell(s string) string {
	return strings.NewReplacer("\n", " ", "\r", " ", "|", `\|`, "<", "&lt;", ">", "&gt;", "`", "'").Replace(s)
}
