package api

import (
	"context"
	"net/netip"
	"time"
)

// Hooks for the Hub's tests (package api_test).

// SetClock makes h remember failures by now's time.
func (h *Hub) SetClock(now func() time.Time) { h.now = now }

// SetTimeout sets h's limit on a lookup (HubTimeout by default).
func (h *Hub) SetTimeout(d time.Duration) { h.timeout = d }

// Waiting is how many requests joined a lookup already in flight.
func (h *Hub) Waiting() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.waiting
}

// SetLookupHost replaces the native client's resolver until restore.
func SetLookupHost(f func(ctx context.Context, network, host string) ([]netip.Addr, error)) (restore func()) {
	old := lookupHost
	lookupHost = f
	return func() { lookupHost = old }
}
