// Command dyngen compiles a spec of DynamoDB tables, entities, key
// templates and named access patterns into a typed Go package, refusing
// any pattern that would need a Scan.
//
// Usage:
//
//	dyngen spec.yaml -o DIR          generate the package into DIR
//	dyngen -check spec.yaml -o DIR   exit 1 when DIR is not what dyngen would write
//	dyngen -strict ...               fail at each pattern that reads what a pending backfill fills
//	dyngen -receipt FILE ...         record the backfill FILE proves verified done
//	dyngen plan spec.yaml            show how each pattern is served, and every problem
//	dyngen plan -json spec.yaml      the same as a JSON document, for tools and CI
//	dyngen -version                  the module's version and build information
//
// Flags may stand before or after the spec path. Exit status: 0 when the
// spec is sound (warnings allowed), 1 on errors in the spec, 2 on wrong
// usage.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/dyngen/dyngen/generator"
	dynrt "github.com/dyngen/dyngen/generator/runtime"
	"github.com/dyngen/dyngen/internal/report"
)

// Exit codes.
const (
	exitOK    = 0
	exitSpec  = 1
	exitUsage = 2
)

const usage = `usage:
  dyngen [-check] [-strict] [-receipt FILE]... spec.yaml -o DIR
                                     generate the package into DIR (-check: only compare;
                                     -strict: fail at each pattern that reads what a pending
                                     backfill fills; -receipt: record the backfill its
                                     verify wrote it of done)
  dyngen plan [-json] spec.yaml      show how each access pattern is served
  dyngen compat [-json|-github] [-against REF] spec.yaml -o DIR
                                     classify the spec's changes since the lock in DIR
                                     (or in DIR at git revision REF); exit 1 on a
                                     breaking change the spec does not accept
  dyngen -version                    print the version and build information

flags:
`

// gcPercent is the garbage collector's target for the command: dyngen
// runs once and exits, and a larger heap between collections makes big
// specs faster (the environment's GOGC still wins when set).
const gcPercent = 300

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// options are the parsed command line.
type options struct {
	plan    bool
	compat  bool
	github  bool
	against string
	json    bool
	check   bool
	version bool
	out     string
	spec    string
	// strict and receipts are the backfills' options of a generation.
	strict   bool
	receipts []string
}

// errUsage marks a command line that can't be run.
var errUsage = errors.New("usage")

