package format

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"sort"
	"strings"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/files"
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

// SARIF 2.1.0, the subset code scanning reads.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool    sarifTool     `json:"tool"`
		Results []sarifResult `json:"results"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		InformationURI string      `json:"informationUri"`
		Version        string      `json:"version,omitempty"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID               string       `json:"id"`
		Name             string       `json:"name"`
		ShortDescription sarifMessage `json:"shortDescription"`
		Help             sarifMessage `json:"help"`
	}
	sarifMessage struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID              string            `json:"ruleId"`
		RuleIndex           int               `json:"ruleIndex"`
		Level               string            `json:"level"`
		Message             sarifMessage      `json:"message"`
		Locations           []sarifLocation   `json:"locations"`
		PartialFingerprints map[string]string `json:"partialFingerprints"`
		Properties          map[string]string `json:"properties,omitempty"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           sarifRegion   `json:"region"`
	}
	sarifArtifact struct {
		URI string `json:"uri"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		EndLine     int `json:"endLine,omitempty"`
		StartColumn int `json:"startColumn,omitempty"`
	}
)

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
	driver := sarifDriver{Name: "swarm-guard", InformationURI: "https://github.com/swarm-guard/swarm-guard", Version: toolVersion, Rules: []sarifRule{}}
	for i, id := range ids {
		index[id] = i
		short := descr[id]
		if short == "" {
			short = id
		}
		driver.Rules = append(driver.Rules, sarifRule{ID: id, Name: id, ShortDescription: sarifMessage{short}, Help: sarifMessage{helpText}})
	}
	results := []sarifResult{}
	for _, f := range r.Findings {
		res := sarifResult{
			RuleID: f.Rule, RuleIndex: index[f.Rule], Level: "error",
			Message: sarifMessage{fmt.Sprintf("%s: %s", f.Rule, f.Preview)},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
				ArtifactLocation: sarifArtifact{URI: fileURI(f.File)},
				Region:           sarifRegion{StartLine: max(f.Line, 1), EndLine: max(f.EndLine, f.Line, 1), StartColumn: f.Column},
			}}},
			PartialFingerprints: map[string]string{"swarmGuardFingerprint/v1": f.Fingerprint},
		}
		if f.Commit != "" {
			res.PartialFingerprints["commitSha"] = f.Commit
			res.Properties = map[string]string{"commit": f.Commit}
		}
		results = append(results, res)
	}
	log := sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{{Tool: sarifTool{Driver: driver}, Results: results}},
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}

// fileURI is a relative path as a URI reference: each segment escaped.
func fileURI(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}
