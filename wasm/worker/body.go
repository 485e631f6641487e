//go:build js && wasm && !stockbaseline

package main

import (
	"errors"
	"io"
	"syscall/js"
)

// jsBody reads a request body: bytes worker/entry.mjs already read (a
// Uint8Array in place of the stream), or else its JavaScript
// ReadableStream.
//
// It stands in for syumai/workers' reader, which leaks two js.Func per
// request body (it passes a catch handler to each read's promise and
// releases it only when the read fails): harmless when every request gets
// a fresh Go instance, a steady leak in a shared one. A body entry.mjs
// read is copied at once, without the two promise round trips a stream
// costs (each one parks the handler's goroutine, returns to JavaScript's
// event loop and resumes Go).
type jsBody struct {
	stream js.Value // a ReadableStream, or a Uint8Array holding the whole body
	reader js.Value // the stream's reader, once reading started
	buf    []byte
	err    error
}

// newJSBody reads a Uint8Array body at once; a stream is read on demand.
func newJSBody(v js.Value) *jsBody {
	b := &jsBody{stream: v}
	if v.InstanceOf(uint8Array) {
		b.buf = make([]byte, v.Get("byteLength").Int())
		js.CopyBytesToGo(b.buf, v)
		b.err = io.EOF
	}
	return b
}

// rawBodyGetter is how the adapter's request body exposes its stream.
type rawBodyGetter interface {
	GetRawJSBody() js.Value
}

func (b *jsBody) Read(p []byte) (int, error) {
	for len(b.buf) == 0 {
		if b.err != nil {
			return 0, b.err
		}
		if b.reader.IsUndefined() {
			b.reader = b.stream.Call("getReader")
		}
		res, err := await(b.reader.Call("read"))
		switch {
		case err != nil:
			b.err = errors.New("reading the request body: " + err.Error())
		case res.Get("done").Bool():
			b.err = io.EOF
		default:
			chunk := res.Get("value")
			b.buf = make([]byte, chunk.Get("byteLength").Int())
			js.CopyBytesToGo(b.buf, chunk)
		}
	}
	n := copy(p, b.buf)
	b.buf = b.buf[n:]
	return n, nil
}

// Close releases the reader's lock; an unread rest of the body is dropped
// with the JavaScript request.
func (b *jsBody) Close() error {
	if !b.reader.IsUndefined() {
		b.reader.Call("releaseLock")
	}
	return nil
}
