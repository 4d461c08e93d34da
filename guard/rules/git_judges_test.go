package rules

import (
	"reflect"
	"testing"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/swarm"
	"github.com/swarm-guard/swarm-guard/policy"
)

// gitFacts is the world of the git judges' tests: agent-1 on its home
// branch agent-1, main protected (the default policy).
func gitFacts(mut func(*policy.Policy)) *Facts {
	p := policy.Default().Clone()
	if mut != nil {
		mut(p)
	}
	return &Facts{Policy: p, Agent: swarm.Agent{ID: "w1-aaaa", HomeBranch: "agent-1", Branch: "agent-1", OwnBranches: p.Swarm.OwnBranches}}
}

func ruleIDs(vs []Verdict) []string {
	var ids []string
	for _, v := range vs {
		ids = append(ids, v.Rule)
	}
	return ids
}

func refspec(src, dst string) effect.Refspec {
	return effect.Refspec{Text: src + ":" + dst, Src: src, Dst: dst, Ref: "refs/heads/" + dst}
}

// fromGit is a ref line git hands pre-push, as the hook describes it.
func fromGit(branch string, force bool) effect.Refspec {
	return effect.Refspec{Src: "refs/heads/" + branch, Dst: branch, Ref: "refs/heads/" + branch, Force: force}
}

var (
	onAgent1 = []effect.Branch{{Name: "agent-1", Ref: "refs/heads/agent-1"}}
	onMain   = []effect.Branch{{Name: "main"}}
)

