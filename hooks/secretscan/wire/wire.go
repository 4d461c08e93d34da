package wire

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/swarm-guard/swarm-guard/hooks/internal/jsonobj"
)

// Version is the protocol version this build speaks.
const Version = 1

// Request opens a scan. It is the first line the scanner reads.
type Request struct {
	Version int `json:"version"`
	// Root is the worktree root: the scanner reads .gitleaks.toml and
	// .gitleaksignore from it. Empty means the default rules and no
	// ignore file.
	Root string `json:"root"`
	// GitleaksAllow honours inline "gitleaks:allow" comments.
	GitleaksAllow bool `json:"gitleaks_allow"`
}

// Block is one piece of text to scan: a whole file, a part of a big file,
// or the lines a diff hunk adds.
type Block struct {
	// File is the path findings name: slash-separated and relative to
	// Request.Root when the file is inside it, absolute otherwise. Path
	// allowlists of the gitleaks config match against it.
	File   string `json:"file"`
	Commit string `json:"commit,omitempty"` // the commit that added the text, for history scans
	Line   int    `json:"line"`             // 1-based line number of the first line of the text
	// Text is the content when it is valid UTF-8; Data carries it otherwise,
	// because JSON would replace invalid bytes and shift columns.
	Text string `json:"text,omitempty"`
	Data []byte `json:"data,omitempty"`
}

// NewBlock returns a block for content, choosing Text or Data.
func NewBlock(file, commit string, line int, content []byte) Block {
	b := Block{File: file, Commit: commit, Line: line}
	if utf8.Valid(content) {
		b.Text = string(content)
	} else {
		b.Data = content
	}
	return b
}

// Content returns the text of the block.
func (b Block) Content() string {
	if b.Data != nil {
		return string(b.Data)
	}
	return b.Text
}

// Result is the scanner's answer.
type Result struct {
	Version  int       `json:"version"`
	Findings []Finding `json:"findings"`
	Error    string    `json:"error,omitempty"` // set when the scan failed; Findings are then incomplete
}

// Finding is one secret (or, from the light side's own checks, one
// conflict marker). Every text field is safe to print.
type Finding struct {
	File        string `json:"file"`
	Line        int    `json:"line"`
	EndLine     int    `json:"end_line"`
	Column      int    `json:"column"` // 1-based byte column of the start of the match; 0 when unknown
	Rule        string `json:"rule"`
	Description string `json:"description,omitempty"`
	Commit      string `json:"commit"`
	Preview     string `json:"preview"`     // the line with the secret masked
	Fingerprint string `json:"fingerprint"` // gitleaks fingerprint: [commit:]file:rule:line, for .gitleaksignore
}

// Encoder writes a request stream.
type Encoder struct {
	w   *bufio.Writer
	enc *json.Encoder
	buf []byte
}

// NewEncoder returns an encoder writing JSON lines to w.
func NewEncoder(w io.Writer) *Encoder {
	bw := bufio.NewWriterSize(w, 64<<10)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	return &Encoder{w: bw, enc: enc}
}

// Encode writes one value (a Request or a Block) as one line. A Request
// and a Block of text are written by hand (AppendJSON): the hook sends
// one of each per scan, and encoding/json's first use of a type costs
// more than the writing.
func (e *Encoder) Encode(v any) error {
	var line []byte
	switch x := v.(type) {
	case Request:
		line = x.AppendJSON(e.buf[:0])
	case Block:
		if x.Data == nil {
			line = x.AppendJSON(e.buf[:0])
		}
	}
	if line != nil {
		e.buf = append(line, '\n')
		if _, err := e.w.Write(e.buf); err != nil {
			return fmt.Errorf("write to the secret scanner: %w", err)
		}
		return nil
	}
	if err := e.enc.Encode(v); err != nil {
		return fmt.Errorf("write to the secret scanner: %w", err)
	}
	return nil
}

// Flush writes buffered lines through.
func (e *Encoder) Flush() error {
	if err := e.w.Flush(); err != nil {
		return fmt.Errorf("write to the secret scanner: %w", err)
	}
	return nil
}

// AppendJSON appends the request as JSON, as encoding/json writes it.
func (r Request) AppendJSON(b []byte) []byte {
	b = append(b, `{"version":`...)
	b = strconv.AppendInt(b, int64(r.Version), 10)
	b = append(b, `,"root":`...)
	b = jsonobj.AppendString(b, r.Root)
	b = append(b, `,"gitleaks_allow":`...)
	b = strconv.AppendBool(b, r.GitleaksAllow)
	return append(b, '}')
}

// AppendJSON appends a block without Data as JSON, as encoding/json
// writes it.
func (b Block) AppendJSON(out []byte) []byte {
	out = append(out, `{"file":`...)
	out = jsonobj.AppendString(out, b.File)
	if b.Commit != "" {
		out = append(out, `,"commit":`...)
		out = jsonobj.AppendString(out, b.Commit)
	}
	out = append(out, `,"line":`...)
	out = strconv.AppendInt(out, int64(b.Line), 10)
	if b.Text != "" {
		out = append(out, `,"text":`...)
		out = jsonobj.AppendString(out, b.Text)
	}
	return append(out, '}')
}

