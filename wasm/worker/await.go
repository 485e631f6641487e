//go:build js && wasm

package main

import (
	"errors"
	"syscall/js"
)

// await waits for a JavaScript promise and returns its value, or an error
// holding the rejection's text. Both handlers are released whichever runs
// (a js.Func is never released by the runtime, and one Go instance serves
// many requests: entry.mjs). The request body's reader (body.go) and the
// Hub's fetch (hubfetch.go) wait with it.
func await(promise js.Value) (js.Value, error) {
	type result struct {
		v   js.Value
		err error
	}
	ch := make(chan result, 1)
	onValue := js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- result{v: args[0]}
		return nil
	})
	onError := js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- result{err: errors.New(args[0].Call("toString").String())}
		return nil
	})
	promise.Call("then", onValue, onError)
	r := <-ch
	onValue.Release()
	onError.Release()
	return r.v, r.err
}
