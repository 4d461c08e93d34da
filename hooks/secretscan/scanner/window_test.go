package scanner

import (
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/fakesecret"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/keywords"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/wire"
)

// TestGenericWindowsRuleIsUnchanged: the windows are proven for one
// pattern of the generic rule (window.go). A gitleaks update that changes
// it must be looked at again: until then the rule runs on whole texts.
func TestGenericWindowsRuleIsUnchanged(t *testing.T) {
	if !defaultWindowable() {
		t.Fatalf("the default %s rule is not the one window.go reasons about (or another rule requires it); check the reasoning against the new pattern and update genericRegex", genericID)
	}
}

func TestGenericWindows(t *testing.T) {
	text := "a\nb\napi_key = x\nc\n" + strings.Repeat("z\n", 20) + "token:\n  \n\t'\n  = \"v\"\nafter\n" + strings.Repeat("z\n", 20) + "\u212Aelvin\nlast"
	var got []string
	for _, w := range genericWindows(text) {
		got = append(got, text[w.start:w.end])
		if w.line != strings.Count(text[:w.start], "\n") {
			t.Errorf("window %q: line %d, want %d", text[w.start:w.end], w.line, strings.Count(text[:w.start], "\n"))
		}
	}
	want := []string{
		"api_key = x\nc\n",             // the word's line and the next
		"token:\n  \n\t'\n  = \"v\"\n", // on through thin lines to the first that is not
		"\u212Aelvin\nlast",            // non-ASCII may fold to a word; the text's end
	}
	if !slices.Equal(got, want) {
		t.Errorf("windows %q\nwant %q", got, want)
	}
}

// scanAll scans text as one block with s.
func scanAll(t *testing.T, s *Scanner, file, text string) []wire.Finding {
	t.Helper()
	done := false
	fs, err := s.Stream(func() (wire.Block, error) {
		if done {
			return wire.Block{}, io.EOF
		}
		done = true
		return wire.Block{File: file, Line: 1, Text: text}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

// TestWindowedScanAgrees scans real code from GOROOT with fake secrets of
// every kind put in at many places, with the generic rule on windows and
// on whole texts, and wants the same findings.
func TestWindowedScanAgrees(t *testing.T) {
	texts := goSources(t, 12, "net/http", "crypto/tls", "encoding/json")
	secrets := fakesecret.All()
	extra := []string{
		"password:\n\n  \"" + fakesecret.GenericAPIKey().Value + "\"\n",
		"API_TOKEN =\t'" + fakesecret.GenericAPIKey().Value + "';",
		"\u212Aey = \"" + fakesecret.GenericAPIKey().Value + "\"",
	}
	for i, text := range texts {
		lines := strings.Split(text, "\n")
		for k, s := range secrets {
			at := (k*37 + i*11) % len(lines)
			lines[at] = lines[at] + " " + s.Line
		}
		for k, e := range extra {
			at := (k*53 + i*7) % len(lines)
			lines = slices.Insert(lines, at, e)
		}
		texts[i] = strings.Join(lines, "\n")
	}
	windowed, err := New(Options{DecodeDepth: DefaultDecodeDepth})
	if err != nil {
		t.Fatal(err)
	}
	if windowed.gen == nil {
		t.Fatal("the default rules are not scanned with windows")
	}
	whole, err := New(Options{DecodeDepth: DefaultDecodeDepth})
	if err != nil {
		t.Fatal(err)
	}
	whole.gen, whole.genSrc, whole.solo = nil, nil, nil
	whole.comp, err = newCompiler(defaultCatalogue(), DefaultDecodeDepth, true)
	if err != nil {
		t.Fatal(err)
	}
	generic := 0
	for i, text := range texts {
		a, b := scanAll(t, windowed, "f.go", text), scanAll(t, whole, "f.go", text)
		if !slices.Equal(a, b) {
			t.Fatalf("text %d: windowed findings %+v\nwhole-text findings %+v", i, a, b)
		}
		for _, f := range a {
			if f.Rule == genericID {
				generic++
			}
		}
	}
	if generic == 0 {
		t.Fatal("no generic finding at all: the comparison proves nothing")
	}
	t.Logf("%d texts, %d generic findings, the same both ways", len(texts), generic)
}

// TestMayGenericIsNecessary: whatever the generic rule's regex matches
// passes mayGeneric, on texts built from the pattern's parts with lengths
// around its bounds, and a random piece put in at a random place.
func TestMayGenericIsNecessary(t *testing.T) {
	re := regexp.MustCompile(genericRegex)
	words := []string{"access", "AUTH", "api", "Api", "API", "aPI", "credential", "Creds", "KEY", "passwd", "password", "PassWord", "secret", "token"}
	ops := []string{"=", ">", ":=", "::=", ":::=", "||", ":", "=>", "?=", ",", "|", "?", ";"}
	pieces := []string{"\n", " ", "=", ":", "'", "\"", "`", "-", ".", "/", "+", "\t", ";", "\\n"}
	matched := 0
	for range 30000 {
		text := randomFrom(alnumChars+"_.-", mustInt(4)) + pick(words...) +
			randomFrom(alnumChars+" \t_.-", mustInt(24)) + randomFrom(" \t\n'\"", mustInt(4)) + pick(ops...) +
			randomFrom("`'\" \t\n=", mustInt(7)) + randomFrom(pick(alnumChars+"_.=-", alnumChars+"+/"), 8+mustInt(6)) + pick("", " ", "\n", "'", ";", "\\n", "x")
		if mustInt(2) == 0 {
			at := mustInt(len(text) + 1)
			text = text[:at] + pick(pieces...) + text[at:]
		}
		if re.MatchString(text) {
			matched++
			if !keywords.MayGeneric(text) {
				t.Fatalf("the generic rule matches %q but keywords.MayGeneric says it cannot", text)
			}
		}
	}
	t.Logf("%d of 30000 matched", matched)
	if matched < 1000 {
		t.Fatalf("only %d texts matched; the test proves little", matched)
	}
	for _, clean := range []string{"// Copyright 2013 The Go Authors. All rights reserved.\n", "\t// authentication, or cookies.\n"} {
		if keywords.MayGeneric(clean) {
			t.Errorf("keywords.MayGeneric(%q) = true: the check does not spare the regex on plain prose", clean)
		}
	}
}
