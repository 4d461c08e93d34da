package guard

import (
	"path"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
)

// The guard protects itself: an agent may not switch it off, loosen it or
// rewire the git hooks through the guard's own CLI or a hook manager's.
// This file says which commands change which of the guard's controls
// (effect.GuardChange, effect.NestedRun); the guard-tamper rule
// (guard/rules/guard_tamper.go) decides.

// swarmGuardCLI: read-only verbs are fine; the verbs that loosen the
// guard are for humans.
func (a *analyzer) swarmGuardCLI(inv *shell.Invocation) {
	args := inv.Args()
	verb, rest := "", []shell.Word(nil)
	for i, x := range args {
		if !x.Static() {
			a.judge(inv, effect.GuardChange{Change: effect.SetupUnread})
			return
		}
		if !strings.HasPrefix(x.Text, "-") {
			verb, rest = x.Text, args[i+1:]
			break
		}
	}
	has := func(flags ...string) bool {
		for _, x := range rest {
			for _, f := range flags {
				if x.Text == f || strings.HasPrefix(x.Text, f+"=") {
					return true
				}
			}
		}
		return false
	}
	sub := ""
	for _, x := range rest {
		if !strings.HasPrefix(x.Text, "-") {
			sub = x.Text
			break
		}
	}
	setup := func(c effect.Change, command string) {
		a.judge(inv, effect.GuardChange{Change: c, Command: command})
	}
	switch verb {
	case "uninstall":
		setup(effect.Uninstall, "")
	case "approve":
		setup(effect.Approve, "")
	case "install":
		if has("--binary", "--on-failure", "--ci") {
			setup(effect.Rewire, "")
		}
	case "budget":
		if sub != "" && sub != "show" {
			setup(effect.BudgetChange, "swarm-guard budget "+sub)
		}
	case "run":
		a.judge(inv, effect.NestedRun{Trust: has("--trust"), Oversight: nestedOversight(rest), Mode: nestedFlag(rest, "--mode")})
		a.nestedClaude(inv, rest)
	case "policy":
		if sub != "check" && sub != "default" && sub != "" {
			setup(effect.PolicyChange, "swarm-guard policy "+sub)
		}
	}
}

// nestedClaude judges the agent command of a nested swarm-guard run: its
// claude arguments get the same checks as a plain claude call.
func (a *analyzer) nestedClaude(inv *shell.Invocation, rest []shell.Word) {
	for i, x := range rest {
		if x.Text == "--" && i+1 < len(rest) {
			a.x.Reinvoke(inv, rest[i+1:], "swarm-guard run")
			return
		}
	}
}

// hookManagerCLI: installing, uninstalling or re-initialising a hook
// manager rewrites or removes the git hooks that run the guard.
func (a *analyzer) hookManagerCLI(inv *shell.Invocation) {
	args := inv.Args()
	sub := ""
	for _, x := range args {
		if !x.Static() {
			a.judge(inv, effect.GuardChange{Change: effect.HookManagerUnread, Command: inv.Name})
			return
		}
		if !strings.HasPrefix(x.Text, "-") {
			sub = x.Text
			break
		}
	}
	risky := false
	switch inv.Name {
	case "lefthook":
		// install re-syncs the hooks (moving swarm-guard's aside),
		// uninstall removes them; add writes hook files.
		risky = sub == "install" || sub == "uninstall" || sub == "add"
	case "pre-commit":
		risky = sub == "uninstall" || sub == "install" && hasFlag(args, "-f", "--overwrite")
	case "husky":
		risky = sub == "" || sub == "init" || sub == "install" || sub == "uninstall" || sub == "set" || sub == "add"
	}
	if risky {
		a.judge(inv, effect.GuardChange{Change: effect.HookManagerRewrite, Command: strings.TrimSpace(inv.Name + " " + sub)})
	}
}

// removesHookManager: uninstalling husky, lefthook or the pre-commit
// framework from the project removes the hooks they run.
func (a *analyzer) removesHookManager(inv *shell.Invocation) {
	args := inv.Args()
	if len(args) == 0 || !args[0].Static() {
		return
	}
	if (inv.Name == "yarn" || inv.Name == "pnpm") && (args[0].Text == "lefthook" || args[0].Text == "husky" || args[0].Text == "pre-commit") {
		// yarn <bin> and pnpm <bin> run a package's binary.
		a.x.Reinvoke(inv, args, inv.Name)
		return
	}
	switch args[0].Text {
	case "uninstall", "remove", "rm", "r", "un", "unlink":
	default:
		return
	}
	for _, x := range args[1:] {
		name := path.Base(strings.TrimPrefix(x.Text, "@"))
		if strings.HasPrefix(x.Text, "@") {
			name = strings.TrimPrefix(x.Text, "@")
		}
		switch name {
		case "husky", "lefthook", "@evilmartians/lefthook", "evilmartians/lefthook", "pre-commit":
			a.judge(inv, effect.GuardChange{Change: effect.HookManagerRemoval, Command: inv.Name + " " + args[0].Text + " " + x.Text})
		}
	}
}

