package guard

import (
	"testing"
)

// TestRunnerOffersTheProjectsOwnCopy: a package runner fetching a tool the
// project's package.json declares (pnpm dlx eslint) is told to run the
// project's own copy through the same package manager, installed first
// when it is not yet; each such command is allowed as written. A tool the
// project does not declare keeps the allowlist's Instead alone.
func TestRunnerOffersTheProjectsOwnCopy(t *testing.T) {
	eng := New(corpusPolicy())
	env := testEnv() // node_modules/.bin/eslint is installed there, tsx is not
	env.ReadFile = fakeFiles{"/work/repo/package.json": `{"devDependencies": {"eslint": "^9.0.0", "tsx": "^4", "@biomejs/biome": "1.9.0"}, "dependencies": {"zod": "^3"}}`}.read
	for _, c := range []struct{ command, instead string }{
		{"pnpm dlx eslint .", `run the project's own eslint, which package.json declares: pnpm exec eslint .; or ask a human to add "eslint" to [packages] npm in .swarm-guard.toml`},
		{"pnpx eslint --fix 'src/a b.ts'", `run the project's own eslint, which package.json declares: pnpm exec eslint --fix 'src/a b.ts'; or ask a human to add "eslint" to [packages] npm in .swarm-guard.toml`},
		{"yarn dlx eslint src", `run the project's own eslint, which package.json declares: yarn eslint src; or ask a human to add "eslint" to [packages] npm in .swarm-guard.toml`},
		{"npx --yes eslint@9 .", `run the project's own eslint, which package.json declares: npx --no-install eslint .; or ask a human to add "eslint" to [packages] npm in .swarm-guard.toml`},
		{"npx tsx src/main.ts", `run the project's own tsx, which package.json declares: npm install, then npx --no-install tsx src/main.ts; or ask a human to add "tsx" to [packages] npm in .swarm-guard.toml`},
		{"pnpm dlx tsx src/main.ts", `run the project's own tsx, which package.json declares: pnpm install, then pnpm exec tsx src/main.ts; or ask a human to add "tsx" to [packages] npm in .swarm-guard.toml`},
		{"pnpm dlx zod", `run the project's own zod, which package.json declares: pnpm install, then pnpm exec zod; or ask a human to add "zod" to [packages] npm in .swarm-guard.toml`},
		// Not declared, or its command's name unknown until installed.
		{"pnpm dlx cowsay hi", `ask a human to add "cowsay" to [packages] npm in .swarm-guard.toml`},
		{"pnpm dlx @biomejs/biome check", `ask a human to add "@biomejs/biome" to [packages] npm in .swarm-guard.toml`},
		{"npx -p eslint eslint .", `ask a human to add "eslint" to [packages] npm in .swarm-guard.toml`},
	} {
		d := eng.CheckCommand(c.command, env)
		if d.Rule != "package-install" || d.Alternative != c.instead {
			t.Errorf("%s:\n\tgot  %s: %s\n\twant package-install: %s", c.command, d.Rule, d.Alternative, c.instead)
		}
	}
	// Every command offered runs as written.
	for _, cmd := range []string{
		"pnpm exec eslint .", "pnpm exec eslint --fix 'src/a b.ts'", "yarn eslint src", "npx --no-install eslint .",
		"npm install", "npx --no-install tsx src/main.ts", "pnpm install", "pnpm exec tsx src/main.ts",
	} {
		if d := eng.CheckCommand(cmd, env); d.Action != "" {
			t.Errorf("%s: the offered command is %s (%s): %s", cmd, d.Action, d.Rule, d.Reason)
		}
	}
}
