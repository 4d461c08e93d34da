package format

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"github.com/swarm-guard/swarm-guard/hooks/internal/sarif"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/internal/files"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/wire"
)

// Report is everything a scan produced.
type Report struct {
	Findings []wire.Finding
	Skipped  []files.Skip
}

// Names of the formats.
const (
	Text  = "text"
	JSON  = "json"
	SARIF = "sarif"
)

// Write prints r in the named format.
func Write(w io.Writer, format string, r Report, toolVersion string) error {
	switch format {
	case Text:
		return writeText(w, r)
	case JSON:
		return writeJSON(w, r)
	case SARIF:
		return writeSARIF(w, r, toolVersion)
	}
	return fmt.Errorf("unknown format %q; use text, json or sarif", format)
}

// Location is "file:line", with the commit for history findings.
func Location(f wire.Finding) string {
	loc := fmt.Sprintf("%s:%d", f.File, f.Line)
	if f.Commit != "" {
		loc = shortCommit(f.Commit) + ":" + loc
	}
	return loc
}

func shortCommit(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}

func writeText(w io.Writer, r Report) error {
	for _, f := range r.Findings {
		if _, err := fmt.Fprintf(w, "%s: %s: %s\n", Location(f), f.Rule, f.Preview); err != nil {
			return err
		}
		if f.Fingerprint != "" {
			// The exact line to add, so a false positive is one paste away.
			if _, err := fmt.Fprintf(w, "  false positive? add this line to .gitleaksignore: %s\n", f.Fingerprint); err != nil {
				return err
			}
		}
	}
	for _, s := range r.Skipped {
		detail := s.Reason
		if s.Detail != "" {
			detail += ": " + s.Detail
		}
		if _, err := fmt.Fprintf(w, "not scanned: %s (%s)\n", s.Path, detail); err != nil {
			return err
		}
	}
	return nil
}

// jsonReport is the JSON shape; `swarm-guard verify` codes against it.
type jsonReport struct {
	Version  int            `json:"version"`
	Findings []wire.Finding `json:"findings"`
	Skipped  []files.Skip   `json:"skipped"`
}

func writeJSON(w io.Writer, r Report) error {
	out := jsonReport{Version: wire.Version, Findings: r.Findings, Skipped: r.Skipped}
	if out.Findings == nil {
		out.Findings = []wire.Finding{}
	}
	if out.Skipped == nil {
		out.Skipped = []files.Skip{}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

const helpText = "A credential was committed or written. Remove it, rotate it (it must be considered leaked), and read it from an environment variable or a secret manager. If it is a known test fixture, mark the line with a gitleaks:allow comment or add its fingerprint to .gitleaksignore."

func writeSARIF(w io.Writer, r Report, toolVersion string) error {
	descr := map[string]string{}
	for _, f := range r.Findings {
		if _, ok := descr[f.Rule]; !ok || descr[f.Rule] == "" {
			descr[f.Rule] = f.Description
		}
	}
	ids := make([]string, 0, len(descr))
	for id := range descr {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	index := map[string]int{}
	rules := []sarif.Rule{}
	for i, id := range ids {
		index[id] = i
		short := descr[id]
		if short == "" {
			short = id
		}
		rules = append(rules, sarif.Rule{ID: id, Name: id, ShortDescription: sarif.Message{Text: short}, Help: sarif.Message{Text: helpText}})
	}
	results := []sarif.Result{}
	for _, f := range r.Findings {
		res := sarif.Result{
			RuleID: f.Rule, RuleIndex: index[f.Rule], Level: "error",
			Message:             sarif.Message{Text: fmt.Sprintf("%s: %s", f.Rule, f.Preview)},
			Locations:           []sarif.Location{sarif.FileLocation(f.File, max(f.Line, 1), max(f.EndLine, f.Line, 1), f.Column)},
			PartialFingerprints: map[string]string{"swarmGuardFingerprint/v1": f.Fingerprint},
		}
		if f.Commit != "" {
			res.PartialFingerprints["commitSha"] = f.Commit
			res.Properties = map[string]string{"commit": f.Commit}
		}
		results = append(results, res)
	}
	return sarif.Write(w, toolVersion, rules, results)
}
