package packs

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/policy"
)

// system: commands that take the machine down, kill everything, wipe the
// scheduler or the firewall, or stop services. None of them is needed to
// build and test a project.
var system = &Pack{
	Name: "system",
	Programs: []string{"crontab", "kill", "pkill", "killall", "killall5", "shutdown", "reboot", "halt", "poweroff",
		"init", "telinit", "systemctl", "service", "iptables", "ip6tables", "nft", "ufw", "launchctl", "diskutil", "tmutil"},
	Rules: []Rule{
		{
			ID: policy.RuleDestructiveSystem, Name: "crontab-remove",
			Reason:  "removes the user's whole crontab",
			Instead: "list it with crontab -l; ask a human to change scheduled jobs",
			Match:   func(c Call) bool { return c.Program == "crontab" && c.Has("-r") },
			Deny:    []string{"crontab -r", "crontab -ir", "crontab -u www -r"},
			Allow:   []string{"crontab -l"},
		},
		{
			ID: policy.RuleDestructiveSystem, Name: "kill-everything",
			Reason:  "signals every process the user may signal (pid -1), or every process of a user or name pattern, the agent and other agents included",
			Instead: "kill the one process you started, by its pid (kill 12345) or an exact name (pkill -x myserver)",
			Match: func(c Call) bool {
				switch c.Program {
				case "kill":
					for _, p := range c.Positional { // kill -- -1
						if p == "-1" {
							return true
						}
					}
					// kill -9 -1, kill -s TERM -1: after the signal, -1 is the pid.
					for i, a := range c.Args {
						if a == "-1" && i > 0 {
							return true
						}
					}
					return false
				case "killall5":
					return true
				case "pkill", "killall":
					if c.Has("-u", "--user") {
						return true
					}
					pat := c.Pos(0)
					return pat == "." || pat == ".*" || pat == "^"
				}
				return false
			},
			Deny:  []string{"kill -9 -1", "kill -KILL -1", "kill -s TERM -1", "pkill -u agent", "pkill -9 .", "killall -u root", "killall5 -9"},
			Allow: []string{"kill 12345", "kill -9 12345", "pkill -x myserver", "pkill -f 'go run ./cmd/api'", "kill %1"},
		},
		{
			ID: policy.RuleDestructiveSystem, Name: "power-off",
			Reason:  "shuts down or restarts the machine every agent on it runs on",
			Instead: "stop only the process you started; ask a human to restart machines",
			Match: func(c Call) bool {
				switch c.Program {
				case "shutdown", "reboot", "halt", "poweroff":
					return !c.Has("--help")
				case "init", "telinit":
					return c.Pos(0) == "0" || c.Pos(0) == "6"
				case "systemctl":
					return c.Sub("reboot") || c.Sub("poweroff") || c.Sub("halt") || c.Sub("kexec") || c.Sub("suspend") || c.Sub("hibernate")
				}
				return false
			},
			Deny:  []string{"shutdown -h now", "reboot", "sudo poweroff", "systemctl reboot", "init 0"},
			Allow: []string{"uptime", "systemctl status nginx"},
		},
		{
			ID: policy.RuleDestructiveSystem, Name: "service-stop",
			Reason:  "stops, disables or masks a system service that others on the machine may depend on",
			Instead: "read service state with systemctl status; ask a human to stop services",
			Match: func(c Call) bool {
				switch c.Program {
				case "systemctl":
					return c.Sub("stop") || c.Sub("disable") || c.Sub("mask") || c.Sub("kill") || c.Sub("isolate")
				case "service":
					return c.Pos(1) == "stop"
				case "launchctl":
					return c.Sub("unload") || c.Sub("bootout") || c.Sub("remove") || c.Sub("disable")
				}
				return false
			},
			Deny:  []string{"systemctl stop docker", "sudo systemctl disable --now ssh", "service postgresql stop", "launchctl bootout gui/501/com.x"},
			Allow: []string{"systemctl status docker", "systemctl list-units --failed", "service postgresql status", "launchctl list"},
		},
		{
			ID: policy.RuleDestructiveSystem, Name: "firewall-flush",
			Reason:  "flushes or disables the firewall",
			Instead: "list rules with iptables -L or nft list ruleset; ask a human to change the firewall",
			Match: func(c Call) bool {
				switch c.Program {
				case "iptables", "ip6tables":
					return c.Has("-F", "--flush", "-X", "--delete-chain") || c.Has("-P") && strings.EqualFold(c.Pos(1), "ACCEPT")
				case "nft":
					return c.Sub("flush", "ruleset") || c.Sub("delete", "table")
				case "ufw":
					return c.Sub("disable") || c.Sub("reset")
				}
				return false
			},
			Deny:  []string{"iptables -F", "sudo iptables --flush INPUT", "nft flush ruleset", "ufw disable", "iptables -P INPUT ACCEPT"},
			Allow: []string{"iptables -L -n", "nft list ruleset", "ufw status"},
		},
		{
			ID: policy.RuleDestructiveSystem, Name: "macos-disk-erase",
			Reason:  "erases or repartitions a disk or volume, or deletes Time Machine backups (macOS)",
			Instead: "read disks with diskutil list or diskutil info; ask a human to erase or repartition",
			Match: func(c Call) bool {
				switch c.Program {
				case "diskutil":
					sub := strings.ToLower(c.Pos(0))
					switch sub {
					case "erasedisk", "erasevolume", "reformat", "zerodisk", "randomdisk", "secureerase", "partitiondisk",
						"splitpartition", "mergepartitions", "resizevolume":
						return true
					case "apfs", "ap", "corestorage", "cs", "appleraid", "ar":
						verb := strings.ToLower(c.Pos(1))
						return strings.HasPrefix(verb, "delete") || strings.HasPrefix(verb, "erase") || verb == "resizecontainer"
					}
				case "tmutil":
					return c.Sub("delete") || c.Sub("deletelocalsnapshots") || c.Sub("thinlocalsnapshots") || c.Sub("disable")
				}
				return false
			},
			Deny:  []string{"diskutil eraseDisk APFS Blank disk2", "diskutil zeroDisk disk3", "diskutil apfs deleteVolume disk1s5", "tmutil delete /Volumes/TM/Backups.backupdb/mac/latest", "tmutil deletelocalsnapshots /"},
			Allow: []string{"diskutil list", "diskutil info disk0", "tmutil listbackups", "tmutil status"},
		},
	},
}
