package scanner

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync"

	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/report"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/wire"
)

// DefaultDecodeDepth is how many base64/hex/percent decoding passes run,
// the gitleaks CLI's default: a secret hidden by encoding is still found,
// and the swarm-guard doors agree with a gitleaks run in CI.
const DefaultDecodeDepth = 5

// Options configure a scan.
type Options struct {
	Root          string // worktree root: .gitleaks.toml and .gitleaksignore
	GitleaksAllow bool   // honour inline gitleaks:allow
	DecodeDepth   int
	Workers       int // 0 means GOMAXPROCS
}

// Scanner scans blocks with one rule set.
type Scanner struct {
	cat  *catalogue
	comp *compiler
	// gen, when set, holds the generic rule alone, which then runs on
	// windows of the text (window.go) and never in comp.
	gen    *compiler
	genSrc *ruleSource
	// solo are rules run in detectors of their own, only on texts that
	// pass their necessary condition (solo.go).
	solo   []soloRule
	ignore ignoreList
	depth  int
	// workers is the number of goroutines Stream uses.
	workers int
	// wide, in the scan server, is widened while Stream runs workers.
	wide *procs
}

// New loads the rule set of o.Root. Errors name the broken file.
func New(o Options) (*Scanner, error) {
	cat, err := loadCatalogue(o.Root)
	if err != nil {
		return nil, err
	}
	var comp, gen *compiler
	var genSrc *ruleSource
	var solo []soloRule
	if cat == defaultCatalogue() {
		// gitleaks' own rules: the scan server compiles each once for
		// all requests.
		comp, err = defaultCompiler(o.DecodeDepth, !o.GitleaksAllow, 0)
		if err == nil && defaultWindowable() {
			genSrc = cat.byID[genericID]
			gen, err = defaultCompiler(o.DecodeDepth, !o.GitleaksAllow, 1)
		}
		if err == nil {
			solo, err = defaultSolo(o.DecodeDepth, !o.GitleaksAllow)
		}
	} else {
		comp, err = newCompiler(cat, o.DecodeDepth, !o.GitleaksAllow)
	}
	if err != nil {
		return nil, err
	}
	ign, err := loadIgnore(o.Root)
	if err != nil {
		return nil, err
	}
	w := o.Workers
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	return &Scanner{cat: cat, comp: comp, gen: gen, genSrc: genSrc, solo: solo, ignore: ign, depth: o.DecodeDepth, workers: w}, nil
}

// defaultCompilers holds the compilers of the default rules, one per
// decode depth, gitleaks:allow setting and part: 0 for the main detector,
// 1 for the generic rule's (window.go), 2 and up for the solo rules'
// (solo.go). A compiler is safe for
// concurrent use and only grows (catalogue.go, compiler.go).
var (
	defaultCompilersMu sync.Mutex
	defaultCompilers   = map[[3]int]*compiler{}
)

func defaultCompiler(depth int, ignoreAllow bool, part int) (*compiler, error) {
	key := [3]int{depth, 0, part}
	if ignoreAllow {
		key[1] = 1
	}
	defaultCompilersMu.Lock()
	defer defaultCompilersMu.Unlock()
	if c := defaultCompilers[key]; c != nil {
		return c, nil
	}
	c, err := newCompiler(defaultCatalogue(), depth, ignoreAllow)
	if err == nil {
		defaultCompilers[key] = c
	}
	return c, err
}

// job is one piece of one block.
type job struct {
	seq    int // orders findings as the blocks came
	file   string
	commit string
	piece
}

// inlineBytes is the most text a request may hold to be scanned on the
// goroutine that reads it, each block as one piece: the hook's usual
// request, one Write of a source file. Handing its pieces to worker
// goroutines costs the scan server more (threads woken, stacks grown,
// the text cut and lower-cased per piece) than the parallel scan saves,
// and the hook waits for all of it.
const inlineBytes = chunkBytes

// Stream scans blocks from next until it returns io.EOF and returns the
// findings in block order. A request of at most inlineBytes is scanned
// on the calling goroutine; a bigger one in pieces on s.workers
// goroutines.
func (s *Scanner) Stream(next func() (wire.Block, error)) ([]wire.Finding, error) {
	var (
		head  []wire.Block
		total int
	)
	for total <= inlineBytes {
		b, err := next()
		if errors.Is(err, io.EOF) {
			return s.scanInline(head)
		}
		if err != nil {
			return nil, err
		}
		head = append(head, b)
		total += len(b.Text) + len(b.Data)
	}
	return s.stream(head, next)
}

// scanInline scans a small request's blocks in order, each as one piece.
func (s *Scanner) scanInline(blocks []wire.Block) ([]wire.Finding, error) {
	var out []wire.Finding
	for _, b := range blocks {
		text := b.Content()
		for _, p := range chunk(text, max(b.Line, 1), chunkBytes) {
			fs, err := s.safeScanJob(job{file: b.File, commit: b.Commit, piece: p})
			if err != nil {
				return nil, err
			}
			out = append(out, fs...)
		}
	}
	return out, nil
}

