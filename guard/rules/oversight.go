package rules

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/policy"
)

// Oversight: merging, approving and repository settings are a human's
// under the default [swarm] oversight (pr-gated).
var Oversight = Rule{
	ID:      policy.RuleOversight,
	Reason:  "merging, approving and repository settings are reserved for humans",
	Instead: "open or update the pull request and leave merging, approving and repository settings to a human (a task may run with --oversight autonomous to allow gh pr merge --auto)",
	Deny: []string{
		"gh pr merge 12 --squash",
		"gh pr merge 12 --admin",
		"gh pr review 12 --approve",
		`mcp__github__merge_pull_request {"owner":"o","repo":"r","pullNumber":12,"merge_method":"squash"}`,
		"vercel --prod --yes",
		"fly deploy",
		"supabase db push",
	},
	Allow: []string{
		"gh pr create --fill",
		"gh pr view 12",
		"vercel deploy",
		"netlify deploy --dir dist",
		"wrangler dev",
		`mcp__github__get_pull_request {"owner":"o","repo":"r","pullNumber":12}`,
	},
	Judge: judgeOversight,
}

// Alternatives of the oversight verdicts besides the rule's own.
const (
	insteadIssueState = "comment on the issue with what you did (gh issue comment N -b ...) and write \"Fixes #N\" in your pull request: the issue closes when a human merges it"
	insteadMCPMerge   = "open or update the pull request and leave merging and approving to a human (or run the task with --oversight autonomous and enable auto-merge)"
	insteadMCPAdmin   = "ask a human: deleting, releasing and changing repository settings or protection is not an agent's job"
	insteadDeploy     = "deploy a preview instead (vercel without --prod, netlify deploy without --prod, wrangler versions upload, firebase hosting:channel:deploy, convex dev) or run it locally, and leave the production deploy to a human (a task may run with --oversight autonomous)"
)

// forgeWords is what the rule says about one thing a forge call does
// (effect.ForgeAction's Does).
type forgeWords struct {
	// Deny is a call that does it under the default oversight, and Allow
	// (when there is one) its safe twin: guard's TestForgeExamples runs
	// both.
	Deny, Allow string
	// Says follows the call's own words (By, Args): {subject} stands for
	// the ForgeAction's Subject.
	Says string
	// Instead, when set, is the alternative for this call; otherwise the
	// one for its kind of operation (judgeOversight).
	Instead string
	// RunTime: what the call does is only known at run time,
	// Verdict.RunTime.
	RunTime bool
}

