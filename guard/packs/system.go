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
		"init", "telinit", "systemctl", "service", "iptables", "ip6tables", "nft", "ufw", "launchctl", "diskutil", "tmutil",
		"userdel", "deluser", "groupdel", "delgroup", "usermod", "passwd", "chpasswd", "swapoff", "umount", "rmmod", "modprobe", "sysctl",
		"apt", "apt-get", "aptitude", "dnf", "yum", "microdnf", "zypper", "pacman", "apk", "brew", "port", "snap", "flatpak", "nix-env"},
	Rules: []Rule{
		{
			ID: policy.RuleDestructiveSystem, Name: "crontab-remove",
			Reason:  "removes the user's whole crontab",
			Instead: "list it with crontab -l; ask a human to change scheduled jobs",
			Match: func(c Call) bool {
				// crontab FILE (or crontab - on standard input) replaces the
				// whole table with the file's jobs.
				return c.Program == "crontab" && (c.Has("-r") || !c.Has("-l", "-e") && c.Pos(0) != "")
			},
			Deny:  []string{"crontab -r", "crontab -ir", "crontab -u www -r", "crontab mycron.txt", "echo '' | crontab -"},
			Allow: []string{"crontab -l", "crontab -l > cron.backup", "crontab -e"},
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
					// kill -9 -1, kill -s TERM -1: after the signal, -1 is the pid;
					// pid 1 is init, whose end takes the machine down.
					for i, a := range c.Args {
						if a == "-1" && i > 0 || a == "1" && (i == 0 || c.Args[i-1] != "-s" && c.Args[i-1] != "-n") {
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
					return pat == "." || pat == ".*" || pat == "^" || sharedPrograms[strings.Trim(pat, "^$")]
				}
				return false
			},
			Deny: []string{"kill -9 -1", "kill -KILL -1", "kill -s TERM -1", "pkill -u agent", "pkill -9 .", "killall -u root", "killall5 -9",
				"kill -9 1", "pkill node", "pkill -f node", "killall -9 python3", "pkill -x '^claude$'"},
			Allow: []string{"kill 12345", "kill -9 12345", "pkill -x myserver", "pkill -f 'go run ./cmd/api'", "kill %1", "kill -s 1 12345",
				"pkill -f 'node server.js --port 4123'", "killall my-dev-server"},
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
			Reason:  "stops, restarts, disables or masks a system service that others on the machine may depend on",
			Instead: "read service state with systemctl status; ask a human to stop services",
			Match: func(c Call) bool {
				switch c.Program {
				case "systemctl":
					return c.Sub("stop") || c.Sub("disable") || c.Sub("mask") || c.Sub("kill") || c.Sub("isolate") ||
						c.Sub("restart") || c.Sub("try-restart") || c.Sub("reload-or-restart")
				case "service":
					return c.Pos(1) == "stop" || c.Pos(1) == "restart"
				case "launchctl":
					return c.Sub("unload") || c.Sub("bootout") || c.Sub("remove") || c.Sub("disable")
				}
				return false
			},
			Deny: []string{"systemctl stop docker", "sudo systemctl disable --now ssh", "service postgresql stop", "launchctl bootout gui/501/com.x",
				"systemctl restart docker", "service nginx restart"},
			Allow: []string{"systemctl status docker", "systemctl list-units --failed", "service postgresql status", "launchctl list"},
		},
		{
			ID: policy.RuleDestructiveSystem, Name: "firewall-flush",
			Reason:  "flushes or disables the firewall, or makes it drop everything by default",
			Instead: "list rules with iptables -L or nft list ruleset; ask a human to change the firewall",
			Match: func(c Call) bool {
				switch c.Program {
				case "iptables", "ip6tables":
					// A default policy of ACCEPT opens everything; DROP or
					// REJECT on INPUT or OUTPUT cuts the machine off (the
					// agent's own session and every other service with it).
					pol := strings.ToUpper(c.Pos(1))
					return c.Has("-F", "--flush", "-X", "--delete-chain") || c.Has("-P", "--policy") && (pol == "ACCEPT" || pol == "DROP" || pol == "REJECT")
				case "nft":
					return c.Sub("flush", "ruleset") || c.Sub("delete", "table")
				case "ufw":
					return c.Sub("disable") || c.Sub("reset")
				}
				return false
			},
			Deny:  []string{"iptables -F", "sudo iptables --flush INPUT", "nft flush ruleset", "ufw disable", "iptables -P INPUT ACCEPT", "iptables -P INPUT DROP", "sudo iptables -P OUTPUT DROP"},
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
		{
			ID: policy.RuleDestructiveSystem, Name: "user-accounts",
			Reason:  "deletes or changes a user account, its password or its groups",
			Instead: "read accounts with id or getent passwd; ask a human to change users",
			Match: func(c Call) bool {
				switch c.Program {
				case "userdel", "deluser", "groupdel", "delgroup", "usermod", "chpasswd":
					return !c.Has("--help", "-h")
				case "passwd":
					return !c.Has("-S", "--status", "--help", "-h")
				}
				return false
			},
			Deny:  []string{"userdel -r bob", "sudo usermod -aG docker agent", "passwd root", "echo 'root:x' | chpasswd", "deluser --remove-home ci"},
			Allow: []string{"id agent", "getent passwd agent", "passwd -S agent", "usermod --help"},
		},
		{
			ID: policy.RuleDestructiveSystem, Name: "system-package-remove",
			Reason:  "removes a package installed for the whole machine, which every agent, user and service on it may depend on",
			Instead: "leave the machine's packages as they are (list them with brew list or apt list --installed); ask a human to remove one. A project's own dependencies are removed from its manifest (package.json, go.mod, requirements.txt)",
			Match:   systemPackageRemove,
			Deny: []string{"brew uninstall jq", "brew rm --force node", "sudo apt remove -y nginx", "apt-get purge openssh-server", "sudo apt-get -y autoremove",
				"dnf remove -y postgresql", "yum erase httpd", "pacman -Rns docker", "apk del curl", "zypper rm vim", "snap remove firefox",
				"port uninstall python311", "flatpak uninstall org.gimp.GIMP", "nix-env -e hello"},
			Allow: []string{"brew list", "brew info jq", "brew upgrade --dry-run", "apt list --installed", "apt-get remove -s nginx",
				"apt-get --simulate purge nginx", "dnf remove --assumeno postgresql", "pacman -Qi docker", "pacman -Rp docker", "apk info curl",
				"snap list", "nix-env -q"},
		},
		{
			ID: policy.RuleDestructiveSystem, Name: "kernel-and-mounts",
			Reason:  "changes the kernel's settings or modules, turns off swap, or unmounts every file system, for the whole machine",
			Instead: "read the state with sysctl -a, lsmod, swapon --show or findmnt; ask a human to change it",
			Match: func(c Call) bool {
				switch c.Program {
				case "swapoff":
					return !c.Has("--help", "-h")
				case "umount":
					return c.Has("-a", "--all", "-A", "--all-targets")
				case "rmmod":
					return c.Pos(0) != ""
				case "modprobe":
					return c.Has("-r", "--remove")
				case "sysctl":
					return c.Has("-w", "--write", "-p", "--load", "--system") || c.AnyPos(0, func(w string) bool { return strings.Contains(w, "=") })
				}
				return false
			},
			Deny:  []string{"swapoff -a", "umount -a", "sudo rmmod nvme", "modprobe -r e1000e", "sysctl -w vm.overcommit_memory=1", "sysctl kernel.panic=1"},
			Allow: []string{"sysctl -a", "sysctl vm.swappiness", "swapon --show", "umount ./mnt/fuse-test", "modprobe --show-depends nvme"},
		},
	},
}

