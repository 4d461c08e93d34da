package keywords

import (
	"encoding/base64"
	"strings"
)

// Default are the keywords of the default rules, lower-case and sorted.
var Default = []string{
	"-----begin",
	"4b1d",
	"<add key=",
	"_gitlab_session=",
	"_mmk",
	"_pub",
	"a3-",
	"a3t",
	"abia",
	"absk",
	"acca",
	"access",
	"adafruit",
	"administrator_login_password",
	"adobe",
	"age-secret-key-1",
	"airtable",
	"aiza",
	"akcp",
	"akia",
	"algolia",
	"alibaba",
	"api",
	"api-",
	"api_org_",
	"artifactory",
	"asana",
	"asia",
	"atatt3",
	"atlassian",
	"atlasv1",
	"auth",
	"authress_",
	"beamer",
	"bedrock-api-key-",
	"bintray",
	"bitbucket",
	"bittrex",
	"bundle_enterprise__contribsys__com",
	"bundle_gems__contribsys__com",
	"clojars_",
	"cloudflare",
	"cmvmd",
	"co_api_key",
	"codecov",
	"cohere",
	"coinbase",
	"confluence",
	"confluent",
	"contentful",
	"credential",
	"creds",
	"curl",
	"dapi",
	"datadog",
	"discord",
	"dnkey",
	"doo_v1_",
	"dop_v1_",
	"dor_v1_",
	"dp.pt.",
	"droneci",
	"dropbox",
	"dt0c01.",
	"duffel_",
	"eaaa",
	"eaac",
	"eaam",
	"enterprise.contribsys.com",
	"etsy",
	"ext_",
	"ey",
	"eyjrijoi",
	"ezak",
	"eztk",
	"facebook",
	"fastly",
	"finicity",
	"finnhub",
	"fio-u-",
	"flickr",
	"flwpubk_test",
	"flwseck_test",
	"fm1",
	"fm2_",
	"fo1_",
	"freshbooks",
	"gems.contribsys.com",
	"gho_",
	"ghp_",
	"ghr_",
	"ghs_",
	"ghu_",
	"github_pat_",
	"gitter",
	"glagent-",
	"glc_",
	"glcbt-",
	"gldt-",
	"glffct-",
	"glft-",
	"glimt-",
	"gloas-",
	"glpat-",
	"glptt-",
	"glrt-",
	"glsa_",
	"glsoat-",
	"gocardless",
	"gr1348941",
	"heroku",
	"hf_",
	"hooks.slack.com",
	"hrku-aa",
	"hubspot",
	"hvb.",
	"hvs.",
	"ico-",
	"incomingwebhook",
	"intercom",
	"intra",
	"jfrog",
	"jira",
	"key",
	"kraken",
	"kucoin",
	"launchdarkly",
	"lin_api_",
	"linear",
	"linked-in",
	"linked_in",
	"linkedin",
	"live_",
	"live_pub",
	"looker",
	"ltai",
	"mailchimp",
	"mailgun",
	"mapbox",
	"mattermost",
	"meraki",
	"message-bird",
	"message_bird",
	"messagebird",
	"netlify",
	"new-relic",
	"new-york-times",
	"new_relic",
	"newrelic",
	"newyorktimes",
	"npm_",
	"nrak",
	"nrii-",
	"nrjs-",
	"ntn_",
	"nytimes",
	"okta",
	"ops_",
	"p8e-",
	"passwd",
	"password",
	"pat.",
	"plaid",
	"pmak-",
	"pnu_",
	"pplx-",
	"private-ai",
	"private_ai",
	"privateai",
	"pscale_oauth_",
	"pscale_pw_",
	"pscale_tkn_",
	"pul-",
	"pypi-ageichlwas5vcmc",
	"q~",
	"rapidapi",
	"rdme_",
	"rk_live",
	"rk_prod",
	"rk_test",
	"rubygems_",
	"s-s4t2af-",
	"s-s4t2ud-",
	"s.",
	"sat.",
	"sc_",
	"scauth_",
	"secret",
	"secret_key",
	"sendbird",
	"sentry",
	"sg.",
	"sgp_",
	"sha256~",
	"shippo_",
	"shpat_",
	"shpca_",
	"shppa_",
	"shpss_",
	"sk",
	"sk-ant-admin01",
	"sk-ant-api03",
	"sk_live",
	"sk_prod",
	"sk_test",
	"sm_aat",
	"sm_pat",
	"sm_sat",
	"sntrys_eyjpyxqio",
	"sntryu_",
	"snyk",
	"sonar",
	"sourcegraph",
	"sq0atp-",
	"squarespace",
	"sumo",
	"t3blbkfj",
	"telegr",
	"test_",
	"test_pub",
	"tfp_",
	"tk-us-",
	"token",
	"travis",
	"twitch",
	"twitter",
	"v1.0-",
	"webhook.office.com",
	"webhookb2",
	"xapp",
	"xkeysib-",
	"xoxa",
	"xoxb",
	"xoxe-",
	"xoxe.xoxb-",
	"xoxe.xoxp-",
	"xoxo",
	"xoxp-",
	"xoxr",
	"xoxs",
	"xray",
	"yandex",
	"zendesk",
	"zxlk",
}

