package guard

import (
	"slices"
	"testing"
)

func TestParseSed(t *testing.T) {
	for script, want := range map[string]sedEffects{
		"s/a/b/g":                 {},
		"1e git push -f":          {execs: []string{"git push -f"}},
		"s/.*/rm -rf ~/e":         {execs: []string{"rm -rf ~"}, execLine: true},
		"s/^//e":                  {execLine: true},
		"/x/w out.txt":            {writes: []string{"out.txt"}},
		"s/a/b/w /etc/motd":       {writes: []string{"/etc/motd"}},
		"1r .env":                 {reads: []string{".env"}},
		"s/e/w/;p":                {},
		`s/\/e/x/`:                {},
		"y/abc/xyz/":              {},
		"/start/,/end/d;$a\\done": {},
		"3,5{s/x/y/;w log.txt\n}": {writes: []string{"log.txt"}},
	} {
		got := parseSed(script)
		if !slices.Equal(got.execs, want.execs) || got.execLine != want.execLine || !slices.Equal(got.writes, want.writes) || !slices.Equal(got.reads, want.reads) {
			t.Errorf("parseSed(%q) = %+v, want %+v", script, got, want)
		}
	}
}
