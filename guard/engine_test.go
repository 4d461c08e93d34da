package guard

import (
	"slices"
	"testing"

	"github.com/swarm-guard/swarm-guard/policy"
)

func TestWrittenFiles(t *testing.T) {
	eng := New(policy.Default())
	for cmd, want := range map[string][]string{
		"echo x > out.txt":                          {"/work/repo/out.txt"},
		"cmd 2>/dev/null | tee -a a.log b.log":      {"/work/repo/a.log", "/work/repo/b.log"},
		"cp src/a.go /tmp/b.go && mv x.txt y.txt":   {"/tmp/b.go", "/work/repo/y.txt"},
		"sed -i 's/a/b/' src/app.go":                {"/work/repo/src/app.go"},
		"cd src && cat > gen.go <<'EOF'\nx\nEOF":    {"/work/repo/src/gen.go"},
		"go test ./... && git status":               nil,
		"printf '%s' \"$TOKEN\" > config/token.txt": {"/work/repo/config/token.txt"},
	} {
		got := eng.WrittenFiles(cmd, testEnv())
		if !slices.Equal(got, want) {
			t.Errorf("WrittenFiles(%q) = %q, want %q", cmd, got, want)
		}
	}
}
