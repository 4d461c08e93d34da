package scanner

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/fakesecret"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/wire"
)

// runMain runs Main over blocks and returns the decoded result, the exit
// code and everything written to stdout and stderr.
func runMain(t *testing.T, req wire.Request, blocks ...wire.Block) (wire.Result, int, string) {
	t.Helper()
	var in bytes.Buffer
	enc := wire.NewEncoder(&in)
	req.Version = wire.Version
	if err := enc.Encode(req); err != nil {
		t.Fatal(err)
	}
	for _, b := range blocks {
		if err := enc.Encode(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.Flush(); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	code := Main(nil, &in, &out, &errOut)
	var res wire.Result
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("stdout is not a result: %v\n%s", err, out.String())
	}
	return res, code, out.String() + errOut.String()
}

func TestFindsEveryFakeSecret(t *testing.T) {
	for _, s := range fakesecret.All() {
		t.Run(s.Rule, func(t *testing.T) {
			text := "package config\n\n// settings\n" + s.Line + "\n"
			res, code, all := runMain(t, wire.Request{GitleaksAllow: true}, wire.NewBlock("config/settings.go", "", 1, []byte(text)))
			if code != ExitOK || res.Error != "" {
				t.Fatalf("exit %d, error %q", code, res.Error)
			}
			if len(res.Findings) == 0 {
				t.Fatalf("%s not found in %q", s.Kind, text)
			}
			f := res.Findings[0]
			if f.Rule != s.Rule || f.Line != 4 || f.File != "config/settings.go" {
				t.Errorf("finding %+v, want rule %s on config/settings.go:4", f, s.Rule)
			}
			if f.Fingerprint != "config/settings.go:"+s.Rule+":4" {
				t.Errorf("fingerprint %q", f.Fingerprint)
			}
			if !strings.Contains(f.Preview, mask) {
				t.Errorf("preview %q is not masked", f.Preview)
			}
			assertNoSecret(t, all, s.Value)
		})
	}
}

// assertNoSecret fails when output holds the secret, or any line of a
// multi-line secret long enough to be one.
func assertNoSecret(t *testing.T, output, secret string) {
	t.Helper()
	for _, part := range strings.Split(secret, "\n") {
		if len(part) >= 16 && !strings.HasPrefix(part, "-----") && strings.Contains(output, part) {
			t.Fatalf("output holds the secret %q:\n%s", part, output)
		}
	}
}

// TestFindsEncodedSecret: a credential hidden in base64 (a Kubernetes
// Secret manifest, say) is found through gitleaks' decoding passes.
func TestFindsEncodedSecret(t *testing.T) {
	s := fakesecret.GitHubPAT()
	text := "apiVersion: v1\nkind: Secret\ndata:\n  config: " + base64.StdEncoding.EncodeToString([]byte(s.Line)) + "\n"
	res, _, all := runMain(t, wire.Request{}, wire.NewBlock("deploy/secret.yaml", "", 1, []byte(text)))
	found := false
	for _, f := range res.Findings {
		found = found || f.Rule == "github-pat" && f.Line == 4
	}
	if !found {
		t.Fatalf("findings %+v", res.Findings)
	}
	assertNoSecret(t, all, s.Value)
	assertNoSecret(t, all, base64.StdEncoding.EncodeToString([]byte(s.Line)))
}

func TestCleanTextHasNoFindings(t *testing.T) {
	text := strings.Join(fakesecret.Clean(), "\n") + "\n"
	res, code, _ := runMain(t, wire.Request{}, wire.NewBlock("main.go", "", 1, []byte(text)))
	if code != ExitOK || len(res.Findings) != 0 {
		t.Fatalf("exit %d, findings %+v in clean text:\n%s", code, res.Findings, text)
	}
	// Lockfiles are on gitleaks' default path allowlist.
	secret := fakesecret.GenericAPIKey()
	res, _, _ = runMain(t, wire.Request{}, wire.NewBlock("web/package-lock.json", "", 1, []byte(secret.Line+"\n")))
	if len(res.Findings) != 0 {
		t.Fatalf("lockfile findings: %+v", res.Findings)
	}
}

func TestLineNumbersAcrossChunks(t *testing.T) {
	var b strings.Builder
	n := 0
	for b.Len() < 3*chunkBytes {
		fmt.Fprintf(&b, "x%d := compute(%d)\n", n, n)
		n++
		if n%50 == 0 {
			b.WriteString("\n")
			n++
		}
	}
	lines := strings.Count(b.String(), "\n")
	key := fakesecret.PrivateKey()
	s := fakesecret.GitHubPAT()
	text := b.String() + s.Line + "\n" + b.String() + key.Line + "\n"
	res, _, all := runMain(t, wire.Request{}, wire.NewBlock("big.go", "", 10, []byte(text)))
	got := map[string]int{}
	for _, f := range res.Findings {
		got[f.Rule] = f.Line
	}
	if got["github-pat"] != 10+lines || got["private-key"] != 10+2*lines+1 {
		t.Fatalf("findings %+v; want github-pat on %d and private-key on %d", res.Findings, 10+lines, 10+2*lines+1)
	}
	assertNoSecret(t, all, s.Value)
	assertNoSecret(t, all, key.Value)
}

func TestChunkKeepsPrivateKeyWhole(t *testing.T) {
	key := fakesecret.PrivateKey().Value
	filler := strings.Repeat("a := 1\n", (chunkBytes-len(key)/2)/7)
	text := filler + key + "\n" + filler
	for _, p := range chunk(text, 1, chunkBytes) {
		if strings.Contains(p.text, "-----BEGIN") != strings.Contains(p.text, "-----END") {
			t.Fatalf("a chunk cuts the key block: begin %v end %v", strings.Contains(p.text, "-----BEGIN"), strings.Contains(p.text, "-----END"))
		}
	}
	if got := chunk(text, 7, chunkBytes); got[0].line != 7 || len(got) < 2 {
		t.Fatalf("chunks %d, first line %d", len(got), got[0].line)
	}
}

func TestGitleaksAllowAndIgnoreFile(t *testing.T) {
	root := t.TempDir()
	s := fakesecret.GitHubPAT()
	text := "a\n" + s.Line + " // gitleaks:allow\n" + s.Line + "\n"
	res, _, _ := runMain(t, wire.Request{Root: root, GitleaksAllow: true}, wire.NewBlock("a.go", "", 1, []byte(text)))
	if len(res.Findings) != 1 || res.Findings[0].Line != 3 {
		t.Fatalf("with gitleaks:allow honoured: %+v", res.Findings)
	}
	res, _, _ = runMain(t, wire.Request{Root: root, GitleaksAllow: false}, wire.NewBlock("a.go", "", 1, []byte(text)))
	if len(res.Findings) != 2 {
		t.Fatalf("with gitleaks:allow ignored: %+v", res.Findings)
	}
	write(t, root, IgnoreFileName, "# accepted\na.go:github-pat:3\nabc123:b.go:github-pat:1\n")
	res, _, _ = runMain(t, wire.Request{Root: root, GitleaksAllow: true}, wire.NewBlock("a.go", "", 1, []byte(text)))
	if len(res.Findings) != 0 {
		t.Fatalf(".gitleaksignore fingerprint not honoured: %+v", res.Findings)
	}
	res, _, _ = runMain(t, wire.Request{Root: root}, wire.NewBlock("b.go", "abc123", 1, []byte(s.Line)), wire.NewBlock("b.go", "def456", 1, []byte(s.Line)))
	if len(res.Findings) != 1 || res.Findings[0].Commit != "def456" || res.Findings[0].Fingerprint != "def456:b.go:github-pat:1" {
		t.Fatalf("commit fingerprints: %+v", res.Findings)
	}
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestRepositoryConfig(t *testing.T) {
	// Lines without generic keywords, so only the rules under test fire.
	patLine := `v := "` + fakesecret.GitHubPAT().Value + `"`
	custom := "w := \"itk_" + strings.Repeat("q", 3) + "9Zx7Lm2Pw4Rt6Yv8\"\n"
	cases := []struct {
		name, config string
		want         []string // rules found, in order
	}{
		{"extend default adds a rule", `
[extend]
useDefault = true
[[rules]]
id = "internal-token"
regex = '''itk_[A-Za-z0-9]{16}'''
keywords = ["itk_"]
`, []string{"github-pat", "internal-token"}},
		{"without extend only the file's rules apply", `
[[rules]]
id = "internal-token"
regex = '''itk_[A-Za-z0-9]{16}'''
keywords = ["itk_"]
`, []string{"internal-token"}},
		{"disabled default rule", `
[extend]
useDefault = true
disabledRules = ["github-pat"]
`, nil},
		{"allowlist targeting a default rule", `
[extend]
useDefault = true
[[allowlists]]
targetRules = ["github-pat"]
regexTarget = "line"
regexes = ['''^v :=''']
`, nil},
		{"rule override adds an allowlist", `
[extend]
useDefault = true
[[rules]]
id = "github-pat"
[[rules.allowlists]]
paths = ['''^a\.go$''']
`, nil},
		{"global path allowlist", `
[extend]
useDefault = true
[allowlist]
paths = ['''^a\.go$''']
`, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, root, ConfigFileName, tc.config)
			// Twice in one process: gitleaks' own loader breaks on the second load.
			for range 2 {
				res, code, _ := runMain(t, wire.Request{Root: root}, wire.NewBlock("a.go", "", 1, []byte(patLine+"\n"+custom)))
				if code != ExitOK {
					t.Fatalf("exit %d: %s", code, res.Error)
				}
				var got []string
				for _, f := range res.Findings {
					got = append(got, f.Rule)
				}
				if strings.Join(got, ",") != strings.Join(tc.want, ",") {
					t.Fatalf("rules found %v, want %v", got, tc.want)
				}
			}
		})
	}
}

