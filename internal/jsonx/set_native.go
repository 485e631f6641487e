//go:build !js

package jsonx

func init() { EnableReflectSet() }
