package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/compat"
	"github.com/dyngen/dyngen/internal/lock"
	"github.com/dyngen/dyngen/internal/model"
	"github.com/dyngen/dyngen/internal/output"
)

// compatCmd is dyngen compat: the spec's changes since the lock of the
// output directory (or of the directory at a git revision), classified
// (internal/compat), printed for people, as JSON or as GitHub
// annotations. It exits 1 on a breaking finding the spec does not
// accept.
func compatCmd(o *options, data []byte, stdout, stderr io.Writer) int {
	res := generator.Check(o.spec, data)
	res.Diags.Print(stderr)
	if res.Diags.HasErrors() {
		return exitSpec
	}
	committed, where, err := committedLock(o)
	if err != nil {
		fmt.Fprintf(stderr, "dyngen: %v\n", err)
		return exitSpec
	}
	if committed == nil {
		// A spec generated for the first time: nothing stored to break.
		fmt.Fprintf(stderr, "dyngen: no lock at %s: nothing to compare with; generate the package and commit its %s\n", where, model.LockFile)
		return exitOK
	}
	l, err := lock.Parse(committed)
	if err != nil {
		fmt.Fprintf(stderr, "dyngen: %s: %v\n", where, err)
		return exitSpec
	}
	r := compat.Check(l, res.Plan, output.Tools(res.Model))
	// The backfills the output directory's lock records make their
	// findings safe (with -against, the directory holds the branch's
	// regenerated lock).
	if own, err := readLock(o.out); err == nil && own != nil {
		if ol, err := lock.Parse(own); err == nil {
			r.Backfilled(ol)
		}
	}
	if len(r.Findings) == 0 && o.against == "" {
		fmt.Fprintf(stderr, "dyngen: the lock holds this spec: to see what a change does before it is generated and committed, compare with the lock of the base revision (-against REF)\n")
	}
	switch {
	case o.json:
		err = writeFindingsJSON(stdout, where, r)
	case o.github:
		err = writeAnnotations(stdout, r, repoPath(o.spec))
	default:
		err = writeFindings(stdout, where, r)
	}
	if err != nil {
		fmt.Fprintf(stderr, "dyngen: %v\n", err)
		return exitSpec
	}
	if r.Failed() {
		return exitSpec
	}
	return exitOK
}

// committedLock reads the lock the spec is compared with: the file of
// the output directory, or, with -against, the file at that git
// revision. It returns nil, and no error, when there is none there;
// where names what was read.
func committedLock(o *options) (data []byte, where string, err error) {
	path := filepath.Join(o.out, model.LockFile)
	if o.against == "" {
		if fi, err := os.Stat(o.out); err != nil || !fi.IsDir() {
			return nil, path, fmt.Errorf("output directory %s: no such directory", o.out)
		}
		data, err := readLock(o.out)
		return data, path, err
	}
	where = o.against + ":" + filepath.ToSlash(path)
	if strings.HasPrefix(o.against, "-") {
		return nil, where, fmt.Errorf("-against %q is not a git revision", o.against)
	}
	// The lock's path in the repository: the directory's prefix from the
	// repository's top, then the file.
	prefix, err := gitOutput(o.out, "rev-parse", "--show-prefix")
	if err != nil {
		return nil, where, err
	}
	object := o.against + ":" + strings.TrimSpace(string(prefix)) + model.LockFile
	if _, err := gitOutput(o.out, "cat-file", "-e", o.against+"^{commit}"); err != nil {
		return nil, where, fmt.Errorf("%s is not a git revision of the repository of %s", o.against, o.out)
	}
	if _, err := gitOutput(o.out, "cat-file", "-e", object); err != nil {
		return nil, where, nil // no lock at that revision
	}
	data, err = gitOutput(o.out, "cat-file", "blob", object)
	return data, where, err
}

// maxLock bounds what dyngen reads of a lock: far more than the lock of
// any spec dyngen takes.
const maxLock = 256 << 20

// readLock reads the lock of dir: nil, and no error, when there is none;
// an error when it is there but is not a regular file, can't be read, or
// is larger than any lock. Generation and dyngen compat both read it so:
// a lock carries what no spec says (its backfills), and is never taken
// for absent when it is not.
func readLock(dir string) ([]byte, error) {
	path := filepath.Join(dir, model.LockFile)
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	f, size, err := openRegular(path)
	if err != nil {
		return nil, fmt.Errorf("the lock %s can't be read: %v", path, err)
	}
	defer f.Close()
	if size > maxLock {
		return nil, fmt.Errorf("the lock %s is %d bytes, larger than any lock dyngen writes (%d)", path, size, maxLock)
	}
	data, err := io.ReadAll(io.LimitReader(f, size))
	if err != nil {
		return nil, fmt.Errorf("the lock %s can't be read: %v", path, err)
	}
	return data, nil
}