// forgeDoes is every sentence the rule says about what a forge call does.
var forgeDoes = map[effect.ForgeDoes]forgeWords{
	// Pull and merge requests.
	effect.MergesPullRequest:    {Deny: "gh pr merge 12 --squash", Allow: "gh pr view 12", Says: "merges a pull request"},
	effect.MergesMergeRequest:   {Deny: "glab mr merge 4", Allow: "glab mr view 4", Says: "merges a merge request"},
	effect.MergesBranch:         {Deny: "gh api repos/o/r/merges -f base=main -f head=agent-1", Allow: "gh api repos/o/r/pulls -f title=x -f head=agent-1 -f base=main", Says: "merges a branch into another on the server"},
	effect.MergesPastChecks:     {Deny: "gh pr merge 12 --admin --squash", Allow: "gh pr checks 12", Says: "merges past the branch protection and the required checks"},
	effect.ApprovesPullRequest:  {Deny: "gh pr review 12 --approve", Allow: "gh pr review 12 --comment -b 'please look at x'", Says: "approves a pull request"},
	effect.ApprovesMergeRequest: {Deny: "glab mr approve 4", Allow: "glab mr create --fill", Says: "approves a merge request"},
	effect.ClosesPullRequest:    {Deny: "gh pr close 13", Allow: "gh pr close", Says: "closes or reopens a pull request that may be another agent's"},
	effect.ClosesMergeRequest:   {Deny: "glab mr close 4", Allow: "glab mr close", Says: "closes, reopens or deletes a merge request that may be another agent's"},
	effect.SetsPullRequestState: {Deny: `mcp__github__update_pull_request {"owner":"o","repo":"r","pullNumber":3,"state":"closed"}`, Allow: `mcp__github__update_pull_request {"owner":"o","repo":"r","pullNumber":3,"title":"x"}`,
		Says: "sets a pull request's state to {subject}, closing or reopening a pull request that may be another agent's"},

	// Issues.
	effect.ClosesIssue:       {Deny: "gh issue close 3", Allow: "gh issue comment 3 -b 'fixed in agent-1'", Says: "closes or reopens an issue that may be another agent's or a human's"},
	effect.ClosesIssueGitLab: {Deny: "glab issue close 3", Allow: "glab issue note 3 -m 'fixed in agent-1'", Says: "closes, reopens or deletes an issue that may be another agent's or a human's"},
	effect.MovesIssue:        {Deny: "gh issue delete 3 --yes", Allow: "gh issue edit 3 --add-label needs-review", Says: "deletes, moves or locks an issue"},
	effect.SetsIssueState: {Deny: `mcp__github__update_issue {"owner":"o","repo":"r","issue_number":3,"state":"closed"}`, Allow: `mcp__github__update_issue {"owner":"o","repo":"r","issue_number":3,"title":"x"}`,
		Says: "sets an issue's state to {subject}, closing or reopening an issue that may be another agent's or a human's"},

	// The repository, its settings, releases and CI.
	effect.ChangesRepository:  {Deny: "gh repo delete o/r --yes", Allow: "gh repo view o/r", Says: "changes or deletes the repository"},
	effect.DeletesRepository:  {Deny: "hub delete o/r", Allow: "hub browse", Says: "deletes the repository"},
	effect.OverwritesBranch:   {Deny: "gh repo sync o/r --force", Allow: "gh repo sync", Says: "overwrites a branch with another repository's"},
	effect.ChangesRelease:     {Deny: "gh release delete v1.0 --yes", Allow: "gh release view v1.0", Says: "publishes or deletes a release"},
	effect.PublishesRelease:   {Deny: "gh api repos/o/r/releases -f tag_name=v1", Allow: "gh api repos/o/r/releases", Says: "publishes or changes a release"},
	effect.ChangesSettings:    {Deny: "gh secret set DEPLOY_KEY < key.txt", Allow: "gh secret list", Says: "changes the repository's settings"},
	effect.ChangesProject:     {Deny: "glab variable set TOKEN x", Allow: "glab variable list", Says: "changes the project's settings"},
	effect.SwitchesWorkflow:   {Deny: "gh workflow disable ci.yml", Allow: "gh workflow view ci.yml", Says: "switches a CI workflow on or off"},
	effect.DeletesAll:         {Deny: "gh run delete 1234", Allow: "gh run rerun 1234", Says: "deletes the repository's {subject}s"},
	effect.DeletesAccountItem: {Deny: "gh gist delete 1234", Allow: "gh gist list", Says: "deletes the account's {subject}, which other work may use"},
	effect.CancelsRun:         {Deny: "gh run cancel 1234", Allow: "gh run view 1234", Says: "cancels a CI run, which may be another agent's or a release's"},
	effect.CancelsPipeline:    {Deny: "glab ci delete 12", Allow: "glab ci view", Says: "deletes or cancels a pipeline, which may be another agent's or a release's"},
	effect.DefinesAliases:     {Deny: "gh alias import aliases.yml", Allow: "gh alias list", Says: "defines gh subcommands the guard cannot see"},
	effect.DefinesUnreadAlias: {Deny: `gh alias set m "$expansion"`, Allow: "gh alias set co 'pr checkout'", Says: "defines a gh subcommand only known at run time", RunTime: true},
	effect.Deletes:            {Deny: "curl -X DELETE https://github.example.com/api/v3/repos/o/r", Allow: "curl https://github.example.com/api/v3/repos/o/r", Says: "deletes"},
	effect.MovesRef:           {Deny: "gh api -X PATCH repos/o/r/git/refs/heads/main -f sha=abc123", Allow: "gh api repos/o/r/git/refs/heads/main", Says: "moves or deletes a branch or tag"},
	effect.SetsStatus:         {Deny: "gh api repos/o/r/statuses/abc123 -f state=success", Allow: "gh api repos/o/r/commits/abc123/status", Says: "sets a commit status or check result, which only CI may report"},
	effect.CommitsFile:        {Deny: "gh api -X PUT repos/o/r/contents/README.md -f message=x -f content=eA==", Allow: "gh api repos/o/r/contents/README.md", Says: "commits a file straight onto a branch, past pushes and pull requests"},
	effect.Administers:        {Deny: `mcp__github__delete_repository {"owner":"o","repo":"r"}`, Allow: `mcp__github__get_pull_request {"owner":"o","repo":"r","pullNumber":12}`, Says: "deletes or administers on the forge"},

	// GraphQL.
	effect.RunsMutation:     {Deny: `gh api graphql -f query='mutation { deleteRef(input:{refId:"x"}) { clientMutationId } }'`, Allow: `gh api graphql -f query='mutation { addComment(input:{subjectId:"x", body:"ok"}) { clientMutationId } }'`, Says: "runs the GraphQL mutation {subject}"},
	effect.RunsReadMutation: {Deny: `gh api -X GET graphql -f query='mutation { deleteRef(input:{refId:"x"}) { clientMutationId } }'`, Allow: "gh api graphql -f query='query { viewer { login } }'", Says: "runs a GraphQL mutation that merges, deletes or changes settings"},
	effect.SendsUnreadQuery: {Deny: "gh api graphql -F query=@mutation.graphql", Allow: "gh api graphql -f query='query { viewer { login } }'",
		Says: "sends a GraphQL document the guard cannot read (from a file or stdin), which may merge or delete; pass the query inline with -f query='...'"},

	// Calls only known at run time: denied under every mode.
	effect.UnreadSubcommand: {Deny: `gh "$cmd" 12`, Allow: "gh pr view 12", Says: "runs a subcommand only known at run time, which may merge or delete", Instead: "write the {by} command literally", RunTime: true},
	effect.UnreadEndpoint:   {Deny: `gh api -X DELETE "$endpoint"`, Allow: `gh api "repos/$REPO/pulls"`, Says: "calls an endpoint only known at run time", Instead: "write the endpoint literally", RunTime: true},

	// Production deploys through a platform's CLI.
	effect.DeploysProject:       {Deny: "vercel --prod --yes", Allow: "vercel deploy", Says: "deploys the project to production", Instead: insteadDeploy},
	effect.ChangesProduction:    {Deny: "vercel promote https://app-x.vercel.app", Allow: "vercel ls", Says: "changes what production serves", Instead: insteadDeploy},
	effect.DeploysSite:          {Deny: "netlify deploy --prod --dir dist", Allow: "netlify deploy --dir dist", Says: "deploys the site to production", Instead: insteadDeploy},
	effect.DeploysApp:           {Deny: "fly deploy", Allow: "fly deploy --build-only", Says: "deploys the app", Instead: insteadDeploy},
	effect.LaunchesApp:          {Deny: "fly launch", Allow: "fly launch --no-deploy", Says: "creates and deploys the app", Instead: insteadDeploy},
	effect.ChangesDeployment:    {Deny: "railway up", Allow: "railway status", Says: "changes the service's deployment", Instead: insteadDeploy},
	effect.DeploysWorker:        {Deny: "wrangler deploy", Allow: "wrangler dev", Says: "deploys the Worker", Instead: insteadDeploy},
	effect.ChangesWorker:        {Deny: "wrangler rollback", Allow: "wrangler versions upload", Says: "changes what the Worker serves", Instead: insteadDeploy},
	effect.DeploysPages:         {Deny: "wrangler pages deploy dist", Allow: "wrangler pages deploy dist --branch=preview", Says: "deploys the site (to production from the production branch)", Instead: insteadDeploy},
	effect.PushesMigrations:     {Deny: "supabase db push", Allow: "supabase db push --local", Says: "applies the migrations to the linked project's database", Instead: insteadDeploy},
	effect.ResetsDatabase:       {Deny: "supabase db reset --linked", Allow: "supabase db reset", Says: "resets the linked project's database", Instead: insteadDeploy},
	effect.DeploysEdgeFunctions: {Deny: "supabase functions deploy hello", Allow: "supabase functions serve", Says: "deploys the Edge Functions", Instead: insteadDeploy},
	effect.DeploysService:       {Deny: "serverless deploy", Allow: "serverless deploy --noDeploy", Says: "deploys the service", Instead: insteadDeploy},
	effect.ChangesApp:           {Deny: "heroku releases:rollback", Allow: "heroku releases", Says: "changes what the app runs", Instead: insteadDeploy},
	effect.DeploysFunctions:     {Deny: "convex deploy", Allow: "convex dev", Says: "deploys the functions to the production deployment", Instead: insteadDeploy},
	effect.DeploysBackend:       {Deny: "amplify push", Allow: "amplify status", Says: "deploys the backend", Instead: insteadDeploy},

	// Publishing a package or an image: a release.
	effect.PublishesPackage:         {Deny: "npm publish", Allow: "npm publish --dry-run", Says: "publishes the package to {subject}"},
	effect.PublishesCrate:           {Deny: "cargo publish", Allow: "cargo publish --dry-run", Says: "publishes the crate to crates.io"},
	effect.PublishesGem:             {Deny: "gem push x-1.0.gem", Allow: "gem build x.gemspec", Says: "publishes the gem to RubyGems"},
	effect.PublishesImage:           {Deny: "docker push ghcr.io/o/app:1", Allow: "docker push localhost:5000/app", Says: "publishes {subject} to its registry"},
	effect.PublishesBuiltImage:      {Deny: "docker buildx build --push .", Allow: "docker buildx build .", Says: "publishes the image it builds to its registry"},
	effect.PublishesChart:           {Deny: "helm push chart-1.0.tgz oci://ghcr.io/o", Allow: "helm package chart", Says: "publishes the chart to its registry"},
	effect.PublishesExtension:       {Deny: "vsce publish", Allow: "vsce package", Says: "publishes or withdraws the extension on the marketplace"},
	effect.PublishesArtifacts:       {Deny: "goreleaser release", Allow: "goreleaser release --snapshot", Says: "publishes a release with its artifacts"},
	effect.PublishesWorkspace:       {Deny: "lerna publish", Allow: "lerna publish --dry-run", Says: "publishes the workspace's packages"},
	effect.PublishesToRepository:    {Deny: "mvn deploy", Allow: "mvn package", Says: "publishes the artifacts to the remote repository"},
	effect.PublishesReleasePackages: {Deny: "semantic-release", Allow: "semantic-release --dry-run", Says: "publishes a release and its packages"},
}

