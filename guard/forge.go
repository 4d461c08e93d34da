package guard

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/httpreq"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
	"github.com/swarm-guard/swarm-guard/guard/swarm"
)

// Oversight through the forges' CLIs and APIs (gh, hub, glab, and curl,
// wget or httpie with a write method to the GitHub or GitLab API). Under
// the default pr-gated oversight an agent opens, edits, comments on and
// views pull requests and issues; merging, approving, closing others'
// pull requests, repository settings and deleting repositories, releases,
// branches, tags or environments are for humans. autonomous also allows
// gh pr merge --auto (the forge merges once the required checks pass);
// checkpoint turns every such denial into a question for a human.
//
// This file only says what each call does (effect.ForgeAction); the
// oversight rule (guard/rules/oversight.go) decides, the same judge as for
// the MCP servers' merge, approve and admin tools (mcpcheck.go).

// forgeOp hands one operation of a forge CLI or HTTP client to the
// oversight judge (guard/rules/oversight.go), which decides it by the
// oversight mode: args are the call's own words after the program's
// name, does what the call does.
func (a *analyzer) forgeOp(inv *shell.Invocation, op effect.ForgeOp, args string, does effect.ForgeDoes) {
	a.judge(inv, effect.ForgeAction{Op: op, By: inv.Name, Args: args, Does: does})
}

// workflowRun: gh workflow run WORKFLOW [--ref BRANCH] runs a CI workflow
// on a branch, the repository's default branch without --ref; the
// protected-branch rule judges it (effect.WorkflowRun).
func (a *analyzer) workflowRun(inv *shell.Invocation) {
	p := shell.ParseOpts(inv.Args(), shell.Spec{Short: "rfFR", Long: shell.Longs("ref", "raw-field", "field", "repo", "hostname")})
	name := ""
	if len(p.Operands) > 2 {
		name = p.Operands[2].Show()
	}
	c := effect.BranchChange{Op: effect.WorkflowRun, Args: strings.TrimSpace("workflow run " + name)}
	if ref, ok := p.Value("r", "ref"); ok {
		c.Branch, c.Dynamic = ref.Show(), !ref.Static()
	}
	a.judge(inv, c)
}

// hasFlagWord reports whether any of the flags is among words, alone or
// with an attached value (--ref=main).
func hasFlagWord(words []string, flags ...string) bool {
	for _, w := range words {
		for _, f := range flags {
			if w == f || strings.HasPrefix(w, f+"=") {
				return true
			}
		}
	}
	return false
}

// literalWords are inv's arguments as written, "\x00" for each one not
// known literally (a variable, a glob), which no option or subcommand
// name equals: what deploys and publishes read.
func literalWords(inv *shell.Invocation) []string {
	words := make([]string, 0, len(inv.Argv)-1)
	for _, x := range inv.Args() {
		if !x.Static() {
			words = append(words, "\x00")
			continue
		}
		words = append(words, x.Text)
	}
	return words
}

