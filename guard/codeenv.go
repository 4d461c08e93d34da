package guard

import (
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/swarm-guard/swarm-guard/guard/effect"
)

// Interpreter code that reads the whole environment (exfiltration's
// source in code): python's os.environ as a whole, node's process.env,
// Deno.env.toObject(), ruby's ENV.to_h, perl's %ENV, php's getenv().
// Reading one variable (os.environ["HOME"], process.env.PATH) is not a
// dump. A dump printed into a pipeline is a source like env; a dump sent
// by the same code's own network call is judged there (interp.go).

var codeEnvPatterns = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`\bos\.environb?(\s*[)},]|\.(items|copy|keys|values)\(|\s*$)`),
		regexp.MustCompile(`\bprocess\.env(\s*[)},;]|\s*$)`),
		regexp.MustCompile(`\bDeno\.env\.toObject\(`),
		regexp.MustCompile(`\bENV\.(to_h|to_a|to_hash|inspect|each|map|select|to_s)\b`),
		regexp.MustCompile(`%ENV\b`),
		regexp.MustCompile(`\bgetenv\(\s*\)|\$_ENV\b\s*[^\[\s]`),
	}
})

// codeEnvDump is the environment as a secret source when code reads all
// of it (Via: the expression that reads it, os.environ), or none.
func codeEnvDump(code string) *effect.Source {
	for _, re := range codeEnvPatterns() {
		if m := re.FindString(code); m != "" {
			return &effect.Source{Kind: effect.EnvironmentDump, Via: strings.TrimSpace(strings.TrimRight(m, "(),};"))}
		}
	}
	return nil
}

var codeNetworkRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\burllib\b|\brequests\.|\bhttp\.client\b|\bhttpx\b|\baiohttp\b|\bsocket\b|\bfetch\(|\bhttps?\.(request|get)\(|\baxios\b|XMLHttpRequest|Net::HTTP|\bLWP\b|IO::Socket|HTTP::Tiny|\bcurl_|fsockopen|Deno\.connect|WebSocket|smtplib|ftplib`)
})

// codeNetworks reports whether code uses a network client.
func codeNetworks(code string) bool { return codeNetworkRe().MatchString(code) }

var codeURLRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`https?://[^\s'"\x60)]+`) })

// codeURLHosts are the hosts of the URLs written in code, in order.
func codeURLHosts(code string) []string {
	var out []string
	for _, u := range codeURLRe().FindAllString(code, 8) {
		if h := urlHost(u); h != "" {
			out = append(out, h)
		}
	}
	return out
}

// interpreterEnvDump is the taint of an interpreter stage whose inline code
// prints the whole environment: python3 -c 'print(dict(os.environ))' | nc.
func interpreterEnvDump(words []string) *effect.Source {
	if len(words) < 3 {
		return nil
	}
	switch name := path.Base(words[0]); {
	case strings.HasPrefix(name, "python"), name == "node", name == "nodejs", name == "bun", name == "deno",
		strings.HasPrefix(name, "ruby"), strings.HasPrefix(name, "perl"), strings.HasPrefix(name, "php"):
	default:
		return nil
	}
	for i, w := range words[1 : len(words)-1] {
		switch w {
		case "-c", "-e", "-E", "-pe", "-ne", "-le", "--eval", "-r", "eval":
			if d := codeEnvDump(words[i+2]); d != nil {
				return d
			}
		}
	}
	return nil
}

// lazyRegexp compiles a pattern on first use, keeping process start cheap.
func lazyRegexp(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}
