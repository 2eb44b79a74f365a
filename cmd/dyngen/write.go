package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/dyngen/dyngen/generator"
	"github.com/dyngen/dyngen/internal/model"
)

// sourceName is how generated files name the spec: its path relative to
// the output directory, with forward slashes, so that the bytes do not
// depend on the directory dyngen runs in.
func sourceName(spec, out string) (string, error) {
	absSpec, err := filepath.Abs(spec)
	if err != nil {
		return "", err
	}
	absOut, err := filepath.Abs(out)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(absOut, absSpec)
	if err != nil {
		return filepath.ToSlash(spec), nil
	}
	return filepath.ToSlash(rel), nil
}

// The files of the output directory. dyngen looks at the *.go files, at
// the list of outputs (model.ManifestFile) and at the files generation
// writes or the list names. It tells a Go file, and the list, apart by
// their first two lines: the generated-code header and the source line
// naming the spec. A file is the spec's own when both match what
// generation writes; an output, which may be JSON and carry no header,
// when the spec's own list names it. Only its own files are overwritten or
// removed. A file generated from another spec or without the header is
// read no further than its head; anything that is not a regular file (a
// symbolic link, a named pipe, a directory) is not opened at all. None of
// them is written through or removed; where a generated file goes, they
// make dyngen refuse to write anything.

// owner says whose a *.go file of the output directory is.
type owner int

const (
	absent    owner = iota // no such file
	ours                   // generated from this spec
	otherSpec              // generated from another spec, or by a dyngen that wrote no source line
	foreign                // a regular file dyngen did not generate, or an output the list does not name
	irregular              // not a regular file: never opened
)

// existing is what dyngen knows of a *.go file of the output directory.
type existing struct {
	owner owner
	mode  fs.FileMode // the type bits, for an irregular file
	// source is the spec the source line of a file of another spec
	// names, "" when there is none.
	source string
	// same is whether an output of ours, or the list, holds exactly
	// what generation writes there.
	same bool
	// data are the bytes of a Go file of ours, read whole to be compared
	// with what generation writes there (unchanged); nil when it is
	// larger than any generated file.
	data []byte
	// changed is set on a file our list names that no longer holds what
	// dyngen wrote there.
	changed bool
}

// headSize bounds what dyngen reads of a file to tell whose it is: the
// header and the source line fit in it.
const headSize = 4 << 10

// origin reads the head of a generated file whose comments start with
// comment ("// " in Go, "# " in the list of outputs): whether it starts
// with the generated-code header, and the source line after it ("" when
// there is none, or when the line does not end within head).
func origin(head []byte, comment string) (generated bool, source string) {
	line, rest, _ := bytes.Cut(head, []byte("\n"))
	if string(bytes.TrimSuffix(line, []byte("\r"))) != comment+model.GeneratedText {
		return false, ""
	}
	line, _, ok := bytes.Cut(rest, []byte("\n"))
	src, isSource := bytes.CutPrefix(bytes.TrimSuffix(line, []byte("\r")), []byte(comment+"source: "))
	if !ok || !isSource {
		return true, ""
	}
	return true, string(src)
}

// commentOf is how a file of the output directory that dyngen tells by
// its header starts its comments, "" for any other.
func commentOf(name string) string {
	switch {
	case strings.HasSuffix(name, ".go"):
		return "// "
	case name == model.ManifestFile:
		return "# "
	}
	return ""
}

// maxManifest bounds what dyngen reads of a list of outputs: far more
// than any spec's list.
const maxManifest = 1 << 20

// layout is the output directory as generation finds it.
type layout struct {
	dir    string
	spec   string              // the spec as the command line names it
	source string              // the source line of the generated files
	want   []string            // the files generation writes, in its order
	have   map[string]existing // the files of dir dyngen looks at
	// entries are the names of every entry of dir, to tell names that
	// differ only in case.
	entries []string
	// listed are the outputs the spec's own list names, with the SHA-256
	// of what dyngen wrote there (hex).
	listed map[string]string
	// specFile is the spec itself, never an output: nil when it is not
	// found.
	specFile fs.FileInfo
}

