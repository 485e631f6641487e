package models_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/modelrefs/throughput/models"
)

// HubStatusMessage: the words for each kind of answer, the status filled
// in; 200 is no reason. The JavaScript module chooses among the same
// words (contract().hub_messages) by the same rule: www/test/hub.test.mjs
// checks it against this table's statuses.
func TestHubStatusMessage(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		status    int
		withToken bool
		want      string
	}{
		{200, false, ""},
		{200, true, ""},
		{401, false, "the model is gated or private on the Hugging Face Hub (HTTP 401): it needs a token"},
		{403, false, "the model is gated or private on the Hugging Face Hub (HTTP 403): it needs a token"},
		{401, true, "the Hugging Face Hub refused the token (HTTP 401): the model is gated or private, and the token has no access to it"},
		{403, true, "the Hugging Face Hub refused the token (HTTP 403): the model is gated or private, and the token has no access to it"},
		{404, false, "no such model on the Hugging Face Hub (HTTP 404)"},
		{404, true, "no such model on the Hugging Face Hub (HTTP 404)"},
		{429, true, "the Hugging Face Hub answered HTTP 429 for its config.json"},
		{500, false, "the Hugging Face Hub answered HTTP 500 for its config.json"},
		{503, true, "the Hugging Face Hub answered HTTP 503 for its config.json"},
	} {
		assert.Equal(t, c.want, models.HubStatusMessage(c.status, c.withToken), "HTTP %d, token %v", c.status, c.withToken)
	}
}
