//go:build !(js && wasm)

package api

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"
)

// lookupHost resolves a host name for the Hub client's dialer (a test
// replaces it to make a Hub host name resolve to a private address).
var lookupHost = net.DefaultResolver.LookupNetIP

// nativeHubGet returns a Hub's Get natively: net/http's client with its
// own transport, which
//   - connects to hubURL's host as configured (the operator's, loopback
//     included), and to any other host only when every address it resolves
//     to is public (publicAddr), dialing the address it checked, so a name
//     that resolves once to a public address and then to a private one
//     (DNS rebinding) gains nothing;
//   - uses no proxy (the environment's would hide the addresses);
//   - follows at most MaxHubRedirects redirects, each where
//     HubRedirectAllowed allows it, and answers a refused one as is;
//   - asks for gzip and reads the decoded body through a limit, so that
//     neither a long body nor one that expands is read past limit+1 bytes.
func nativeHubGet(hubURL string) func(ctx context.Context, url, token string, limit int64) (int, []byte, error) {
	first, err := url.Parse(hubURL)
	if err != nil {
		return nil
	}
	hubAddr := hostPort(first)
	dialer := &net.Dialer{Timeout: HubTimeout}
	transport := &http.Transport{
		Proxy: nil,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			if addr == hubAddr {
				return dialer.DialContext(ctx, network, addr)
			}
			host, port, err := net.SplitHostPort(addr)
			if err != nil {
				return nil, err
			}
			ips, err := lookupHost(ctx, "ip", host)
			if err != nil {
				return nil, err
			}
			for _, ip := range ips {
				if !publicAddr(ip) {
					return nil, errors.New("the Hub host " + host + " resolves to a non-public address")
				}
			}
			if len(ips) == 0 {
				return nil, errors.New("no address for " + host)
			}
			return dialer.DialContext(ctx, network, net.JoinHostPort(ips[0].Unmap().String(), port))
		},
		TLSHandshakeTimeout:   HubTimeout,
		ResponseHeaderTimeout: HubTimeout,
		MaxIdleConns:          4,
		IdleConnTimeout:       90 * time.Second,
		ForceAttemptHTTP2:     true,
	}
	client := &http.Client{
		Transport: transport,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > MaxHubRedirects || HubRedirectAllowed(via[0].URL, req.URL) != nil {
				return http.ErrUseLastResponse
			}
			return nil
		},
	}
	return func(ctx context.Context, u, token string, limit int64) (int, []byte, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return 0, nil, err
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := client.Do(req)
		if err != nil {
			return 0, nil, err
		}
		defer res.Body.Close()
		if res.StatusCode != http.StatusOK {
			return res.StatusCode, nil, nil // the status says it all
		}
		if !res.Uncompressed && res.ContentLength > limit {
			return res.StatusCode, nil, ErrHubTooLarge
		}
		return readLimited(res.StatusCode, res.Body, limit)
	}
}

// readLimited reads r to its end, or answers ErrHubTooLarge as soon as it
// has given more than limit bytes.
func readLimited(status int, r io.Reader, limit int64) (int, []byte, error) {
	body, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return 0, nil, err
	}
	if int64(len(body)) > limit {
		return status, nil, ErrHubTooLarge
	}
	return status, body, nil
}

// hostPort is u's host:port, the scheme's port when it names none.
func hostPort(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	return net.JoinHostPort(u.Hostname(), port)
}