// survey reads what the files of dir that dyngen looks at are, before
// generation writes any: each one's type, without following links, and
// the head of each regular file; a Go file of ours is read whole, to be
// compared with what generation writes there once it is rendered. want
// names every file generation writes, in its order; source is the source
// line of its files; outputs are the outputs' files and their list, whose
// owner may depend on their bytes. The list of outputs is read first: an
// output is ours when our list names it. A missing dir has no files.
func survey(dir, spec, source string, want []string, outputs []generator.File) (*layout, error) {
	l := &layout{dir: dir, spec: spec, source: source, want: want, have: map[string]existing{}, listed: map[string]string{}}
	l.specFile, _ = os.Stat(spec)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return l, nil
	}
	if err != nil {
		return nil, err
	}
	generated := make(map[string]bool, len(want))
	for _, name := range want {
		generated[name] = true
	}
	data := make(map[string][]byte, len(outputs))
	for _, f := range outputs {
		data[f.Name] = f.Data
	}
	for _, e := range entries {
		l.entries = append(l.entries, e.Name())
		if e.Name() == model.ManifestFile {
			if err := l.readManifest(e, data[e.Name()]); err != nil {
				return nil, err
			}
		}
	}
	entries = slices.DeleteFunc(entries, func(e fs.DirEntry) bool {
		name := e.Name()
		_, listed := l.listed[name]
		return name == model.ManifestFile || !strings.HasSuffix(name, ".go") && !generated[name] && !listed
	})
	found := make([]existing, len(entries))
	err = forEach(len(entries), func(i int) error {
		e := entries[i]
		if !e.Type().IsRegular() {
			found[i] = existing{owner: irregular, mode: e.Type()}
			return nil
		}
		var err error
		found[i], err = l.inspect(filepath.Join(dir, e.Name()), data[e.Name()])
		return err
	})
	if err != nil {
		return nil, err
	}
	for i, e := range entries {
		l.have[e.Name()] = found[i]
	}
	return l, nil
}

// readManifest reads the list of outputs of dir: who it is of, and, when
// it is ours, the outputs it names. A name that is not a plain file name
// an output could have is an error: the list was edited, and dyngen
// neither writes nor removes a file it names.
func (l *layout) readManifest(e fs.DirEntry, data []byte) error {
	if !e.Type().IsRegular() {
		l.have[e.Name()] = existing{owner: irregular, mode: e.Type()}
		return nil
	}
	// Opened once: its head says whose it is, the rest is the list.
	path := filepath.Join(l.dir, e.Name())
	f, size, err := openRegular(path)
	if errors.Is(err, errIrregular) {
		l.have[e.Name()] = existing{owner: irregular, mode: fs.ModeIrregular}
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	list, err := io.ReadAll(io.LimitReader(f, maxManifest))
	if err != nil {
		return err
	}
	generated, source := origin(list, "# ")
	switch {
	case !generated:
		l.have[e.Name()] = existing{owner: foreign}
		return nil
	case source != l.source || l.source == "":
		l.have[e.Name()] = existing{owner: otherSpec, source: source}
		return nil
	case size > maxManifest:
		return fmt.Errorf("%s is %d bytes long, not a list dyngen wrote; restore it from version control or remove it with the outputs it names", path, size)
	}
	ex := existing{owner: ours, same: data != nil && bytes.Equal(list, data)}
	var errs []error
	for i, line := range strings.Split(string(list), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		sum, name, ok := strings.Cut(line, "  ")
		if !ok || !isSHA256(sum) || !model.IsOutputFileName(name) {
			errs = append(errs, fmt.Errorf("%s:%d is %q, not the checksum and name of a file dyngen writes; restore the list from version control, or remove it and generate again", path, i+1, line))
			continue
		}
		l.listed[name] = sum
	}
	l.have[e.Name()] = ex
	return errors.Join(errs...)
}

// inspect reads the head of the regular file at path and, when it is a
// Go file of ours, the rest of it. An output is read whole, and data is
// what generation writes there (nil for none). A Go file is ours by its
// header; an output when our list names it, or by its bytes (see
// inspectOutput).
func (l *layout) inspect(path string, data []byte) (existing, error) {
	f, size, err := openRegular(path)
	if errors.Is(err, errIrregular) {
		return existing{owner: irregular, mode: fs.ModeIrregular}, nil
	}
	if err != nil {
		return existing{}, err
	}
	defer f.Close()
	// A head long enough for the header and our source line, whatever
	// the length of the spec's path.
	head := make([]byte, max(headSize, len(model.GeneratedText)+len(l.source)+32))
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return existing{}, err
	}
	head = head[:n]
	name := filepath.Base(path)
	if comment := commentOf(name); comment != "" {
		generated, source := origin(head, comment)
		switch {
		case !generated:
			return existing{owner: foreign}, nil
		case source != l.source || l.source == "":
			return existing{owner: otherSpec, source: source}, nil
		}
	} else {
		return l.inspectOutput(f, size, head, name, data)
	}
	ex := existing{owner: ours}
	if size <= maxOutput {
		rest, err := io.ReadAll(io.LimitReader(f, size-int64(n)+1))
		if err != nil {
			return existing{}, err
		}
		ex.data = append(head, rest...)
	}
	return ex, nil
}

