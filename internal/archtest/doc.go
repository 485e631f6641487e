// Package archtest holds no code: its test reads docs/architecture.md, the
// one-page map of the repository's Go packages, and checks it against the
// code: every package is on the map, each row's imports are the package's
// own, and every import runs one way (leaves, then the engine's spec,
// then the engine room, then calc, then the doors; tools on top).
package archtest
