package policy

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// TestReferenceHintNamesEveryKey follows the unknown-key message
// literally: the page it names exists and documents every key the policy
// file accepts, so a user who mistyped one finds the right spelling there.
func TestReferenceHintNamesEveryKey(t *testing.T) {
	const page = "docs/policy.md"
	if !strings.Contains(referenceHint, page) {
		t.Fatalf("referenceHint %q does not name %s", referenceHint, page)
	}
	data, err := os.ReadFile("../" + page)
	if err != nil {
		t.Fatalf("the page the unknown-key message names: %v", err)
	}
	doc := string(data)
	for _, key := range tomlKeys(reflect.TypeOf(Policy{}), "") {
		name := key[strings.LastIndex(key, ".")+1:]
		if !regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`).MatchString(doc) {
			t.Errorf("policy key %s is not in %s", key, page)
		}
	}
	// The message as a user meets it.
	_, err = Parse([]byte("dynamic_command = \"deny\"\n"), "p.toml")
	if err == nil || !strings.Contains(err.Error(), page) {
		t.Errorf("unknown key: got %v, want a pointer to %s", err, page)
	}
}

// tomlKeys lists the keys of a TOML-decoded struct type, tables dotted.
func tomlKeys(t reflect.Type, prefix string) []string {
	var keys []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if tag == "" || tag == "-" {
			continue
		}
		keys = append(keys, prefix+tag)
		ft := f.Type
		for ft.Kind() == reflect.Slice || ft.Kind() == reflect.Map || ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Struct {
			keys = append(keys, tomlKeys(ft, prefix+tag+".")...)
		}
	}
	return keys
}
