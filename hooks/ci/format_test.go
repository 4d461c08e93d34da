package ci

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

const (
	baseID = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	headID = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	c1     = "1111111aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	c2     = "2222222aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
)

func failingReport() *Report {
	return &Report{
		Range:    Range{Spec: "aaaaaaa..HEAD", Base: baseID, Head: headID, How: "merge base of HEAD and origin/main (origin/HEAD points to it)"},
		Policy:   "<default policy>",
		AgentKey: "Agent-Id", Commits: 3, ExemptMerges: 1, Agents: []string{"agent-a"}, MinAgents: 2,
		SecretsScan: true, ConflictScan: true,
		Violations: []Violation{
			{Kind: KindTrailer, Commit: c1, Subject: "add: things, 100% done\n::error::injected", Message: "no Agent-Id trailer"},
			{Kind: KindSecret, Commit: c2, Subject: "config", File: "conf/app,1.env", Line: 3, Rule: "aws-access-token",
				Preview: "AKIA****", Fingerprint: c2 + ":conf/app,1.env:aws-access-token:3", Message: "adds a secret (aws-access-token): AKIA****"},
			{Kind: KindConflict, Commit: c2, Subject: "config", File: "x.go", Line: 12, Message: "adds 3 unresolved conflict-marker lines"},
			{Kind: KindMinAgents, Message: "1 distinct agent in the range (agent-a); at least 2 are required"},
		},
		Notes: []string{"secrets were not scanned"},
	}
}

func write(t *testing.T, format string, r *Report) string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, format, r, "v1.2.3"); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestWriteGitHub(t *testing.T) {
	out := write(t, "github", failingReport())
	for _, want := range []string{
		"::notice title=swarm-guard verify::secrets were not scanned\n",
		`::error title=Agent-Id trailer::commit 1111111 "add: things, 100%25 done\n::error::injected": no Agent-Id trailer` + "\n",
		"::error file=conf/app%2C1.env,line=3,title=secret (aws-access-token)::conf/app,1.env:3: commit 2222222 \"config\" adds a secret (aws-access-token): AKIA****; a false positive? add this line to .gitleaksignore: 2222222aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa:conf/app,1.env:aws-access-token:3\n",
		"::error file=x.go,line=12,title=conflict markers::x.go:12: commit 2222222 \"config\" adds 3 unresolved conflict-marker lines\n",
		"::error title=too few agents::1 distinct agent in the range (agent-a); at least 2 are required\n",
		"FAIL: 4 violations in 3 commits (agent agent-a)\n",
		"no trailer needed: 1 merge commit ([verify] exempt_merges)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("github output lacks %q:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "::error::") {
			t.Errorf("a commit subject started a workflow command of its own: %q", line)
		}
	}
}

func TestEscapeData(t *testing.T) {
	if got := escapeData("a%b\r\nc"); got != "a%25b%0D%0Ac" {
		t.Errorf("escapeData = %q", got)
	}
	if got := escapeProperty("a:b,c%"); got != "a%3Ab%2Cc%25" {
		t.Errorf("escapeProperty = %q", got)
	}
}

func TestWriteText(t *testing.T) {
	out := write(t, "text", failingReport())
	want := []string{
		"verify: 3 commits in aaaaaaa..bbbbbbb, merge base of HEAD and origin/main (origin/HEAD points to it); policy <default policy>",
		"note: secrets were not scanned",
		"no trailer needed: 1 merge commit ([verify] exempt_merges)",
		`commit 1111111 "add: things, 100% done\n::error::injected": no Agent-Id trailer`,
		`conf/app,1.env:3: commit 2222222 "config" adds a secret (aws-access-token): AKIA****; a false positive? add this line to .gitleaksignore: 2222222aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa:conf/app,1.env:aws-access-token:3`,
		`x.go:12: commit 2222222 "config" adds 3 unresolved conflict-marker lines`,
		"1 distinct agent in the range (agent-a); at least 2 are required",
		"FAIL: 4 violations in 3 commits (agent agent-a)",
	}
	lines := strings.Split(out, "\n")
	for i, w := range want {
		if i >= len(lines) || lines[i] != w {
			t.Fatalf("text line %d:\n got %q\nwant %q\nall:\n%s", i, lines[min(i, len(lines)-1)], w, out)
		}
	}
	if !strings.Contains(out, "fix trailers: reword the commits (git rebase -i aaaaaaa)") {
		t.Errorf("text output lacks the trailer fix:\n%s", out)
	}
	pass := &Report{Range: Range{Base: baseID, Head: headID, How: "--range a..b"}, Policy: "p", Commits: 2, Agents: []string{"a", "b"}}
	if got := write(t, "text", pass); !strings.HasSuffix(got, "PASS: 2 commits, agents a, b\n") {
		t.Errorf("pass output:\n%s", got)
	}
}