// ForgeExamples returns the call that does d and its safe twin ("" when
// none), for the engine's tests.
func ForgeExamples(d effect.ForgeDoes) (deny, allow string) {
	return forgeDoes[d].Deny, forgeDoes[d].Allow
}

// judgeOversight decides a forge operation (effect.ForgeAction) by the
// oversight mode (oversightAction): under pr-gated merging, approving,
// closing others' work and administering are denied; autonomous also
// allows auto-merge on the agent's own pull request; checkpoint asks a
// human instead of denying. A call the guard cannot read is denied under
// every mode.
func judgeOversight(e effect.Effect, f *Facts) []Verdict {
	fa, ok := e.(effect.ForgeAction)
	if !ok {
		return nil
	}
	w := forgeDoes[fa.Does]
	if fa.Op == effect.ForgeUnread {
		return []Verdict{{Reason: forgeSays(fa, w), Instead: fill(w.Instead, "by", fa.By), RunTime: w.RunTime}}
	}
	mode := f.Oversight
	act := oversightAction(mode, fa)
	if act == "" {
		return nil
	}
	v := Verdict{Ask: act == policy.Ask, RunTime: w.RunTime}
	switch {
	case mode == policy.OversightAutonomous && fa.Op == effect.ForgeAutoMerge:
		v.Reason = forgeSays(fa, w, ": auto-merge on ", fa.Target, ", which may be another agent's pull request (autonomous allows it on your own: name none, from your branch, or name your branch)")
	case mode == policy.OversightAutonomous && fa.Op == effect.ForgeMerge:
		v.Reason = forgeSays(fa, w, " at once, without the required checks auto-merge waits for")
	case v.Ask:
		v.Reason = forgeSays(fa, w, ", which oversight ", mode, " leaves to a human (checkpoint: a human approves this call)")
	default:
		v.Reason = forgeSays(fa, w, ", which oversight ", mode, " leaves to a human")
	}
	switch {
	case w.Instead != "":
		v.Instead = fill(w.Instead, "by", fa.By)
	case fa.Issue:
		v.Instead = insteadIssueState
	case fa.MCP && (fa.Op == effect.ForgeMerge || fa.Op == effect.ForgeApprove):
		v.Instead = insteadMCPMerge
	case fa.MCP && fa.Op == effect.ForgeAdmin:
		v.Instead = insteadMCPAdmin
	}
	return []Verdict{v}
}

