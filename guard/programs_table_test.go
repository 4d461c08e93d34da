package guard

import (
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// TestProgramTable: every program has one handler of its own, and a
// program's chain is its checks in the table's order, then that handler.
// The chains below are what a reader of programs.go should find.
func TestProgramTable(t *testing.T) {
	if _, dup := programHandlers(); len(dup) > 0 {
		t.Errorf("programs with two handlers of their own in programHandlers: %v (keep one; a second family's knowledge is a check)", dup)
	}
	name := func(h handler) string {
		// github.com/…/guard.(*analyzer).git-fm, github.com/…/guard.packCheck.func1
		n := runtime.FuncForPC(reflect.ValueOf(h).Pointer()).Name()
		parts := strings.Split(strings.TrimSuffix(n, "-fm"), ".")
		for len(parts) > 1 && strings.HasPrefix(parts[len(parts)-1], "func") {
			parts = parts[:len(parts)-1] // a closure: name the function that makes it
		}
		return parts[len(parts)-1]
	}
	for prog, want := range map[string]string{
		"git":    "ledgerRefs forgedTrailer git",
		"npm":    "packCheck publish removesHookManager packageScripts packageManager",
		"curl":   "vendorHTTP forgeHTTP exfilSink fetcher",
		"gh":     "forgeCLI exfilSink dataCommand",
		"docker": "packCheck publish exfilSink container",
		"tar":    "packedSecret tar",
		"base64": "packedSecret genericCommand",
		"uv":     "publish runCommand",
		"rm":     "rm",
	} {
		var got []string
		for _, h := range programs()[prog] {
			got = append(got, name(h))
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%s runs %v, want %s", prog, got, want)
		}
	}
}