// TestJudgePush: which rules object to a push, effect by effect.
func TestJudgePush(t *testing.T) {
	lease := func(p *policy.Policy) { p.Git.OwnBranchForceWithLease = true }
	for _, c := range []struct {
		name string
		push effect.Push
		mut  func(*policy.Policy)
		want []string
	}{
		{"own branch", effect.Push{Current: onAgent1, Swarm: true}, nil, nil},
		{"own branch named", effect.Push{Refspecs: []effect.Refspec{refspec("agent-1", "agent-1")}, Swarm: true}, nil, nil},
		{"--force", effect.Push{Force: true, Current: onAgent1, Swarm: true}, nil, []string{"force-push"}},
		{"+refspec", effect.Push{Refspecs: []effect.Refspec{{Text: "+agent-1", Src: "agent-1", Dst: "agent-1", Ref: "refs/heads/agent-1", Force: true}}, Swarm: true}, nil, []string{"force-push"}},
		{"lease without policy", effect.Push{Lease: true, Current: onAgent1, Swarm: true}, nil, []string{"force-push"}},
		{"lease on own branch", effect.Push{Lease: true, Current: onAgent1, Swarm: true}, lease, nil},
		{"lease and --force", effect.Push{Lease: true, Force: true, Current: onAgent1, Swarm: true}, lease, []string{"force-push"}},
		{"lease on another branch", effect.Push{Lease: true, Refspecs: []effect.Refspec{refspec("HEAD", "agent-2")}, Current: onAgent1, Swarm: true}, lease, []string{"force-push", "foreign-branch"}},
		{"dynamic option", effect.Push{Dynamic: true}, nil, []string{"force-push"}},
		{"--mirror", effect.Push{Mirror: true, Swarm: true}, nil, []string{"force-push", "protected-branch", "foreign-branch"}},
		{"--mirror outside the swarm", effect.Push{Mirror: true}, nil, []string{"force-push", "protected-branch"}},
		{"--prune", effect.Push{Prune: true, Current: onAgent1, Swarm: true}, nil, []string{"force-push", "foreign-branch"}},
		{"--all", effect.Push{All: true, Swarm: true}, nil, []string{"protected-branch", "foreign-branch"}},
		{"current branch main", effect.Push{Current: onMain, Swarm: true}, nil, []string{"protected-branch"}},
		{"current branch unknown", effect.Push{CurrentUnknown: true, Swarm: true}, nil, []string{"protected-branch"}},
		{"HEAD:main", effect.Push{Refspecs: []effect.Refspec{refspec("HEAD", "main")}, Swarm: true}, nil, []string{"protected-branch"}},
		{"delete main", effect.Push{Refspecs: []effect.Refspec{{Text: ":main", Dst: "main", Ref: "refs/heads/main", Delete: true}}, Swarm: true}, nil, []string{"protected-branch"}},
		{"HEAD on main", effect.Push{Refspecs: []effect.Refspec{{Text: "HEAD", Src: "HEAD", Current: true}}, Current: onMain, Swarm: true}, nil, []string{"protected-branch"}},
		{"pattern onto main", effect.Push{Refspecs: []effect.Refspec{{Text: "refs/heads/*:refs/heads/*", Src: "refs/heads/*", Dst: "refs/heads/*"}}, Swarm: true}, nil, []string{"protected-branch"}},
		{"pattern onto agents", effect.Push{Refspecs: []effect.Refspec{{Text: "refs/heads/a*:refs/heads/a*", Src: "refs/heads/a*", Dst: "refs/heads/a*"}}, Swarm: true}, nil, []string{"foreign-branch"}},
		{"remote HEAD", effect.Push{Refspecs: []effect.Refspec{{Text: "x:HEAD", Src: "x", Dst: "HEAD", Ref: "refs/heads/HEAD"}}, Swarm: true}, nil, []string{"protected-branch"}},
		{"dynamic refspec", effect.Push{Refspecs: []effect.Refspec{{Text: "$b", Dynamic: true}}, Swarm: true}, nil, []string{"protected-branch"}},
		{"another agent's branch", effect.Push{Refspecs: []effect.Refspec{refspec("HEAD", "agent-2")}, Swarm: true}, nil, []string{"foreign-branch"}},
		{"another agent's branch outside the swarm", effect.Push{Refspecs: []effect.Refspec{refspec("HEAD", "agent-2")}}, nil, nil},
		{"checked out elsewhere", effect.Push{Refspecs: []effect.Refspec{{Text: "agent-1", Src: "agent-1", Dst: "agent-1", Ref: "refs/heads/agent-1", CheckedOutBy: "/w/x"}}, Swarm: true}, nil, []string{"foreign-branch"}},
		{"new tag", effect.Push{Refspecs: []effect.Refspec{{Text: "v1", Src: "v1", Dst: "v1", Ref: "refs/tags/v1"}}, Swarm: true}, nil, nil},
		{"tag delete", effect.Push{Refspecs: []effect.Refspec{{Text: ":refs/tags/v1", Dst: "refs/tags/v1", Ref: "refs/tags/v1", Delete: true}}, Swarm: true}, nil, []string{"foreign-branch"}},
		{"--tags --delete", effect.Push{Tags: true, Delete: true, Swarm: true}, nil, []string{"foreign-branch"}},
		{"matching refspec", effect.Push{Refspecs: []effect.Refspec{{Text: ":", Matching: true}}, Swarm: true}, nil, []string{"foreign-branch"}},
		{"push.default=matching", effect.Push{Matching: true, Current: onAgent1, Swarm: true}, nil, []string{"foreign-branch"}},
		// What the pre-push hook builds from git's ref lines.
		{"pre-push fast-forward", effect.Push{FromGit: true, Refspecs: []effect.Refspec{fromGit("agent-1", false)}, Current: onAgent1, Swarm: true}, nil, nil},
		{"pre-push not a fast-forward", effect.Push{FromGit: true, Refspecs: []effect.Refspec{fromGit("agent-1", true)}, Current: onAgent1, Swarm: true}, nil, []string{"force-push"}},
		{"pre-push rewrite of own branch, lease allowed", effect.Push{FromGit: true, Refspecs: []effect.Refspec{fromGit("agent-1", true)}, Current: onAgent1, Swarm: true}, lease, nil},
		{"pre-push rewrite of another branch, lease allowed", effect.Push{FromGit: true, Refspecs: []effect.Refspec{fromGit("feature", true)}, Current: onAgent1}, lease, []string{"force-push"}},
		{"pre-push to main", effect.Push{FromGit: true, Refspecs: []effect.Refspec{fromGit("main", false)}, Current: onAgent1, Swarm: true}, nil, []string{"protected-branch"}},
		{"pre-push to another agent's branch", effect.Push{FromGit: true, Refspecs: []effect.Refspec{fromGit("agent-2", false)}, Current: onAgent1, Swarm: true}, nil, []string{"foreign-branch"}},
		{"Gerrit review", effect.Push{Refspecs: []effect.Refspec{{Text: "HEAD:refs/for/main", Src: "HEAD", Dst: "refs/for/main", Ref: "refs/for/main"}}, Swarm: true}, nil, nil},
	} {
		got := ruleIDs(JudgeEffect(c.push, gitFacts(c.mut)))
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: rules %v, want %v", c.name, got, c.want)
		}
	}
}