// gitOutput runs git in dir and returns what it prints.
func gitOutput(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// writeFindings prints the findings for people: one line each, as a
// diagnostic is printed, then the verdict.
func writeFindings(w io.Writer, where string, r *compat.Result) error {
	var b strings.Builder
	for _, f := range r.Findings {
		b.WriteString(f.Text() + "\n")
	}
	for _, a := range r.AcceptedNone {
		fmt.Fprintf(&b, "%s: accept %s matches no finding; remove it\n", a.Pos, a.ID)
	}
	breaking, accepted, backfilled := 0, 0, 0
	for _, f := range r.Findings {
		switch f.Verdict() {
		case "breaking":
			breaking++
		case "accepted":
			accepted++
		case "backfill":
			backfilled++
		}
	}
	fmt.Fprintf(&b, "compared with %s: %d changes, %d breaking, %d accepted", where, len(r.Findings), breaking, accepted)
	if backfilled > 0 {
		fmt.Fprintf(&b, ", %d made safe by a backfill of the lock", backfilled)
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// findingJSON is a finding as -json prints it.
type findingJSON struct {
	ID       string `json:"id"`
	Class    string `json:"class"`
	Verdict  string `json:"verdict"`
	Breaking bool   `json:"breaking"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	What     string `json:"what"`
	Breaks   string `json:"breaks"`
	Order    string `json:"order"`
	Accepted string `json:"accepted,omitempty"`
	// Backfill is the id and state of the backfill of the lock that
	// makes the finding safe ("Review.ByGrade pending").
	Backfill string `json:"backfill,omitempty"`
}

// writeFindingsJSON prints the findings as one JSON document.
func writeFindingsJSON(w io.Writer, where string, r *compat.Result) error {
	doc := struct {
		Lock         string        `json:"lock"`
		Failed       bool          `json:"failed"`
		Findings     []findingJSON `json:"findings"`
		AcceptedNone []string      `json:"acceptedNone"`
	}{Lock: where, Failed: r.Failed(), Findings: []findingJSON{}, AcceptedNone: []string{}}
	for _, f := range r.Findings {
		fj := findingJSON{ID: f.ID, Class: string(f.Class), Verdict: f.Verdict(), Breaking: f.Breaking,
			File: f.Pos.File, Line: f.Pos.Line, Col: f.Pos.Col, What: f.What, Breaks: f.Breaks, Order: f.Order, Accepted: f.Accepted}
		if f.Backfilled != "" {
			fj.Backfill = f.BackfillID + " " + f.Backfilled
		}
		doc.Findings = append(doc.Findings, fj)
	}
	for _, a := range r.AcceptedNone {
		doc.AcceptedNone = append(doc.AcceptedNone, a.ID)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}

// writeAnnotations prints the findings as GitHub Actions workflow
// commands: an error for a breaking finding, a notice for the others.
func writeAnnotations(w io.Writer, r *compat.Result, file string) error {
	var b strings.Builder
	for _, f := range r.Findings {
		level := "notice"
		if f.Verdict() == "breaking" {
			level = "error"
		}
		msg := fmt.Sprintf("%s; breaks %s; %s [%s]", f.What, f.Breaks, f.Order, f.ID)
		if f.Accepted != "" {
			msg += " (accepted: " + f.Accepted + ")"
		}
		if f.Backfilled != "" {
			level = "warning"
			msg += " (backfill " + f.BackfillID + ", " + f.Backfilled + " in the lock)"
		}
		fmt.Fprintf(&b, "::%s file=%s,line=%d,col=%d,title=%s::%s\n", level, annotationProperty(file), f.Pos.Line, f.Pos.Col,
			annotationProperty("dyngen compat: "+f.Verdict()+" "+string(f.Class)), annotationData(msg))
	}
	for _, a := range r.AcceptedNone {
		fmt.Fprintf(&b, "::warning file=%s,line=%d,col=%d,title=%s::%s\n", annotationProperty(file), a.Pos.Line, a.Pos.Col,
			annotationProperty("dyngen compat"), annotationData("accept "+a.ID+" matches no finding; remove it"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// repoPath is the spec's path from the top of its git repository, as
// GitHub resolves an annotation's file; the path as given outside one.
func repoPath(spec string) string {
	prefix, err := gitOutput(filepath.Dir(spec), "rev-parse", "--show-prefix")
	if err != nil {
		return filepath.ToSlash(spec)
	}
	return strings.TrimSpace(string(prefix)) + filepath.Base(spec)
}

// annotationData escapes the message of a workflow command, as GitHub's
// toolkit does: %, CR and LF.
func annotationData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// annotationProperty escapes a property of a workflow command: as its
// message, and : and , too.
func annotationProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
