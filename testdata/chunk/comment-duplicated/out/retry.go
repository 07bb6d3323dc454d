package net

func dial() error {
	// Try a few times before giving up.
	retries := 5
	return connect(retries)
}
