package sarif

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestWrite(t *testing.T) {
	var b bytes.Buffer
	rules := []Rule{{ID: "secret", Name: "Secret", ShortDescription: Message{"no secrets"}, Help: Message{"rotate it"}}}
	results := []Result{{RuleID: "secret", Level: "error", Message: Message{"a secret"},
		Locations: []Location{FileLocation("dir/a b.env", 3, 0, 5), FileLocation("whole.txt", 0, 0, 0)}}}
	if err := Write(&b, "1.2.3", rules, results); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b.String())
	}
	if got["version"] != "2.1.0" {
		t.Errorf("version = %v", got["version"])
	}
	run := got["runs"].([]any)[0].(map[string]any)
	driver := run["tool"].(map[string]any)["driver"].(map[string]any)
	if driver["name"] != "swarm-guard" || driver["version"] != "1.2.3" || len(driver["rules"].([]any)) != 1 {
		t.Errorf("driver = %v", driver)
	}
	locs := run["results"].([]any)[0].(map[string]any)["locations"].([]any)
	phys := locs[0].(map[string]any)["physicalLocation"].(map[string]any)
	if uri := phys["artifactLocation"].(map[string]any)["uri"]; uri != "dir/a%20b.env" {
		t.Errorf("uri = %v, want the escaped relative path", uri)
	}
	region := phys["region"].(map[string]any)
	if region["startLine"] != 3.0 || region["endLine"] != 3.0 || region["startColumn"] != 5.0 {
		t.Errorf("region = %v", region)
	}
	if _, ok := locs[1].(map[string]any)["physicalLocation"].(map[string]any)["region"]; ok {
		t.Errorf("a whole-file location has no region")
	}
}

func TestWriteEmpty(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, "", nil, nil); err != nil {
		t.Fatal(err)
	}
	// Code scanning rejects null where it expects arrays.
	if bytes.Contains(b.Bytes(), []byte("null")) {
		t.Errorf("empty log has null: %s", b.String())
	}
}
