package scanner

import (
	"github.com/zricethezav/gitleaks/v8/detect"

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

// TestGenericWindowsSkipAgrees: genericWindows, which jumps from word to
// word, returns the windows of the line-by-line walk it replaced
// (lineByLineWindows) on real code from GOROOT, also with runes that
// fold to ASCII and with words in every case put in.
func TestGenericWindowsSkipAgrees(t *testing.T) {
	texts := goSources(t, 40, "net/http", "crypto/tls", "encoding/json", "os", "cmd/go/internal/auth")
	n := len(texts)
	for i := 0; i < n; i += 7 {
		lines := strings.Split(texts[i], "\n")
		for k, w := range []string{"\u212Aey", "TOKEN:", "x := pAsSwOrD", "\u0130", "ApI", "acce", "sec\nret"} {
			at := (k*31 + i) % len(lines)
			lines[at] += " " + w
		}
		texts = append(texts, strings.Join(lines, "\n"))
	}
	texts = append(texts, "", "key", "ke", "\nkey\n", "a\n\nkey", "token\n =\n\n\n'x'\n")
	windows := 0
	for i, text := range texts {
		got, want := genericWindows(text), lineByLineWindows(text)
		if !slices.Equal(got, want) {
			t.Fatalf("text %d: windows %v\nline by line %v", i, got, want)
		}
		windows += len(got)
	}
	if windows == 0 {
		t.Fatal("no window at all: the comparison proves nothing")
	}
	t.Logf("%d texts, %d windows, the same both ways", len(texts), windows)
}

// lineByLineWindows is genericWindows as it was first written: every line
// is asked whether it holds a word, byte by byte.
func lineByLineWindows(text string) []window {
	holds := func(line string) bool {
		if keywords.FoldsToASCII(line) {
			return true
		}
		for i := 0; i < len(line); i++ {
			if keywords.GenericWordAt(line, i) > 0 {
				return true
			}
		}
		return false
	}
	var out []window
	var cur *window
	need, lastWord := -1, -1
	for lineStart, line := 0, 0; ; line++ {
		next := len(text)
		if i := strings.IndexByte(text[lineStart:], '\n'); i >= 0 {
			next = lineStart + i + 1
		}
		l := text[lineStart:next]
		word := holds(l)
		if cur == nil && word {
			out = append(out, window{start: lineStart, line: line})
			cur = &out[len(out)-1]
		}
		if cur != nil {
			cur.end = next
			switch {
			case word:
				lastWord, need = line, max(need, line+1)
			case thinLine(l) && line < lastWord+windowAfter:
				need = max(need, line+1)
			}
			if line >= need {
				cur = nil
			}
		}
		if next == len(text) {
			return out
		}
		lineStart = next
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

// TestMayGenericIsNecessary: wherever gitleaks reports a generic finding
// (pattern, entropy and allowlists, through a detector holding the rule),
// keywords.MayGeneric says it may, on texts built from the pattern's parts
// with lengths around its bounds, secrets of every entropy and shape, and
// the terminators and near misses, plus a random byte put in.
func TestMayGenericIsNecessary(t *testing.T) {
	comp, err := newCompiler(defaultCatalogue(), 0, true)
	if err != nil {
		t.Fatal(err)
	}
	_, det, err := comp.detectors([]*ruleSource{comp.cat.byID[genericID]})
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(genericRegex)
	words := []string{"access", "AUTH", "api", "Api", "API", "aPI", "credential", "Creds", "KEY", "passwd", "password", "PassWord", "secret", "token"}
	ops := []string{"=", ">", ":=", "::=", ":::=", "||", ":", "=>", "?=", ",", "|", "?", ";"}
	pieces := []string{"\n", " ", "=", ":", "'", "\"", "`", "-", ".", "/", "+", "\t", ";", "\\n", "\\R", "(", "\u00e9", "\u212a"}
	secretChars := []string{alnumChars + "_.=-", alnumChars + "+/", "abcdefghijklmnopqrstuvwxyz_.-", "0123456789abcdef", "abcAB12", alnumChars}
	matched, found, spared := 0, 0, 0
	for range 30000 {
		secret := randomFrom(pick(secretChars...), 8+mustInt(14))
		if mustInt(8) == 0 {
			secret = randomFrom(alnumChars, 140+mustInt(20)) // around the 150-byte bound
		}
		text := randomFrom(alnumChars+"_.-", mustInt(4)) + pick(words...) +
			randomFrom(alnumChars+" \t_.-", mustInt(24)) + randomFrom(" \t\n'\"", mustInt(4)) + pick(ops...) +
			randomFrom("`'\" \t\n=", mustInt(7)) + secret + pick("", "=", "==", "===", "====") +
			pick("", " ", "\n", "'", ";", "\\n", "\\N", "x", "(", ")", "+", "/")
		if mustInt(2) == 0 {
			at := mustInt(len(text) + 1)
			text = text[:at] + pick(pieces...) + text[at:]
		}
		if !re.MatchString(text) {
			continue
		}
		matched++
		may := keywords.MayGeneric(text)
		if fs := det.Detect(detect.Fragment{Raw: text, FilePath: "f.go"}); len(fs) > 0 {
			found++
			if !may {
				t.Fatalf("gitleaks reports %q in %q but keywords.MayGeneric says it cannot", fs[0].Secret, text)
			}
		} else if !may {
			spared++
		}
	}
	t.Logf("of 30000 texts the pattern matched %d, gitleaks reported %d, MayGeneric spared the scanner %d", matched, found, spared)
	if found < 1000 || spared < 1000 {
		t.Fatalf("only %d findings and %d texts spared; the test proves little", found, spared)
	}
	for _, clean := range []string{
		"// Copyright 2013 The Go Authors. All rights reserved.\n", "\t// authentication, or cookies.\n",
		"\tkey := cfg.Lookup(\"service.api.key\")\n", "self.token = response.access_token\n", "// — the auth token ends here\n",
		"apiKey: \"0123456789\"\n", // 10 distinct bytes: entropy below 3.5
	} {
		if keywords.MayGeneric(clean) {
			t.Errorf("keywords.MayGeneric(%q) = true: the check does not spare the regex on plain code", clean)
		}
	}
}
