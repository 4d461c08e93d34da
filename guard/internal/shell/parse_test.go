package shell

import (
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestParse pins what the shell layer accepts: bash, zsh as a fallback,
// and never a "#" that bash reads as part of a word.
func TestParse(t *testing.T) {
	for src, ok := range map[string]bool{
		"echo a # comment":          true,
		"echo a;# comment":          true,
		"(echo 'x'#;rm -rf ~)":      false, // bash runs echo x# and then rm -rf ~
		"echo $(true)#x":            true,  // the parser keeps #x in the word, as bash does
		"for f in *(.); do :; done": true,  // zsh glob qualifier: not bash, parsed as zsh
		"echo 'unterminated":        false,
		// bash rejects it and zsh reads the name as a pattern: code, not a command
		"gateway.customer.delete('x')": false,
		"ls *(.)":                      true, // zsh glob qualifier in an argument
	} {
		_, err := Parse(src)
		if (err == nil) != ok {
			t.Errorf("Parse(%q): error %v, want ok=%v", src, err, ok)
		}
	}
}

func TestPipelineStages(t *testing.T) {
	f, err := Parse("a | b |& c | { d | e; }")
	if err != nil {
		t.Fatal(err)
	}
	stages := PipelineStages(f.Stmts[0].Cmd.(*syntax.BinaryCmd))
	if len(stages) != 4 {
		t.Fatalf("%d stages, want 4 (a, b, c and the block)", len(stages))
	}
	r, _ := Parse("cat < <(curl x) > out")
	if ProcSubstWord(r.Stmts[0].Redirs[0].Word) == nil || ProcSubstWord(r.Stmts[0].Redirs[1].Word) != nil {
		t.Error("ProcSubstWord: <(curl x) is one, out is not")
	}
}