func TestBrokenRepositoryConfigFailsClosed(t *testing.T) {
	cases := []struct{ name, config, want string }{
		{"syntax", "[[rules]]\nid = \"x\nregex = 'a'\n", `gitleaks config .gitleaks.toml:2`},
		{"bad regex", "[extend]\nuseDefault = true\n\n[[rules]]\nid = \"mine\"\nregex = '''(unclosed'''\n", `gitleaks config .gitleaks.toml:6: key rules[0] (id "mine").regex: error parsing regexp: missing closing )`},
		{"bad allowlist regex", "[[allowlists]]\nregexes = ['''[z-a]''']\n", `key allowlists[0].regexes[0]: error parsing regexp: invalid character class range`},
		{"unknown key", "[[rules]]\nid = \"x\"\nregexx = 'a'\n", `key rules.regexx: not a gitleaks`},
		{"rule without pattern", "[[rules]]\nid = \"empty\"\nkeywords = [\"e\"]\n", `empty: both |regex| and |path| are empty`},
		{"bad secret group", "[[rules]]\nid = \"sg\"\nregex = 'a(b)'\nsecretGroup = 3\n", `invalid regex secret group 3`},
		{"unknown target", "[extend]\nuseDefault = true\n[[allowlists]]\ntargetRules = [\"nope\"]\nstopwords = [\"x\"]\n", `target rule "nope" does not exist`},
		{"both extends", "[extend]\nuseDefault = true\npath = \"other.toml\"\n", `useDefault and path cannot both be set`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, root, ConfigFileName, tc.config)
			res, code, all := runMain(t, wire.Request{Root: root}, wire.NewBlock("a.go", "", 1, []byte("x := 1\n")))
			if code != ExitError {
				t.Fatalf("exit %d, want %d", code, ExitError)
			}
			if !strings.Contains(res.Error, tc.want) {
				t.Fatalf("error %q does not contain %q", res.Error, tc.want)
			}
			if !strings.Contains(all, "swarm-guard-secrets: "+res.Error) {
				t.Fatalf("stderr does not end with the error:\n%s", all)
			}
		})
	}
}