// forgeCLI judges gh, hub and glab.
func (a *analyzer) forgeCLI(inv *shell.Invocation) {
	var words []string
	for _, x := range inv.Args() {
		if x.Dynamic {
			words = append(words, "\x00")
			continue
		}
		words = append(words, x.Text)
	}
	// Skip global flags: gh -R owner/repo pr merge, glab -R x mr merge.
	var pos []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		if w == "-R" || w == "--repo" || w == "--hostname" {
			i++
			continue
		}
		if strings.HasPrefix(w, "-") {
			continue
		}
		pos = append(pos, w)
	}
	if len(pos) > 0 && pos[0] == "\x00" {
		a.judge(inv, effect.ForgeAction{Op: effect.ForgeUnread, By: inv.Name, Does: effect.UnreadSubcommand})
		return
	}
	has := func(flags ...string) bool { return hasFlagWord(words, flags...) }
	at := func(i int) string {
		if i < len(pos) {
			return pos[i]
		}
		return ""
	}
	group, verb := at(0), at(1)
	switch inv.Name {
	case "gh":
		switch group {
		case "pr":
			switch verb {
			case "merge":
				switch {
				case has("--admin"):
					a.forgeOp(inv, effect.ForgeBypass, "pr merge --admin", effect.MergesPastChecks)
				case has("--auto") && !has("--disable-auto"):
					// the forge merges once the required checks pass
					a.judge(inv, effect.ForgeAction{Op: effect.ForgeAutoMerge, By: inv.Name, Args: "pr merge", Does: effect.MergesPullRequest, Target: at(2), Own: a.ownPRSelector(at(2))})
				default:
					a.forgeOp(inv, effect.ForgeMerge, "pr merge", effect.MergesPullRequest)
				}
			case "review":
				if has("--approve", "-a") {
					a.forgeOp(inv, effect.ForgeApprove, "pr review --approve", effect.ApprovesPullRequest)
				}
			case "close", "reopen":
				if at(2) != "" {
					a.forgeOp(inv, effect.ForgeState, "pr "+verb+" "+at(2), effect.ClosesPullRequest)
				}
			case "ready", "lock", "unlock":
			}
		case "repo":
			switch verb {
			case "delete", "archive", "unarchive", "rename", "edit", "transfer", "deploy-key":
				a.forgeOp(inv, effect.ForgeAdmin, "repo "+verb, effect.ChangesRepository)
			case "sync":
				if has("--force") {
					a.forgeOp(inv, effect.ForgeAdmin, "repo sync --force", effect.OverwritesBranch)
				}
			}
		case "release":
			switch verb {
			case "create", "delete", "delete-asset", "edit", "upload":
				a.forgeOp(inv, effect.ForgeAdmin, "release "+verb, effect.ChangesRelease)
			}
		case "secret", "variable", "ruleset":
			if verb != "list" && verb != "view" && verb != "check" && verb != "" {
				a.forgeOp(inv, effect.ForgeAdmin, group+" "+verb, effect.ChangesSettings)
			}
		case "issue":
			switch verb {
			case "delete", "transfer", "lock", "unlock", "pin", "unpin":
				a.forgeOp(inv, effect.ForgeAdmin, "issue "+verb, effect.MovesIssue)
			case "close", "reopen":
				// Like gh pr close N: whether the work is done is the
				// overseer's call, the same through MCP and gh api.
				a.judge(inv, effect.ForgeAction{Op: effect.ForgeState, By: inv.Name, Args: "issue " + verb, Does: effect.ClosesIssue, Issue: true})
			}
		case "workflow":
			switch verb {
			case "disable", "enable":
				a.forgeOp(inv, effect.ForgeAdmin, "workflow "+verb, effect.SwitchesWorkflow)
			case "run":
				a.workflowRun(inv)
			}
		case "run", "cache", "label":
			if verb == "delete" {
				a.judge(inv, effect.ForgeAction{Op: effect.ForgeAdmin, By: inv.Name, Args: group + " delete", Does: effect.DeletesAll, Subject: group})
			}
			if group == "run" && verb == "cancel" {
				a.forgeOp(inv, effect.ForgeAdmin, "run cancel", effect.CancelsRun)
			}
		case "gist", "ssh-key", "gpg-key":
			if verb == "delete" {
				a.judge(inv, effect.ForgeAction{Op: effect.ForgeAdmin, By: inv.Name, Args: group + " delete", Does: effect.DeletesAccountItem, Subject: group})
			}
		case "alias":
			a.ghAlias(inv, pos)
		case "api":
			a.forgeAPI(inv, words)
		}
	case "hub":
		switch group {
		case "merge":
			if !strings.Contains(at(1), "://") && !strings.HasPrefix(at(1), "#") {
				a.x.Reinvoke(inv, append([]shell.Word{{Text: "git", Src: inv.Argv[0].Src}}, inv.Args()...), "hub")
				break // a local git merge
			}
			a.forgeOp(inv, effect.ForgeMerge, "merge", effect.MergesPullRequest)
		case "delete":
			a.forgeOp(inv, effect.ForgeAdmin, "delete", effect.DeletesRepository)
		case "release":
			if verb == "create" || verb == "delete" || verb == "edit" {
				a.forgeOp(inv, effect.ForgeAdmin, "release "+verb, effect.ChangesRelease)
			}
		case "api":
			a.forgeAPI(inv, words)
		case "alias", "browse", "ci-status", "compare", "create", "fork", "gist", "issue", "pr", "pull-request", "sync", "help", "version", "":
		default:
			// hub wraps git: every other subcommand is git's.
			a.x.Reinvoke(inv, append([]shell.Word{{Text: "git", Src: inv.Argv[0].Src}}, inv.Args()...), "hub")
		}
	case "glab":
		switch group {
		case "mr":
			switch verb {
			case "merge", "accept":
				if has("--auto-merge", "--when-pipeline-succeeds") {
					a.judge(inv, effect.ForgeAction{Op: effect.ForgeAutoMerge, By: inv.Name, Args: "mr " + verb, Does: effect.MergesMergeRequest, Target: at(2), Own: a.ownPRSelector(at(2))})
				} else {
					a.forgeOp(inv, effect.ForgeMerge, "mr "+verb, effect.MergesMergeRequest)
				}
			case "approve":
				a.forgeOp(inv, effect.ForgeApprove, "mr approve", effect.ApprovesMergeRequest)
			case "close", "reopen", "delete":
				if at(2) != "" || verb == "delete" {
					a.forgeOp(inv, effect.ForgeState, "mr "+verb, effect.ClosesMergeRequest)
				}
			}
		case "issue":
			if verb == "close" || verb == "reopen" || verb == "delete" {
				a.judge(inv, effect.ForgeAction{Op: effect.ForgeState, By: inv.Name, Args: "issue " + verb, Does: effect.ClosesIssueGitLab, Issue: true})
			}
		case "repo":
			if verb == "delete" || verb == "archive" || verb == "transfer" {
				a.forgeOp(inv, effect.ForgeAdmin, "repo "+verb, effect.ChangesRepository)
			}
		case "release":
			if verb == "create" || verb == "delete" || verb == "upload" {
				a.forgeOp(inv, effect.ForgeAdmin, "release "+verb, effect.ChangesRelease)
			}
		case "variable":
			if verb == "set" || verb == "delete" || verb == "update" {
				a.forgeOp(inv, effect.ForgeAdmin, "variable "+verb, effect.ChangesProject)
			}
		case "ci":
			if verb == "delete" || verb == "cancel" {
				a.forgeOp(inv, effect.ForgeAdmin, "ci "+verb, effect.CancelsPipeline)
			}
		case "api":
			a.forgeAPI(inv, words)
		}
	}
}