// unchanged reports whether the file of ours where f goes holds f's
// bytes already.
func (l *layout) unchanged(f generator.File) bool {
	ex := l.have[f.Name]
	switch {
	case ex.owner != ours:
		return false
	case commentOf(f.Name) == "// ":
		return ex.data != nil && bytes.Equal(ex.data, f.Data)
	}
	return ex.same
}

// maxOutput bounds what dyngen reads of a file where an output goes, or
// that its list names: far more than any output.
const maxOutput = 64 << 20

// inspectOutput says whose the regular file f is, where an output goes or
// that the list names (head is what inspect read of it, size its size,
// data what generation writes there, nil for none). Such a file may be
// JSON, with no room for a header, so it is ours when:
//   - our list names it with the checksum of its bytes: it is what
//     dyngen wrote there (a file edited since, or one an edited list
//     names, is not);
//   - or generation writes there a format whose first two lines hold
//     the header and our source line (YAML, Markdown, Terraform's JSON
//     with its comment property), and the file starts with the same two
//     lines: it is ours as a Go file is, edited or not;
//   - or it holds exactly what generation writes there: writing it
//     loses nothing (the list was lost, or two branches that each added
//     an output were merged).
//
// The spec itself is never ours, whatever the list says.
func (l *layout) inspectOutput(f *os.File, size int64, head []byte, name string, data []byte) (existing, error) {
	if info, err := f.Stat(); err == nil && l.specFile != nil && os.SameFile(info, l.specFile) {
		return existing{owner: foreign}, nil
	}
	if size > maxOutput {
		return existing{owner: foreign}, nil
	}
	rest, err := io.ReadAll(io.LimitReader(f, size-int64(len(head))+1))
	if err != nil {
		return existing{}, err
	}
	all := append(head, rest...)
	same := data != nil && bytes.Equal(all, data)
	sum := sha256.Sum256(all)
	listed, isListed := l.listed[name]
	switch {
	case isListed && listed == hex.EncodeToString(sum[:]), same:
		return existing{owner: ours, same: same}, nil
	case data != nil && headLines(all, 2) == headLines(data, 2) && strings.Contains(headLines(data, 2), model.GeneratedText) && strings.Contains(headLines(data, 2), "source: "):
		return existing{owner: ours}, nil
	case isListed:
		return existing{owner: foreign, changed: true}, nil
	}
	return existing{owner: foreign}, nil
}

// headLines returns the first n lines of data, each with its line break,
// or "" when data has fewer.
func headLines(data []byte, n int) string {
	end := 0
	for range n {
		i := bytes.IndexByte(data[end:], '\n')
		if i < 0 {
			return ""
		}
		end += i + 1
	}
	return string(data[:end])
}

// isSHA256 reports whether s is a SHA-256 checksum in lower-case hex.
func isSHA256(s string) bool {
	if len(s) != sha256.Size*2 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil && strings.ToLower(s) == s
}

// errIrregular is the error of openRegular for a file that is not a
// regular file.
var errIrregular = errors.New("not a regular file")