// sharedPrograms are names that match other agents' and the user's
// processes too: pkill node ends every agent's dev server, not the one
// this agent started.
var sharedPrograms = map[string]bool{
	"node": true, "nodejs": true, "python": true, "python3": true, "ruby": true, "java": true, "go": true, "deno": true, "bun": true,
	"bash": true, "sh": true, "zsh": true, "fish": true, "ssh": true, "sshd": true, "docker": true, "dockerd": true, "containerd": true,
	"claude": true, "tmux": true, "screen": true, "git": true, "npm": true, "npx": true, "code": true, "swarm-guard": true, "sudo": true,
}

// systemPackageRemove reports whether a system package manager removes
// packages: apt remove, brew uninstall, pacman -R, apk del. Simulations
// (apt-get -s, dnf --assumeno, pacman -p) change nothing.
func systemPackageRemove(c Call) bool {
	verb := c.Pos(0)
	if strings.ContainsAny(verb, "=:") { // apt-get -o Dpkg::Options::=x remove y: -o's value
		verb = c.Pos(1)
	}
	verb = strings.ToLower(verb)
	switch c.Program {
	case "apt", "apt-get", "aptitude":
		return (verb == "remove" || verb == "purge" || verb == "autoremove" || verb == "autopurge") &&
			!c.Has("-s", "--simulate", "--dry-run", "--just-print", "--no-act", "--recon")
	case "dnf", "yum", "microdnf":
		return (verb == "remove" || verb == "erase" || verb == "autoremove") && !c.Has("--assumeno")
	case "zypper":
		return (verb == "remove" || verb == "rm") && !c.Has("--dry-run", "-D")
	case "brew":
		return verb == "uninstall" || verb == "remove" || verb == "rm" || verb == "autoremove" && !c.Has("-n", "--dry-run")
	case "port", "flatpak":
		return verb == "uninstall"
	case "snap":
		return verb == "remove"
	case "apk":
		return verb == "del" && !c.Has("-s", "--simulate")
	case "pacman":
		for _, a := range c.Args {
			if a == "--remove" || len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.Contains(a, "R") {
				return !c.Has("-p", "--print")
			}
		}
	case "nix-env":
		return c.Has("-e", "--uninstall")
	}
	return false
}