func TestWriteJSON(t *testing.T) {
	var got struct {
		Passed     bool `json:"passed"`
		Commits    int  `json:"commits"`
		Violations []struct {
			Kind, Commit, File, Preview string
			Line                        int
		} `json:"violations"`
		Range struct{ Base, Head string } `json:"range"`
	}
	if err := json.Unmarshal([]byte(write(t, "json", failingReport())), &got); err != nil {
		t.Fatal(err)
	}
	if got.Passed || got.Commits != 3 || len(got.Violations) != 4 || got.Range.Base != baseID {
		t.Fatalf("json = %+v", got)
	}
	if v := got.Violations[1]; v.Kind != "secret" || v.File != "conf/app,1.env" || v.Line != 3 || v.Preview != "AKIA****" || v.Commit != c2 {
		t.Errorf("secret violation = %+v", v)
	}
}

func TestWriteSARIF(t *testing.T) {
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name    string
					Version string
					Rules   []struct{ ID string }
				}
			}
			Results []struct {
				RuleID    string
				RuleIndex int
				Level     string
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine int }
					}
				}
				PartialFingerprints map[string]string
			}
		}
	}
	if err := json.Unmarshal([]byte(write(t, "sarif", failingReport())), &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 || log.Runs[0].Tool.Driver.Name != "swarm-guard" || log.Runs[0].Tool.Driver.Version != "v1.2.3" {
		t.Fatalf("sarif header = %+v", log)
	}
	run := log.Runs[0]
	if len(run.Results) != 4 {
		t.Fatalf("results = %d, want 4", len(run.Results))
	}
	for _, r := range run.Results {
		if run.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID || r.Level != "error" || r.Message.Text == "" || len(r.PartialFingerprints) == 0 {
			t.Errorf("result %+v does not point at its rule", r)
		}
	}
	sec := run.Results[1]
	if len(sec.Locations) != 1 || sec.Locations[0].PhysicalLocation.ArtifactLocation.URI != "conf/app%2C1.env" || sec.Locations[0].PhysicalLocation.Region.StartLine != 3 {
		t.Errorf("secret location = %+v", sec.Locations)
	}
	if len(run.Results[0].Locations) != 0 {
		t.Errorf("a trailer problem is commit-level; locations = %+v", run.Results[0].Locations)
	}
}

func TestWriteStepSummary(t *testing.T) {
	var b bytes.Buffer
	if err := WriteStepSummary(&b, failingReport()); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"## swarm-guard verify failed: 4 violations\n",
		"| Commit | Check | Where | Problem |\n|---|---|---|---|\n",
		"| `2222222` \"config\" | secret (aws-access-token) | `conf/app,1.env` line 3 | adds a secret (aws-access-token): AKIA**** |\n",
		"Agents: `agent-a`.",
		"&lt;agent-id&gt;",
		"> secrets were not scanned\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("step summary lacks %q:\n%s", want, out)
		}
	}
	pass := &Report{Range: Range{Base: baseID, Head: headID}, Policy: "p", Commits: 1}
	b.Reset()
	if err := WriteStepSummary(&b, pass); err != nil || !strings.HasPrefix(b.String(), "## swarm-guard verify passed\n") || strings.Contains(b.String(), "|---|") {
		t.Errorf("pass summary (%v):\n%s", err, b.String())
	}
}

func TestWriteUnknownFormat(t *testing.T) {
	if err := Write(&bytes.Buffer{}, "xml", failingReport(), ""); err == nil {
		t.Error("want an error for an unknown format")
	}
}