// TestJudgeVerdictDefaults: a verdict without its own Instead carries
// its rule's.
func TestJudgeVerdictDefaults(t *testing.T) {
	vs := JudgeEffect(effect.Push{Force: true, Current: onAgent1}, gitFacts(nil))
	if len(vs) != 1 || vs[0].Instead != ForcePush.Instead || vs[0].Reason != "git push --force rewrites history that other agents may have built on" {
		t.Fatalf("got %+v", vs)
	}
}

// TestJudgePushFromGit: the pre-push hook names the ref itself, and git
// does not say how the push was forced.
func TestJudgePushFromGit(t *testing.T) {
	vs := JudgeEffect(effect.Push{FromGit: true, Refspecs: []effect.Refspec{fromGit("agent-2", true)}, Current: onAgent1, Swarm: true}, gitFacts(nil))
	want := []string{
		"not a fast-forward: the push drops commits from the remote, and a force push rewrites history that other agents may have built on",
		"pushing to the branch agent-2, which is not yours (your branch agent-1; [swarm] own_branches also gives you agent/w1-aaaa/**, agent-1-*)",
	}
	var got []string
	for _, v := range vs {
		got = append(got, v.Reason)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("reasons:\n%q\nwant\n%q", got, want)
	}
}

// TestJudgeDiscard: every kind of discarded work is destructive-git, with
// the alternative that keeps it; other effects are not its business.
func TestJudgeDiscard(t *testing.T) {
	f := gitFacts(nil)
	for _, c := range []struct {
		d            effect.Discard
		reason, inst string
	}{
		{effect.Discard{Loss: effect.LostReset, Command: "git reset --hard"}, "git reset --hard throws away uncommitted changes and can drop commits", "use git stash to set changes aside, or git reset --keep / git restore --staged, which keep your work"},
		{effect.Discard{Loss: effect.LostReset, Command: "git reset", Dynamic: true}, "git reset has an argument only known at run time, which may be --hard", "write the options literally; put paths after --"},
		{effect.Discard{Loss: effect.LostToCommitted, Command: "git checkout ."}, "git checkout . overwrites working-tree files with committed versions, discarding uncommitted changes", DestructiveGit.Instead},
		{effect.Discard{Loss: effect.LostFiles, Command: "git restore a.txt"}, "git restore a.txt overwrites working-tree files, discarding uncommitted changes", DestructiveGit.Instead},
		{effect.Discard{Loss: effect.LostUntracked, Command: "git clean -f"}, "git clean -f deletes untracked files, which are work git cannot bring back", "preview with git clean -n, then delete the specific files you mean with rm"},
		{effect.Discard{Loss: effect.LostStash, Command: "git stash drop"}, "git stash drop deletes stashed work", "leave the stash; git stash list shows it, git stash pop brings it back"},
		{effect.Discard{Loss: effect.LostStash, Command: "git stash", Subject: "`$x`", Dynamic: true}, "git stash `$x` is only known at run time and may be drop or clear", "write the stash subcommand literally"},
		{effect.Discard{Loss: effect.LostUnmerged, Command: "git branch -D", Subject: "x"}, "git branch -D deletes x even if its commits are merged nowhere", "use git branch -d, which refuses to delete unmerged work"},
		{effect.Discard{Loss: effect.LostOverwritten, Command: "git branch -M a b", Subject: "b"}, "git branch -M a b overwrites the existing branch b, whose commits may then be on no branch", "pick a new name, or use -m or -c, which refuse to overwrite an existing branch"},
		{effect.Discard{Loss: effect.LostUnreachableNow, Command: "git gc --prune=now"}, "git gc --prune=now deletes unreachable commits that could still be recovered", "run git gc without --prune=now"},
		{effect.Discard{Loss: effect.LostWorktree, Command: "rm", Subject: "/work/repo/*"}, "rm deletes everything in the worktree (/work/repo/*), uncommitted and untracked work included", "delete the files you mean by name (rm -rf build dist); a wipe of the whole worktree is for a human ([git] allow_worktree_wipe)"},
	} {
		vs := JudgeEffect(c.d, f)
		if len(vs) != 1 || vs[0].Rule != policy.RuleDestructiveGit || vs[0].Reason != c.reason || vs[0].Instead != c.inst {
			t.Errorf("%+v: got %+v\n\twant %s: %s; instead: %s", c.d, vs, policy.RuleDestructiveGit, c.reason, c.inst)
		}
	}
	if vs := JudgeEffect(effect.Push{Current: onAgent1}, f); len(vs) != 0 {
		t.Errorf("a plain push of one's own branch: %+v", vs)
	}
	// [git] allow_worktree_wipe lets the team's agents start over.
	wipe := *f.Policy
	wipe.Git.AllowWorktreeWipe = true
	if vs := JudgeEffect(effect.Discard{Loss: effect.LostWorktree, Command: "rm", Subject: "/work/repo/*"}, &Facts{Policy: &wipe}); len(vs) != 0 {
		t.Errorf("a worktree wipe with allow_worktree_wipe: %+v", vs)
	}
}

