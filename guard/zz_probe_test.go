package guard

import (
	"bufio"
	"fmt"
	"os"
	"testing"
)

func TestZZProbe(t *testing.T) {
	f := os.Getenv("PROBE")
	if f == "" {
		t.Skip()
	}
	fh, _ := os.Open(f)
	eng := New(corpusPolicy())
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		c := sc.Text()
		if c == "" {
			continue
		}
		d := eng.CheckCommand(c, testEnv())
		a := string(d.Action)
		if a == "" {
			a = "allow"
		}
		fmt.Printf("%-6s %-28s %s\n      -> %s\n", a, d.Rule, c, d.Reason)
	}
}
