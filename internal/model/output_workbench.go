package model

// IsBidiControl reports whether r changes the order text is shown in
// (the characters of Trojan Source, CVE-2021-42574): an output that
// writes spec text escapes it where its format can.
func IsBidiControl(r rune) bool { return isBidiControl(r) }