func TestExtendPath(t *testing.T) {
	root := t.TempDir()
	write(t, root, "base.toml", "[extend]\nuseDefault = true\n[[rules]]\nid = \"internal-token\"\nregex = '''itk_[A-Za-z0-9]{16}'''\nkeywords = [\"itk_\"]\n")
	write(t, root, ConfigFileName, "[extend]\npath = \"base.toml\"\ndisabledRules = [\"github-pat\"]\n")
	text := `v := "` + fakesecret.GitHubPAT().Value + `"` + "\nx = \"itk_abcdefgh12345678\"\n"
	res, code, _ := runMain(t, wire.Request{Root: root}, wire.NewBlock("a.go", "", 1, []byte(text)))
	if code != ExitOK || len(res.Findings) != 1 || res.Findings[0].Rule != "internal-token" {
		t.Fatalf("exit %d, findings %+v, error %q", code, res.Findings, res.Error)
	}
}

func TestBadInputNeverPanics(t *testing.T) {
	s := fakesecret.GitHubPAT()
	invalid := append([]byte{0xff, 0xfe, 'x', '\n'}, []byte(s.Line+"\n\x00\x01binary\xc3\x28\n")...)
	res, code, all := runMain(t, wire.Request{}, wire.NewBlock("weird.txt", "", 1, invalid), wire.NewBlock("", "", 0, nil))
	if code != ExitOK || len(res.Findings) != 1 || res.Findings[0].Line != 2 {
		t.Fatalf("exit %d, findings %+v, error %q", code, res.Findings, res.Error)
	}
	assertNoSecret(t, all, s.Value)

	for name, in := range map[string]string{
		"empty stdin":   "",
		"not json":      "hello\n",
		"wrong version": `{"version":99}` + "\n",
		"bad block":     `{"version":1}` + "\n" + `{"line":"x"}` + "\n",
	} {
		var out, errOut bytes.Buffer
		if code := Main(nil, strings.NewReader(in), &out, &errOut); code != ExitError {
			t.Errorf("%s: exit %d", name, code)
		}
		var r wire.Result
		if err := json.Unmarshal(out.Bytes(), &r); err != nil || r.Error == "" {
			t.Errorf("%s: result %q (%v)", name, out.String(), err)
		}
	}
	var out bytes.Buffer
	if code := Main([]string{"--bogus"}, strings.NewReader(""), &out, io.Discard); code != ExitError {
		t.Errorf("unknown flag: exit %d", code)
	}
}
