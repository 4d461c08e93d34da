package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/hooks/claude"
)

// exitTable reads the exit codes from exitcodes.go, the one table, so a
// code added there is seen here without being listed twice.
func exitTable(t *testing.T) map[string]int {
	f, err := parser.ParseFile(token.NewFileSet(), "exitcodes.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	protocol := map[string]int{"ExitNoDecision": claude.ExitNoDecision, "ExitDeny": claude.ExitDeny}
	codes := map[string]int{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			for i, name := range vs.Names {
				if !strings.HasPrefix(name.Name, "exit") {
					continue
				}
				switch v := vs.Values[i].(type) {
				case *ast.BasicLit:
					n, err := strconv.Atoi(v.Value)
					if err != nil {
						t.Fatalf("%s: %v", name.Name, err)
					}
					codes[name.Name] = n
				case *ast.SelectorExpr:
					n, ok := protocol[v.Sel.Name]
					if !ok {
						t.Fatalf("%s: unknown constant %s", name.Name, v.Sel.Name)
					}
					codes[name.Name] = n
				default:
					t.Fatalf("%s: not a literal or a protocol constant", name.Name)
				}
			}
		}
	}
	if len(codes) < 5 {
		t.Fatalf("found only %d exit codes in exitcodes.go", len(codes))
	}
	return codes
}

// TestExitCodesInDocs: the exit-code tables of the user's documents
// (every command's in README.md, and why run stopped in docs/budgets.md)
// name exactly the codes of exitcodes.go.
func TestExitCodesInDocs(t *testing.T) {
	read := func(doc string) string {
		data, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(doc)))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	docs := map[string]string{"README.md": read("README.md"), "docs/budgets.md": read("docs/budgets.md")}
	table := func(doc, header string) string {
		text := docs[doc]
		i := strings.Index(text, header)
		if i < 0 {
			t.Fatalf("%s has no table %q", doc, header)
		}
		rest := text[i:]
		if j := strings.Index(rest, "\n\n"); j >= 0 {
			rest = rest[:j]
		}
		return rest
	}
	// "| 7 / 8 / 9 |", "| 3–12, 130 |": every code of the first column.
	num := regexp.MustCompile(`\d+`)
	firstColumn := func(tbl string) map[int]bool {
		got := map[int]bool{}
		for _, line := range strings.Split(tbl, "\n")[2:] {
			cells := strings.Split(line, "|")
			if len(cells) < 3 {
				continue
			}
			for _, part := range strings.Split(cells[1], ",") {
				if a, b, ok := strings.Cut(part, "–"); ok {
					lo, _ := strconv.Atoi(strings.TrimSpace(a))
					hi, _ := strconv.Atoi(strings.TrimSpace(b))
					for n := lo; n <= hi; n++ {
						got[n] = true
					}
					continue
				}
				for _, s := range num.FindAllString(part, -1) {
					n, _ := strconv.Atoi(s)
					got[n] = true
				}
			}
		}
		return got
	}
	codes := exitTable(t)
	all := map[int]bool{}
	run := map[int]bool{exitOK: true, exitBlock: true}
	for _, n := range codes {
		all[n] = true
		if n > exitBlock {
			run[n] = true
		}
	}
	for what, c := range map[string]struct {
		got, want map[int]bool
	}{
		"README.md | code | meaning |":                 {firstColumn(table("README.md", "| code | meaning |")), all},
		"docs/budgets.md | exit | why `run` stopped |": {firstColumn(table("docs/budgets.md", "| exit | why `run` stopped |")), run},
	} {
		for n := range c.want {
			if !c.got[n] {
				t.Errorf("the table %s does not list exit code %d of exitcodes.go", what, n)
			}
		}
		for n := range c.got {
			if !c.want[n] {
				t.Errorf("the table %s lists exit code %d, which exitcodes.go does not define", what, n)
			}
		}
	}
}
