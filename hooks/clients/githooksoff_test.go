package clients

import "testing"

func TestGitWithHooksOff(t *testing.T) {
	for _, tc := range []struct {
		command, want string
	}{
		{`git commit -m "fix"`, "commit"},
		{`git add -A && git commit -qm fix`, "commit"},
		{`git -C sub -c user.name=x commit -m y`, "commit"},
		{`git push origin feature`, "push"},
		{`git merge --no-ff topic`, "merge"},
		{`cd -- '/w/sub dir' && git commit -m x`, "commit"},
		{`command git commit -m x`, "commit"},
		{`env FOO=1 git push`, "push"},
		{`bash -c 'git status'; git push`, "push"},
		// Safe twins: no commit or push, or the hooks back on first.
		{`git status && git log --oneline -3`, ""},
		{`git add -A && git diff --cached`, ""},
		{`unset GIT_CONFIG_COUNT; git commit -m x`, ""},
		{`unset GIT_CONFIG_COUNT; git add -A && git commit -qm fix && git push`, ""},
		{`env -u GIT_CONFIG_COUNT git commit -m x`, ""},
		{`GIT_CONFIG_COUNT=0 git push`, ""},
		{`export GIT_CONFIG_COUNT=0; git push`, ""},
		{`echo git commit`, ""},
		{`if (`, ""}, // does not parse: the engine judges it
	} {
		if got := gitWithHooksOff(tc.command); got != tc.want {
			t.Errorf("gitWithHooksOff(%q) = %q, want %q", tc.command, got, tc.want)
		}
	}
}
