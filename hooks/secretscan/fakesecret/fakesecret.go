package fakesecret

import (
	"crypto/rand"
	"encoding/base64"
	"math/big"
	"strings"
)

const (
	upper32  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567" // AWS key id alphabet
	alnum    = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	digits   = "0123456789"
	lowerHex = "0123456789abcdef"
	// generic is for values only gitleaks' generic rule finds. That rule
	// drops a value holding one of ~1,500 stop words ("add", "html",
	// "sync" ...), which about 1 in 100 random alphanumeric values does,
	// and one whose entropy is low. No stop word can be spelled without
	// vowels and h, m, p, s, x and 0; 41 characters keep the entropy high.
	generic = "BCDFGJKLNQRTVWYZbcdfgjklnqrtvwyz123456789"
)

// random returns n characters drawn uniformly from alphabet.
func random(alphabet string, n int) string {
	var b strings.Builder
	max := big.NewInt(int64(len(alphabet)))
	for range n {
		i, err := rand.Int(rand.Reader, max)
		if err != nil {
			panic("fakesecret: no randomness: " + err.Error())
		}
		b.WriteByte(alphabet[i.Int64()])
	}
	return b.String()
}

// genericValue is a random value for the generic rule, with a digit so
// that its letters-only allowlist cannot apply.
func genericValue(n int) string {
	return random(generic, n-1) + random("123456789", 1)
}

// Secret is one fake credential and a line of code that holds it.
type Secret struct {
	Kind  string // what it imitates
	Rule  string // the gitleaks rule that finds it
	Value string // the credential itself: must never appear in any output
	Line  string // a line of source code holding it
}

// AWSAccessKeyID imitates an AWS access key id.
func AWSAccessKeyID() Secret {
	v := "AK" + "IA" + random(upper32, 16)
	return Secret{Kind: "AWS access key id", Rule: "aws-access-token", Value: v, Line: `aws_access_key_id = "` + v + `"`}
}

// AWSSecretAccessKey imitates an AWS secret access key in a config
// assignment, which gitleaks finds with its generic rule.
func AWSSecretAccessKey() Secret {
	v := genericValue(40)
	return Secret{Kind: "AWS secret access key", Rule: "generic-api-key", Value: v, Line: `aws_secret_access_key = "` + v + `"`}
}

// GitHubPAT imitates a classic GitHub personal access token.
func GitHubPAT() Secret {
	v := "gh" + "p_" + random(alnum, 36)
	return Secret{Kind: "GitHub token", Rule: "github-pat", Value: v, Line: `token := "` + v + `"`}
}

// GitHubFineGrainedPAT imitates a fine-grained GitHub token.
func GitHubFineGrainedPAT() Secret {
	v := "github" + "_pat_" + random(alnum+"_", 82)
	return Secret{Kind: "GitHub fine-grained token", Rule: "github-fine-grained-pat", Value: v, Line: `GITHUB_TOKEN=` + v}
}

// SlackBotToken imitates a Slack bot token.
func SlackBotToken() Secret {
	v := "xo" + "xb-" + random(digits, 12) + "-" + random(digits, 13) + "-" + random(alnum, 24)
	return Secret{Kind: "Slack bot token", Rule: "slack-bot-token", Value: v, Line: `slack_bot = "` + v + `"`}
}

// PrivateKey imitates a PEM private-key block; Line holds the whole block.
func PrivateKey() Secret {
	raw := make([]byte, 600)
	if _, err := rand.Read(raw); err != nil {
		panic("fakesecret: no randomness: " + err.Error())
	}
	body := base64.StdEncoding.EncodeToString(raw)
	var lines []string
	for len(body) > 64 {
		lines = append(lines, body[:64])
		body = body[64:]
	}
	lines = append(lines, body)
	armour := func(word string) string { return "-----" + word + " RSA " + "PRIVATE" + " KEY-----" }
	v := armour("BEGIN") + "\n" + strings.Join(lines, "\n") + "\n" + armour("END")
	return Secret{Kind: "private key", Rule: "private-key", Value: v, Line: v}
}

// GenericAPIKey imitates an api_key assignment with a random value.
func GenericAPIKey() Secret {
	v := genericValue(32)
	return Secret{Kind: "generic API key", Rule: "generic-api-key", Value: v, Line: `api_key = "` + v + `"`}
}

// All returns one of each kind.
func All() []Secret {
	return []Secret{AWSAccessKeyID(), AWSSecretAccessKey(), GitHubPAT(), GitHubFineGrainedPAT(), SlackBotToken(), PrivateKey(), GenericAPIKey()}
}

// Clean returns text that looks secret-ish but holds no secret: UUIDs,
// hashes, a lockfile-style integrity line, AWS's documented EXAMPLE keys,
// environment-variable references and ordinary code.
func Clean() []string {
	uuid := random(lowerHex, 8) + "-" + random(lowerHex, 4) + "-4" + random(lowerHex, 3) + "-a" + random(lowerHex, 3) + "-" + random(lowerHex, 12)
	return []string{
		`id := "` + uuid + `"`,
		`sha256 = "` + random(lowerHex, 64) + `"`,
		`commit ` + random(lowerHex, 40),
		`aws_access_key_id = "AK` + `IAIOSFODNN7` + `EXAMPLE"`,
		`api_key = os.Getenv("API_KEY")`,
		`token := ${GITHUB_TOKEN}`,
		`password = "${DB_PASSWORD}"`,
		"func add(a, b int) int { return a + b }",
		`"version": "1.2.3",`,
	}
}