// forgeAPI judges gh api / hub api / glab api: the method (-X, --method;
// POST when fields or --input are given) and the endpoint or GraphQL
// mutation.
func (a *analyzer) forgeAPI(inv *shell.Invocation, words []string) {
	method, endpoint, body := "", "", ""
	fields := false
	for i := 0; i < len(words); i++ {
		w := words[i]
		next := func() string {
			if i+1 < len(words) {
				i++
				return words[i]
			}
			return ""
		}
		switch {
		case w == "-X" || w == "--method":
			method = strings.ToUpper(next())
		case strings.HasPrefix(w, "--method="):
			method = strings.ToUpper(strings.TrimPrefix(w, "--method="))
		case strings.HasPrefix(w, "-X") && len(w) > 2:
			method = strings.ToUpper(w[2:])
		case w == "-f" || w == "-F" || w == "--field" || w == "--raw-field" || w == "--input":
			fields = true
			v := next()
			if w == "--input" {
				v = "@" + v
			}
			body += " " + a.forgeBody(inv, v, w != "-f" && w != "--raw-field")
		case strings.HasPrefix(w, "--field=") || strings.HasPrefix(w, "--raw-field="):
			fields = true
			_, v, _ := strings.Cut(w, "=")
			body += " " + v
		case w == "-H" || w == "--header" || w == "-q" || w == "--jq" || w == "-t" || w == "--template" || w == "--hostname" || w == "-R" || w == "--repo" || w == "--cache" || w == "-p" || w == "--preview":
			next()
		case w == "api" && endpoint == "":
		case !strings.HasPrefix(w, "-") && endpoint == "":
			endpoint = w
		}
	}
	if method == "" {
		method = "GET"
		if fields {
			method = "POST"
		}
	}
	if endpoint == "\x00" {
		if method == "GET" && onlyDynamicPath(inv) {
			// A GET reads whatever the endpoint is: it merges, closes or
			// deletes nothing (gh api repos/$(gh repo view ...)/pulls/9/reviews).
			return
		}
		a.judge(inv, effect.ForgeAction{Op: effect.ForgeUnread, By: inv.Name, Args: "api", Does: effect.UnreadEndpoint})
		return
	}
	if fa, ok := swarm.ForgeAPIAction(method, endpoint, body); ok {
		fa.By, fa.Args = inv.Name, "api "+method+" "+endpoint
		a.judge(inv, fa)
	}
}