// TestJudgeBranchChange: local branch changes are protected-branch's on
// main, foreign-branch's on another agent's branch, nobody's on one's own.
func TestJudgeBranchChange(t *testing.T) {
	f := gitFacts(nil)
	f.Agent.OwnBranches = []string{"agent/{id}/**"}
	for _, c := range []struct {
		name string
		c    effect.BranchChange
		want []string
	}{
		{"branch -d main", effect.BranchChange{Op: effect.BranchDelete, Branch: "main"}, []string{"protected-branch"}},
		{"branch -d own", effect.BranchChange{Op: effect.BranchDelete, Branch: "agent-1"}, nil},
		{"branch -d checked out elsewhere", effect.BranchChange{Op: effect.BranchDelete, Branch: "agent-2", CheckedOutBy: "/w/agent-2"}, []string{"foreign-branch"}},
		{"branch -d under another agent's prefix", effect.BranchChange{Op: effect.BranchDelete, Branch: "agent/w9-beef/x"}, []string{"foreign-branch"}},
		{"branch -d dynamic", effect.BranchChange{Op: effect.BranchDelete, Branch: "$b", Dynamic: true}, []string{"protected-branch"}},
		{"branch -f main", effect.BranchChange{Op: effect.BranchForce, Branch: "main"}, []string{"protected-branch"}},
		{"branch -f dynamic", effect.BranchChange{Op: effect.BranchForce, Branch: "$b", Dynamic: true}, []string{"protected-branch"}},
		{"branch -m onto main", effect.BranchChange{Op: effect.BranchRename, Branch: "main", Args: "x main"}, []string{"protected-branch"}},
		{"update-ref main", effect.BranchChange{Op: effect.UpdateRef, Branch: "refs/heads/main"}, []string{"protected-branch"}},
		{"update-ref other agent", effect.BranchChange{Op: effect.UpdateRef, Branch: "refs/heads/agent-2", CheckedOutBy: "/w/agent-2"}, []string{"foreign-branch"}},
		{"update-ref bookkeeping", effect.BranchChange{Op: effect.UpdateRef, Branch: "refs/swarm-guard/usage/x", CheckedOutBy: ""}, nil},
		{"update-ref --stdin unknown", effect.BranchChange{Op: effect.UpdateRefStdin, Dynamic: true}, []string{"protected-branch"}},
		{"symbolic-ref HEAD main", effect.BranchChange{Op: effect.SymbolicRefHEAD, Branch: "refs/heads/main"}, []string{"protected-branch"}},
		{"checkout main", effect.BranchChange{Op: effect.Checkout, Branch: "main"}, []string{"protected-branch"}},
		{"checkout feature", effect.BranchChange{Op: effect.Checkout, Branch: "feature"}, nil},
		{"checkout dynamic", effect.BranchChange{Op: effect.Checkout, Branch: "$b", Dynamic: true}, []string{"protected-branch"}},
		{"switch -C main", effect.BranchChange{Op: effect.SwitchReset, Branch: "main"}, []string{"protected-branch"}},
		{"worktree add main", effect.BranchChange{Op: effect.WorktreeAdd, Branch: "main"}, []string{"protected-branch"}},
		{"worktree add --force other agent", effect.BranchChange{Op: effect.WorktreeAddForce, Branch: "agent-2", CheckedOutBy: "/w/agent-2"}, []string{"foreign-branch"}},
		{"checkout --ignore-other-worktrees", effect.BranchChange{Op: effect.CheckoutIgnoreOther, Branch: "agent-2", CheckedOutBy: "/w/agent-2"}, []string{"foreign-branch"}},
		{"commit on main", effect.BranchChange{Op: effect.CommitCurrent, Current: []string{"main", "master"}, Args: "commit"}, []string{"protected-branch"}},
		{"commit on own", effect.BranchChange{Op: effect.CommitCurrent, Current: []string{"agent-1"}, Args: "commit"}, nil},
		{"reset on main and master", effect.BranchChange{Op: effect.ResetCurrent, Current: []string{"main", "master"}}, []string{"protected-branch", "protected-branch"}},
		{"rebase main", effect.BranchChange{Op: effect.RebaseBranch, Branch: "main"}, []string{"protected-branch"}},
		{"fetch into main", effect.BranchChange{Op: effect.FetchInto, Branch: "main", Args: "+main:main"}, []string{"protected-branch"}},
		{"MCP push to main", effect.BranchChange{Op: effect.MCPWrite, Branch: "main", Args: "mcp__github__push_files"}, []string{"protected-branch"}},
		{"MCP push to own", effect.BranchChange{Op: effect.MCPWrite, Branch: "agent-1", Args: "mcp__github__push_files"}, nil},
		{"MCP push to another agent's", effect.BranchChange{Op: effect.MCPWrite, Branch: "agent-2", Args: "mcp__github__push_files", CheckedOutBy: "/w/agent-2"}, []string{"foreign-branch"}},
		{"MCP delete of another agent's", effect.BranchChange{Op: effect.MCPWrite, Branch: "agent/w9-beef/x", Args: "mcp__github__delete_branch", Delete: true}, []string{"foreign-branch"}},
		{"MCP workflow run on main", effect.BranchChange{Op: effect.MCPActOn, Branch: "main", Args: "mcp__github__run_workflow"}, []string{"protected-branch"}},
		{"gh workflow run on main", effect.BranchChange{Op: effect.WorkflowRun, Branch: "main", Args: "workflow run ci.yml"}, []string{"protected-branch"}},
		{"gh workflow run on the default branch", effect.BranchChange{Op: effect.WorkflowRun, Args: "workflow run ci.yml"}, []string{"protected-branch"}},
		{"gh workflow run on a branch known at run time", effect.BranchChange{Op: effect.WorkflowRun, Branch: `"$B"`, Dynamic: true, Args: "workflow run ci.yml"}, []string{"protected-branch"}},
		{"gh workflow run on own", effect.BranchChange{Op: effect.WorkflowRun, Branch: "agent-1", Args: "workflow run ci.yml"}, nil},
		{"gh workflow run on another agent's", effect.BranchChange{Op: effect.WorkflowRun, Branch: "agent-2", Args: "workflow run ci.yml", CheckedOutBy: "/w/agent-2"}, nil},
		{"MCP checkout of another agent's", effect.BranchChange{Op: effect.MCPCheckout, Branch: "agent-2", Args: "mcp__git__git_checkout", CheckedOutBy: "/w/agent-2"}, nil},
	} {
		got := ruleIDs(JudgeEffect(c.c, f))
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: rules %v, want %v", c.name, got, c.want)
		}
	}
}

// TestJudgeGitConfig: config keys that change what later pushes and
// cleans do.
func TestJudgeGitConfig(t *testing.T) {
	f := gitFacts(nil)
	for _, c := range []struct {
		c    effect.GitConfig
		want []string
	}{
		{effect.GitConfig{Key: "remote.origin.mirror", Value: "true", Set: true}, []string{"force-push"}},
		{effect.GitConfig{Key: "remote.origin.Mirror", Value: "", Set: true}, []string{"force-push"}},
		{effect.GitConfig{Key: "remote.origin.mirror", Value: "false", Set: true}, nil},
		{effect.GitConfig{Key: "remote.origin.mirror"}, nil},
		{effect.GitConfig{Key: "remote.origin.mirror", Value: "$v", Set: true, Dynamic: true}, []string{"force-push"}},
		{effect.GitConfig{Key: "clean.requireForce", Value: "false", Set: true}, []string{"destructive-git"}},
		{effect.GitConfig{Key: "clean.requireForce", Value: "true", Set: true}, nil},
		{effect.GitConfig{Key: "user.name", Value: "x", Set: true}, nil},
	} {
		if got := ruleIDs(JudgeEffect(c.c, f)); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%+v: rules %v, want %v", c.c, got, c.want)
		}
	}
}
