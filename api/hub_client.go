//go:build !(js && wasm)

package api

import (
	"context"
	"io"
	"net/http"
)

// defaultHubGet GETs url with net/http's default client (natively).
func defaultHubGet(ctx context.Context, url, token string, limit int64) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, nil, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, limit))
	return res.StatusCode, body, err
}
