// Package keylang models the strings a key template can produce and decides
// exactly whether two entities' keys on one index can ever be equal.
//
// # Templates and their languages
//
// A key template is literal text with typed placeholders, such as
// "BOOK#{isbn}", "{date}#USER#{username}" or "ROOT". A template's separator
// characters are the characters of its literal text that are neither
// letters nor digits (unicode.IsLetter, unicode.IsDigit). At run time each
// placeholder's value is written with a fixed rule, so each placeholder has
// a language, a set of strings (compared code point by code point, which is
// the byte order of their UTF-8):
//
//   - String: non-empty, valid UTF-8, holding no separator character of the
//     template. A template without separators takes any non-empty string.
//     A String marked Empty (Segment.Empty) takes the empty string too.
//   - Path: one or more elements joined by the path separator (one of the
//     template's separators), each element a String value.
//   - Enum: exactly one of the listed values.
//   - Int: an int64 in an order-preserving fixed-width form (EncodeInt):
//     n >= 0 as 19 zero-padded digits, n < 0 as "-" and the 19 digits of
//     n - math.MinInt64. The language is exactly these 2^64 strings.
//   - Time: UTC "YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ" (EncodeTime), years
//     0000-9999, months 01-12, days 01-31, hours 00-23, minutes and seconds
//     00-59, always nine fraction digits.
//   - Date: "YYYY-MM-DD" with the same field ranges (EncodeDate).
//   - Bool: "true" or "false".
//
// Time and Date languages check each field's range but not the calendar:
// "2021-02-30" is in the language although no time.Time encodes to it. A
// verdict of Disjoint is therefore always right for real values; a
// Collision whose witness needs such a date is one no real value reaches.
// This can only happen when literal text pins a date field to such a day.
//
// A template's language is the concatenation of its literals and its
// placeholders' languages. A placeholder used by both templates of one key
// is one value, which must meet both templates' rules. Every language here
// is regular; Lang is a small toolkit of automata over code point ranges
// (Literal, Concat, Union, Intersect, Any, Interval, Prefix, TemplateLang,
// IsEmpty, Shortest) for the planner's questions about begins_with and
// BETWEEN ranges, and MinEnc/MaxEnc give the extreme encodings of the
// fixed-width kinds.
//
// # Deciding collisions
//
// Keys A and B collide when some values make pkA = pkB and skA = skB. Write
// this as one word equation over the placeholders as variables, each
// ranging over its (regular) language:
//
//	pkA ⊥ skA = pkB ⊥ skB
//
// where ⊥ is a divider no value contains. Comparing the components one by
// one is not enough when a key uses a placeholder in both its templates:
// the two occurrences must take the same value. A placeholder occurs at
// most once per template, so every variable occurs at most twice in the
// equation: it is a quadratic word equation with regular constraints, and
// these are decided by Nielsen transformation. Collide searches a graph
// whose nodes are such equations:
//
//   - equal characters or equal variables at the front (or back) of both
//     sides are cancelled; different characters there mean no solution;
//   - a variable X facing a character c is either c, or c followed by a new
//     non-empty variable X';
//   - a variable X facing a variable Y is either Y, or Y followed by a new
//     non-empty X', or X followed by a new non-empty Y';
//
// each choice substituted for every occurrence. Regular constraints ride
// along: every language is a deterministic automaton (over the classes of
// code points that no automaton or literal tells apart), and a variable's
// constraint is a set of conditions "the value leads state p to a state in
// set F". Splitting X = Y X' guesses the states X's automata are in after
// Y's value (only tuples a value of Y really reaches are tried), which
// becomes a condition on Y and the start of X's rest.
//
// Why this is exact: each step keeps exactly the solutions (every solution
// of a node is a solution of one of its successors, with a shorter common
// string, and every successor's solution gives one of the node), so a
// solution exists if and only if the empty equation can be reached. Each
// step never makes the equation longer (a variable occurs at most twice),
// and there are finitely many constraints, so the graph is finite and the
// search, which remembers visited nodes, ends. On success the substitutions
// along the path, with a shortest word for each variable that dropped out,
// give the values; Collide renders both keys from them and checks they are
// equal before it answers Collision.
//
// Collide answers Undecided only when a key names one placeholder with two
// different kinds, when one key has a sort key and the other does not,
// when more than eight Enum placeholders list the empty string, when the
// search exceeds its work budget (DefaultBudget, about 0.2 s of work), or
// when it found no collision but had to cut a branch deeper than 10,000
// steps (every step of a solution consumes a character of the common key,
// and DynamoDB keys are at most 2048 bytes, so no collision of real keys
// needs more). For
// keys that pass Key.Validate the search graph is finite and small: in
// 100,000 random valid key pairs (up to six segments per template, every
// kind) none came near the budget, the slowest took about 10 ms. The budget
// guards inputs that break those rules (a name used twice in one template
// makes the equation non-quadratic, and the graph may then be infinite).
//
// Values are examples, not the only ones: the search prefers short values
// made of lower-case letters, then digits, so a witness reads like "a" or
// "0000000000000000000" (the Int 0).
package keylang
