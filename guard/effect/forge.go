package effect

// The forge family: operations on GitHub or GitLab that oversight may
// reserve for humans, however they are requested. gh pr merge 12, glab mr
// merge 4, hub merge, a PUT to …/pulls/12/merge with curl or gh api, and
// the GitHub MCP server's merge_pull_request all build a ForgeAction with
// Op ForgeMerge, so one judge (guard/rules/oversight.go) decides them all.

// ForgeOp is what a forge operation does, as oversight sees it.
type ForgeOp int

const (
	ForgeMerge     ForgeOp = iota + 1 // merges a pull request now
	ForgeApprove                      // approves a pull request
	ForgeAutoMerge                    // enables auto-merge: the forge merges once the required checks pass
	ForgeState                        // closes or reopens a pull request or an issue
	ForgeAdmin                        // deletes, publishes releases, changes settings or protection
	ForgeUnread                       // a subcommand or endpoint only known at run time: may be any of these
	ForgeBypass                       // merges past the branch protection and the required checks (gh pr merge --admin)
)

// ForgeAction is one operation on the forge. The tool code says what
// the call does (Does) in the call's own words (By, Args); the oversight
// rule writes every sentence (guard/rules/oversight.go, forgeDoes),
// beside a call that does each.
type ForgeAction struct {
	Op ForgeOp
	// By names who asks, as a reason says it: "gh", "glab", "curl",
	// "MCP server github, tool merge_pull_request".
	By string
	// Args are the call's own words after By, as written: "pr merge",
	// "pr close 12", "api DELETE repos/o/r", "DELETE /repos/o/r",
	// "--prod"; "" when By says it all (an MCP tool).
	Args string
	// Does is what the call does.
	Does ForgeDoes
	// Subject is the word a Does names inside its sentence: the state an
	// MCP tool sets, the GraphQL mutation, what is deleted ("run",
	// "gist").
	Subject string
	// Target is the pull request a ForgeAutoMerge names (a number, a
	// branch, a URL); "" for the current branch's.
	Target string
	// Own: Target is the agent's own pull request (none named, or one of
	// the agent's branches). A number or a URL may be anybody's.
	Own bool
	// Issue: a ForgeState on an issue rather than a pull request.
	Issue bool
	// MCP: requested through an MCP server's tool rather than a CLI or
	// an HTTP client (the alternatives name no shell commands then).
	MCP bool
}

// ForgeDoes is what a forge call does, as the oversight rule words it.
type ForgeDoes int

const (
	// Pull and merge requests.
	MergesPullRequest    ForgeDoes = iota + 1 // gh pr merge, PUT …/pulls/N/merge, an MCP merge tool
	MergesMergeRequest                        // glab mr merge
	MergesBranch                              // POST …/merges: a branch into another, no pull request
	MergesPastChecks                          // gh pr merge --admin
	ApprovesPullRequest                       // gh pr review --approve, an approving review
	ApprovesMergeRequest                      // glab mr approve
	ClosesPullRequest                         // gh pr close N, PATCH …/pulls/N state
	ClosesMergeRequest                        // glab mr close, reopen or delete
	SetsPullRequestState                      // an MCP tool sets a pull request's state (Subject)

	// Issues.
	ClosesIssue       // gh issue close, PATCH …/issues/N state
	ClosesIssueGitLab // glab issue close, reopen or delete
	MovesIssue        // gh issue delete, transfer, lock, pin …
	SetsIssueState    // an MCP tool sets an issue's state (Subject)

	// The repository, its settings, releases and CI.
	ChangesRepository  // gh repo delete, archive, rename, edit …
	DeletesRepository  // hub delete
	OverwritesBranch   // gh repo sync --force
	ChangesRelease     // gh release create, delete …
	PublishesRelease   // POST …/releases
	ChangesSettings    // gh secret set, PUT …/protection, PATCH repos/o/r
	ChangesProject     // glab variable set
	SwitchesWorkflow   // gh workflow disable or enable
	DeletesAll         // gh run|cache|label delete: the repository's Subject (run, cache, label)
	DeletesAccountItem // gh gist|ssh-key|gpg-key delete: the account's Subject
	CancelsRun         // gh run cancel
	CancelsPipeline    // glab ci delete or cancel
	DefinesAliases     // gh alias import
	DefinesUnreadAlias // gh alias set with an expansion only known at run time
	Deletes            // an API DELETE
	MovesRef           // …/git/refs: moves or deletes a branch or tag
	SetsStatus         // …/statuses, …/check-runs
	CommitsFile        // PUT …/contents/: a commit straight onto a branch
	Administers        // an MCP tool that deletes or administers

	// GraphQL.
	RunsMutation     // a mutation named Subject
	RunsReadMutation // a mutation sent with GET
	SendsUnreadQuery // a document from a file or stdin

	// Calls only known at run time.
	UnreadSubcommand // a forge CLI's subcommand
	UnreadEndpoint   // an API endpoint

	// Production deploys through a platform's CLI.
	DeploysProject       // vercel --prod, firebase deploy
	ChangesProduction    // vercel promote, rollback
	DeploysSite          // netlify deploy --prod
	DeploysApp           // fly deploy
	LaunchesApp          // fly launch
	ChangesDeployment    // railway up, redeploy, down
	DeploysWorker        // wrangler deploy
	ChangesWorker        // wrangler versions deploy, rollback
	DeploysPages         // wrangler pages deploy
	PushesMigrations     // supabase db push
	ResetsDatabase       // supabase db reset --linked
	DeploysEdgeFunctions // supabase functions deploy
	DeploysService       // render deploys create, serverless deploy
	ChangesApp           // heroku container:release …
	DeploysFunctions     // convex deploy
	DeploysBackend       // amplify publish, push

	// Publishing a package or an image: a release.
	PublishesPackage         // npm publish, twine upload, dotnet nuget push, deno publish: to Subject (the registry)
	PublishesCrate           // cargo publish
	PublishesGem             // gem push
	PublishesImage           // docker push Subject
	PublishesBuiltImage      // docker build --push without a tag
	PublishesChart           // helm push
	PublishesExtension       // vsce publish, unpublish
	PublishesArtifacts       // goreleaser release
	PublishesWorkspace       // lerna publish, changeset publish
	PublishesToRepository    // gradle publish, mvn deploy
	PublishesReleasePackages // semantic-release
)

func (ForgeAction) isEffect() {}
