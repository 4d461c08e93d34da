package redact

import (
	"math/rand"
	"strings"
	"testing"
)

// fake builds a credential-shaped string at test time: no real-looking
// secret is committed to the repository.
func fake(prefix string, n int, alphabet string) string {
	r := rand.New(rand.NewSource(int64(len(prefix) * n)))
	b := []byte(prefix)
	for i := 0; i < n; i++ {
		b = append(b, alphabet[r.Intn(len(alphabet))])
	}
	return string(b)
}

const (
	upperNum = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	alnum    = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
)

func TestStringMasksSecrets(t *testing.T) {
	secrets := []string{
		fake("AKIA", 16, upperNum),
		fake("ghp_", 36, alnum),
		fake("github_pat_", 40, alnum),
		fake("xoxb-", 30, alnum),
		fake("sk-ant-", 40, alnum),
	}
	for _, s := range secrets {
		for _, text := range []string{
			"curl -H 'X: " + s + "' https://x",
			"export TOKEN=" + s,
			"git remote add o https://user:" + s + "@github.com/x",
			"echo " + s,
		} {
			out := String(text)
			if strings.Contains(out, s) {
				t.Errorf("secret survived: %q -> %q", text, out)
			}
			if !strings.Contains(out, Mask) {
				t.Errorf("no mask in %q", out)
			}
		}
	}
	for _, text := range []string{
		"curl -H \"Authorization: Bearer " + fake("", 32, alnum) + "\" https://api",
		"mysql --password=" + fake("", 12, alnum),
		"api_key = \"" + fake("", 24, alnum) + "\"",
		"-----BEGIN RSA PRIVATE KEY-----\n" + fake("", 64, alnum) + "\n-----END RSA PRIVATE KEY-----",
	} {
		if out := String(text); out == text || !strings.Contains(out, Mask) {
			t.Errorf("not redacted: %q -> %q", text, out)
		}
	}
}

// TestStringMasksLoginPasswords: a password given to curl -u or httpie
// -a is masked, the user name kept; a user alone, a placeholder and other
// programs' -u (docker run -u 1000:1000) are ordinary text.
func TestStringMasksLoginPasswords(t *testing.T) {
	pw := fake("", 14, alnum)
	// Built at test time, so that no curl command with a password is
	// written in the source (the repository's own secret scan).
	for _, c := range [][3]string{
		{"curl", "-u ", " https://build.example/job/1"},
		{"curl", "-sSfu ", " build.example/job/1"},
		{"curl", "--user=", " https://build.example/job/1"},
		{"cd x && curl", "-o out.json --user ", " https://build.example"},
		{"http", "-a ", " https://build.example"},
		{"xh", "--auth ", " build.example"},
	} {
		text := c[0] + " " + c[1] + "ci:" + pw + c[2]
		out := String(text)
		if strings.Contains(out, pw) || !strings.Contains(out, "ci:"+Mask) {
			t.Errorf("password not masked: %q -> %q", text, out)
		}
	}
	for _, text := range []string{
		"curl -u ci https://build.example",
		"curl -u \"ci:$CI_PASSWORD\" https://build.example",
		"curl -u ci:<password> https://build.example",
		"docker run -u 1000:1000 app",
		"git push -u origin HEAD:agent-1",
	} {
		if out := String(text); out != text {
			t.Errorf("changed ordinary text: %q -> %q", text, out)
		}
	}
}

func TestStringKeepsOrdinaryText(t *testing.T) {
	for _, text := range []string{
		"go test ./...",
		"git push origin feature",
		"export TOKEN=$GITHUB_TOKEN",
		"password = \"${DB_PASSWORD}\"",
		"rm -rf build",
		"git log --grep=auth",
	} {
		if out := String(text); out != text {
			t.Errorf("changed ordinary text: %q -> %q", text, out)
		}
	}
}

func BenchmarkStringCommand(b *testing.B) {
	cmd := `cd /work/repo && git add -A && git commit -m "feat: parser" && git push origin HEAD:agent-1 2>&1 | tee /tmp/push.log`
	for b.Loop() {
		String(cmd)
	}
}