// forgedTrailer: the git hooks write the agent's trailers; a commit that
// brings its own Agent-Id (or session) trailer claims to be some agent,
// and one with the human marker (Committed-By: human) claims to be no
// agent's at all.
func (a *analyzer) forgedTrailer(inv *shell.Invocation) {
	keys := []string{a.pol.Trailers.AgentKey, a.pol.Trailers.SessionKey, a.pol.Trailers.HumanKey}
	isKey := func(s string) bool {
		k, _, _ := strings.Cut(s, ":")
		k, _, _ = strings.Cut(k, "=")
		for _, key := range keys {
			if key != "" && strings.EqualFold(strings.TrimSpace(k), key) {
				return true
			}
		}
		return false
	}
	inMessage := func(s string) bool {
		for _, line := range strings.Split(s, "\n") {
			if isKey(line) && strings.Contains(line, ":") {
				return true
			}
		}
		return false
	}
	var words []string
	for _, x := range inv.Args() {
		words = append(words, x.Text)
	}
	sub, rest := gitSubcommand(words)
	for i, w := range words {
		// git -c trailer.<token>.key=Agent-Id makes any trailer one.
		if w == "-c" && i+1 < len(words) && strings.HasPrefix(strings.ToLower(words[i+1]), "trailer.") {
			if _, v, ok := strings.Cut(words[i+1], "="); ok && isKey(v) {
				a.judge(inv, effect.GuardChange{Change: effect.TrailerOption, Subject: words[i+1]})
				return
			}
		}
	}
	if sub != "commit" && sub != "interpret-trailers" && sub != "tag" && sub != "merge" && sub != "notes" {
		return
	}
	for i, w := range rest {
		val := ""
		switch {
		case (w == "--trailer" || w == "-m" || w == "--message") && i+1 < len(rest):
			val = rest[i+1]
		case strings.HasPrefix(w, "--trailer="), strings.HasPrefix(w, "--message="):
			_, val, _ = strings.Cut(w, "=")
		case strings.HasPrefix(w, "-m") && len(w) > 2:
			val = w[2:]
		default:
			continue
		}
		if (w == "--trailer" || strings.HasPrefix(w, "--trailer")) && isKey(val) || inMessage(val) {
			a.judge(inv, effect.GuardChange{Change: effect.TrailerBrought, Command: "git " + sub})
			return
		}
	}
}

// ledgerRefs: the shared budget ledger (refs/swarm-guard/...) is written
// by swarm-guard run only; an agent that pushed, moved or deleted those
// refs could erase the swarm's spend.
func (a *analyzer) ledgerRefs(inv *shell.Invocation) {
	var words []string
	for _, x := range inv.Args() {
		words = append(words, x.Text)
	}
	sub, rest := gitSubcommand(words)
	switch sub {
	case "push", "update-ref", "branch", "tag", "replace", "notes", "fetch":
	default:
		return
	}
	for _, w := range rest {
		if strings.Contains(w, "refs/swarm-guard/approvals/") {
			// Approvals travel through these refs: a grant of the agent's
			// own making would lift its denials.
			a.judge(inv, effect.GuardChange{Change: effect.ApprovalRef, Command: "git " + sub, Subject: w})
			return
		}
		if strings.Contains(w, "refs/swarm-guard/") && (sub != "fetch" || strings.Contains(w, ":refs/swarm-guard/usage/") || strings.Contains(w, ":refs/swarm-guard/sessions/")) {
			a.judge(inv, effect.GuardChange{Change: effect.LedgerRef, Command: "git " + sub, Subject: w})
			return
		}
	}
}

// hashObjectCommit: git hash-object -w -t commit writes a commit object
// whose message, trailers included, never met the git hooks.
func (a *analyzer) hashObjectCommit(inv *shell.Invocation, args []shell.Word) {
	p := shell.ParseOpts(args, shell.Spec{Short: "t", Long: shell.Longs("path")})
	if !p.Has("w") {
		return
	}
	if t, ok := p.Value("t"); ok && (t.Dynamic || t.Text == "commit") {
		a.judge(inv, effect.GuardChange{Change: effect.HashObject})
	}
}

