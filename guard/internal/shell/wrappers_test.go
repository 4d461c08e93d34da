package shell

import (
	"reflect"
	"strings"
	"testing"
)

// TestWrapped pins the command each plain wrapper runs, and the forms
// that run none.
func TestWrapped(t *testing.T) {
	cases := map[string]string{
		"nohup rm -rf x":                 "rm -rf x",
		"nohup -- rm x":                  "rm x",
		"exec -a name git push":          "git push",
		"command -p git push":            "git push",
		"command -v git":                 "",
		"builtin cd /":                   "cd /",
		"nice -5 make":                   "make",
		"nice -n 5 make":                 "make",
		"ionice -c 3 rm x":               "rm x",
		"timeout -s KILL 10 git push -f": "git push -f",
		"timeout --kill-after=5 10 sh":   "sh",
		"timeout":                        "",
		"stdbuf -oL grep x":              "grep x",
		"setsid -f sh -c x":              "sh -c x",
		"chrt 10 rm x":                   "rm x",
		"chrt -f 10 rm x":                "rm x",
		"taskset 0x3 rm x":               "rm x",
		"taskset -p 0x3 42":              "",
		"caffeinate -t 5 make":           "make",
		"chroot /srv sh":                 "sh",
		"chroot /srv":                    "",
		"busybox rm -rf /":               "rm -rf /",
		"busybox --list":                 "",
		"sudo rm x":                      "", // not a plain wrapper: package guard models sudo
	}
	for line, want := range cases {
		argv := words(strings.Fields(line)...)
		got := strings.Join(texts(Wrapped(&Invocation{Name: argv[0].Text, Argv: argv})), " ")
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: runs %q, want %q", line, got, want)
		}
	}
}
