package mcp

import "sync"

// server is the built-in knowledge of one MCP server.
type server struct {
	kind  Kind
	forge bool // a forge's server: oversight governs its destructive tools
	tools map[string]Tool
	// distinctive is a tool only this server has, to recognise it under
	// another configured name; unique marks more such tools.
	distinctive string
	unique      map[string]bool
}

func tools(a Access, names ...string) map[string]Tool {
	m := map[string]Tool{}
	for _, n := range names {
		m[n] = Tool{Access: a}
	}
	return m
}

func merge(ms ...map[string]Tool) map[string]Tool {
	out := map[string]Tool{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

func with(m map[string]Tool, f func(*Tool)) map[string]Tool {
	for k, v := range m {
		f(&v)
		m[k] = v
	}
	return m
}

// servers are the popular MCP servers, keyed by the name they are usually
// configured under. Tool names were checked against each server's
// published tool list or schema snapshots. Built on first use: a hook
// call that judges no MCP tool (a Bash or Write call) does not pay for it.
var servers = sync.OnceValue(buildServers)

func buildServers() map[string]server {
	servers := map[string]server{
		// github/github-mcp-server (pkg/github/__toolsnaps__/*.snap) and the
		// archived @modelcontextprotocol/server-github. Paths are paths in the
		// remote repository, not local files.
		"github": {kind: Remote, forge: true, distinctive: "merge_pull_request", tools: merge(
			tools(Read, "get_me", "get_issue", "list_issues", "search_issues", "issue_read", "get_issue_comments",
				"get_pull_request", "list_pull_requests", "search_pull_requests", "pull_request_read", "get_pull_request_files",
				"get_pull_request_diff", "get_pull_request_status", "get_pull_request_comments", "get_pull_request_reviews",
				"get_file_contents", "list_branches", "list_commits", "get_commit", "compare_commits", "list_tags", "get_tag",
				"list_releases", "get_latest_release", "get_release_by_tag", "search_code", "search_repositories", "search_users",
				"search_orgs", "list_workflows", "list_workflow_runs", "get_workflow_run", "get_job_logs", "list_workflow_jobs",
				"get_workflow_run_logs", "actions_get", "actions_list", "list_notifications", "get_notification_details",
				"list_gists", "get_gist", "get_code_scanning_alert", "list_code_scanning_alerts", "get_dependabot_alert",
				"list_dependabot_alerts", "get_secret_scanning_alert", "list_secret_scanning_alerts", "get_discussion",
				"list_discussions", "get_discussion_comments", "get_file_blame", "get_team_members", "get_teams", "list_label",
				"get_label", "list_issue_types", "list_sub_issues", "list_starred_repositories", "get_copilot_space"),
			with(tools(Write, "create_pull_request", "update_pull_request", "create_issue", "update_issue", "issue_write",
				"add_issue_comment", "add_pull_request_comment", "add_reply_to_pull_request_comment", "add_comment_to_pending_review",
				"add_pull_request_review_comment", "create_pending_pull_request_review", "request_copilot_review",
				"add_sub_issue", "sub_issue_write"), func(t *Tool) { t.Own = true }),
			// delete_file is a commit that removes a file, recoverable like any
			// commit: a write to the branch, as git rm + git push would be.
			tools(Write, "create_branch", "create_or_update_file", "push_files", "delete_file", "update_pull_request_branch", "create_repository",
				"fork_repository", "create_gist", "update_gist", "run_workflow", "rerun_workflow_run", "rerun_failed_jobs",
				"actions_run_trigger", "cancel_workflow_run", "star_repository", "unstar_repository", "label_write",
				"dismiss_notification", "mark_all_notifications_read", "manage_notification_subscription",
				"manage_repository_notification_subscription", "assign_copilot_to_issue", "create_discussion",
				"add_discussion_comment", "add_issue_comment_reaction", "add_issue_reaction"),
			tools(Destructive, "delete_branch", "delete_release", "delete_repository", "delete_workflow_run_logs",
				"delete_pending_pull_request_review", "add_repository_collaborator", "create_repository_ruleset",
				"create_org_invitation", "custom_properties_write", "delete_discussion_comment", "delete_project_item",
				// Organisation and enterprise administration and package deletion
				// (toolsnaps create_enterprise_repository_ruleset.snap,
				// create_or_update_*_custom_properties.snap, delete_*_package*.snap):
				// their "create" verb would otherwise make them mere writes.
				"create_enterprise_repository_ruleset", "create_organization_repository_ruleset",
				"create_or_update_enterprise_custom_properties", "create_or_update_organization_custom_properties",
				"create_or_update_repository_custom_properties", "create_repository_security_advisory",
				"delete_org_package", "delete_org_package_version", "delete_user_package", "delete_user_package_version",
				// Publishing a release is a human's, as gh release create is.
				"create_release"),
			with(tools(Destructive, "merge_pull_request"), func(t *Tool) { t.Merge = true }),
			with(tools(Write, "pull_request_review_write", "create_and_submit_pull_request_review", "submit_pending_pull_request_review",
				"create_pull_request_review"), func(t *Tool) { t.Approve, t.Own = true, true }),
		)},
		// modelcontextprotocol/servers, src/filesystem.
		"filesystem": {kind: Local, distinctive: "list_allowed_directories", tools: merge(
			tools(Read, "read_file", "read_text_file", "read_media_file", "read_multiple_files", "list_directory",
				"list_directory_with_sizes", "directory_tree", "search_files", "get_file_info", "list_allowed_directories"),
			tools(Write, "write_file", "edit_file", "create_directory", "move_file"),
		)},
		// modelcontextprotocol/servers, src/git/src/mcp_server_git/server.py
		// (enum GitTools). git_commit is repo.index.commit (GitPython): no git
		// hooks run, hence GitCommit; git_commit_signed runs `git commit -S`,
		// whose hooks do run. git_reset is repo.index.reset(), an unstage like
		// a bare `git reset`, not --hard. git_push is not in the reference
		// server but in other git servers (e.g. cyanheads/git-mcp-server).
		"git": {kind: Local, distinctive: "git_diff_unstaged", tools: merge(
			tools(Read, "git_status", "git_diff_unstaged", "git_diff_staged", "git_diff", "git_log", "git_show", "git_branch"),
			tools(Write, "git_add", "git_reset", "git_create_branch", "git_init"),
			with(tools(Write, "git_commit"), func(t *Tool) { t.GitCommit = true }),
			tools(Write, "git_commit_signed"),
			with(tools(Write, "git_checkout"), func(t *Tool) { t.GitCheckout = true }),
			with(tools(Write, "git_push"), func(t *Tool) { t.GitPush = true }),
		)},
		// modelcontextprotocol/servers-archived, src/postgres: one tool that
		// runs SQL in a read-only transaction; the guard reads the SQL anyway.
		"postgres": {kind: Local, tools: tools(Read, "query")},
		// modelcontextprotocol/servers-archived, src/sqlite.
		"sqlite": {kind: Local, distinctive: "append_insight", tools: merge(
			tools(Read, "read_query", "list_tables", "describe_table"),
			tools(Write, "write_query", "create_table", "append_insight"),
		)},
		// supabase-community/supabase-mcp.
		"supabase": {kind: Remote, distinctive: "apply_migration", tools: merge(
			tools(Read, "list_projects", "get_project", "list_organizations", "get_organization", "get_cost", "list_tables",
				"list_extensions", "list_migrations", "get_logs", "get_advisors", "get_project_url", "get_anon_key",
				"get_publishable_keys", "search_docs", "list_edge_functions", "get_edge_function", "list_branches",
				"list_storage_buckets", "get_storage_config", "generate_typescript_types"),
			tools(Write, "execute_sql", "create_branch", "deploy_edge_function", "confirm_cost", "rebase_branch",
				"update_storage_config"),
			tools(Destructive, "apply_migration", "create_project", "pause_project", "restore_project", "delete_branch",
				"merge_branch", "reset_branch"),
		)},
		// microsoft/playwright-mcp: a browser session. Driving the page is a
		// write to the session, which its default access allows.
		"playwright": {kind: Local, distinctive: "browser_snapshot", tools: merge(
			tools(Read, "browser_snapshot", "browser_take_screenshot", "browser_console_messages", "browser_network_requests",
				"browser_tabs", "browser_wait_for", "browser_generate_playwright_test"),
			tools(Write, "browser_navigate", "browser_navigate_back", "browser_navigate_forward", "browser_click", "browser_type",
				"browser_fill_form", "browser_select_option", "browser_hover", "browser_drag", "browser_press_key",
				"browser_handle_dialog", "browser_resize", "browser_close", "browser_install", "browser_evaluate",
				"browser_file_upload", "browser_pdf_save", "browser_tab_new", "browser_tab_select", "browser_tab_close",
				"browser_mouse_click_xy", "browser_mouse_move_xy", "browser_mouse_drag_xy"),
			// browser_run_code (src/tools/runCode.ts) runs the agent's Playwright
			// code in the server's Node process through vm.createContext, which
			// is no sandbox: code the guard cannot read, on the host. Admin.
			tools(Destructive, "browser_run_code"),
		)},
		// wonderwhy-er/DesktopCommanderMCP, src/server.ts (the ListTools
		// handler; argument schemas in src/tools/schemas.ts). start_process's
		// command goes through the Bash guard. interact_with_process sends
		// free-form input to a running process — a shell, a REPL — that the
		// guard cannot read as a command, and set_config_value can empty
		// allowedDirectories or blockedCommands: both admin. kill_process
		// kills any process; force_terminate ends a session the agent started.
		"desktop-commander": {kind: Local, distinctive: "interact_with_process", tools: merge(
			tools(Read, "get_config", "read_file", "read_multiple_files", "list_directory", "get_file_info", "list_processes",
				"list_sessions", "read_process_output", "start_search", "get_more_search_results", "stop_search", "list_searches",
				"get_usage_stats", "get_prompts", "get_recent_tool_calls"),
			tools(Write, "write_file", "create_directory", "move_file", "edit_block", "write_pdf", "start_process",
				"force_terminate", "give_feedback_to_desktop_commander"),
			tools(Destructive, "set_config_value", "interact_with_process", "kill_process"),
		)},
		// modelcontextprotocol/servers-archived, src/puppeteer.
		"puppeteer": {kind: Local, distinctive: "puppeteer_navigate", tools: merge(
			tools(Read, "puppeteer_screenshot"),
			tools(Write, "puppeteer_navigate", "puppeteer_click", "puppeteer_fill", "puppeteer_select", "puppeteer_hover",
				"puppeteer_evaluate"),
		)},
	}
	markGitHubTools(servers)
	return servers
}

// refWriters are the github-mcp-server tools whose branch argument is a
// ref they write: a commit pushed onto it (create_or_update_file,
// push_files, delete_file, update_pull_request_branch), or the ref created
// or deleted (create_branch, delete_branch). Their other branch-like
// arguments (from_branch, sha) are only read.
var refWriters = []string{"create_or_update_file", "push_files", "delete_file", "update_pull_request_branch", "create_branch", "delete_branch"}

func markGitHubTools(servers map[string]server) {
	gh := servers["github"]
	for _, name := range refWriters {
		t := gh.tools[name]
		t.WritesRef = true
		gh.tools[name] = t
	}
	t := gh.tools["update_pull_request"]
	t.SetsPRState = true
	gh.tools["update_pull_request"] = t
	// Closing or reopening an issue is the overseer's call, as gh issue
	// close N is.
	for _, name := range []string{"update_issue", "issue_write"} {
		t := gh.tools[name]
		t.SetsIssueState = true
		gh.tools[name] = t
	}
}

// browserServers get write access by default: their writes drive a
// browser session, which is what they are for.
var browserServers = map[string]bool{"playwright": true, "puppeteer": true}

// DefaultAccess is the access a server gets when the policy names none:
// read, or write for browser servers.
func DefaultAccess(server string) Access {
	if browserServers[server] {
		return Write
	}
	return Read
}

// Canonical returns the built-in server a configured server name (or one
// of its tools) resolves to, or "".
func Canonical(n Name) string {
	if _, ok := servers()[n.Server]; ok {
		return n.Server
	}
	for name, s := range servers() {
		if n.Tool != "" && s.distinctive == n.Tool {
			return name
		}
	}
	return ""
}
