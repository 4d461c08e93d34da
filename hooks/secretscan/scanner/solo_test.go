package scanner

import (
	"crypto/rand"
	"encoding/base64"
	"math/big"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestSoloRulesAreUnchanged: the necessary conditions are proven for the
// patterns in soloRegex (solo.go). A gitleaks update that changes one must
// be looked at again; until then that rule runs in the main detector.
func TestSoloRulesAreUnchanged(t *testing.T) {
	for _, id := range soloOrder {
		if defaultSoloSources()[id] == nil {
			t.Errorf("the default %s rule is not the one solo.go reasons about (or another rule requires it); check the condition against the new pattern and update soloRegex", id)
		}
	}
	if len(soloOrder) != len(soloRegex) || len(soloRegex) != len(soloMay) {
		t.Fatal("soloOrder, soloRegex and soloMay must name the same rules")
	}
}

func randomFrom(alphabet string, n int) string {
	rs := []rune(alphabet)
	var b strings.Builder
	for range n {
		b.WriteRune(rs[mustInt(len(rs))])
	}
	return b.String()
}

const (
	alnumChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	jwtTail    = alnumChars + `/\_-`
)

// fakeJWT and fakeVault are made at run time: no credential-shaped text
// is committed.
func fakeJWT() string {
	return "e" + "y" + randomFrom(alnumChars, 30) + ".e" + "y" + randomFrom(jwtTail, 40) + "." + randomFrom(jwtTail, 43)
}

func fakeVaultShort() string { return "s" + "." + randomFrom(alnumChars, 24) }

func fakeVaultLong() string { return "hv" + "s." + randomFrom(alnumChars+"_-", 95) }

// TestSoloConditionsAreNecessary: whatever the rule's regex matches
// passes the rule's condition, on texts built around the rule's literal
// (near misses included: short runs, the Kelvin sign and the long s that
// fold into [a-z], dashes, dots and line ends).
func TestSoloConditionsAreNecessary(t *testing.T) {
	// Near misses of each pattern: its parts with run lengths around the
	// thresholds, then a random piece put in at a random place.
	near := map[string]func() string{
		"jwt": func() string {
			return "e" + "y" + randomFrom(alnumChars, 14+mustInt(6)) + pick(".", ".", "-", "") + pick("e"+"y", "ey", "E"+"y", "") +
				randomFrom(jwtTail, 14+mustInt(6)) + pick(".", ".", "") + randomFrom(jwtTail, mustInt(14)) + pick("=", "==", "", "\n", "\n") + pick("", " ", "\n", "\"", ";", "x")
		},
		"vault-service-token": func() string {
			if mustInt(2) == 0 {
				return pick("hv"+"s.", "hv"+"s.", "h"+"s.", "hvs,") + randomFrom(alnumChars+"_-", 86+mustInt(8)) + pick("", " ", "\n", ";", "x", ".")
			}
			return pick("s.", "s.", "S.", "s,") + randomFrom(alnumChars+"\u212A\u017F", 21+mustInt(5)) + pick("", " ", "\n", ";", "x", "_")
		},
	}
	pieces := []string{"e" + "y", "s.", ".", "\n", " ", "-", "_", "\u212A", "\u017F", "\\", "/", "="}
	for _, id := range soloOrder {
		re := regexp.MustCompile(soloRegex[id])
		may := soloMay[id]
		matched := 0
		for range 20000 {
			text := pick("", " ", "x", "\n") + near[id]()
			if mustInt(2) == 0 {
				at := mustInt(len(text) + 1)
				text = text[:at] + pieces[mustInt(len(pieces))] + text[at:]
			}
			if re.MatchString(text) {
				matched++
				if !may(text) {
					t.Fatalf("%s matches %q but its condition says it cannot", id, text)
				}
			}
		}
		for _, text := range []string{fakeJWT(), fakeVaultShort(), fakeVaultLong(), "s." + strings.Repeat("\u212A", 24) + "\n"} {
			if re.MatchString(text) && !may(text) {
				t.Fatalf("%s matches %q but its condition says it cannot", id, text)
			}
		}
		t.Logf("%s: %d of 20000 matched", id, matched)
		if matched < 20 {
			t.Fatalf("%s: only %d random texts matched; the test proves little", id, matched)
		}
	}
	// Clean code passes neither: that is the point.
	code := "func (s *Server) Close() error {\n\ts.mu.Lock()\n\tkey := s.keys[0]\n\treturn os.Remove(s.path)\n}\n"
	for _, id := range soloOrder {
		if soloMay[id](code) {
			t.Errorf("%s: clean code passes the condition", id)
		}
	}
}

func pick(xs ...string) string { return xs[mustInt(len(xs))] }

func mustInt(n int) int {
	i, err := rand.Int(rand.Reader, big.NewInt(int64(n)))
	if err != nil {
		panic(err)
	}
	return int(i.Int64())
}

// TestSoloScanAgrees scans real code from GOROOT with fake JWTs and Vault
// tokens put in at many places (plain, quoted, base64-encoded so that the
// decoder finds them, and next to a generic key that they shadow), once
// with the solo rules and once with every rule in gitleaks' one detector
// on the whole text, and wants the same findings.
func TestSoloScanAgrees(t *testing.T) {
	texts := goSources(t, 10, "net/http", "crypto/tls", "os")
	for i, text := range texts {
		lines := strings.Split(text, "\n")
		extra := []string{
			`token := "` + fakeJWT() + `"`,
			"Authorization: Bearer " + fakeJWT(),
			fakeJWT(),
			`VAULT_TOKEN=` + fakeVaultShort(),
			`vault_token = "` + fakeVaultShort() + `";`,
			`export VAULT_TOKEN=` + fakeVaultLong(),
			`blob: "` + base64.StdEncoding.EncodeToString([]byte(`{"t":"`+fakeJWT()+`"}`)) + `"`,
			"s." + randomFrom(alnumChars, 10) + "\u212A" + randomFrom(alnumChars, 13) + "\n",
		}
		if i%3 == 0 {
			extra = extra[:0] // some texts stay clean
		}
		for k, e := range extra {
			at := (k*41 + i*13) % len(lines)
			lines = slices.Insert(lines, at, e)
		}
		texts[i] = strings.Join(lines, "\n")
	}
	solo, err := New(Options{DecodeDepth: DefaultDecodeDepth})
	if err != nil {
		t.Fatal(err)
	}
	if len(solo.solo) != len(soloOrder) {
		t.Fatalf("%d solo rules, want %d", len(solo.solo), len(soloOrder))
	}
	stock := &Scanner{cat: solo.cat, ignore: solo.ignore, depth: solo.depth, workers: solo.workers}
	if stock.comp, err = newCompiler(defaultCatalogue(), DefaultDecodeDepth, true); err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for i, text := range texts {
		a, b := scanAll(t, solo, "f.go", text), scanAll(t, stock, "f.go", text)
		if !slices.Equal(a, b) {
			t.Fatalf("text %d: with solo rules %+v\nstock %+v", i, a, b)
		}
		for _, f := range a {
			count[f.Rule]++
		}
	}
	for _, id := range soloOrder {
		if count[id] == 0 {
			t.Errorf("no %s finding at all: the comparison proves nothing for it (%v)", id, count)
		}
	}
	t.Logf("%d texts, findings %v, the same both ways", len(texts), count)
}
