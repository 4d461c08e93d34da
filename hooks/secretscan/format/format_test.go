package format

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/hooks/internal/sarif"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/internal/files"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/wire"
)

var sample = Report{
	Findings: []wire.Finding{
		{File: "dir/a b.go", Line: 3, EndLine: 3, Column: 7, Rule: "github-pat", Description: "GitHub token", Preview: `t := "ghp_****"`, Fingerprint: "dir/a b.go:github-pat:3"},
		{File: "x.env", Line: 1, EndLine: 1, Rule: "generic-api-key", Commit: "0123456789abcdef0123", Preview: "API_KEY=abcd****", Fingerprint: "0123456789abcdef0123:x.env:generic-api-key:1"},
	},
	Skipped: []files.Skip{{Path: "big.log", Reason: files.ReasonTooLarge, Detail: "12.0 MB"}},
}

func TestText(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, Text, sample, "v1"); err != nil {
		t.Fatal(err)
	}
	want := "dir/a b.go:3: github-pat: t := \"ghp_****\"\n" +
		"  false positive? add this line to .gitleaksignore: dir/a b.go:github-pat:3\n" +
		"0123456789ab:x.env:1: generic-api-key: API_KEY=abcd****\n" +
		"  false positive? add this line to .gitleaksignore: 0123456789abcdef0123:x.env:generic-api-key:1\n" +
		"not scanned: big.log (too large: 12.0 MB)\n"
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestJSONShape(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, JSON, Report{}, "v1"); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(strings.Fields(b.String()), ""); got != `{"version":1,"findings":[],"skipped":[]}` {
		t.Fatalf("empty report: %s", got)
	}
	b.Reset()
	Write(&b, JSON, sample, "v1")
	var generic struct {
		Findings []map[string]any `json:"findings"`
	}
	if err := json.Unmarshal(b.Bytes(), &generic); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"file", "line", "rule", "commit", "preview", "fingerprint"} {
		if _, ok := generic.Findings[0][key]; !ok {
			t.Errorf("finding has no %q key: %v", key, generic.Findings[0])
		}
	}
}

func TestSARIF(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, SARIF, sample, "v1.2.3"); err != nil {
		t.Fatal(err)
	}
	var log sarif.Log
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if log.Version != "2.1.0" || len(run.Results) != 2 || len(run.Tool.Driver.Rules) != 2 || run.Tool.Driver.Version != "v1.2.3" {
		t.Fatalf("%+v", log)
	}
	r := run.Results[0]
	if r.RuleID != "github-pat" || run.Tool.Driver.Rules[r.RuleIndex].ID != "github-pat" ||
		r.Locations[0].PhysicalLocation.ArtifactLocation.URI != "dir/a%20b.go" || r.Locations[0].PhysicalLocation.Region.StartLine != 3 {
		t.Fatalf("result %+v", r)
	}
	if run.Results[1].PartialFingerprints["commitSha"] != "0123456789abcdef0123" {
		t.Fatalf("no commit fingerprint: %+v", run.Results[1])
	}
	b.Reset()
	Write(&b, SARIF, Report{}, "v1")
	if !strings.Contains(b.String(), `"results": []`) {
		t.Fatalf("an empty run must have an empty results array:\n%s", b.String())
	}
	if err := Write(&b, "xml", sample, ""); err == nil {
		t.Fatal("unknown format accepted")
	}
}