// onlyDynamicPath reports whether the one word of inv only known at run
// time is an endpoint path: it starts with known text that is not a flag
// (repos/$R/pulls), so it cannot be -X DELETE, and no other word is
// unknown.
func onlyDynamicPath(inv *shell.Invocation) bool {
	n := 0
	for _, x := range inv.Args() {
		if !x.Dynamic {
			continue
		}
		n++
		known, _, _ := strings.Cut(x.Tmpl, shell.UnknownMark)
		if known == "" || strings.HasPrefix(known, "-") {
			return false
		}
	}
	return n == 1
}

// unreadBody marks a request body the guard could not read (a file it has
// no access to, or stdin): a GraphQL document in it may be any mutation.
const unreadBody = swarm.UnreadBody

// forgeBody returns the text a request field or body carries: the value
// itself, or for @file (gh -F, --input, curl -d @file) the file's content
// when the guard can read it, else unreadBody.
func (a *analyzer) forgeBody(inv *shell.Invocation, v string, fileRefs bool) string {
	_, val, hasKey := strings.Cut(v, "=")
	if !hasKey {
		val = v
	}
	file, ok := strings.CutPrefix(val, "@")
	if !fileRefs || !ok {
		return v
	}
	if file == "-" || file == "" || a.env.ReadFile == nil || inv.State.Remote {
		return unreadBody
	}
	data, err := a.env.ReadFile(shell.CleanJoin(inv.State.FirstCwd(a.env.Cwd), file))
	if err != nil || len(data) > 1<<20 {
		return unreadBody
	}
	return string(data)
}

// forgeHTTP judges curl, wget, httpie and xh calls to the GitHub or
// GitLab API with a write method, like gh api. The request is read by
// guard/internal/httpreq, as the vendor packs read theirs; a method only known at
// run time (-X "$M") is judged as each write method in turn.
func (a *analyzer) forgeHTTP(inv *shell.Invocation) {
	r, ok := httpreq.Read(inv.Name, inv.Args())
	if !ok {
		return
	}
	endpoint := ""
	for _, u := range r.URLs {
		if strings.Contains(u.Raw, "api.github.com") || strings.Contains(u.Path, "/api/v4/") || strings.Contains(u.Path, "/api/v3/") ||
			strings.Contains(u.Path, "/api/graphql") {
			endpoint = u.Path
			if u.Query != "" {
				endpoint += "?" + u.Query
			}
			break
		}
	}
	if endpoint == "" {
		return
	}
	body := ""
	for _, b := range r.Body {
		body += " " + a.forgeBody(inv, b, true)
	}
	endpoint = strings.TrimPrefix(strings.TrimPrefix(endpoint, "/api/v3"), "/api")
	if strings.HasPrefix(endpoint, "/graphql") {
		endpoint = "graphql"
	}
	methods := []string{r.Method}
	if r.MethodDynamic {
		methods = []string{"DELETE", "PUT", "PATCH", "POST"}
	}
	for _, method := range methods {
		if fa, ok := swarm.ForgeAPIAction(method, endpoint, body); ok {
			fa.By, fa.Args = inv.Name, method+" "+endpoint
			a.judge(inv, fa)
			return
		}
	}
}

// ghAlias: gh alias set NAME EXPANSION defines a gh subcommand that runs
// later as "gh EXPANSION" (or as a shell command with --shell or a leading
// "!"): judged now, as it would run.
func (a *analyzer) ghAlias(inv *shell.Invocation, pos []string) {
	if len(pos) < 2 || pos[1] != "set" {
		if len(pos) >= 2 && pos[1] == "import" {
			a.forgeOp(inv, effect.ForgeAdmin, "alias import", effect.DefinesAliases)
		}
		return
	}
	if len(pos) < 4 {
		return
	}
	exp := pos[3]
	if exp == "\x00" {
		a.forgeOp(inv, effect.ForgeAdmin, "alias set", effect.DefinesUnreadAlias)
		return
	}
	shell := strings.HasPrefix(exp, "!")
	for _, x := range inv.Args() {
		if x.Text == "--shell" || x.Text == "-s" {
			shell = true
		}
	}
	if shell {
		a.x.Script(strings.TrimPrefix(exp, "!"), inv.State.Clone(), nil)
		return
	}
	a.x.Script("gh "+exp, inv.State.Clone(), nil)
}