// openRegular opens the file at path for reading, and its size, when it
// is a regular file; a link is not followed, and opening a named pipe
// does not wait for a writer (where the system allows both).
func openRegular(path string) (*os.File, int64, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		if isLinkError(err) {
			err = &fs.PathError{Op: "open", Path: path, Err: errIrregular}
		}
		return nil, 0, err
	}
	info, err := f.Stat()
	if err == nil && !info.Mode().IsRegular() {
		err = &fs.PathError{Op: "open", Path: path, Err: errIrregular}
	}
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, info.Size(), nil
}

// readRegular returns the contents of the regular file at path.
func readRegular(path string) ([]byte, error) {
	f, size, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, size))
}

// kindOf names the type of a file that is not a regular file.
func kindOf(mode fs.FileMode) string {
	switch {
	case mode&fs.ModeSymlink != 0:
		return "a symbolic link"
	case mode&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case mode.IsDir():
		return "a directory"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	case mode&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

// specName is how messages name the spec of a source line: the line is
// relative to the output directory, the message to where dyngen runs.
func (l *layout) specName(source string) string {
	path := filepath.FromSlash(source)
	if !filepath.IsAbs(path) {
		path = filepath.Join(l.dir, path)
	}
	return path
}

// conflicts returns an error for each file generation would write over
// that is not ours, one for all those of each other spec, nil when there
// is none.
func (l *layout) conflicts() error {
	var errs []error
	others := map[string][]string{}
	var order []string
	// On a file system that ignores case (macOS, Windows), Note.go is
	// note.go: writing one replaces the other.
	folded := map[string]string{}
	for _, name := range l.entries {
		folded[strings.ToLower(name)] = name
	}
	for _, name := range l.want {
		path := filepath.Join(l.dir, name)
		if _, exact := l.have[name]; !exact {
			if other, ok := folded[strings.ToLower(name)]; ok {
				if l.have[other].owner == ours {
					// A rename that changes only case: writing the new
					// name and removing the old one would remove both
					// where names ignore case.
					errs = append(errs, fmt.Errorf("%s is a file dyngen generated, which it now writes as %s; where file names ignore case they are one file, so dyngen does not rename it: remove %s, then generate", filepath.Join(l.dir, other), path, filepath.Join(l.dir, other)))
					continue
				}
				errs = append(errs, fmt.Errorf("%s exists, and where file names ignore case it is %s, which dyngen writes; rename it or move it away", filepath.Join(l.dir, other), path))
			}
		}
		switch ex := l.have[name]; ex.owner {
		case foreign:
			switch {
			case ex.changed:
				errs = append(errs, fmt.Errorf("%s was changed since dyngen wrote it (its checksum is not the one %s lists), and dyngen does not write over a change: restore it from version control, or remove it", path, filepath.Join(l.dir, model.ManifestFile)))
				continue
			case commentOf(name) == "":
				errs = append(errs, fmt.Errorf("%s exists and %s does not name it as an output of %s; move it away", path, filepath.Join(l.dir, model.ManifestFile), l.spec))
				continue
			}
			errs = append(errs, fmt.Errorf("%s exists and was not generated by dyngen; move it away", path))
		case irregular:
			errs = append(errs, fmt.Errorf("%s exists and is not a regular file (%s); dyngen neither reads nor writes through it: move it away", path, kindOf(ex.mode)))
		case otherSpec:
			if others[ex.source] == nil {
				order = append(order, ex.source)
			}
			others[ex.source] = append(others[ex.source], path)
		}
	}
	for _, source := range order {
		paths := others[source]
		was, has, it := "was", "has", "it"
		if len(paths) > 1 {
			was, has, it = "were", "have", "them"
		}
		if source == "" {
			errs = append(errs, fmt.Errorf("%s %s the generated-code header but no source line naming a spec, so dyngen cannot tell whether %s generated %s; remove %s if it did, or generate %s into another directory",
				list(paths), has, l.spec, it, it, l.spec))
			continue
		}
		other := l.specName(source)
		errs = append(errs, fmt.Errorf("%s %s generated from %s (the source line says so), not from %s: two specs cannot share a file; generate %s into another directory, or remove %s if %s no longer generates %s",
			list(paths), was, other, l.spec, l.spec, it, other, it))
	}
	return errors.Join(errs...)
}

// list joins paths for a message.
func list(paths []string) string {
	if len(paths) == 1 {
		return paths[0]
	}
	return strings.Join(paths[:len(paths)-1], ", ") + " and " + paths[len(paths)-1]
}

// stale lists the files of ours that generation no longer produces.
func (l *layout) stale() []string {
	produced := make(map[string]bool, len(l.want))
	for _, name := range l.want {
		produced[name] = true
	}
	var out []string
	for name, ex := range l.have {
		if ex.owner == ours && !produced[name] {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// surveyFiles is survey for the whole files of a generation, in its
// order.
func surveyFiles(dir, spec string, files []generator.File) (*layout, error) {
	var source string
	if len(files) > 0 {
		_, source = origin(files[0].Data, "// ")
	}
	names := make([]string, len(files))
	var outputs []generator.File
	for i, f := range files {
		names[i] = f.Name
		if commentOf(f.Name) != "// " {
			outputs = append(outputs, f)
		}
	}
	return survey(dir, spec, source, names, outputs)
}

// generate writes the files of g, a spec prepared for generation, into
// dir (see writer), each as soon as it is rendered, and prints the
// diagnostics, then what stood in the way of writing. Before any file
// is rendered, the outputs are, and dir is surveyed: nothing is written
// when a file that is not ours stands where a generated file goes.
func generate(dir, spec string, g *generator.Generation, stderr io.Writer) int {
	outs, ok := g.Outputs()
	var head []byte
	if ok {
		head, ok = g.Head()
	}
	if !ok {
		g.Diags.Print(stderr)
		return exitSpec
	}
	_, source := origin(head, "// ")
	names := g.GoNames()
	for _, f := range outs {
		names = append(names, f.Name)
	}
	l, err := survey(dir, spec, source, names, outs)
	if err == nil {
		err = l.conflicts()
	}
	if err != nil {
		g.Diags.Print(stderr)
		printErr(stderr, err)
		return exitSpec
	}
	w := l.newWriter()
	for _, f := range outs {
		w.add(f)
	}
	ok = g.RenderGo(func(_ int, f generator.File) { w.add(f) })
	err = w.finish(ok)
	g.Diags.Print(stderr)
	switch {
	case !ok:
		return exitSpec
	case err != nil:
		printErr(stderr, err)
		return exitSpec
	}
	return exitOK
}

// writer writes the files of one generation into the directory l
// surveyed as they are handed to it (add), so that writing goes on while
// the other files render. Files whose contents are already right are
// left as they are. The others are written to temporary files in dir
// first; only when every file is written, and generation did not fail,
// are they renamed into place, and only then are the stale files removed
// (finish). When a write fails, or generation does, the temporary files
// are removed, and so are the directories the writer made: dir is as it
// was. (A rename fails only when dir itself does, the temporary files
// standing in it; the files renamed before then keep their new
// contents.)
//
// One file is written at a time, by one of the goroutines that hand
// files over, while the others go back to rendering: creating files in
// one directory takes the directory's lock, so a second writer would
// only wait for it, spinning on a core; and a goroutine of its own
// would wait for a render to yield its core.
type writer struct {
	l *layout
	// mu guards the files handed over and not written yet, whether one
	// goroutine is writing them, the temporary file of each file
	// written, whether dir is known to exist, the directories made for
	// it (deepest first), and the first failure.
	mu      sync.Mutex
	queue   []generator.File
	writing bool
	temps   map[string]string
	hasDir  bool
	made    []string
	err     error
}

// newWriter is the writer of the files l's survey found nothing in the
// way of (see conflicts).
func (l *layout) newWriter() *writer {
	return &writer{l: l, temps: make(map[string]string, len(l.want))}
}

// add hands the writer a file; any goroutine may call it, once for each
// file. Unless the file of ours where it goes holds its bytes already,
// it is written to a temporary file: by this goroutine, with those
// handed over meanwhile, unless another is writing, which then writes it
// too.
func (w *writer) add(f generator.File) {
	if w.l.unchanged(f) {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.queue = append(w.queue, f)
	if w.writing {
		return
	}
	w.writing = true
	for len(w.queue) > 0 {
		f := w.queue[0]
		w.queue[0] = generator.File{} // written, its bytes are not kept
		w.queue = w.queue[1:]
		if w.err != nil {
			continue
		}
		w.mu.Unlock()
		tmp, err := w.write(f)
		w.mu.Lock()
		if err != nil {
			w.err = err
			continue
		}
		w.temps[f.Name] = tmp
	}
	w.writing = false
}

// write writes f to a temporary file, and returns its path, making the
// directory first when it is missing. Only the goroutine writing calls
// it.
func (w *writer) write(f generator.File) (string, error) {
	if !w.hasDir {
		made, err := makeDir(w.l.dir)
		w.made = made
		if err != nil {
			return "", err
		}
		w.hasDir = true
	}
	return writeTemp(w.l.dir, f.Data)
}

// finish is called once every file is handed to the writer. When
// generation succeeded (ok) and every write did, it renames them into
// place, in the generation's order, and removes the stale files; else it
// removes what it wrote.
func (w *writer) finish(ok bool) error {
	if !ok || w.err != nil {
		w.discard()
		return w.err
	}
	for _, name := range w.l.want {
		tmp, ok := w.temps[name]
		if !ok {
			continue
		}
		if err := os.Rename(tmp, filepath.Join(w.l.dir, name)); err != nil {
			w.discard()
			return err
		}
		delete(w.temps, name)
	}
	for _, name := range w.l.stale() {
		if err := os.Remove(filepath.Join(w.l.dir, name)); err != nil {
			return err
		}
	}
	return nil
}

// discard removes the temporary files not renamed yet, then the
// directories the writer made, when they are empty.
func (w *writer) discard() {
	for _, tmp := range w.temps {
		os.Remove(tmp)
	}
	for _, dir := range w.made {
		os.Remove(dir)
	}
}

// makeDir makes dir and its missing parents, and returns those it made,
// deepest first.
func makeDir(dir string) ([]string, error) {
	var made []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil || !errors.Is(err, fs.ErrNotExist) {
			break
		}
		made = append(made, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	return made, os.MkdirAll(dir, 0o755)
}

// writeTemp writes data to a new temporary file in dir, a dot file that
// the go command ignores, and returns its path.
func writeTemp(dir string, data []byte) (string, error) {
	tmp, err := os.CreateTemp(dir, ".dyngen-*")
	if err != nil {
		return "", err
	}
	err = writeData(tmp, data)
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return tmp.Name(), nil
}

// writeData writes a generated file's bytes; tests replace it to fail.
var writeData = func(f *os.File, data []byte) error {
	_, err := f.Write(data)
	return err
}

// forEach calls f(0) to f(n-1) on a few goroutines (file system calls
// block, so more than the cores) and returns the errors joined, in index
// order.
func forEach(n int, f func(i int) error) error {
	errs := make([]error, n)
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for i := range n {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			errs[i] = f(i)
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// printErr prints each error of err on its own line.
func printErr(w io.Writer, err error) {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			printErr(w, e)
		}
		return
	}
	fmt.Fprintf(w, "dyngen: %v\n", err)
}

// checkCmd compares dir with the generated files of spec: exit 1 with a
// unified diff of each difference, 0 when they are the same. When
// generation would refuse to write, -check says why, and shows no diff.
func checkCmd(dir, spec string, files []generator.File, stdout, stderr io.Writer) int {
	l, err := surveyFiles(dir, spec, files)
	if err == nil {
		err = l.conflicts()
	}
	if err != nil {
		printErr(stderr, err)
		return exitSpec
	}
	stale := false
	diff := func(name string, data []byte) error {
		stale = true
		path := filepath.Join(dir, name)
		var old []byte
		if l.have[name].owner == ours {
			if old, err = readRegular(path); err != nil {
				return err
			}
		}
		fmt.Fprint(stdout, unifiedDiff(filepath.ToSlash(path), string(old), string(data)))
		return nil
	}
	for _, f := range files {
		if !l.unchanged(f) {
			if err := diff(f.Name, f.Data); err != nil {
				printErr(stderr, err)
				return exitSpec
			}
		}
	}
	for _, name := range l.stale() {
		if err := diff(name, nil); err != nil {
			printErr(stderr, err)
			return exitSpec
		}
	}
	if stale {
		fmt.Fprintf(stderr, "dyngen: %s is not what dyngen generates; run dyngen without -check\n", dir)
		return exitSpec
	}
	return exitOK
}
