package keywords

import (
	"strings"
	"sync"
)

// Covered are the default rules Clean has a necessary condition for, and
// the pattern each condition is proven for (conditions.go). A gitleaks
// update that changes a pattern, or gives another rule one of their
// keywords, fails TestCleanMatchesTheRules (scanner package).
var Covered = map[string]string{
	"generic-api-key":     `(?i)[\w.-]{0,50}?(?:access|auth|(?-i:[Aa]pi|API)|credential|creds|key|passw(?:or)?d|secret|token)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([\w.=-]{10,150}|[a-z0-9][a-z0-9+/]{11,}={0,3})(?:[\x60'"\s;]|\\[nr]|$)`,
	"jwt":                 `\b(ey[a-zA-Z0-9]{17,}\.ey[a-zA-Z0-9\/\\_-]{17,}\.(?:[a-zA-Z0-9\/\\_-]{10,}={0,2})?)(?:[\x60'"\s;]|\\[nr]|$)`,
	"vault-service-token": `\b((?:hvs\.[\w-]{90,120}|s\.(?i:[a-z0-9]{24})))(?:[\x60'"\s;]|\\[nr]|$)`,
	"twilio-api-key":      `SK[0-9a-fA-F]{32}`,
}

// coveredMay are the conditions of the Covered rules.
var coveredMay = map[string]func(string) bool{
	"generic-api-key":     MayGeneric,
	"jwt":                 MayJWT,
	"vault-service-token": MayVaultToken,
	"twilio-api-key":      MayTwilio,
}

// CoveredKeywords maps keywords of the Covered rules to the rules that
// list them; no other default rule lists any of them. ("secret" and
// "password", which kubernetes-secret-yaml and hashicorp-tf-password list
// too, are not here: a text holding them goes to the scanner.)
var CoveredKeywords = map[string][]string{
	"access": {"generic-api-key"}, "api": {"generic-api-key"}, "auth": {"generic-api-key"},
	"credential": {"generic-api-key"}, "creds": {"generic-api-key"}, "key": {"generic-api-key"},
	"passwd": {"generic-api-key"}, "token": {"generic-api-key"},
	"ey":   {"jwt"},
	"hvs.": {"vault-service-token"}, "s.": {"vault-service-token"},
	"sk": {"twilio-api-key"},
}

// PathRules are the default rules without keywords, which look at a
// file's path only (the scanner runs them on every text), with their
// path pattern.
var PathRules = map[string]string{
	"pkcs12-file": `(?i)(?:^|\/)[^\/]+\.p(?:12|fx)$`,
}

// mayPKCS12 is a necessary condition of pkcs12-file's path pattern.
func mayPKCS12(path string) bool {
	l := strings.ToLower(path)
	return strings.HasSuffix(l, ".p12") || strings.HasSuffix(l, ".pfx")
}

// uncoveredIndex finds the default keywords not in CoveredKeywords.
var uncoveredIndex = sync.OnceValue(func() *Index {
	var kws []string
	for _, k := range Default {
		if _, ok := CoveredKeywords[k]; !ok {
			kws = append(kws, k)
		}
	}
	return NewIndex(kws)
})

// Clean reports whether gitleaks' default rules provably find nothing in
// text, written to path: every keyword it holds belongs to a Covered rule
// whose condition the text fails, the decoder has nothing to decode in
// it, and its path is not one a path rule flags. A text holding a rune
// whose case folds to ASCII is never proven clean (FoldsToASCII: the
// Kelvin sign is a k to gitleaks' keyword search and (?i) patterns);
// every other non-ASCII byte is in no keyword and no class the covered
// patterns use. Only the default rules: with a repository's .gitleaks.toml
// the scanner must decide. False means "may hold one": ask the scanner.
//
// The conditions see the whole text; the scanner cuts big texts into
// pieces and windows at line ends only, and a piece of a text cut so
// fails each condition the text fails.
func Clean(path, text string) bool {
	if mayPKCS12(path) {
		return false
	}
	if FoldsToASCII(text) {
		return false
	}
	if MayDecode(text) {
		return false
	}
	if uncoveredIndex().AnyFold(text) {
		return false
	}
	// Every keyword the text holds is a covered rule's: each such rule
	// must fail its condition. (A condition is checked even when its
	// rule's keywords are absent; that only makes Clean say "may" more.)
	for _, may := range coveredMay {
		if may(text) {
			return false
		}
	}
	return true
}

// MayTwilio is the necessary condition of twilio-api-key,
// SK[0-9a-fA-F]{32}: "SK" and then 32 hexadecimal digits.
func MayTwilio(text string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], "SK")
		if j < 0 {
			return false
		}
		at := i + j + 2
		if run(text[at:], isHexDigit) >= 32 {
			return true
		}
		i = at - 1
	}
}

func isHexDigit(c byte) bool { return isHex(c) }
