package secretscan

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestDecodeBashResponseIsEncodingJSON: the output scan reads a Bash
// call's tool_response as json.Unmarshal would, fast path or not.
func TestDecodeBashResponseIsEncodingJSON(t *testing.T) {
	for _, s := range []string{
		`{"stdout":"a\nb","stderr":"","interrupted":false,"isImage":false,"noOutputExpected":false}`,
		`{"stdout":"x \u00e9 \ud83d\ude00","stderr":"warn\n"}`, `{"stdout":null}`, `{"STDOUT":"up"}`, `{"stdout":1}`,
		`{"stdout":"a","stdout":"b"}`, `{}`, `null`, `[]`, `"text"`, `{"stdout":"a"`, "{\"stderr\":\"\xff\"}", ``,
		`{"other":{"stdout":"nested"}}`,
	} {
		got, ok := decodeBashResponse([]byte(s))
		var want bashResponse
		err := json.Unmarshal([]byte(s), &want)
		if ok != (err == nil && len(s) > 0) {
			t.Fatalf("%q: ok %v, json.Unmarshal: %v", s, ok, err)
		}
		if ok && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n got %+v\nwant %+v", s, got, want)
		}
	}
}