// AppendJSON appends a result without findings as JSON, as encoding/json
// writes it but for the escapes of <, > and & (see jsonobj.AppendString);
// ok is false when it holds findings, which only encoding/json writes.
// The scan server answers most requests with a clean result.
func (r Result) AppendJSON(b []byte) (out []byte, ok bool) {
	if len(r.Findings) > 0 {
		return b, false
	}
	b = append(b, `{"version":`...)
	b = strconv.AppendInt(b, int64(r.Version), 10)
	if r.Findings == nil {
		b = append(b, `,"findings":null`...)
	} else {
		b = append(b, `,"findings":[]`...)
	}
	if r.Error != "" {
		b = append(b, `,"error":`...)
		b = jsonobj.AppendString(b, r.Error)
	}
	return append(b, '}'), true
}

// DecodeResult decodes a scanner's answer as json.Unmarshal would into a
// Result; the answer of a clean scan ({"version":1,"findings":[]}) is
// read without reflection.
func DecodeResult(data []byte) (Result, error) {
	var res Result
	if jsonobj.Members(data, func(key string, raw []byte) bool {
		switch {
		case jsonobj.Is(key, "version"):
			var v int64
			if !jsonobj.SetInt64(raw, &v) || int64(int(v)) != v {
				return false
			}
			if !jsonobj.Null(raw) {
				res.Version = int(v)
			}
			return true
		case jsonobj.Is(key, "findings"):
			switch string(raw) {
			case "null":
				res.Findings = nil
			case "[]":
				res.Findings = []Finding{}
			default:
				return false
			}
			return true
		case jsonobj.Is(key, "error"):
			return jsonobj.SetString(raw, &res.Error)
		}
		return true
	}) {
		return res, nil
	}
	res = Result{}
	err := json.Unmarshal(data, &res)
	return res, err
}

// Decoder reads a request stream: one JSON value per line, as Encoder
// writes it.
type Decoder struct {
	r *bufio.Reader
}

// NewDecoder returns a decoder reading JSON lines from r.
func NewDecoder(r io.Reader) *Decoder {
	return &Decoder{r: bufio.NewReaderSize(r, 64<<10)}
}

// Reset makes d read a new stream from r, keeping its buffer: the scan
// server reads every connection of a goroutine through one Decoder.
func (d *Decoder) Reset(r io.Reader) { d.r.Reset(r) }

// line returns the next line that is not blank; io.EOF at the end. The
// line lies in the reader's buffer when it fits there, and is valid only
// until the next read: the decoders copy what they keep.
func (d *Decoder) line() ([]byte, error) {
	for {
		line, err := d.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long := append([]byte(nil), line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = d.r.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if len(bytes.TrimSpace(line)) > 0 {
			return line, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// Request reads the opening request and checks its version.
func (d *Decoder) Request() (Request, error) {
	var req Request
	line, err := d.line()
	if err == io.EOF {
		return req, fmt.Errorf("no scan request on stdin; swarm-guard-secrets is run by swarm-guard, not by hand")
	}
	if err == nil {
		err = decodeRequest(line, &req)
	}
	if err != nil {
		return req, fmt.Errorf("bad scan request: %w", err)
	}
	if req.Version != Version {
		return req, VersionError(req.Version)
	}
	return req, nil
}

// Block reads the next block; io.EOF ends the stream.
func (d *Decoder) Block() (Block, error) {
	var b Block
	line, err := d.line()
	if err == io.EOF {
		return b, io.EOF
	}
	if err == nil {
		err = decodeBlock(line, &b)
	}
	if err != nil {
		return b, fmt.Errorf("bad block in the scan request: %w", err)
	}
	return b, nil
}

// decodeRequest is json.Unmarshal into a Request, reading the usual
// shape without reflection (package jsonobj).
func decodeRequest(line []byte, req *Request) error {
	var out Request
	if jsonobj.Members(line, func(key string, raw []byte) bool {
		switch {
		case jsonobj.Is(key, "version"):
			return setInt(raw, &out.Version)
		case jsonobj.Is(key, "root"):
			return jsonobj.SetString(raw, &out.Root)
		case jsonobj.Is(key, "gitleaks_allow"):
			return jsonobj.SetBool(raw, &out.GitleaksAllow)
		}
		return true
	}) {
		*req = out
		return nil
	}
	return json.Unmarshal(line, req)
}

// decodeBlock is json.Unmarshal into a Block, reading a block of text
// without reflection; one with Data goes through encoding/json.
func decodeBlock(line []byte, b *Block) error {
	var out Block
	if jsonobj.Members(line, func(key string, raw []byte) bool {
		switch {
		case jsonobj.Is(key, "file"):
			return jsonobj.SetString(raw, &out.File)
		case jsonobj.Is(key, "commit"):
			return jsonobj.SetString(raw, &out.Commit)
		case jsonobj.Is(key, "line"):
			return setInt(raw, &out.Line)
		case jsonobj.Is(key, "text"):
			return jsonobj.SetString(raw, &out.Text)
		case jsonobj.Is(key, "data"):
			return false
		}
		return true
	}) {
		*b = out
		return nil
	}
	return json.Unmarshal(line, b)
}

// setInt decodes raw into *dst as encoding/json decodes an int field.
func setInt(raw []byte, dst *int) bool {
	v := int64(*dst)
	if !jsonobj.SetInt64(raw, &v) || int64(int(v)) != v {
		return false
	}
	*dst = int(v)
	return true
}

// VersionError says two builds that speak different protocols met.
func VersionError(got int) error {
	return fmt.Errorf("protocol version %d, but this build speaks version %d: swarm-guard and swarm-guard-secrets come from different builds; reinstall both (make install)", got, Version)
}
