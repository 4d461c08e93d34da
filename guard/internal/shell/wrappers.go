package shell

import "strings"

// Wrapped returns the command a plain wrapper runs, one that takes its own
// options (and, for some, fixed operands) and then runs another command,
// doing nothing else the guard judges: nohup rm x runs rm x,
// timeout -s 9 10 git push runs git push, chroot /srv sh runs sh. It is
// nil when the wrapper runs no command (command -v git, taskset -p 3 42,
// chrt with a policy word it cannot read) or is not a plain wrapper:
// exec, command, builtin, nohup, unbuffer, catchsegv, setsid, nice,
// ionice, timeout, stdbuf, chrt, taskset, caffeinate, chroot, busybox,
// toybox.
func Wrapped(inv *Invocation) []Word {
	args := inv.Args()
	stop := Spec{Stop: true}
	switch inv.Name {
	case "exec":
		return ParseOpts(args, Spec{Short: "a", Stop: true}).Rest
	case "command":
		p := ParseOpts(args, stop)
		if p.Has("v", "V") {
			return nil // command -v only looks the name up
		}
		return p.Rest
	case "builtin":
		return args
	case "nohup", "unbuffer", "catchsegv", "setsid":
		return ParseOpts(args, stop).Rest
	case "nice":
		// nice -5 cmd and nice -n 5 cmd
		if len(args) > 0 && len(args[0].Text) > 1 && args[0].Text[0] == '-' && IsDigits(args[0].Text[1:]) {
			args = args[1:]
		}
		return ParseOpts(args, Spec{Short: "n", Long: Longs("adjustment"), Stop: true}).Rest
	case "ionice":
		return ParseOpts(args, Spec{Short: "cnp", Long: Longs("class", "classdata", "pid", "pgid", "uid"), Stop: true}).Rest
	case "timeout":
		p := ParseOpts(args, Spec{Short: "sk", Long: Longs("signal", "kill-after"), Stop: true})
		if len(p.Rest) > 0 {
			return p.Rest[1:] // skip DURATION
		}
	case "stdbuf":
		return ParseOpts(args, Spec{Short: "ioe", Long: Longs("input", "output", "error"), Stop: true}).Rest
	case "chrt":
		p := ParseOpts(args, Spec{Short: "T P D", Stop: true})
		if len(p.Rest) > 0 && IsDigits(p.Rest[0].Text) {
			return p.Rest[1:] // skip the priority
		}
	case "taskset":
		p := ParseOpts(args, stop)
		if len(p.Rest) > 0 && !p.Has("p", "pid") {
			return p.Rest[1:] // skip the CPU mask
		}
	case "caffeinate":
		return ParseOpts(args, Spec{Short: "tw", Stop: true}).Rest
	case "chroot":
		p := ParseOpts(args, Spec{Long: Longs("userspec", "groups"), Stop: true})
		if len(p.Rest) > 1 {
			return p.Rest[1:] // skip the new root
		}
	case "busybox", "toybox":
		if len(args) > 0 && !strings.HasPrefix(args[0].Text, "-") {
			return args
		}
	}
	return nil
}
