package sarif

import (
	"encoding/json"
	"io"
	"net/url"
	"strings"
)

// Rule describes one kind of finding.
type Rule struct {
	ID               string  `json:"id"`
	Name             string  `json:"name"`
	ShortDescription Message `json:"shortDescription"`
	Help             Message `json:"help"`
}

// Message is SARIF's text wrapper.
type Message struct {
	Text string `json:"text"`
}

// Result is one finding; RuleIndex points into the rules passed to Write.
type Result struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             Message           `json:"message"`
	Locations           []Location        `json:"locations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints,omitempty"`
	Properties          map[string]string `json:"properties,omitempty"`
}

// Location is a place in a file of the repository.
type Location struct {
	PhysicalLocation Physical `json:"physicalLocation"`
}

// Physical names the file and, when known, the lines.
type Physical struct {
	ArtifactLocation Artifact `json:"artifactLocation"`
	Region           *Region  `json:"region,omitempty"`
}

// Artifact is a file, relative to the repository root.
type Artifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

// Region is a span of lines (1-based).
type Region struct {
	StartLine   int `json:"startLine"`
	EndLine     int `json:"endLine,omitempty"`
	StartColumn int `json:"startColumn,omitempty"`
}

// Log is a whole SARIF document (exported for readers, such as tests).
type Log struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []Run  `json:"runs"`
}

// Run is one run of a tool.
type Run struct {
	Tool    Tool     `json:"tool"`
	Results []Result `json:"results"`
}

// Tool wraps the driver.
type Tool struct {
	Driver Driver `json:"driver"`
}

// Driver names the tool and its rules.
type Driver struct {
	Name           string `json:"name"`
	Version        string `json:"version,omitempty"`
	InformationURI string `json:"informationUri"`
	Rules          []Rule `json:"rules"`
}

// FileLocation is the location of lines start..end of a repository file
// (line 0: the whole file).
func FileLocation(file string, start, end, column int) Location {
	loc := Location{PhysicalLocation: Physical{ArtifactLocation: Artifact{URI: FileURI(file), URIBaseID: "%SRCROOT%"}}}
	if start > 0 {
		loc.PhysicalLocation.Region = &Region{StartLine: start, EndLine: max(end, start), StartColumn: column}
	}
	return loc
}

// FileURI is a relative path as a URI reference: each segment escaped.
func FileURI(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

// Write encodes one swarm-guard run with its rules and results.
func Write(w io.Writer, toolVersion string, rules []Rule, results []Result) error {
	if rules == nil {
		rules = []Rule{}
	}
	if results == nil {
		results = []Result{}
	}
	l := Log{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs: []Run{{
			Tool:    Tool{Driver: Driver{Name: "swarm-guard", Version: toolVersion, InformationURI: "https://github.com/swarm-guard/swarm-guard", Rules: rules}},
			Results: results,
		}},
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(l)
}