// MayHoldSecret reports whether gitleaks' default rules could find
// something in text: it holds one of their keywords (case-insensitively,
// as gitleaks matches them), or an encoded segment gitleaks' decoder would
// decode and search again.
func MayHoldSecret(text string) bool {
	if MayDecode(text) {
		return true
	}
	lower := strings.ToLower(text)
	for _, k := range Default {
		if strings.Contains(lower, k) {
			return true
		}
	}
	return false
}

// MayDecode is a cheap and conservative stand-in for the first pass of
// gitleaks' decoder: false means that pass finds no segment, so Detect
// may skip decoding altogether. The decoder's regular expression costs
// about a millisecond per 10 KB; this costs a few microseconds.
//
// The decoder looks for %XX and unicode escapes (left to the real decoder
// whenever they occur), hex runs of 32+ and base64 runs of 16+ characters.
// A run counts only when it decodes to printable ASCII: mostly it is an
// identifier, an import path or a hash, and decodes to noise. The rules
// mirrored here are codec's (encodings.go, base64.go, hex.go, ascii.go);
// TestMayDecodeAgreesWithGitleaks (scanner package) holds them to the linked version.
func MayDecode(s string) bool {
	for i := 0; i+2 < len(s); i++ {
		switch c := s[i]; {
		case c == '%' && isHex(s[i+1]) && isHex(s[i+2]):
			return true
		case (c == '+' && i > 0 && s[i-1] == 'U' || c == '\\' && (s[i+1] == 'u' || s[i+1] == 'U' || s[i+1] == '\\')) && i+5 < len(s):
			return true
		}
	}
	for i := 0; i < len(s); {
		if !isBase64(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isBase64(s[j]) {
			j++
		}
		run := s[i:j]
		pad := 0
		for pad < 2 && j+pad < len(s) && s[j+pad] == '=' {
			pad++
		}
		i = j
		if len(run) < 16 {
			continue
		}
		// At the start of a run the decoder's hex pattern wins over its
		// base64 pattern; the rest of the run is then base64.
		if h := hexPrefix(run); h >= 32 {
			if decodesHex(run[:h]) {
				return true
			}
			run = run[h:]
			if len(run) < 16 {
				continue
			}
		}
		if decodesBase64(run + s[j:j+pad]) {
			return true
		}
	}
	return false
}

func hexPrefix(s string) int {
	n := 0
	for n < len(s) && isHex(s[n]) {
		n++
	}
	return n
}

func printable(b []byte) bool {
	for _, c := range b {
		if c <= 0x08 || c >= 0x7f {
			return false
		}
	}
	return true
}

// decodesHex mirrors codec.decodeHex: even length, a digit, printable.
func decodesHex(s string) bool {
	if len(s)%2 != 0 || !strings.ContainsAny(s, "0123456789") {
		return false
	}
	b, ok := decodeHex(s)
	return ok && printable(b)
}

// decodeHex is hex.DecodeString's answer (ok: no error) for an
// even-length s, without linking encoding/hex, whose import of fmt
// swarm-guard-post, which links this package, would pay for at start-up.
func decodeHex(s string) ([]byte, bool) {
	b := make([]byte, len(s)/2)
	for i := range b {
		hi, lo := s[2*i], s[2*i+1]
		if !isHex(hi) || !isHex(lo) {
			return nil, false
		}
		b[i] = hexVal(hi)<<4 | hexVal(lo)
	}
	return b, true
}

func hexVal(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// decodesBase64 mirrors codec.decodeBase64: one of 0-9 + / - _, then
// standard or raw URL base64 that decodes to printable ASCII.
func decodesBase64(s string) bool {
	if !strings.ContainsAny(s, "0123456789+/-_") {
		return false
	}
	if b, err := base64.StdEncoding.DecodeString(s); err == nil && printable(b) {
		return true
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	return err == nil && printable(b)
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// isBase64 matches the decoder's base64 class [\w/+-].
func isBase64(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '/' || c == '+' || c == '-'
}
