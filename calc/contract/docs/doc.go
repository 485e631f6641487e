// Package docs holds the Go doc comments of the contract's types and
// fields, generated from the sources, and hands them to package contract
// when imported. Only the doors that publish docs (the HTTP API's OpenAPI
// document) and the generators import it: the browser engine leaves the
// text out of its WebAssembly size budget.
package docs

//go:generate go run ../../../tools/gen/fielddocs -root ../../.. -o docs_gen.go
