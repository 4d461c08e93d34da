package ci

import (
	"encoding/json"
	"io"
)

// SARIF 2.1.0, the subset code-scanning tools read: one run, a rule per
// Kind, one result per violation.

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string       `json:"id"`
	Name             string       `json:"name"`
	ShortDescription sarifMessage `json:"shortDescription"`
	Help             sarifMessage `json:"help"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifMessage      `json:"message"`
	Locations           []sarifLocation   `json:"locations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints,omitempty"`
	Properties          map[string]string `json:"properties,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

// sarifRules is the rule table; a result's ruleIndex points into it.
var sarifRules = []sarifRule{
	{ID: string(KindTrailer), Name: "AgentTrailer",
		ShortDescription: sarifMessage{"Every commit carries exactly one well-formed agent trailer"},
		Help:             sarifMessage{"Add the agent trailer (default key Agent-Id) as the last paragraph of the commit message; merge commits and [verify] exempt_authors may be exempt."}},
	{ID: string(KindSecret), Name: "Secret",
		ShortDescription: sarifMessage{"No commit adds a secret"},
		Help:             sarifMessage{"A secret stays in history even after a later commit removes it: revoke or rotate it and rewrite the commit. False positives go in .gitleaksignore."}},
	{ID: string(KindConflict), Name: "ConflictMarker",
		ShortDescription: sarifMessage{"No commit adds unresolved merge-conflict markers"},
		Help:             sarifMessage{"Resolve the conflict and rewrite the commit that added the marker lines."}},
	{ID: string(KindMinAgents), Name: "MinAgents",
		ShortDescription: sarifMessage{"The range has commits from enough distinct agents"},
		Help:             sarifMessage{"[verify] min_agents or --min-agents asks for commits from that many distinct agent ids."}},
}

func writeSARIF(w io.Writer, r *Report, toolVersion string) error {
	index := map[Kind]int{}
	for i, rule := range sarifRules {
		index[Kind(rule.ID)] = i
	}
	results := make([]sarifResult, 0, len(r.Violations))
	for _, v := range r.Violations {
		res := sarifResult{
			RuleID: string(v.Kind), RuleIndex: index[v.Kind], Level: "error",
			Message: sarifMessage{headline(v)},
		}
		if v.File != "" {
			loc := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: v.File, URIBaseID: "%SRCROOT%"}}}
			if v.Line > 0 {
				loc.PhysicalLocation.Region = &sarifRegion{StartLine: v.Line}
			}
			res.Locations = []sarifLocation{loc}
		}
		fp := string(v.Kind) + ":" + v.Commit + ":" + v.File
		if v.Fingerprint != "" {
			fp = v.Fingerprint
		}
		res.PartialFingerprints = map[string]string{"swarmGuardViolation/v1": fp}
		if v.Commit != "" || v.Rule != "" {
			res.Properties = map[string]string{}
			if v.Commit != "" {
				res.Properties["commit"] = v.Commit
			}
			if v.Rule != "" {
				res.Properties["secretRule"] = v.Rule
			}
		}
		results = append(results, res)
	}
	log := sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs: []sarifRun{{
			Tool: sarifTool{Driver: sarifDriver{Name: "swarm-guard", Version: toolVersion,
				InformationURI: "https://github.com/swarm-guard/swarm-guard", Rules: sarifRules}},
			Results: results,
		}},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}
