package history

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
)

// generated are the commands of a generated history: mostly everyday
// work, with the calls a policy would stop mixed in, in the proportions a
// busy swarm shows (about one in twenty is stopped by the default policy).
var generated = []struct {
	tool  string
	input map[string]string
}{
	{"Bash", map[string]string{"command": "git status"}},
	{"Bash", map[string]string{"command": "go test ./..."}},
	{"Bash", map[string]string{"command": "ls -la src"}},
	{"Read", map[string]string{"file_path": "{root}/src/main.go"}},
	{"Edit", map[string]string{"file_path": "{root}/src/main.go", "old_string": "a", "new_string": "b"}},
	{"Bash", map[string]string{"command": "grep -rn TODO src | head -20"}},
	{"Bash", map[string]string{"command": "git add -A && git commit -m 'feat: step'"}},
	{"Bash", map[string]string{"command": "npm run build 2>&1 | tail -5"}},
	{"Write", map[string]string{"file_path": "{root}/docs/notes.md", "content": "notes\n"}},
	{"Bash", map[string]string{"command": "cd src && go vet ./... && cd .."}},
	{"Bash", map[string]string{"command": "find . -name '*.go' | xargs wc -l"}},
	{"Grep", map[string]string{"pattern": "func main", "path": "{root}"}},
	{"Bash", map[string]string{"command": "git diff --stat HEAD~1"}},
	{"Bash", map[string]string{"command": "rm -rf build && mkdir build"}},
	{"Bash", map[string]string{"command": "cat package.json | jq .scripts"}},
	{"Bash", map[string]string{"command": "git log --oneline -10"}},
	{"Bash", map[string]string{"command": "python3 -c 'print(1+1)'"}},
	{"Bash", map[string]string{"command": "git fetch origin && git rebase origin/main"}},
	{"Bash", map[string]string{"command": "git reset --hard HEAD~1"}},      // destructive-git
	{"Bash", map[string]string{"command": "git push --force origin main"}}, // force-push, protected-branch
}

// Generate writes a Claude Code transcript of n tool calls made in root
// (as a session would record them: an assistant line per call, then the
// tool result), for replay's benchmark and tests. Every third call is a
// subagent's sidechain call in the same file.
func Generate(w io.Writer, n int, root string) error {
	for i := 0; i < n; i++ {
		g := generated[i%len(generated)]
		in := map[string]string{}
		for k, v := range g.input {
			if v == "{root}" || len(v) > 6 && v[:6] == "{root}" {
				v = filepath.Join(root, v[6:])
			}
			in[k] = v
		}
		cwd := root
		if i%7 == 3 {
			cwd = filepath.Join(root, "src")
		}
		side := i%3 == 2
		id := fmt.Sprintf("toolu_%06d", i)
		rec := map[string]any{
			"type": "assistant", "uuid": fmt.Sprintf("u%06d", i), "sessionId": "5e55e55e-0000-4000-8000-000000000001",
			"cwd": cwd, "isSidechain": side, "timestamp": fmt.Sprintf("2026-11-27T10:%02d:%02d.000Z", i/60%60, i%60),
			"message": map[string]any{"id": fmt.Sprintf("msg_%06d", i), "role": "assistant", "model": "claude-sonnet-5",
				"content": []any{map[string]any{"type": "tool_use", "id": id, "name": g.tool, "input": in}}},
		}
		if side {
			rec["agentId"] = "sub1"
		}
		res := map[string]any{"type": "user", "cwd": cwd, "sessionId": "5e55e55e-0000-4000-8000-000000000001", "isSidechain": side,
			"message": map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": "ok\n"}}}}
		for _, v := range []any{rec, res} {
			b, err := json.Marshal(v)
			if err != nil {
				return err
			}
			if _, err := w.Write(append(b, '\n')); err != nil {
				return err
			}
		}
	}
	return nil
}
