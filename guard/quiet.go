package guard

import (
	"strings"
	"sync"

	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
)

// Programs whose file effects the guard knows completely: they write
// nothing in the worktree, or only what the analysis records (redirects,
// tee, cp and mv destinations, sed -i files, archives' outputs, -o
// options). After a command made only of them, PostToolUse needs no
// worktree-wide look for files a program wrote unseen.
var quietPrograms = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{
		// Shell builtins and plain tools that only read or print.
		"cd": true, "pushd": true, "popd": true, "echo": true, "printf": true, "true": true, "false": true, ":": true,
		"test": true, "[": true, "pwd": true, "export": true, "unset": true, "set": true, "shift": true, "read": true,
		"local": true, "declare": true, "typeset": true, "readonly": true, "alias": true, "type": true, "which": true,
		"command": true, "builtin": true, "hash": true, "sleep": true, "wait": true, "exit": true, "return": true,
		"ls": true, "cat": true, "head": true, "tail": true, "wc": true, "grep": true, "egrep": true, "fgrep": true,
		"rg": true, "ag": true, "find": true, "stat": true, "file": true, "du": true, "df": true, "tree": true,
		"sort": true, "uniq": true, "cut": true, "tr": true, "rev": true, "nl": true, "column": true, "fold": true,
		"diff": true, "cmp": true, "comm": true, "jq": true, "yq": true, "base64": true, "xxd": true, "od": true,
		"hexdump": true, "md5sum": true, "sha1sum": true, "sha256sum": true, "basename": true, "dirname": true,
		"realpath": true, "readlink": true, "date": true, "id": true, "whoami": true, "uname": true, "hostname": true,
		"env": true, "printenv": true, "ps": true, "pgrep": true, "uptime": true, "nproc": true, "free": true,
		"seq": true, "yes": true, "expr": true, "less": true, "more": true, "man": true, "tput": true, "clear": true,
		"sed": true, "tee": true, "xargs": true, "timeout": true, "nice": true, "time": true, "sudo": false,
		"mkdir": true, "touch": true, "cp": true, "mv": true, "rm": true, "ln": true, "chmod": true, "rmdir": true,
	}
	return m
})

// gitQuiet are git subcommands that write nothing in the worktree's files
// (they may write inside .git, which PostToolUse does not scan).
var gitQuiet = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{
		"status": true, "log": true, "diff": true, "show": true, "branch": true, "rev-parse": true, "ls-files": true,
		"remote": true, "fetch": true, "blame": true, "describe": true, "tag": true, "shortlog": true, "grep": true,
		"add": true, "commit": true, "push": true, "config": true, "reflog": true, "cat-file": true, "ls-tree": true,
		"rev-list": true, "merge-base": true, "name-rev": true, "for-each-ref": true, "show-ref": true, "version": true,
		"help": true, "switch": false, "checkout": false,
	}
	return m
})

// quietProgram reports whether an invocation's file effects are all known.
func quietProgram(inv *shell.Invocation) bool {
	if len(inv.Argv) > 0 && strings.Contains(inv.Argv[0].Text, "/") {
		return false // ./more is the project's program, not more(1)
	}
	if quietPrograms()[inv.Name] {
		return true
	}
	args := inv.Args()
	first := ""
	for _, x := range args {
		if !x.Static() {
			return false
		}
		if len(x.Text) > 0 && x.Text[0] != '-' {
			first = x.Text
			break
		}
	}
	switch inv.Name {
	case "git":
		return gitQuiet()[first]
	case "go":
		// go test and go vet write only to the build cache, outside the
		// worktree; go build's output is recorded when named with -o.
		return first == "test" || first == "vet" || first == "version" || first == "env" || first == "list" || first == "doc"
	}
	return false
}
