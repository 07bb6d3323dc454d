package net

func dial() error {
	// Try five times before giving up.
	retries := 5
	return connect(retries)
}