// forgeSays is what the call does, in its own words first ("gh pr merge
// merges a pull request", "MCP server github, tool merge_pull_request
// merges a pull request"), followed by more.
func forgeSays(fa effect.ForgeAction, w forgeWords, more ...string) string {
	says := w.Says
	if says == "" {
		says = "does what oversight leaves to a human"
	}
	var b strings.Builder
	n := len(fa.By) + len(fa.Args) + len(says) + len(fa.Subject) + 2
	for _, m := range more {
		n += len(m)
	}
	b.Grow(n)
	b.WriteString(fa.By)
	if fa.Args != "" {
		b.WriteString(" ")
		b.WriteString(fa.Args)
	}
	b.WriteString(" ")
	fillTo(&b, says, "subject", fa.Subject)
	for _, m := range more {
		b.WriteString(m)
	}
	return b.String()
}

// oversightAction is what the oversight mode does with a forge operation:
// "" (no objection), policy.Deny or policy.Ask. Every operation that
// reaches the rule (merging, approving, closing, administering, enabling
// auto-merge) is a human's; autonomous lets the agent enable auto-merge
// on its own pull request, since the forge then merges only once the
// required checks pass; checkpoint asks where the others deny.
func oversightAction(mode string, fa effect.ForgeAction) policy.Action {
	switch {
	case mode == policy.OversightAutonomous && fa.Op == effect.ForgeAutoMerge && fa.Own:
		return ""
	case mode == policy.OversightCheckpoint:
		return policy.Ask
	}
	return policy.Deny
}
