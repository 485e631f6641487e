package models

import (
	"strconv"
	"strings"
)

// The words in which every door says why a model could not be had from the
// Hugging Face Hub, kept here once: the API fetches with them (api/hub.go,
// HubStatusMessage), and the JavaScript module, which fetches in the
// browser, reads them from the engine's contract (contract().hub_messages:
// wasm/js/bridge.HubMessages) instead of repeating them. "{status}" stands
// for the HTTP status of the Hub's answer.
const (
	// HubUnreachable: the request failed (offline, refused, timed out)
	// and no config.json of the model is kept.
	HubUnreachable = "the Hugging Face Hub could not be reached (offline?) and no config.json is kept for it"
	// HubNotAConfig: the answer is not a JSON object of at most 1 MiB.
	HubNotAConfig = "its config.json on the Hugging Face Hub is not a JSON object of at most 1 MiB"
	// HubTokenRefused: HTTP 401 or 403 to a request with a token.
	HubTokenRefused = "the Hugging Face Hub refused the token (HTTP {status}): the model is gated or private, and the token has no access to it"
	// HubNeedsToken: HTTP 401 or 403 to a request without a token.
	HubNeedsToken = "the model is gated or private on the Hugging Face Hub (HTTP {status}): it needs a token"
	// HubNotFound: HTTP 404.
	HubNotFound = "no such model on the Hugging Face Hub (HTTP {status})"
	// HubStatus: any other status but 200.
	HubStatus = "the Hugging Face Hub answered HTTP {status} for its config.json"
)

// HubStatusMessage says why the Hub's answer to a config.json request,
// with or without a token, is not a config: one of the Hub* words with the
// status filled in, or "" for 200.
func HubStatusMessage(status int, withToken bool) string {
	var words string
	switch {
	case status == 200:
		return ""
	case (status == 401 || status == 403) && withToken:
		words = HubTokenRefused
	case status == 401 || status == 403:
		words = HubNeedsToken
	case status == 404:
		words = HubNotFound
	default:
		words = HubStatus
	}
	return strings.ReplaceAll(words, "{status}", strconv.Itoa(status))
}
