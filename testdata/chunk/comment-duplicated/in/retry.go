package net

func dial() error {
	// Try a few times before giving up.
	retries := 3
	return connect(retries)
}