// stream scans the blocks of head and then those from next on s.workers
// goroutines.
func (s *Scanner) stream(head []wire.Block, next func() (wire.Block, error)) ([]wire.Finding, error) {
	defer s.wide.widen()()
	jobs := make(chan job, 2*s.workers)
	type result struct {
		seq      int
		findings []wire.Finding
	}
	var (
		mu       sync.Mutex
		results  []result
		firstErr error
		wg       sync.WaitGroup
	)
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
	}
	for range s.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				fs, err := s.safeScanJob(j)
				if err != nil {
					fail(err)
					continue
				}
				if len(fs) > 0 {
					mu.Lock()
					results = append(results, result{j.seq, fs})
					mu.Unlock()
				}
			}
		}()
	}
	seq := 0
	var readErr error
	for {
		var b wire.Block
		if len(head) > 0 {
			b, head = head[0], head[1:]
		} else {
			var err error
			b, err = next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				readErr = err
				break
			}
		}
		text := b.Content()
		for _, p := range chunk(text, max(b.Line, 1), chunkSize(len(text), s.workers)) {
			jobs <- job{seq: seq, file: b.File, commit: b.Commit, piece: p}
			seq++
		}
	}
	close(jobs)
	wg.Wait()
	if readErr != nil {
		return nil, readErr
	}
	if firstErr != nil {
		return nil, firstErr
	}
	slices.SortStableFunc(results, func(a, b result) int { return cmp.Compare(a.seq, b.seq) })
	var out []wire.Finding
	for _, r := range results {
		out = append(out, r.findings...)
	}
	return out, nil
}

// safeScanJob is scanJob with a panic (in gitleaks, on some input)
// turned into an error: it runs on a worker goroutine, where Main's
// recover cannot catch it.
func (s *Scanner) safeScanJob(j job) (fs []wire.Finding, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error scanning %s: %v; nothing was allowed, report this", j.file, r)
		}
	}()
	return s.scanJob(j)
}

// scanJob scans one piece. It compiles the rules the piece needs first.
func (s *Scanner) scanJob(j job) ([]wire.Finding, error) {
	if j.file != "" && j.file == s.cat.configPath {
		return nil, nil // gitleaks never scans its own config
	}
	a := s.cat.analyse(j.text, s.depth)
	generic := false
	if s.gen != nil {
		a.rules, generic = without(a.rules, s.genSrc)
	}
	var solo []soloRule
	for _, r := range s.solo {
		var wanted bool
		if a.rules, wanted = without(a.rules, r.src); wanted && (a.decodes || r.may(j.text)) {
			solo = append(solo, r)
		}
	}
	frag := detect.Fragment{Raw: j.text, FilePath: j.file, CommitSHA: j.commit, StartLine: j.line}
	var found []report.Finding
	if a.decodes || !s.comp.pathMisses(a.rules, j.file) {
		det, err := s.comp.detectorFor(a)
		if err != nil {
			return nil, err
		}
		found = det.Detect(frag)
	}
	for _, r := range solo {
		sdet, sflat, err := r.comp.detectors([]*ruleSource{r.src})
		if err != nil {
			return nil, err
		}
		if !a.decodes {
			sdet = sflat
		}
		found = append(found, sdet.Detect(frag)...)
	}
	if generic {
		gdet, gflat, err := s.gen.detectors([]*ruleSource{s.genSrc})
		if err != nil {
			return nil, err
		}
		if a.decodes {
			found = append(found, gdet.Detect(frag)...)
		} else {
			found = append(found, detectWindows(gflat, j.text, j.file, j.commit, j.line)...)
		}
		found = dropShadowedGeneric(found)
	}
	var out []wire.Finding
	for _, f := range found {
		if s.ignore.ignored(f.Commit, f.File, f.RuleID, f.StartLine) {
			continue
		}
		col, _ := location(f)
		out = append(out, wire.Finding{
			File: f.File, Line: f.StartLine, EndLine: f.EndLine, Column: col,
			Rule: f.RuleID, Description: f.Description, Commit: f.Commit,
			Preview:     preview(f),
			Fingerprint: fingerprint(f.Commit, f.File, f.RuleID, f.StartLine),
		})
	}
	slices.SortStableFunc(out, func(a, b wire.Finding) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column), cmp.Compare(a.Rule, b.Rule))
	})
	return out, nil
}

// without returns rules without r, and whether r was there.
func without(rules []*ruleSource, r *ruleSource) ([]*ruleSource, bool) {
	for i, x := range rules {
		if x == r {
			return append(append([]*ruleSource(nil), rules[:i]...), rules[i+1:]...), true
		}
	}
	return rules, false
}

// defaultWindowable is windowable for the default rules, once.
var defaultWindowable = sync.OnceValue(func() bool { return windowable(defaultCatalogue()) })

// windowable reports whether the generic rule of cat is the one the
// windows are proven for (window.go) and no other rule needs it beside
// it.
func windowable(cat *catalogue) bool {
	r := cat.byID[genericID]
	if r == nil || len(r.layers) > 0 || len(r.requires) > 0 {
		return false
	}
	for _, o := range cat.rules {
		for _, id := range o.requires {
			if id == genericID {
				return false
			}
		}
	}
	vc, err := r.spec()
	return err == nil && len(vc.Rules) == 1 && vc.Rules[0].Regex == genericRegex
}
