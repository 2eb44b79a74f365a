package runtime

// The versions of the runtime's API for generated code. Generated code
// holds the version it was written for, V, and checks at compile time
// that MinVersion <= V <= MaxVersion (see EnforceVersion).
//
// Version 2: the reads take their Args by pointer (GetItem, QueryFirst,
// QueryPage, QueryEach), and QueryPage and Walk take the item type alone,
// a query's result being a dyngen.Result (PageOf is gone). Code of
// version 1 calls them otherwise: it is not served.
//
// Version 3 adds what code of version 2 does not call: counts
// (CountDelta), claims per element of a set (SetAdded), writes over many
// keys (Many, EachError, KeyFailure, ErrTooManyKeys, MaxTransactItems,
// TransactionError.Key) and nested objects (ObjectsValue, ValidateObjects,
// InObject, DecodeObject, DecodeObjectPtr, DecodeObjects), and updates
// that move a copy (Held, HoldRead, DropAbsent). This runtime serves
// code of version 2 too.
//
// Version 4 adds the backfills of the migration output (Backfill,
// BackfillJob, BackfillClient, Checkpoint, Checkpoints, BackfillMain,
// Pick, FirstVersion), which code of versions 2 and 3 does not call.
//
// Version 5 adds the backfills of attributes computed by the user's
// functions (Backfill.Compute and Needs, Present, Missing, With,
// DropNull) and of
// the claims of a set made unique (Backfill.Claims), which code of
// versions 2 to 4 does not call.
//
// Version 6 adds the queries of indexes with multi-attribute keys
// (Query.Equal and Query.Attr, KeyValue), which code of versions 2 to 5
// does not set.
//
// Version 7 adds the stream side (StreamRecord, StreamOp, StreamEvent,
// KinesisEvent, EventRecord, RecordFromStreams, RecordsFromStreams,
// RecordFromKinesis, HandleRecords, HandleEvent, BatchResponse,
// RecordError, RecordsError, ErrInvalidRecord, Change, OwnChange,
// UnknownChange, ItemKind, KeyShape, KindOf, OtherChange, NeedImages,
// DecodeImages),
// which code of versions 2 to 6 does not call.
const (
	// GenVersion is the version the generator of this module writes
	// code for. It grows when generated code starts to use something
	// of the runtime that an older runtime lacks.
	GenVersion = 7

	// MinVersion is the oldest version of generated code this runtime
	// serves. It grows when the runtime drops or changes something that
	// code of an older version uses.
	MinVersion = 2

	// MaxVersion is the newest version of generated code this runtime
	// serves: that of the generator of the same module.
	MaxVersion = GenVersion
)

// EnforceVersion makes the compiler check the versions: every generated
// package declares, with V the version it was written for,
//
//	const (
//		_ = dyngen.EnforceVersion(V - dyngen.MinVersion)
//		_ = dyngen.EnforceVersion(dyngen.MaxVersion - V)
//	)
//
// A negative constant can't be converted to an unsigned type, so the
// package fails to compile, at that line, when the runtime is too new
// for it (regenerate the package with the dyngen of the module version
// go.mod requires) or too old (require the module version of the dyngen
// that generated it: go get github.com/dyngen/dyngen@<version>).
type EnforceVersion uint

// The runtime serves the code of its own generator.
const (
	_ = EnforceVersion(GenVersion - MinVersion)
	_ = EnforceVersion(MaxVersion - GenVersion)
)