// gitReplace: git replace makes git show another object in place of a
// commit (--edit, --graft, git replace A B), so history reads as commits
// the hooks never saw. Listing replacements stays allowed.
func (a *analyzer) gitReplace(inv *shell.Invocation, args []shell.Word) {
	p := shell.ParseOpts(args, shell.Spec{Long: shell.Longs("format")})
	if len(p.Operands) == 0 && !p.Has("edit", "graft", "convert-graft-file") || p.Has("l", "list") {
		return
	}
	a.judge(inv, effect.GuardChange{Change: effect.Replace})
}

// path2root is a pathspec relative to the top of the worktree.
func path2root(root, p string) string {
	if root == "" {
		return p
	}
	return root + "/" + p
}

// untrackProtected: git rm --cached of a file that configures the guard
// (a hook manager's config, the policy, Claude Code's settings, the CI
// workflow) leaves it on disk but makes the next commit delete it from
// the repository, for every clone: tampering like deleting it.
func (a *analyzer) untrackProtected(inv *shell.Invocation, operands []shell.Word) {
	a.indexProtected(inv, operands, effect.GuardChange{Change: effect.Untrack})
}

// gitUpdateIndex judges git update-index on the files that configure the
// guard: --remove/--force-remove untrack them (as git rm --cached does),
// --assume-unchanged and --skip-worktree make git stop looking at them,
// so a change to one no longer shows in git status or git diff, is not
// committed, and the hook manager's config in the repository is no
// longer the one on disk; --cacheinfo stages content for one that is not
// the file on disk. The --no- forms undo the marks and stay allowed.
func (a *analyzer) gitUpdateIndex(inv *shell.Invocation, args []shell.Word) {
	p := shell.ParseOpts(args, shell.Spec{Long: shell.Longs("chmod", "index-version")})
	ops := p.Operands
	switch {
	case p.Has("remove", "force-remove"):
		a.untrackProtected(inv, ops)
	case p.Has("assume-unchanged", "skip-worktree"):
		flag := "--assume-unchanged"
		if p.Has("skip-worktree") {
			flag = "--skip-worktree"
		}
		a.indexProtected(inv, ops, effect.GuardChange{Change: effect.HideChanges, Command: "git update-index " + flag})
	}
	// --cacheinfo <mode>,<object>,<path> or --cacheinfo <mode> <object> <path>.
	for i := 0; i < len(args); i++ {
		x := args[i]
		var path shell.Word
		switch {
		case x.Static() && strings.HasPrefix(x.Text, "--cacheinfo="):
			v := x.Text[len("--cacheinfo="):]
			if parts := strings.SplitN(v, ",", 3); len(parts) == 3 {
				path = shell.Word{Text: parts[2], Src: parts[2]}
			}
		case x.Static() && x.Text == "--cacheinfo" && i+1 < len(args):
			if v := args[i+1]; v.Static() && strings.Count(v.Text, ",") >= 2 {
				parts := strings.SplitN(v.Text, ",", 3)
				path = shell.Word{Text: parts[2], Src: parts[2]}
			} else if i+3 < len(args) {
				path = args[i+3]
			}
		}
		if path.Text == "" {
			continue
		}
		a.indexProtected(inv, []shell.Word{path}, effect.GuardChange{Change: effect.StageOther})
	}
}

// indexProtected judges an index change on each operand that names one
// of the guard's own files (change says which, its Subject the file).
func (a *analyzer) indexProtected(inv *shell.Invocation, operands []shell.Word, change effect.GuardChange) {
	for _, x := range operands {
		if x.Dynamic {
			continue
		}
		// Pathspec magic: ":(glob)x", ":/x" (from the top); exclusions
		// (":!x", ":^x", ":(exclude)x") untrack nothing.
		if rest, ok := strings.CutPrefix(x.Text, ":("); ok {
			magic, path, found := strings.Cut(rest, ")")
			if !found || strings.Contains(magic, "exclude") {
				continue
			}
			x.Text = path
			if strings.Contains(magic, "top") {
				x.Text = path2root(a.env.Root, path)
			}
		} else if strings.HasPrefix(x.Text, ":!") || strings.HasPrefix(x.Text, ":^") {
			continue
		} else if rest, ok := strings.CutPrefix(x.Text, ":/"); ok {
			x.Text = path2root(a.env.Root, rest)
		}
		for _, p := range a.resolveArg(x, inv.State).paths {
			if !a.underRoot(p) || p == a.env.Root {
				continue
			}
			if hit := a.protectedHit(p, false); hit != "" {
				change.Subject = hit
				a.judge(inv, change)
			}
		}
	}
}
