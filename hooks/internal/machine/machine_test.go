package machine

import (
	"regexp"
	"runtime"
	"strings"
	"testing"
)

func TestDescribe(t *testing.T) {
	d := Describe()
	if !strings.Contains(d, " CPUs, "+runtime.GOOS+"/"+runtime.GOARCH) {
		t.Fatalf("Describe() = %q", d)
	}
}

func TestLoad(t *testing.T) {
	l := Load()
	if runtime.GOOS == "linux" && !regexp.MustCompile(`^\d+\.\d+ \d+\.\d+ \d+\.\d+$`).MatchString(l) {
		t.Fatalf("Load() = %q, want three load averages", l)
	}
}