// parseArgs reads flags wherever they stand among the arguments: the flag
// package stops at the first non-flag argument, so parsing resumes after
// each one.
func parseArgs(args []string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("dyngen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.BoolVar(&o.check, "check", false, "compare DIR with what generation would write; exit 1 with a diff when they differ")
	fs.StringVar(&o.out, "o", "", "output directory of the generated package")
	fs.BoolVar(&o.json, "json", false, "with plan or compat: print JSON")
	fs.BoolVar(&o.github, "github", false, "with compat: print the findings as GitHub Actions annotations")
	fs.StringVar(&o.against, "against", "", "with compat: read the lock of DIR at this git revision (a branch, a tag, a commit)")
	fs.BoolVar(&o.version, "version", false, "print the version and build information, and exit")
	fs.BoolVar(&o.strict, "strict", false, "fail at each pattern that reads what a pending backfill fills")
	fs.Func("receipt", "a backfill's receipt (its -verify -receipt FILE): record it done in the lock; may repeat", func(v string) error {
		o.receipts = append(o.receipts, v)
		return nil
	})
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, errUsage
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
	if len(pos) > 0 && pos[0] == "plan" {
		o.plan = true
		pos = pos[1:]
	} else if len(pos) > 0 && pos[0] == "compat" {
		o.compat = true
		pos = pos[1:]
	}
	switch {
	case o.version && (o.plan || o.compat || o.check || o.json || o.out != "" || len(pos) > 0):
		fmt.Fprintln(stderr, "dyngen: -version takes no other argument")
	case o.version:
		return o, nil
	case o.json && !o.plan && !o.compat:
		fmt.Fprintln(stderr, "dyngen: -json goes with plan or compat")
	case (o.github || o.against != "") && !o.compat:
		fmt.Fprintln(stderr, "dyngen: -github and -against go with compat")
	case o.github && o.json:
		fmt.Fprintln(stderr, "dyngen: compat prints -json or -github, not both")
	case (o.strict || len(o.receipts) > 0) && (o.plan || o.compat):
		fmt.Fprintln(stderr, "dyngen: -strict and -receipt go with generation")
	case len(o.receipts) > 0 && o.check:
		fmt.Fprintln(stderr, "dyngen: -receipt changes the lock; -check only compares")
	case o.compat && o.check:
		fmt.Fprintln(stderr, "dyngen: compat compares the spec with the lock; -check is for generation")
	case len(pos) == 0:
		fmt.Fprintln(stderr, "dyngen: no spec file given")
	case len(pos) > 1:
		fmt.Fprintf(stderr, "dyngen: one spec file at a time; got %q\n", pos)
	case o.plan && (o.check || o.out != ""):
		fmt.Fprintln(stderr, "dyngen: plan takes only the spec file")
	case !o.plan && o.out == "":
		fmt.Fprintln(stderr, "dyngen: no output directory; add -o DIR")
	default:
		o.spec = pos[0]
		return o, nil
	}
	fs.Usage()
	return nil, errUsage
}

func run(args []string, stdout, stderr io.Writer) int {
	o, err := parseArgs(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		return exitUsage
	}
	if o.version {
		fmt.Fprint(stdout, versionText())
		return exitOK
	}
	data, err := os.ReadFile(o.spec)
	if err != nil {
		fmt.Fprintf(stderr, "dyngen: %v\n", err)
		return exitSpec
	}
	if o.plan {
		return planCmd(o, data, stdout, stderr)
	}
	if o.compat {
		return compatCmd(o, data, stdout, stderr)
	}
	source, err := sourceName(o.spec, o.out)
	if err != nil {
		fmt.Fprintf(stderr, "dyngen: %v\n", err)
		return exitSpec
	}
	gopts, err := generationOptions(o)
	if err != nil {
		fmt.Fprintf(stderr, "dyngen: %v\n", err)
		return exitSpec
	}
	if o.check {
		files, diags := generator.GenerateWith(o.spec, source, data, committedOutputs(o.out), gopts)
		diags.Print(stderr)
		if diags.HasErrors() {
			return exitSpec
		}
		return checkCmd(o.out, o.spec, files, stdout, stderr)
	}
	if _, err := readLock(o.out); err != nil {
		// The committed lock carries its backfills: never written over
		// unread.
		fmt.Fprintf(stderr, "dyngen: %v; restore it from version control, or remove it to start a new one\n", err)
		return exitSpec
	}
	g := generator.PrepareWith(o.spec, source, data, committedOutputs(o.out), gopts)
	if g.Diags.HasErrors() {
		g.Diags.Print(stderr)
		return exitSpec
	}
	return generate(o.out, o.spec, g, stderr)
}

// maxReceipt bounds what dyngen reads of a receipt: far more than one.
const maxReceipt = 1 << 16

// generationOptions are the generator's options of the command line:
// -strict, and the receipts -receipt names, read strictly.
func generationOptions(o *options) (generator.Options, error) {
	opts := generator.Options{Strict: o.strict}
	for _, path := range o.receipts {
		data, err := readSmall(path, maxReceipt)
		if err != nil {
			return opts, err
		}
		var r dynrt.Receipt
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&r); err != nil || r.Format != dynrt.ReceiptFormat || r.Backfill == "" {
			return opts, fmt.Errorf("%s is not a backfill's receipt of format %d", path, dynrt.ReceiptFormat)
		}
		opts.Receipts = append(opts.Receipts, r)
	}
	return opts, nil
}

// readSmall reads the regular file at path, of at most limit bytes.
func readSmall(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(data)) > limit {
		err = fmt.Errorf("%s is larger than %d bytes", path, limit)
	}
	return data, err
}

// planCmd prints the plan, then every warning and error; with -json,
// the plan and the diagnostics as one JSON document, and the
// diagnostics on stderr too. Both print one report.Report.
func planCmd(o *options, data []byte, stdout, stderr io.Writer) int {
	res := generator.Check(o.spec, data)
	rep := report.New(o.spec, res.Plan, res.Diags)
	if o.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(rep); err != nil {
			fmt.Fprintf(stderr, "dyngen: %v\n", err)
			return exitSpec
		}
	} else if res.Plan != nil {
		if err := rep.WriteText(stdout); err != nil {
			fmt.Fprintf(stderr, "dyngen: %v\n", err)
			return exitSpec
		}
		if res.Diags.Len() > 0 {
			fmt.Fprintln(stdout)
		}
	}
	res.Diags.Print(stderr)
	if res.Diags.HasErrors() {
		return exitSpec
	}
	return exitOK
}
